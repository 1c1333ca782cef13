"""Where animals live, arranged by the engine: capacities, housing, what must go.

Rules (rulebook, "animal housing", and the furnishing tiles):

- A pasture holds farm animals of one kind: 2 per space (small 2, large 4), doubled by
  each stable in it (small with a stable 4; large 8 with one stable, 16 with two).
- A stable on an unfenced meadow holds 1 farm animal of any kind; a stable on bare forest
  holds 1 wild boar; a stable on a field is impossible.
- Each ore mine and each ruby mine holds 1 donkey.
- The entry-level dwelling holds 2 farm animals of one kind; so does the Mixed dwelling.
  Other tiles hold what their data says (``holds``: Breakfast room 3 cattle, Cuddle room
  one sheep per dwarf; ``holds_on_fields``: the Stubble room lets each unsown field hold
  1 farm animal).
- Dogs need no room and may be anywhere. Dogs on a meadow or a pasture guard sheep
  there: n dogs guard n + 1 sheep, and that space's stable and fences then count for
  nothing. A bare meadow holds sheep only so. A pasture is one place for this, large or
  small (our reading of "на лугу или на пастбище": the dogs of a large pasture guard its
  sheep together).
- Every holder with room for more than one animal takes one kind only.

The engine arranges animals itself: :func:`house` keeps as many as possible (a player
never moves animals by hand); :func:`keep_options` lists each genuinely different choice
of what to keep when not everything fits (each one keeps a set of animals no other
arrangement improves on), so the game can ask; :func:`newborn_options` does the same for
breeding. Holders are named by the board spaces they stand on (``"x,y"``, ``"x,y+x,y"``
for a large pasture), furnishings by the cavern they lie on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from pydantic import BaseModel, ConfigDict, Field

from engine.caverna.board import (
    ENTRY_DWELLING,
    BoardSignature,
    HomeBoard,
    Pos,
    key,
)
from engine.caverna.components import FARM_ANIMALS, components
from engine.caverna.memo import Memo
from engine.caverna.pastures import pasture_key

KINDS: tuple[str, ...] = FARM_ANIMALS  # sheep, donkey, wild_boar, cattle
SHEEP = 0
DOG = "dog"

# How a holder lets dogs guard sheep.
NO_DOGS = 0
BARE_MEADOW = 1     # holds nothing unless dogs guard sheep there
MEADOW_STABLE = 2   # 1 animal of any kind, or dogs guard sheep (the stable then idle)
PASTURE = 3         # its capacity, or dogs guard sheep (fences and stables then idle)


@dataclass(frozen=True, slots=True)
class Holder:
    """A place that keeps animals: its id (the spaces it stands on), the kinds it takes,
    its capacity without dogs, and how dogs work there."""

    id: str
    kinds: tuple[str, ...]
    capacity: int
    dogs: int = NO_DOGS


def _pasture_capacity(board: HomeBoard, positions: tuple[Pos, ...]) -> int:
    table = components().tables.home_board.pasture_capacity
    size = "small_pasture" if len(positions) == 1 else "large_pasture"
    stables = sum(1 for p in positions if board.at(p).stable)
    return table[size] << stables  # doubled by each stable


def holders(board: HomeBoard, dwarfs: int = 2) -> list[Holder]:
    """Every place on ``board`` that may keep animals (``dwarfs`` sizes the Cuddle
    room), in board order: pastures, meadows, stables, mines, fields, furnishings."""
    return list(_layout(board, dwarfs)[0])


def _find_holders(board: HomeBoard, dwarfs: int) -> tuple[Holder, ...]:
    c = components()
    table = c.tables.home_board
    found: list[Holder] = []
    for pasture in board.pastures():
        found.append(
            Holder(pasture_key(pasture), KINDS, _pasture_capacity(board, pasture), PASTURE)
        )
    stored = board.stored()
    # The Stubble room's effect (``holds_on_fields``): animals on fields with no crop.
    stubble = next(
        (e for _, s in stored if s.furnishing is not None
         and (t := c.furnishings.get(s.furnishing)) is not None
         and (e := t.effect("holds_on_fields")) is not None),
        None,
    )
    for pos, space in stored:
        if space.tile == "meadow":
            if space.stable:
                found.append(Holder(key(pos), KINDS, table.stable_on_meadow, MEADOW_STABLE))
            else:
                found.append(Holder(key(pos), ("sheep",), 0, BARE_MEADOW))
        elif space.tile is None and space.stable:
            found.append(Holder(key(pos), ("wild_boar",), table.stable_on_forest))
        elif space.tile in ("ore_mine", "ruby_mine"):
            found.append(Holder(key(pos), ("donkey",), table.donkeys_per_mine))
        elif space.tile == "field" and stubble is not None and space.crop is None:
            found.append(Holder(key(pos), KINDS, int(stubble.params.get("capacity", 1))))
        if space.furnishing is not None:
            holder = _furnishing_holder(pos, space.furnishing, dwarfs)
            if holder is not None:
                found.append(holder)
    return tuple(found)


def _furnishing_holder(pos: Pos, furnishing: str, dwarfs: int) -> Holder | None:
    if furnishing == ENTRY_DWELLING:
        entry = components().tables.home_board.entry_dwelling
        return Holder(key(pos), KINDS, entry.animals)
    tile = components().furnishings.get(furnishing)
    holds = tile.effect("holds") if tile is not None else None
    if holds is None:
        return None
    kinds = tuple(holds.params.get("kinds") or KINDS)
    capacity = dwarfs if holds.params.get("per") == "dwarf" else int(holds.params["capacity"])
    return Holder(key(pos), kinds, capacity)


# ----- the solver
#
# Every holder takes one kind. Holders that take a single kind only add to that kind's
# room. The others are given a kind each; a dynamic programme over them keeps the room
# per kind (capped at what is needed). Dogs only ever add room for sheep: with D dogs,
# the sheep holders gain D + (bare meadows guarded, at most D) if a bare meadow exists,
# else D if a meadow with a stable keeps sheep, else D + 1 − c if a pasture of capacity
# c <= D keeps sheep (each guarded place needs one dog, and each further dog guards one
# more sheep; guarding a place of capacity c pays only when it ends above c).

# A state: room for (donkey, wild_boar, cattle), sheep room without dogs, whether a
# meadow stable keeps sheep, the smallest sheep pasture's capacity (cap: dogs + 1).
_State = tuple[int, int, int, int, bool, int]
_Unit = tuple[tuple[int, ...], int, int]  # kind indexes, capacity, dog type


def _dog_gain(dogs: int, bare: int, meadow_stable: bool, smallest_pasture: int) -> int:
    if dogs <= 0:
        return 0
    if bare > 0:
        return dogs + min(bare, dogs)
    if meadow_stable:
        return dogs
    if smallest_pasture <= dogs:
        return dogs + 1 - smallest_pasture
    return 0


@lru_cache(maxsize=4096)
def _frontier(
    units: tuple[_Unit, ...],
    fixed: tuple[int, int, int, int],
    bare: int,
    dogs: int,
    demand: tuple[int, int, int, int],
) -> dict[tuple[int, int, int, int], tuple[int, ...]]:
    """Each keepable animal vector that no other keepable vector improves on, with one
    assignment of kinds to ``units`` that keeps it."""
    none_pasture = dogs + 1
    start: _State = (
        min(demand[1], fixed[1]),
        min(demand[2], fixed[2]),
        min(demand[3], fixed[3]),
        min(demand[0], fixed[0]),
        False,
        none_pasture,
    )
    states: dict[_State, tuple[int, ...]] = {start: ()}
    for done, (kinds, capacity, dog_type) in enumerate(units):
        # Everything housed already: the rest may take any kind (more room never hurts).
        for state, chosen in states.items():
            if _vector(state, demand, dogs, bare) == demand:
                rest = tuple(unit[0][0] for unit in units[done:])
                return {demand: (*chosen, *rest)}
        after: dict[_State, tuple[int, ...]] = {}
        for state, chosen in states.items():
            for kind in kinds:
                donkey, boar, cattle, sheep, ms, sp = state
                if kind == SHEEP:
                    sheep = min(demand[0], sheep + capacity)
                    ms = ms or dog_type == MEADOW_STABLE
                    if dog_type == PASTURE:
                        sp = min(sp, capacity)
                elif kind == 1:
                    donkey = min(demand[1], donkey + capacity)
                elif kind == 2:
                    boar = min(demand[2], boar + capacity)
                else:
                    cattle = min(demand[3], cattle + capacity)
                new: _State = (donkey, boar, cattle, sheep, ms, sp)
                if new not in after:
                    after[new] = (*chosen, kind)
        states = after
    kept: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
    for state, chosen in states.items():
        kept.setdefault(_vector(state, demand, dogs, bare), chosen)
    return _maximal(kept)


def _vector(
    state: _State, demand: tuple[int, int, int, int], dogs: int, bare: int
) -> tuple[int, int, int, int]:
    donkey, boar, cattle, sheep, ms, sp = state
    return min(demand[0], sheep + _dog_gain(dogs, bare, ms, sp)), donkey, boar, cattle


def _maximal(
    kept: dict[tuple[int, int, int, int], tuple[int, ...]],
) -> dict[tuple[int, int, int, int], tuple[int, ...]]:
    """The vectors no other one improves on (a dominated vector is always dominated by
    a maximal one with a larger sum, so larger sums are looked at first)."""
    best: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
    for v in sorted(kept, key=sum, reverse=True):
        if not any(all(a >= b for a, b in zip(o, v, strict=True)) for o in best):
            best[v] = kept[v]
    return best


# The board as the solver sees it: the holders, the units that choose a kind (kind
# indexes, capacity, dog type), which holders those are, the fixed room per kind, and
# the bare meadows.
_Layout = tuple[tuple[Holder, ...], tuple[_Unit, ...], tuple[int, ...],
                tuple[int, int, int, int], int]
# Memoised by board and family: every seat's animals are housed after every move, and
# the same board is asked about again and again.
_LAYOUTS: Memo[tuple[BoardSignature, int], _Layout] = Memo()


def _problem(
    board: HomeBoard, animals: dict[str, int], dwarfs: int
) -> tuple[tuple[Holder, ...], tuple[_Unit, ...], tuple[int, ...], tuple[int, int, int, int],
           int, int]:
    return (*_layout(board, dwarfs), animals.get(DOG, 0))


def _layout(board: HomeBoard, dwarfs: int) -> _Layout:
    return _LAYOUTS.get((board.signature(), dwarfs), lambda: _lay_out(board, dwarfs))


def _lay_out(board: HomeBoard, dwarfs: int) -> _Layout:
    found = _find_holders(board, dwarfs)
    fixed = [0, 0, 0, 0]
    units: list[_Unit] = []
    choosers: list[int] = []
    bare = 0
    for index, holder in enumerate(found):
        if holder.dogs == BARE_MEADOW:
            bare += 1
        elif len(holder.kinds) == 1:
            fixed[KINDS.index(holder.kinds[0])] += holder.capacity
        else:
            kinds = tuple(KINDS.index(k) for k in holder.kinds)
            units.append((kinds, holder.capacity, holder.dogs))
            choosers.append(index)
    frontier_fixed = (fixed[0], fixed[1], fixed[2], fixed[3])
    return found, tuple(units), tuple(choosers), frontier_fixed, bare


def _demand(animals: dict[str, int]) -> tuple[int, int, int, int]:
    return (
        animals.get("sheep", 0),
        animals.get("donkey", 0),
        animals.get("wild_boar", 0),
        animals.get("cattle", 0),
    )


class Housing(BaseModel):
    """An arrangement: ``held`` maps a holder id to the animals there (dogs guarding
    sheep included under ``dog``); ``free_dogs`` roam elsewhere; ``released`` could not
    stay (the player turns them into food or lets them go)."""

    model_config = ConfigDict(frozen=True)

    held: dict[str, dict[str, int]] = Field(default_factory=dict)
    free_dogs: int = 0
    released: dict[str, int] = Field(default_factory=dict)

    @property
    def kept(self) -> dict[str, int]:
        """Farm animals kept, by kind (dogs not counted)."""
        total = dict.fromkeys(KINDS, 0)
        for animals in self.held.values():
            for kind, n in animals.items():
                if kind != DOG:
                    total[kind] += n
        return total


def _value(vector: tuple[int, ...]) -> tuple[int, int, tuple[int, ...]]:
    """Order of preference among equally good keeps: more animals, then more food
    value, then the kind order (sheep first)."""
    food = components().tables.food_values
    worth = sum(n * food[k] for k, n in zip(KINDS, vector, strict=True))
    return sum(vector), worth, vector


def keep_options(
    board: HomeBoard, animals: dict[str, int], dwarfs: int = 2
) -> list[dict[str, int]]:
    """The genuinely different choices of farm animals to keep (each a dict by kind, best
    first): every option keeps a set no arrangement improves on. One option means
    everything is decided; several mean the player chooses what to release."""
    _, units, _, fixed, bare, dogs = _problem(board, animals, dwarfs)
    demand = _demand(animals)
    frontier = _frontier(units, fixed, bare, dogs, demand)
    ordered = sorted(frontier, key=_value, reverse=True)
    return [dict(zip(KINDS, v, strict=True)) for v in ordered]


def fits(board: HomeBoard, animals: dict[str, int], dwarfs: int = 2) -> bool:
    """Can every animal in ``animals`` be housed on ``board``?"""
    _, units, _, fixed, bare, dogs = _problem(board, animals, dwarfs)
    demand = _demand(animals)
    return demand in _frontier(units, fixed, bare, dogs, demand)


def room_for(board: HomeBoard, animals: dict[str, int], kind: str, dwarfs: int = 2) -> int:
    """How many more animals of ``kind`` fit beside ``animals`` (all of which stay)."""
    if kind == DOG:
        return 10**6
    extra = 0
    while True:
        trial = {**animals, kind: animals.get(kind, 0) + extra + 1}
        if not fits(board, trial, dwarfs):
            return extra
        extra += 1


def house(
    board: HomeBoard,
    animals: dict[str, int],
    dwarfs: int = 2,
    keep: dict[str, int] | None = None,
) -> Housing:
    """Arrange ``animals`` on ``board``: keep ``keep`` (one of :func:`keep_options`, or
    any smaller choice), or by default the best option (most animals, then most food
    value). Whatever does not stay is ``released``. ValueError if ``keep`` cannot be
    housed."""
    found, units, choosers, fixed, bare, dogs = _problem(board, animals, dwarfs)
    demand = _demand(animals)
    frontier = _frontier(units, fixed, bare, dogs, demand)
    if keep is None:
        target = max(frontier, key=_value)
        kept: tuple[int, ...] = target
    else:
        wanted = [min(keep.get(k, 0), d) for k, d in zip(KINDS, demand, strict=True)]
        covering = [v for v in frontier if all(a >= b for a, b in zip(v, wanted, strict=True))]
        if not covering:
            raise ValueError(f"cannot keep {keep}")
        target = covering[0]
        kept = tuple(wanted)
    chosen = frontier[target]
    kind_of: dict[int, int] = {
        holder_index: kind for holder_index, kind in zip(choosers, chosen, strict=True)
    }
    return _fill(found, kind_of, kept, dogs, demand)


def _fill(
    found: tuple[Holder, ...],
    kind_of: dict[int, int],
    target: tuple[int, ...],
    dogs: int,
    demand: tuple[int, ...],
) -> Housing:
    # The kind each holder takes, and its room without dogs.
    kinds: list[int | None] = []
    for index, holder in enumerate(found):
        if holder.dogs == BARE_MEADOW:
            kinds.append(SHEEP)
        elif len(holder.kinds) == 1:
            kinds.append(KINDS.index(holder.kinds[0]))
        else:
            kinds.append(kind_of.get(index))
    rooms = [h.capacity for h in found]
    guards = [0] * len(found)
    # Dogs: where they guard sheep, following the solver's rule.
    left = dogs
    sheep_places = [i for i, k in enumerate(kinds) if k == SHEEP and found[i].dogs != NO_DOGS]
    bare = [i for i in sheep_places if found[i].dogs == BARE_MEADOW]
    stables = [i for i in sheep_places if found[i].dogs == MEADOW_STABLE]
    pastures = sorted(
        (i for i in sheep_places if found[i].dogs == PASTURE), key=lambda i: rooms[i]
    )
    if left > 0:
        if bare:
            for i in bare[:left]:
                guards[i] = 1
            left -= min(len(bare), left)
            guards[bare[0]] += left
        elif stables:
            guards[stables[0]] = left
        elif pastures and rooms[pastures[0]] <= left:
            guards[pastures[0]] = left
        left = dogs - sum(guards)
    for i, n in enumerate(guards):
        if n:
            rooms[i] = max(rooms[i], n + 1) if found[i].dogs == PASTURE else n + 1
    held: dict[str, dict[str, int]] = {}
    remaining = list(target)
    for i, holder in enumerate(found):
        kind = kinds[i]
        place: dict[str, int] = {}
        if kind is not None:
            n = min(rooms[i], remaining[kind])
            remaining[kind] -= n
            if n:
                place[KINDS[kind]] = n
        if guards[i]:
            place[DOG] = guards[i]
        if place:
            held[holder.id] = place
    assert not any(remaining), "the solver promised room it does not have"
    released = {
        k: d - t for k, d, t in zip(KINDS, demand, target, strict=True) if d - t > 0
    }
    return Housing(held=held, free_dogs=left, released=released)


def newborn_options(
    board: HomeBoard, animals: dict[str, int], dwarfs: int = 2
) -> list[dict[str, int]]:
    """Breeding: each kind of farm animal with at least two gets one newborn, only if it
    can be housed beside every animal already there. Returns the choices of newborns
    (largest sets first; one newborn per kind): one option means no choice (``[{}]``: none
    is born); several mean the room allows only some of them and the player picks. Dogs
    never breed."""
    eligible = [k for k in KINDS if animals.get(k, 0) >= 2]
    feasible: list[frozenset[str]] = [frozenset()]
    for mask in range(1, 1 << len(eligible)):
        born = frozenset(k for i, k in enumerate(eligible) if mask >> i & 1)
        trial = {**animals, **{k: animals.get(k, 0) + 1 for k in born}}
        if fits(board, trial, dwarfs):
            feasible.append(born)
    maximal = [s for s in feasible if not any(s < o for o in feasible)]
    maximal.sort(key=lambda s: (-len(s), [KINDS.index(k) for k in sorted(s, key=KINDS.index)]))
    return [{k: 1 for k in sorted(s, key=KINDS.index)} for s in maximal]
