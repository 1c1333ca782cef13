"""Action spaces: what each one does, and the goods that pile up on them.

An action space's action is a *group* of parts joined by one connective, as printed:

- ``all``       every part, in order (a part that cannot be done is passed over);
- ``and_or``    any non-empty selection of the parts, in any order;
- ``then_or``   ("and then / or") any non-empty selection, in the printed order;
- ``either``    exactly one part ("either … or"); the Guest room turns it into ``and_or``;
- ``then``      the first part is required, the later ones may follow it (the printed
                "and then" of Urgent wish for children and the ore-mine twin's 3 ore).

A part is one of the basic actions (take the goods lying there, gain goods, lay a twin
tile, furnish, family growth, forge, an expedition …) or a nested group. The table
below is our own transcription of every printed space and round card.

Accumulation "X(Y)": X goods when the whole space is empty, else Y. On 2 players Ruby
mining gets no ruby in rounds 1 and 2.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import lru_cache

from engine.caverna.board import Pos
from engine.caverna.components import components
from engine.caverna.family import can_grow
from engine.caverna.feeding import can_pay, discount, less
from engine.caverna.imitation import imitable_spaces
from engine.caverna.landscape import can_place
from engine.caverna.memo import Memo
from engine.caverna.pastures import pasture_spots, stable_spots
from engine.caverna.state import (
    ActionSpace,
    CavernaState,
    FenceArgs,
    FenceStep,
    FurnishArgs,
    FurnishStep,
    GroupStep,
    HomeBoardStep,
    Player,
    RubyMineArgs,
    RubyMineStep,
    SingleTileStep,
    SowStep,
    StableArgs,
    StableStep,
    TwinArgs,
    TwinTileStep,
)
from engine.caverna.tile_effects import GUEST_ROOM_USED, has, ore_variants, overbuild_spot
from engine.caverna.variants import in_play
from engine.caverna.weapons import can_forge

ALL, AND_OR, THEN_OR, EITHER, THEN = "all", "and_or", "then_or", "either", "then"

# The parts that can always be carried out: a group opened by one of them always can.
_ALWAYS_DOABLE = frozenset({"gain", "first_player", "market"})
# The parts answered from the player's supply and the table alone (no home board, no
# other space): asked first.
_DOABLE_BY_SUPPLY = frozenset({"take", "gain", "first_player", "market", "gain_if_mines",
                               "gain_per_mine", "family_growth", "forge", "expedition",
                               "trade"})


@dataclass(frozen=True, slots=True)
class Part:
    """One part of an action. ``do`` names the basic action; ``goods`` what it gives;
    ``kinds`` the tile kinds it lays (or a furnishing scope); ``level`` an expedition's
    level, a ruby-mine count, an imitation's food cost; ``group`` a nested group."""

    do: str
    goods: tuple[tuple[str, int], ...] = ()
    kinds: tuple[str, ...] = ()
    level: int = 0
    group: Group | None = None


@dataclass(frozen=True, slots=True)
class Group:
    """Parts joined by a connective. ``openers``: the plain parts (no nested group) one of
    which must be doable for the group to be (:func:`group_doable`), cheapest to ask
    first; ``free``: one of them can always be carried out (the group always can);
    ``takes``: taking the space's goods is one of them."""

    connective: str
    parts: tuple[Part, ...] = field(default_factory=tuple)
    openers: tuple[Part, ...] = field(init=False, repr=False, compare=False)
    free: bool = field(init=False, repr=False, compare=False)
    takes: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        openers = tuple(sorted(_openers(self), key=_cost_rank))
        object.__setattr__(self, "openers", openers)
        object.__setattr__(self, "free", any(p.do in _ALWAYS_DOABLE for p in openers))
        object.__setattr__(self, "takes", any(p.do == "take" for p in openers))


def _openers(group: Group) -> Iterator[Part]:
    """The parts that may come first (only the first of "then"; the Guest room turns only
    "either" into "and/or", which leaves every part able to come first), nested groups
    opened up into theirs."""
    for part in group.parts[:1] if group.connective == THEN else group.parts:
        if part.group is not None:
            yield from part.group.openers
        else:
            yield part


def _cost_rank(part: Part) -> int:
    """Parts answered from the player's supply before an imitation, and those before the
    home-board parts: ``group_doable`` stops at the first doable one."""
    if part.do in _DOABLE_BY_SUPPLY:
        return 0
    return 1 if part.do == "imitate" else 2


def g(connective: str, *parts: Part) -> Group:
    return Group(connective, parts)


def sub(connective: str, *parts: Part) -> Part:
    """A nested group used as one part."""
    return Part("group", group=Group(connective, parts))


def gain(**goods: int) -> Part:
    return Part("gain", tuple(goods.items()))


TAKE = Part("take")
FIRST = Part("first_player")
GROW = Part("family_growth")
SOW = Part("sow")
FORGE = Part("forge")
MARKET = Part("market")
TRADE = Part("trade")
FENCES = Part("fences")  # one small and/or one large pasture (2 / 4 wood)
STABLE = Part("stable")  # one stable (1 stone)
ANIMAL_BUILD = sub(AND_OR, FENCES, STABLE)


def twin(*kinds: str) -> Part:
    return Part("twin", kinds=kinds)


def expedition(level: int) -> Part:
    return Part("expedition", level=level)


def furnish(scope: str) -> Part:
    return Part("furnish", kinds=(scope,))


def ruby_mine(onto: str) -> Part:
    return Part("ruby_mine", kinds=(onto,))


def if_ruby_mines(count: int, **goods: int) -> Part:
    """Goods given only with at least ``count`` ruby mines."""
    return Part("gain_if_mines", tuple(goods.items()), level=count)


def per_ore_mine(**goods: int) -> Part:
    return Part("gain_per_mine", tuple(goods.items()))


def imitate(cost: int) -> Part:
    return Part("imitate", level=cost)


MEADOW_FIELD = "meadow_field"
CAVERN_TUNNEL = "cavern_tunnel"
CAVERN_CAVERN = "cavern_cavern"
ORE_MINE = "ore_mine_deep_tunnel"
SUPPLIES = gain(wood=1, stone=1, ore=1, food=1, gold=2)

EFFECTS: dict[str, Group] = {
    # always present
    "ruby_mining": g(ALL, TAKE, if_ruby_mines(1, ruby=1)),
    "housework": g(AND_OR, gain(dog=1), furnish("any")),
    "slash_and_burn": g(THEN_OR, twin(MEADOW_FIELD), SOW),
    # the 1–3 player side
    "drift_mining_1_3": g(AND_OR, TAKE, twin(CAVERN_TUNNEL)),
    "excavation_1_3": g(AND_OR, TAKE, twin(CAVERN_TUNNEL, CAVERN_CAVERN)),
    "starting_player_1_3": g(ALL, FIRST, TAKE, gain(ore=2)),
    "logging_1_3": g(THEN_OR, TAKE, expedition(1)),
    "supplies": g(ALL, SUPPLIES),
    "ore_mining_1_3": g(ALL, TAKE, per_ore_mine(ore=2)),
    "wood_gathering": g(ALL, TAKE),
    "clearing_1_3": g(AND_OR, TAKE, twin(MEADOW_FIELD)),
    "sustenance_1_3": g(AND_OR, sub(ALL, TAKE, gain(grain=1)), twin(MEADOW_FIELD)),
    # the 4–7 player side
    "drift_mining_4_7": g(AND_OR, TAKE, twin(CAVERN_TUNNEL)),
    "excavation_4_7": g(AND_OR, TAKE, twin(CAVERN_TUNNEL, CAVERN_CAVERN)),
    "starting_player_4_7": g(ALL, FIRST, TAKE, gain(ruby=1)),
    "imitation_4_7": g(ALL, imitate(2)),
    "logging_4_7": g(THEN_OR, TAKE, expedition(1)),
    "growth": g(EITHER, SUPPLIES, GROW),
    "ore_mining_4_7": g(ALL, TAKE, per_ore_mine(ore=2)),
    "forest_exploration_4_7": g(ALL, TAKE, gain(food=2)),
    "clearing_4_7": g(AND_OR, TAKE, twin(MEADOW_FIELD)),
    "sustenance_4_7": g(AND_OR, TAKE, twin(MEADOW_FIELD)),
    # additional boards
    "strip_mining": g(ALL, TAKE, gain(wood=2)),
    "imitation_3": g(ALL, imitate(4)),
    "forest_exploration_3": g(ALL, TAKE, gain(vegetable=1)),
    "small_scale_drift_mining": g(AND_OR, gain(stone=1), twin(CAVERN_TUNNEL)),
    "imitation_5": g(ALL, imitate(4)),
    "fence_building_5": g(THEN_OR, TAKE, FENCES),
    "depot_5": g(ALL, TAKE),
    "weekly_market_5": g(THEN_OR, gain(gold=4), MARKET),
    "hardware_rental_5": g(THEN_OR, expedition(2), SOW),
    "drift_mining_6_7": g(AND_OR, TAKE, twin(CAVERN_TUNNEL)),
    "imitation_6_7": g(ALL, imitate(1)),
    "fence_building_6_7": g(THEN_OR, TAKE, FENCES),
    "depot_6_7": g(ALL, TAKE),
    "weekly_market_6_7": g(THEN_OR, gain(gold=4), MARKET),
    "hardware_rental_6_7": g(THEN_OR, gain(wood=2), expedition(2), SOW),
    "large_depot": g(ALL, TAKE),
    "imitation_7": g(ALL, imitate(0)),
    "extension": g(
        EITHER,
        sub(ALL, twin(MEADOW_FIELD), gain(wood=1)),
        sub(ALL, twin(CAVERN_TUNNEL), gain(stone=1)),
    ),
    # round cards
    "sheep_farming": g(THEN_OR, ANIMAL_BUILD, TAKE),
    "blacksmithing": g(THEN_OR, FORGE, expedition(3)),
    "ore_mine_construction": g(THEN_OR, sub(THEN, twin(ORE_MINE), gain(ore=3)), expedition(2)),
    "wish_for_children": g(EITHER, GROW, furnish("dwelling")),
    "urgent_wish_for_children": g(EITHER, sub(THEN, furnish("dwelling"), GROW), gain(gold=3)),
    "donkey_farming": g(THEN_OR, ANIMAL_BUILD, TAKE),
    "ruby_mine_construction": g(
        EITHER, ruby_mine("tunnel"), sub(THEN, ruby_mine("deep_tunnel"), gain(ruby=1))
    ),
    "family_life": g(AND_OR, GROW, SOW),
    "exploration": g(ALL, expedition(4)),
    "ore_delivery": g(ALL, TAKE, per_ore_mine(ore=2)),
    "adventure": g(THEN_OR, FORGE, expedition(1), expedition(1)),
    "ore_trading": g(ALL, TRADE),
    "ruby_delivery": g(ALL, TAKE, if_ruby_mines(2, ruby=1)),
}

# Parts that only hand out goods: they never need a decision.
PLAIN = frozenset({"take", "gain", "gain_if_mines", "gain_per_mine", "first_player"})


def effect(space_id: str) -> Group:
    """The top group of ``space_id``'s action."""
    return EFFECTS[space_id]


def group_at(space_id: str, path: list[int]) -> Group:
    """The (nested) group reached from the space's top group along ``path``."""
    group = EFFECTS[space_id]
    for index in path:
        nested = group.parts[index].group
        assert nested is not None
        group = nested
    return group


def is_imitation(space_id: str) -> bool:
    """Is ``space_id`` an Imitation space?"""
    parts = EFFECTS[space_id].parts
    return len(parts) == 1 and parts[0].do == "imitate"


def gives_first_player(space_id: str) -> bool:
    """Is ``space_id`` the first-player space?"""
    return any(p.do == "first" for p in EFFECTS[space_id].parts)


# --- accumulation --------------------------------------------------------------------


def replenish(state: CavernaState) -> None:
    """Add each accumulating space's goods for the round."""
    comp = components()
    for space in state.spaces:
        printed = comp.space(space.id)
        if not printed.accumulating or not printed.refills_in(state.round, state.n):
            continue
        for good, amount in printed.refill(not any(space.goods.values())).items():
            space.goods[good] = space.goods.get(good, 0) + amount


# --- what a dwarf can do here --------------------------------------------------------


def connective(state: CavernaState, seat: int, group: Group) -> str:
    """The group's connective for ``seat``: the Guest room makes "either … or" "and/or"."""
    if group.connective == EITHER and has_effect(state, seat, "either_or_is_and_or"):
        return AND_OR
    return group.connective


def has_effect(state: CavernaState, seat: int, key: str) -> bool:
    """Does one of ``seat``'s furnishings have an effect with ``key``?"""
    return has(state.players[seat], key)


def part_doable(
    state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part, imitated: bool
) -> bool:
    """Can ``seat``'s ``dwarf`` carry out ``part`` of ``space_id``'s action now?"""
    doable = _DOABLE.get(part.do, _board_part_doable)
    return doable(state, seat, dwarf, space_id, part, imitated)


# Whether a part can be carried out, by what it does; every other part is a home-board
# action (``home_board_doable``). All take (state, seat, dwarf, space, part, imitated).
Doable = Callable[[CavernaState, int, int, str, Part, bool], bool]


def _take_doable(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
                 imitated: bool) -> bool:
    return not imitated and any(state.space(space_id).goods.values())


def _always(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
            imitated: bool) -> bool:
    return True


def _group_part_doable(state: CavernaState, seat: int, dwarf: int, space_id: str,
                       part: Part, imitated: bool) -> bool:
    assert part.group is not None
    return group_doable(state, seat, dwarf, space_id, part.group, imitated)


def _imitate_doable(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
                    imitated: bool) -> bool:
    """Is there one of :func:`each_imitation_target`? A target whose action always gives
    something settles it (most do), so those are looked for before any other is asked."""
    targets = imitable_spaces(state, seat)
    if not targets or not can_pay(state.players[seat], {"food": part.level}):
        return False
    return any(EFFECTS[s.id].free for s in targets) or any(
        doable_on(state, seat, dwarf, s, True) for s in targets)


def _board_part_doable(state: CavernaState, seat: int, dwarf: int, space_id: str,
                       part: Part, imitated: bool) -> bool:
    return home_board_doable(state, seat, part)


def _ruby_mines_doable(state: CavernaState, seat: int, dwarf: int, space_id: str,
                       part: Part, imitated: bool) -> bool:
    return state.players[seat].board.count("ruby_mine") >= part.level


def _ore_mines_doable(state: CavernaState, seat: int, dwarf: int, space_id: str,
                      part: Part, imitated: bool) -> bool:
    return state.players[seat].board.count("ore_mine") > 0


def _growth_doable(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
                   imitated: bool) -> bool:
    return can_grow(state.players[seat])


def _forge_doable(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
                  imitated: bool) -> bool:
    return can_forge(state.players[seat], dwarf)


def _expedition_doable(state: CavernaState, seat: int, dwarf: int, space_id: str,
                       part: Part, imitated: bool) -> bool:
    return state.players[seat].dwarfs[dwarf].weapon > 0


def _trade_doable(state: CavernaState, seat: int, dwarf: int, space_id: str, part: Part,
                  imitated: bool) -> bool:
    return state.players[seat].goods["ore"] >= TRADE_ORE


_DOABLE: dict[str, Doable] = {
    **dict.fromkeys(_ALWAYS_DOABLE, _always),
    "take": _take_doable,
    "gain_if_mines": _ruby_mines_doable,
    "gain_per_mine": _ore_mines_doable,
    "group": _group_part_doable,
    "family_growth": _growth_doable,
    "forge": _forge_doable,
    "expedition": _expedition_doable,
    "trade": _trade_doable,
    "imitate": _imitate_doable,
}


def group_doable(
    state: CavernaState, seat: int, dwarf: int, space_id: str, group: Group, imitated: bool
) -> bool:
    """Can at least one part of ``group`` that may come first be carried out?"""
    if group.free:
        return True
    for part in group.openers:
        if _DOABLE.get(part.do, _board_part_doable)(state, seat, dwarf, space_id, part,
                                                     imitated):
            return True
    return False


def space_doable(
    state: CavernaState, seat: int, dwarf: int, space_id: str, imitated: bool = False
) -> bool:
    """Would ``dwarf`` on ``space_id`` carry out at least one of its actions? (A dwarf
    may not be placed on a space whose action it cannot carry out at all.)"""
    return group_doable(state, seat, dwarf, space_id, effect(space_id), imitated)


def doable_on(state: CavernaState, seat: int, dwarf: int, space: ActionSpace,
              imitated: bool = False) -> bool:
    """:func:`space_doable` for the action space in hand: the goods lying there are read
    off it (a plain gain or goods to take answer most spaces without asking more)."""
    group = EFFECTS[space.id]
    if group.free or (group.takes and not imitated and any(space.goods.values())):
        return True
    return group_doable(state, seat, dwarf, space.id, group, imitated)


def eligible(state: CavernaState, step: GroupStep) -> list[int]:
    """Parts of the step's group that may be chosen next (and can be carried out)."""
    return list(each_eligible(state, step))


def each_eligible(state: CavernaState, step: GroupStep) -> Iterator[int]:
    """:func:`eligible` one at a time, for a caller that may need only the first."""
    group = group_at(step.space, step.path)
    conn = connective(state, step.seat, group)
    last = max(step.done) if step.done else -1
    if conn == ALL:
        candidates = [last + 1] if last + 1 < len(group.parts) else []
    elif conn == AND_OR:
        candidates = [i for i in range(len(group.parts)) if i not in step.done]
        if step.done and group.connective == EITHER and (
            GUEST_ROOM_USED + step.space in state.players[step.seat].spent
        ):
            candidates = []  # the Guest room's once-per-game "and" here is used up
    elif conn == EITHER:
        candidates = [] if step.done else list(range(len(group.parts)))
    elif conn == THEN and not step.done:
        candidates = [0]
    else:  # then_or, and the later parts of then
        candidates = list(range(last + 1, len(group.parts)))
    return (
        i for i in candidates
        if part_doable(state, step.seat, step.dwarf, step.space, group.parts[i], step.imitated)
    )


def imitation_targets(state: CavernaState, seat: int, dwarf: int, cost: int) -> list[str]:
    """Spaces ``seat`` may imitate for ``cost`` food with ``dwarf`` (none if the food
    cannot be paid)."""
    with board_questions():
        return list(each_imitation_target(state, seat, dwarf, cost))


def each_imitation_target(state: CavernaState, seat: int, dwarf: int, cost: int
                          ) -> Iterator[str]:
    """:func:`imitation_targets` one at a time, for a caller asking only whether there
    is one (inside ``board_questions()`` when it reads them all)."""
    if not can_pay(state.players[seat], {"food": cost}):
        return
    for space in imitable_spaces(state, seat):
        if doable_on(state, seat, dwarf, space, True):
            yield space.id


TRADE_ORE = 2


# --- home-board actions -------------------------------------------------------------
# Laying tiles, furnishing, sowing, fences and stables: each opens a home-board step
# (``state.HomeBoardStep``) saying what is to be done; the rules of where things go are
# the home board's (``landscape``, ``pastures``).


def board_step(seat: int, do: str, kinds: tuple[str, ...]) -> HomeBoardStep:
    """The home-board decision of an action part."""
    table = components().tables.home_board
    if do == "twin":
        return TwinTileStep(seat=seat, args=TwinArgs(kinds=list(kinds)))
    if do == "ruby_mine":
        return RubyMineStep(seat=seat, args=RubyMineArgs(onto=kinds[0]))
    if do == "furnish":
        return FurnishStep(seat=seat, args=FurnishArgs(scope=kinds[0]))
    if do == "fences":
        cost = table.fence_cost
        return FenceStep(seat=seat, args=FenceArgs(small=cost["small_pasture"],
                                                   large=cost["large_pasture"]))
    if do == "stable":
        return StableStep(seat=seat, args=StableArgs(stone=table.stable_cost["stone"]))
    assert do == "sow", do
    return SowStep(seat=seat)


# While the state is only being read (listing the open spaces, the imitation targets),
# the same home-board question comes up for many spaces (a twin tile, furnishing):
# inside ``board_questions()`` each is answered once.
_BOARD_MEMO: ContextVar[dict[tuple[int, str, tuple[str, ...]], bool] | None] = ContextVar(
    "caverna_board_memo", default=None
)


def board_questions() -> AbstractContextManager[None]:
    """A scope in which the state does not change: home-board answers are memoised."""
    return _BoardQuestions()


class _BoardQuestions:
    """The scope of :func:`board_questions` (a class: entered for every listing of the
    open spaces, where a generator-based context manager costs several times more).
    Inside another such scope it opens none of its own."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = _BOARD_MEMO.set({}) if _BOARD_MEMO.get() is None else None

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _BOARD_MEMO.reset(self._token)


def home_board_doable(state: CavernaState, seat: int, part: Part) -> bool:
    """Can ``part`` (a home-board action) be carried out by ``seat`` now?"""
    question = (seat, part.do, tuple(part.kinds))
    memo = _BOARD_MEMO.get()
    if memo is None:
        return board_step_possible(state, _asked_step(question))
    answer = memo.get(question)
    if answer is None:
        answer = memo[question] = board_step_possible(state, _asked_step(question))
    return answer


# The home-board step a question asks about, by (seat, what the part does, its tiles):
# it depends on nothing else, and ``board_step_possible`` only reads it, so each is
# built (and validated) once.
_ASKED: Memo[tuple[int, str, tuple[str, ...]], HomeBoardStep] = Memo()


def _asked_step(question: tuple[int, str, tuple[str, ...]]) -> HomeBoardStep:
    return _ASKED.get(question, lambda: board_step(*question))


def board_step_possible(state: CavernaState, step: HomeBoardStep) -> bool:
    """Has the home-board step at least one legal choice?"""
    player = state.players[step.seat]
    board = player.board
    if isinstance(step, TwinTileStep):
        return any(can_place(board, k) for k in step.args.kinds)
    if isinstance(step, SingleTileStep):
        return can_place(board, step.args.tile)
    if isinstance(step, RubyMineStep):
        return can_place(board, "ruby_mine", step.args.onto)
    if isinstance(step, SowStep):
        return can_sow(player)
    if isinstance(step, FurnishStep):
        return can_furnish(state, step.seat, step.args.scope)
    if isinstance(step, FenceStep):
        return bool(fence_choices(player, step))
    return bool(stable_spots(board)) and can_pay(player, stable_cost(player, step))


def can_sow(player: Player) -> bool:
    """An empty field and a grain or vegetable to sow (a ruby buys one)."""
    if not empty_fields(player):
        return False
    g = player.goods
    return g["grain"] + g["vegetable"] + g["ruby"] > 0


def empty_fields(player: Player) -> list[Pos]:
    return [p for p in player.board.fields() if player.board.at(p).crop is None]


def ruby_mine_spots(player: Player, onto: str) -> list[Pos]:
    """Unfurnished tunnels of kind ``onto`` a ruby mine may be built on."""
    board = player.board
    return [p for p in board.where(onto) if board.at(p).furnishing is None]


def tile_taken(state: CavernaState, tile_id: str) -> bool:
    """Is the furnishing tile ``tile_id`` gone from the supply?"""
    if components().furnishings[tile_id].count is None:
        return False
    return tile_id in taken_tiles(state)


def taken_tiles(state: CavernaState) -> set[str]:
    """Furnishing tiles out of the supply: on a board, or covered by another."""
    return {t for p in state.players for t in (*p.board.furnished(), *p.covered)}


LOOT_DWELLING = "dwelling_loot"  # the loot's ordinary Dwelling at its own price


def furnish_cost(player: Player, tile_id: str, scope: str = "any") -> dict[str, int]:
    """What ``player`` pays for ``tile_id`` (the furnishing discounts taken off)."""
    if scope == LOOT_DWELLING:
        base = next(i.cost for i in components().tables.loot if i.does == "dwelling")
    else:
        base = components().furnishings[tile_id].cost
    return less(base, discount(player, "furnish"))


def furnish_bills(player: Player, tile_id: str, scope: str = "any") -> list[dict[str, int]]:
    """The bills ``player`` can pay for ``tile_id``: its cost, and with the Builder the
    same with 1 ore for 1 wood and/or 1 ore for 1 stone (the player picks; none if the
    tile cannot be paid for at all)."""
    return _payable(player, furnish_cost(player, tile_id, scope), has(player, "pay_with_ore"))


def _payable(player: Player, cost: dict[str, int], builder: bool) -> list[dict[str, int]]:
    bills = ore_variants(player, cost) if builder else [cost]
    return [bill for bill in bills if can_pay(player, bill)]


def furnish_spots(state: CavernaState, seat: int) -> list[Pos]:
    """Where ``seat`` could lay a furnishing tile (caverns; tunnels with the Work room)."""
    board = state.players[seat].board
    return board.empty_caverns(tunnels_too=has_effect(state, seat, "furnish_tunnels"))


def furnish_spot_free(state: CavernaState, seat: int) -> bool:
    """Is there one of :func:`furnish_spots`?"""
    board = state.players[seat].board
    return board.has_empty_cavern(tunnels_too=has_effect(state, seat, "furnish_tunnels"))


def tile_spots(state: CavernaState, seat: int, tile_id: str) -> list[Pos]:
    """Where ``seat`` could lay ``tile_id``: on the tile it must overbuild (the Trader
    and the Spare part storage), else where any furnishing goes."""
    spot = overbuild_spot(state.players[seat], tile_id)
    return [spot] if spot is not None else furnish_spots(state, seat)


def furnish_choices(state: CavernaState, seat: int, scope: str) -> list[str]:
    """Tiles ``seat`` could furnish now: in the supply, of the scope (``any``,
    ``dwelling``, or the loot's plain Dwelling), affordable, with a free cavern (or,
    for the Trader and the Spare part storage, the other one to lay it on)."""
    return list(_each_furnish_choice(state, seat, scope))


def can_furnish(state: CavernaState, seat: int, scope: str) -> bool:
    """Could ``seat`` furnish any tile of ``scope`` now (answered at the first one)?"""
    return any(_each_furnish_choice(state, seat, scope))


def _each_furnish_choice(state: CavernaState, seat: int, scope: str) -> Iterator[str]:
    player = state.players[seat]
    free = furnish_spot_free(state, seat)
    taken = taken_tiles(state)
    saved = discount(player, "furnish")
    builder = has(player, "pay_with_ore")
    # Many tiles cost the same: whether a cost can be paid is asked once per cost.
    payable: dict[tuple[tuple[str, int], ...], bool] = {}
    for tile_id, limited, price in _scope_tiles(scope, tuple(state.options.items())):
        if limited and tile_id in taken:
            continue
        if not free and overbuild_spot(player, tile_id) is None:
            continue  # no free cavern, and this tile does not go on top of another
        # Without a discount the price is the cost (prices are never negative).
        asked = tuple(less(dict(price), saved).items()) if saved else price
        can = payable.get(asked)
        if can is None:
            can = payable[asked] = bool(_payable(player, dict(asked), builder))
        if can:
            yield tile_id


@lru_cache(maxsize=64)
def _scope_tiles(scope: str, options: tuple[tuple[str, str], ...]
                 ) -> tuple[tuple[str, bool, tuple[tuple[str, int], ...]], ...]:
    """The furnishing tiles of ``scope`` (``any``, ``dwelling``, the loot's plain
    Dwelling) in play with the game's ``options`` (a variant's smaller supply), in
    supply order, whether still in the supply or not: each with whether its copies are
    limited (``count``: a tile out of the supply cannot be had) and its price before
    discounts (the loot's price for its Dwelling)."""
    chosen = dict(options)
    loot_price = next(i.cost for i in components().tables.loot if i.does == "dwelling")
    return tuple(
        (tile_id, tile.count is not None,
         tuple((loot_price if scope == LOOT_DWELLING else tile.cost).items()))
        for tile_id, tile in components().furnishings.items()
        if not (scope == LOOT_DWELLING and tile_id != "dwelling")
        and not (scope == "dwelling" and not tile.is_dwelling)
        and in_play(chosen, tile_id))


def fence_cost(player: Player, step: FenceStep, size: str) -> dict[str, int]:
    """Wood for a pasture of ``size`` in this fencing step (the Carpenter's wood once
    per action)."""
    wood = fence_wood(step, size) or 0
    if not step.args.discounted:
        wood = max(0, wood - discount(player, "fences").get("wood", 0))
    return {"wood": wood}


def fence_wood(step: FenceStep, size: str) -> int | None:
    """The wood a pasture of ``size`` costs in this step; None if it may not be built."""
    return step.args.small if size == "small" else step.args.large


def fence_sizes(step: FenceStep) -> list[str]:
    """The pasture sizes this fencing step allows and has not built yet."""
    built = step.args.built or []
    return [size for size in ("small", "large")
            if fence_wood(step, size) is not None and size not in built]


def fence_choices(player: Player, step: FenceStep) -> list[tuple[str, tuple[Pos, ...]]]:
    """Pastures the fencing step could still build: (size, positions)."""
    out: list[tuple[str, tuple[Pos, ...]]] = []
    for size in fence_sizes(step):
        if not can_pay(player, fence_cost(player, step, size)):
            continue
        out += [(size, spot) for spot in pasture_spots(player.board, size)]
    return out


def stable_cost(player: Player, step: StableStep) -> dict[str, int]:
    """The stone a stable costs in this step, less the player's discount."""
    return less({"stone": step.args.stone}, discount(player, "stable"))
