"""Hunters and Gatherers tiles, read from ``data/tiles.yaml``, and their rotation.

A tile is described in one fixed orientation. Its border is cut into *segments*:
a forest or meadow side ``X`` is one segment named ``X``; a river side ``X`` is three
segments ``X1`` (meadow), ``X`` (river), ``X2`` (meadow), in clockwise order along the
border. Features (forests, rivers, lakes, meadows) own segments; rivers own the river
segments through their ends. Turning a tile a quarter clockwise maps N->E->S->W->N and
keeps the 1/2 index of a segment.

The tables are immutable and loaded once: they are constants of the game, not state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources as importlib_resources
from types import MappingProxyType
from typing import Any, Literal

from engine.core.data import load_yaml

SIDES: tuple[str, ...] = ("N", "E", "S", "W")
EDGE_TYPES: tuple[str, ...] = ("F", "M", "R")
ANIMALS: tuple[str, ...] = ("deer", "mammoth", "aurochs", "tiger")
SPECIALS: tuple[str, ...] = ("volcano", "fire", "shrine", "mushrooms", "aurochs", "big_lake")
KINDS: tuple[str, ...] = ("start", "land", "bonus")
SPRING = "spring"
LAKE_PREFIX = "lake:"

TileKind = Literal["start", "land", "bonus"]


@dataclass(frozen=True, slots=True)
class Forest:
    """A forest: the forest segments it owns, its gold nuggets and mushroom patches."""

    segments: tuple[str, ...]
    gold: int = 0
    mushrooms: int = 0


@dataclass(frozen=True, slots=True)
class River:
    """One river piece with exactly two ends: a side letter, ``lake:<id>`` or ``spring``."""

    ends: tuple[str, str]

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides (river segments) this piece reaches."""
        return tuple(end for end in self.ends if end in SIDES)

    @property
    def lakes(self) -> tuple[str, ...]:
        """Ids of the lakes this piece ends in."""
        return tuple(end[len(LAKE_PREFIX):] for end in self.ends if is_lake_end(end))

    @property
    def springs(self) -> int:
        """How many of its ends are springs."""
        return sum(1 for end in self.ends if end == SPRING)


@dataclass(frozen=True, slots=True)
class Lake:
    """A lake inside the tile and the fish drawn in it."""

    id: str
    fish: int


@dataclass(frozen=True, slots=True)
class Meadow:
    """A meadow: its meadow segments (none = enclosed clearing) and its animals."""

    segments: tuple[str, ...]
    animals: tuple[tuple[str, int], ...] = ()

    def count(self, animal: str) -> int:
        """How many animals of that kind are drawn in this meadow piece."""
        return sum(n for kind, n in self.animals if kind == animal)


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile in some orientation (``rotation`` quarter turns clockwise from the data)."""

    id: str
    kind: TileKind
    edges: str
    forests: tuple[Forest, ...] = ()
    rivers: tuple[River, ...] = ()
    lakes: tuple[Lake, ...] = ()
    meadows: tuple[Meadow, ...] = ()
    specials: tuple[str, ...] = ()
    uncertain: bool = False
    rotation: int = 0
    # The hash, worked out once: tiles key the constant tables (turned tiles, layouts,
    # segment owners), and hashing a tile walks every one of its pieces.
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((
            self.id, self.kind, self.edges, self.forests, self.rivers, self.lakes,
            self.meadows, self.specials, self.uncertain, self.rotation)))

    def __hash__(self) -> int:
        return self._hash

    def edge(self, side: str) -> str:
        """The edge type (F, M or R) on ``side``."""
        return self.edges[SIDES.index(side)]

    def lake(self, lake_id: str) -> Lake:
        """The lake with that id."""
        for lake in self.lakes:
            if lake.id == lake_id:
                return lake
        raise KeyError(lake_id)

    @property
    def gold(self) -> int:
        """Gold nuggets on the whole tile."""
        return sum(forest.gold for forest in self.forests)

    @property
    def fish(self) -> int:
        """Fish in all lakes of the tile."""
        return sum(lake.fish for lake in self.lakes)

    @property
    def springs(self) -> int:
        """River ends on this tile that are springs."""
        return sum(river.springs for river in self.rivers)

    def animals(self, animal: str) -> int:
        """Animals of that kind on the whole tile."""
        return sum(meadow.count(animal) for meadow in self.meadows)


# --- segments and rotation -------------------------------------------------------


def is_lake_end(end: str) -> bool:
    """Whether a river end is a lake (``lake:<id>``)."""
    return end.startswith(LAKE_PREFIX)


def side_segments(side: str, edge_type: str) -> tuple[str, ...]:
    """The border segments of one side, clockwise: ``(X,)`` or ``(X1, X, X2)`` for a river."""
    if edge_type == "R":
        return (f"{side}1", side, f"{side}2")
    return (side,)


def border_segments(edges: str) -> tuple[str, ...]:
    """All border segments of a tile with these edges, clockwise from the NW corner."""
    return tuple(
        segment
        for side, edge_type in zip(SIDES, edges, strict=True)
        for segment in side_segments(side, edge_type)
    )


def segment_side(segment: str) -> str:
    """The side a segment lies on (``N1`` -> ``N``)."""
    return segment[0]


def rotate_side(side: str, turns: int) -> str:
    """The side ``side`` becomes after ``turns`` quarter turns clockwise."""
    return SIDES[(SIDES.index(side) + turns) % 4]


def rotate_segment(segment: str, turns: int) -> str:
    """A segment name after ``turns`` quarter turns clockwise (the 1/2 index stays)."""
    return rotate_side(segment[0], turns) + segment[1:]


def rotate_end(end: str, turns: int) -> str:
    """A river end after rotation (lakes and springs do not move)."""
    return rotate_side(end, turns) if end in SIDES else end


def rotate_edges(edges: str, turns: int) -> str:
    """Edge letters N, E, S, W after ``turns`` quarter turns clockwise."""
    k = turns % 4
    return edges[4 - k:] + edges[:4 - k] if k else edges


@cache
def rotate(tile: Tile, turns: int) -> Tile:
    """The tile turned ``turns`` more quarter turns clockwise (cached; 4 turns = identity)."""
    k = turns % 4
    if k == 0:
        return tile

    def segs(segments: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(rotate_segment(s, k) for s in segments)

    return replace(
        tile,
        edges=rotate_edges(tile.edges, k),
        forests=tuple(replace(f, segments=segs(f.segments)) for f in tile.forests),
        rivers=tuple(
            River(ends=(rotate_end(r.ends[0], k), rotate_end(r.ends[1], k))) for r in tile.rivers
        ),
        meadows=tuple(replace(m, segments=segs(m.segments)) for m in tile.meadows),
        rotation=(tile.rotation + k) % 4,
    )


@cache
def layout(tile: Tile) -> tuple[object, ...]:
    """What ``tile`` lays on the map as it lies, whatever its rotation number and the
    order its pieces are listed in: two rotations of a symmetric tile with equal layouts
    lay the same map (the same edges, pieces, gold, mushrooms, animals and lakes)."""
    def pieces(items: tuple[Forest, ...] | tuple[Meadow, ...]) -> tuple[str, ...]:
        return tuple(sorted(repr(replace(i, segments=tuple(sorted(i.segments))))
                            for i in items))

    # A lake is known by its fish and the sides its rivers come from, not by its id.
    fish = {lake.id: lake.fish for lake in tile.lakes}
    into: dict[str, list[str]] = {lake_id: [] for lake_id in fish}
    rivers = []
    for river in tile.rivers:
        lake_ids = [end.removeprefix("lake:") for end in river.ends if end.startswith("lake:")]
        if lake_ids:
            into[lake_ids[0]] += river.sides
        else:
            rivers.append(tuple(sorted(river.ends)))
    lakes = sorted((fish[lake_id], tuple(sorted(sides))) for lake_id, sides in into.items())
    return (tile.edges, pieces(tile.forests), pieces(tile.meadows), tuple(sorted(rivers)),
            tuple(lakes), tile.specials)


def oriented(tile: Tile, rotation: int) -> Tile:
    """The tile in absolute orientation ``rotation`` (quarter turns from the data)."""
    return rotate(tile, rotation - tile.rotation)


# --- consistency -----------------------------------------------------------------


def _interleave(order: tuple[str, ...], a: set[str], b: set[str]) -> bool:
    """Whether two disjoint sets of border segments alternate a..b..a..b round the border."""
    labels = [seg in a for seg in order if seg in a or seg in b]
    changes = sum(1 for i in range(len(labels)) if labels[i] != labels[i - 1])
    return changes > 2


def problems(tile: Tile) -> list[str]:
    """What is inconsistent in a tile's description (empty when sound).

    Checks that every border segment belongs to exactly one feature of the right kind,
    that rivers reach each river side once and their lakes exist, and that no two
    features cross (their segments never alternate round the border; rivers joined by
    a lake count as one region).
    """
    out: list[str] = []
    if len(tile.edges) != 4 or any(e not in EDGE_TYPES for e in tile.edges):
        return [f"{tile.id}: bad edges {tile.edges!r}"]
    expect_forest = {s for s, e in zip(SIDES, tile.edges, strict=True) if e == "F"}
    expect_river = {s for s, e in zip(SIDES, tile.edges, strict=True) if e == "R"}
    expect_meadow = set(border_segments(tile.edges)) - expect_forest - expect_river

    def owned(groups: list[tuple[str, ...]], expected: set[str], what: str) -> None:
        flat = [seg for group in groups for seg in group]
        if sorted(flat) != sorted(expected):
            out.append(f"{tile.id}: {what} segments {sorted(flat)} != {sorted(expected)}")

    owned([f.segments for f in tile.forests], expect_forest, "forest")
    owned([m.segments for m in tile.meadows], expect_meadow, "meadow")
    owned([r.sides for r in tile.rivers], expect_river, "river")
    lake_ids = [lake.id for lake in tile.lakes]
    if len(set(lake_ids)) != len(lake_ids):
        out.append(f"{tile.id}: duplicate lake ids")
    reached = {lake for river in tile.rivers for lake in river.lakes}
    if reached != set(lake_ids):
        out.append(f"{tile.id}: lakes reached {sorted(reached)} != lakes {sorted(lake_ids)}")
    for river in tile.rivers:
        for end in river.ends:
            if end not in SIDES and end != SPRING and not is_lake_end(end):
                out.append(f"{tile.id}: bad river end {end!r}")
    for meadow in tile.meadows:
        for kind, n in meadow.animals:
            if kind not in ANIMALS or n < 1:
                out.append(f"{tile.id}: bad animal {kind}: {n}")
    for special in tile.specials:
        if special not in SPECIALS:
            out.append(f"{tile.id}: unknown special {special!r}")
    if out:
        return out

    # Regions: forests, meadows, and river pieces joined through shared lakes.
    regions: list[set[str]] = [set(f.segments) for f in tile.forests]
    regions += [set(m.segments) for m in tile.meadows]
    water: list[tuple[set[str], set[str]]] = []  # (sides, lakes)
    for river in tile.rivers:
        sides, lakes = set(river.sides), set(river.lakes)
        for group in [g for g in water if g[1] & lakes]:
            water.remove(group)
            sides |= group[0]
            lakes |= group[1]
        water.append((sides, lakes))
    regions += [sides for sides, _ in water]
    order = border_segments(tile.edges)
    for i, a in enumerate(regions):
        for b in regions[i + 1:]:
            if _interleave(order, a, b):
                out.append(f"{tile.id}: features {sorted(a)} and {sorted(b)} cross")
    return out


# --- loading ---------------------------------------------------------------------


def _segments(raw: Any) -> tuple[str, ...]:
    return tuple(str(s) for s in raw)


def _counts(raw: Any) -> dict[str, int]:
    return {str(k): int(v) for k, v in (raw or {}).items()}


def parse_tile(tile_id: str, raw: Mapping[str, Any]) -> Tile:
    """One tile from its data entry (see the header of ``data/tiles.yaml``)."""
    kind = str(raw["kind"])
    if kind not in KINDS:
        raise ValueError(f"{tile_id}: unknown kind {kind!r}")
    forests = []
    for entry in raw.get("forests", []):
        counts = _counts(entry[1] if len(entry) > 1 else None)
        forests.append(
            Forest(
                segments=_segments(entry[0]),
                gold=counts.pop("gold", 0),
                mushrooms=counts.pop("mushrooms", 0),
            )
        )
        if counts:
            raise ValueError(f"{tile_id}: unknown forest counts {sorted(counts)}")
    rivers = []
    for entry in raw.get("rivers", []):
        if len(entry) != 2:
            raise ValueError(f"{tile_id}: a river has exactly two ends")
        rivers.append(River(ends=(str(entry[0]), str(entry[1]))))
    lakes = tuple(Lake(id=str(k), fish=int(v)) for k, v in (raw.get("lakes") or {}).items())
    meadows = tuple(
        Meadow(
            segments=_segments(entry[0]),
            animals=tuple(sorted(_counts(entry[1] if len(entry) > 1 else None).items())),
        )
        for entry in raw.get("meadows", [])
    )
    tile = Tile(
        id=tile_id,
        kind=kind,  # type: ignore[arg-type]  # checked against KINDS above
        edges=str(raw["edges"]),
        forests=tuple(forests),
        rivers=tuple(rivers),
        lakes=lakes,
        meadows=meadows,
        specials=_segments(raw.get("specials", [])),
        uncertain=bool(raw.get("uncertain", False)),
    )
    found = problems(tile)
    if found:
        raise ValueError("; ".join(found))
    return tile


def parse_tiles(raw: Mapping[str, Any]) -> dict[str, Tile]:
    """All tiles of a data file, by id, in file order."""
    return {str(tile_id): parse_tile(str(tile_id), entry) for tile_id, entry in raw.items()}


@cache
def _all_tiles() -> tuple[Tile, ...]:
    text = (
        importlib_resources.files("engine.hunters_gatherers")
        .joinpath("data/tiles.yaml")
        .read_text(encoding="utf-8")
    )
    return tuple(parse_tiles(load_yaml(text)).values())


@cache
def all_tiles() -> Mapping[str, Tile]:
    """Every tile of the game by id (start, 78 land, 12 bonus), unrotated; read-only."""
    return MappingProxyType({tile.id: tile for tile in _all_tiles()})


def tile(tile_id: str) -> Tile:
    """One tile by id, unrotated (``KeyError`` if unknown)."""
    return all_tiles()[tile_id]


def tiles_of(kind: TileKind) -> tuple[Tile, ...]:
    """The tiles of one kind, in id order."""
    return tuple(t for t in _all_tiles() if t.kind == kind)


def start_tile() -> Tile:
    """The volcano start tile."""
    (start,) = tiles_of("start")
    return start


def iter_segments(tile: Tile) -> Iterator[tuple[str, str, int]]:
    """``(segment, feature kind, feature index)`` for every border segment of the tile.

    Feature kinds: ``forest``, ``river``, ``meadow``; the index is into the tile's list.
    """
    for i, forest in enumerate(tile.forests):
        for seg in forest.segments:
            yield seg, "forest", i
    for i, river in enumerate(tile.rivers):
        for seg in river.sides:
            yield seg, "river", i
    for i, meadow in enumerate(tile.meadows):
        for seg in meadow.segments:
            yield seg, "meadow", i
