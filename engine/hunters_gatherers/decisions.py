"""The three steps of a turn as prompts, and carrying out a chosen option.

A turn is: choose a spot for the tile in hand (every legal spot is offered: the bot
pages long lists itself), choose a rotation (skipped when every rotation that fits lays
the same map), then put one figure on the new tile or none (skipped, as if "none" were
chosen, when the tile offers no figure at all). Nothing is committed before the last
step, so ``back`` can undo the earlier choices; the last step lays the tile, places the
figure and scores what was completed.

Keys: ``at:x,y``, ``rot:k``, ``fig:<kind>:<index>``, ``none``, ``back``. In the spot
step the name of a square (``CL91`` in the game's naming scheme, see ``coords``) is
accepted as well as its ``at:`` key, so a player can type the square they read on the
picture's edges; the offered keys stay ``at:x,y``, which every stored log already uses.
Every label, event and refusal that gives a square's ``x``, ``y`` also gives ``at``, its
name in the game's scheme, so that words name it as the picture does. Spot labels carry ``n``, the
spot's 1-based position in the list; figure labels carry ``n``, the option's 1-based
position in its prompt, which the picture writes on the piece that option means.

The spot prompt's label lists every spot with what lies across each of its sides
(``touch``: F, M, R or ``.`` for N, E, S, W) and the rotations that fit there; the
rotation prompt's label carries the rotations offered and the spot's ``touch``: enough
for the bot to describe every choice in words, without the picture.

The game's ``BoardCache`` is passed in for the questions about the map.
"""

from __future__ import annotations

from functools import lru_cache, partial
from typing import Any

from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.machine import Machine
from engine.core.prompts import BACK, Event, Label, Option
from engine.core.steps import Step, StepRules, Turn
from engine.hunters_gatherers.board import FEATURE_OF, MEMBER_KINDS, occupied, pieces
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.coords import naming
from engine.hunters_gatherers.features import Node
from engine.hunters_gatherers.flow import next_tile
from engine.hunters_gatherers.geometry import Pos, facing_edges
from engine.hunters_gatherers.map_facts import MapFacts
from engine.hunters_gatherers.scoring import score_completed
from engine.hunters_gatherers.state import (
    FeatureKind,
    Figure,
    FigureKind,
    HuntersGatherersState,
    PlacedTile,
)
from engine.hunters_gatherers.tiles import Tile, layout, oriented, segment_side, tile

NONE = Option("none", Label("hg.opt.none"))

Choice = tuple[FigureKind, FeatureKind, int]


def piece_sides(placed: Tile, feature: str, index: int) -> list[str]:
    """The sides of the placed tile a piece reaches, so two hunters' buttons on one tile
    can say which meadow each means ("↑→" against "↓")."""
    if feature == "forest":
        segments: tuple[str, ...] = placed.forests[index].segments
    elif feature == "meadow":
        # Meadows on the two banks of a river share sides but not halves of sides:
        # name the halves (N1 is the west half of the north side, and so on clockwise).
        order = ["N", "N1", "N2", "E", "E1", "E2", "S", "S1", "S2", "W", "W1", "W2"]
        return sorted(set(placed.meadows[index].segments), key=order.index)
    elif feature == "river":
        segments = placed.rivers[index].sides
    else:
        return []
    return sorted({segment_side(s) for s in segments}, key="NESW".index)


def spot_key(pos: Pos) -> str:
    """The option key for a position."""
    return f"at:{pos[0]},{pos[1]}"


def _parse_int(text: str) -> int | None:
    if text.startswith("-"):
        value = parse_number(text[1:])
        return -value if value else None  # "-0" is not canonical
    return parse_number(text)


def parse_spot(key: str) -> Pos | None:
    """The position named by ``at:x,y`` (canonical integers only), or None."""
    if not key.startswith("at:"):
        return None
    parts = key[3:].split(",")
    if len(parts) != 2:
        return None
    x, y = _parse_int(parts[0]), _parse_int(parts[1])
    return None if x is None or y is None else (x, y)


def rotations_at(state: HuntersGatherersState, cache: BoardCache, pos: Pos) -> list[int]:
    """Legal rotations of the tile in hand at ``pos`` (empty if it does not fit there;
    shared: do not modify)."""
    return cache.spot_rotations(state).get(pos, [])


def figure_choices(
    state: HuntersGatherersState, facts: MapFacts, pos: Pos, placed: Tile, seat: int
) -> list[Choice]:
    """Where ``seat`` may put a figure on the tile just laid at ``pos`` (``facts``: the
    map with that tile).

    Pieces of the tile that belong to one connected feature give the same outcome,
    so only the first of them is offered (any of them is accepted).
    """
    player = state.players[seat]
    out: list[Choice] = []
    features = facts.features
    claimed = facts.claims(state.figures)
    if player.members:
        for kind in MEMBER_KINDS:
            feature = FEATURE_OF[kind]
            seen: set[Node] = set()
            for i in range(pieces(placed, feature)):
                root = features.find((pos, feature, i))
                if root in seen:
                    continue
                seen.add(root)
                if (kind, root) not in claimed:
                    out.append((kind, feature, i))
    if player.huts:
        # A hut is offered once per river system on the tile, on its first river piece:
        # every lake is fed by a river of the same tile, so this reaches every system.
        systems: set[Node] = set()
        for i in range(len(placed.rivers)):
            root = features.system_root((pos, "river", i))
            if root in systems:
                continue
            systems.add(root)
            if ("hut", root) not in claimed:
                out.append(("hut", "river", i))
    return out


def fig_key(choice: Choice) -> str:
    """The option key of a figure choice."""
    kind, _, index = choice
    return f"fig:{kind}:{index}"


@lru_cache(maxsize=1 << 14)
def _spot_option(x: int, y: int, n: int, scheme: int) -> Option:
    """The option of the ``n``-th spot, at ``(x, y)``, named in naming ``scheme``: a
    pure memo (the same spots come up turn after turn and game after game), so the
    option is shared: never change its label's arguments."""
    return Option(spot_key((x, y)), Label("hg.opt.at", {
        "x": x, "y": y, "n": n, "at": naming(scheme).square_name((x, y))}))


def _spot_options(cache: BoardCache, state: HuntersGatherersState, turn: Turn) -> list[Option]:
    scheme = state.naming
    return [_spot_option(pos[0], pos[1], n, scheme)
            for n, (pos, _) in enumerate(cache.spots(state), start=1)]


def _spot_label(cache: BoardCache, state: HuntersGatherersState, turn: Turn) -> Label:
    # What lies around each spot and the turns that fit there, for the words (the notes
    # are the map's, shared by every game with that map and naming scheme).
    return Label("hg.prompt.spot", {"tile": state.current, "bonus": state.current_bonus,
                                    "spots": list(cache.spot_notes(state))})


def _rotation_options(
    cache: BoardCache, state: HuntersGatherersState, turn: Turn
) -> list[Option]:
    assert state.spot is not None
    rots = distinct_rotations(state, cache, state.spot)
    return [*(Option(f"rot:{k}", Label("hg.opt.rot", {"k": k})) for k in rots), BACK]


def distinct_rotations(state: HuntersGatherersState, cache: BoardCache, pos: Pos) -> list[int]:
    """The legal rotations at ``pos`` that lay different maps: of a symmetric tile's
    rotations that lay the same one, only the first is offered (any of them is still
    accepted, and means the same)."""
    assert state.current is not None
    return list(_distinct_layouts(state.current, tuple(rotations_at(state, cache, pos))))


@lru_cache(maxsize=1024)
def _distinct_layouts(tile_id: str, rotations: tuple[int, ...]) -> tuple[int, ...]:
    """The first of each group of ``rotations`` of a tile that lay the same map (a pure
    memo: a tile has few sets of legal rotations)."""
    in_hand = tile(tile_id)
    seen: set[tuple[object, ...]] = set()
    out = []
    for k in rotations:
        lay = layout(oriented(in_hand, k))
        if lay not in seen:
            seen.add(lay)
            out.append(k)
    return tuple(out)


def _rotation_label(cache: BoardCache, state: HuntersGatherersState, turn: Turn) -> Label:
    assert state.spot is not None
    x, y = state.spot
    return Label("hg.prompt.rotation", {
        "tile": state.current, "x": x, "y": y, "at": state.names.square_name(state.spot),
        "rotations": distinct_rotations(state, cache, state.spot),
        "touch": facing_edges(cache.board(state), state.spot)})


def _figure_options(
    cache: BoardCache, state: HuntersGatherersState, turn: Turn
) -> list[Option]:
    assert state.spot is not None and state.rotation is not None and state.current is not None
    facts = cache.facts_with(state, (*state.spot, state.current, state.rotation))
    placed = oriented(tile(state.current), state.rotation)
    options = [
        Option(fig_key(c), Label("hg.opt.fig", {"kind": c[0], "feature": c[1], "index": c[2],
                                                "sides": piece_sides(placed, c[1], c[2]),
                                                "n": n}))
        for n, c in enumerate(figure_choices(state, facts, state.spot, placed, turn.seat),
                              start=1)
    ]
    return [*options, NONE, BACK]


def _figure_label(cache: BoardCache, state: HuntersGatherersState, turn: Turn) -> Label:
    assert state.spot is not None
    x, y = state.spot
    return Label("hg.prompt.figure", {"tile": state.current, "x": x, "y": y,
                                      "at": state.names.square_name(state.spot),
                                      "rotation": state.rotation})


def _choose_spot(
    cache: BoardCache, state: HuntersGatherersState, turn: Turn, key: str, events: list[Event]
) -> None:
    pos = parse_spot(key)
    if pos is None:
        pos = state.names.parse_square(key)  # a typed square name: ``/move CL91``
    if pos is None:
        raise IllegalMove("unknown_option", key=key)
    if pos not in cache.needs(state):  # on the map, or away from it
        raise IllegalMove("no_such_spot", x=pos[0], y=pos[1], at=state.names.square_name(pos))
    if not rotations_at(state, cache, pos):
        raise IllegalMove("does_not_fit", x=pos[0], y=pos[1], at=state.names.square_name(pos))
    state.spot = pos
    # Turns that lay the same map are one choice: with one left, nothing is asked.
    rots = distinct_rotations(state, cache, pos)
    if len(rots) == 1:
        _to_figure(state, cache, turn.seat, rots[0], events)
    else:
        state.step = "rotation"


def _choose_rotation(
    cache: BoardCache, state: HuntersGatherersState, turn: Turn, key: str, events: list[Event]
) -> None:
    assert state.spot is not None
    if key == "back":
        state.spot = None
        state.step = "spot"
        return
    k = parse_number(key[4:]) if key.startswith("rot:") else None
    if k is None or k > 3:
        raise IllegalMove("unknown_option", key=key)
    if k not in rotations_at(state, cache, state.spot):
        raise IllegalMove("does_not_fit", x=state.spot[0], y=state.spot[1],
                          at=state.names.square_name(state.spot), rotation=k)
    _to_figure(state, cache, turn.seat, k, events)


def _to_figure(
    state: HuntersGatherersState, cache: BoardCache, seat: int, rotation: int,
    events: list[Event],
) -> None:
    """Go on to the figure step with the tile turned ``rotation``; when no figure can go
    on the tile there, nothing is left to ask: lay it at once, as if "none" were chosen."""
    assert state.spot is not None and state.current is not None
    state.rotation = rotation
    state.step = "figure"
    facts = cache.facts_with(state, (*state.spot, state.current, rotation))
    placed = oriented(tile(state.current), rotation)
    if not figure_choices(state, facts, state.spot, placed, seat):
        _commit(state, cache, seat, NONE.key, events)


def _parse_figure(
    state: HuntersGatherersState, facts: MapFacts, placed: Tile, seat: int, key: str
) -> Choice | None:
    """The figure a ``fig:`` or ``none`` key asks for, checked against the rules."""
    if key == "none":
        return None
    parts = key.split(":")
    if len(parts) != 3 or parts[0] != "fig" or parts[1] not in FEATURE_OF:
        raise IllegalMove("unknown_option", key=key)
    kind: FigureKind = parts[1]  # checked against FEATURE_OF just above
    index = parse_number(parts[2])
    if index is None:
        raise IllegalMove("unknown_option", key=key)
    feature = FEATURE_OF[kind]
    if index >= pieces(placed, feature):
        raise IllegalMove("wrong_feature", kind=kind, feature=feature, index=index)
    player = state.players[seat]
    if (player.huts if kind == "hut" else player.members) == 0:
        raise IllegalMove("no_figures_left", kind=kind)
    assert state.spot is not None
    if occupied(facts.features, facts.claims(state.figures), kind, (state.spot, feature, index)):
        raise IllegalMove("feature_occupied", kind=kind, feature=feature, index=index)
    return kind, feature, index


def _commit(
    state: HuntersGatherersState, cache: BoardCache, seat: int, key: str, events: list[Event]
) -> None:
    """Lay the tile, place the figure, score what it completed and move on."""
    assert state.spot is not None and state.rotation is not None and state.current is not None
    pos, rotation, tile_id = state.spot, state.rotation, state.current
    facts = cache.facts_with(state, (*pos, tile_id, rotation))
    features, completed = facts.features, facts.completed
    placed = oriented(tile(tile_id), rotation)
    choice = _parse_figure(state, facts, placed, seat, key)  # may refuse: nothing changed yet
    x, y = pos
    state.tiles = cache.grown(state, PlacedTile(x=x, y=y, tile=tile_id, rotation=rotation))
    events.append(Event("tile_placed", seat, {"tile": tile_id, "x": x, "y": y,
                                              "at": state.names.square_name(pos),
                                              "rotation": rotation,
                                              "bonus": state.current_bonus}))
    if choice is not None:
        kind, feature, index = choice
        state.figures.append(
            Figure(x=x, y=y, kind=kind, feature=feature, index=index, seat=seat)
        )
        if kind == "hut":
            state.players[seat].huts -= 1
        else:
            state.players[seat].members -= 1
        events.append(Event("figure_placed", seat, {"kind": kind, "feature": feature,
                                                    "index": index, "x": x, "y": y,
                                                    "at": state.names.square_name(pos)}))
    gold = score_completed(state, features, completed, events)
    # Gold earns one bonus turn, never from a bonus tile and only while bonus tiles last.
    state.bonus_due = gold and not state.current_bonus and bool(state.bonus)
    next_tile(state, cache, events, advance=True)


def _choose_figure(
    cache: BoardCache, state: HuntersGatherersState, turn: Turn, key: str, events: list[Event]
) -> None:
    """A figure (or none) commits the turn; ``back`` returns to the rotation, or to the
    spot when the rotation was not asked. ``rot:<k>`` of a turn that lays the same map
    as the one taken turns the tile so (logs from before such turns were left unasked
    name one: they replay to the same state)."""
    if key.startswith("rot:"):
        _same_map_turn(state, cache, key)
        return
    if key != "back":
        _commit(state, cache, turn.seat, key, events)
        return
    assert state.spot is not None
    state.rotation = None
    if len(distinct_rotations(state, cache, state.spot)) > 1:
        state.step = "rotation"
    else:
        state.spot = None
        state.step = "spot"


def _same_map_turn(state: HuntersGatherersState, cache: BoardCache, key: str) -> None:
    assert state.spot is not None and state.rotation is not None and state.current is not None
    k = parse_number(key[4:])
    if k is None or k > 3 or k not in rotations_at(state, cache, state.spot):
        raise IllegalMove("unknown_option", key=key)
    in_hand = tile(state.current)
    if layout(oriented(in_hand, k)) != layout(oriented(in_hand, state.rotation)):
        raise IllegalMove("unknown_option", key=key)
    state.rotation = k


# The prompt's ``step`` number of each step of a turn.
DEPTH: dict[str, int] = {"spot": 1, "rotation": 2, "figure": 3}


def _over(state: HuntersGatherersState) -> bool:
    return state.step == "over"


def _deciding(state: HuntersGatherersState) -> list[int]:
    """One seat at a time: the seat holding a tile."""
    return [] if state.step == "over" or state.current is None else [state.turn]


def _current(state: HuntersGatherersState, seat: int) -> Step:
    """The turn's step, kept in the state's flat ``step`` field (its three steps are a
    fixed sequence: stored that way, they need no stack)."""
    return Turn(state.step, seat)


def _depth(state: HuntersGatherersState, step: Step) -> int:
    return DEPTH[step.kind]


def _whose_turn(state: HuntersGatherersState, seat: int) -> dict[str, Any]:
    return {"seat": seat, "turn": state.turn}


def machine(cache: BoardCache) -> Machine[HuntersGatherersState]:
    """The turn's three steps as a machine asking ``cache`` about the map."""
    return Machine(
        rules={
            "spot": StepRules(partial(_spot_options, cache), partial(_choose_spot, cache),
                              partial(_spot_label, cache)),
            "rotation": StepRules(partial(_rotation_options, cache),
                                  partial(_choose_rotation, cache),
                                  partial(_rotation_label, cache)),
            "figure": StepRules(partial(_figure_options, cache), partial(_choose_figure, cache),
                                partial(_figure_label, cache)),
        },
        over=_over, deciding=_deciding, current=_current, depth=_depth, refusal=_whose_turn,
    )
