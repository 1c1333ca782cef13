"""The Hunters and Gatherers game state: plain data that round-trips through JSON.

Positions follow ``geometry``: ``(x, y)`` with y growing to the south and the start
tile at ``(0, 0)``. Tiles are kept by id and rotation only; their drawings come from
``data/tiles.yaml``, so a stored game stays small.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.rng import RandomSource
from engine.hunters_gatherers.coords import FIRST, Naming, naming

SCHEMA_VERSION = 1
MEMBERS = 5  # tribe members in each supply (a sixth one marks the score)
HUTS = 2

Step = Literal["spot", "rotation", "figure", "over"]
FigureKind = Literal["gatherer", "fisher", "hunter", "hut"]
FeatureKind = Literal["forest", "river", "meadow", "lake"]
# Where each score comes from; a player's score is always the sum of these.
SOURCES: tuple[str, ...] = ("rivers", "forests", "mushrooms", "huts", "meadows")


def empty_points() -> dict[str, int]:
    """A breakdown with every source at zero."""
    return dict.fromkeys(SOURCES, 0)


class PlacedTile(BaseModel):
    """A tile lying on the map (frozen: a tile once laid never moves)."""

    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    tile: str
    rotation: int


class Figure(BaseModel):
    """A tribe member or hut on a feature piece of a placed tile (frozen: a figure
    stays where it was put until it goes home, and copies of a state share it).

    ``index`` points into the rotated tile's list of that feature kind (forests,
    rivers, meadows or lakes).
    """

    model_config = ConfigDict(frozen=True)

    x: int
    y: int
    kind: FigureKind
    feature: FeatureKind
    index: int
    seat: int


class Player(BaseModel):
    """One seat: points by source and the figures still in the supply."""

    points: dict[str, int] = Field(default_factory=empty_points)
    members: int = MEMBERS
    huts: int = HUTS

    @property
    def score(self) -> int:
        """The score on the track."""
        return sum(self.points.values())


class HuntersGatherersState(BaseModel):
    """Everything about one game of Hunters and Gatherers.

    Fields that older versions stored and that are gone since are ignored on load
    (``page``, the page of a spot list the engine no longer pages), so a stored game
    still loads; the next dump leaves them out.
    """

    model_config = ConfigDict(extra="ignore")

    game: Literal["hunters_gatherers"] = "hunters_gatherers"
    schema_version: int = SCHEMA_VERSION
    players: list[Player]
    # In the order they were laid. A tuple of frozen tiles, replaced (never changed) when
    # a tile is laid: the same tuple is the same map, so the game's ``BoardCache`` knows
    # a map it has seen by the tuple alone, without reading every tile again.
    tiles: tuple[PlacedTile, ...]
    draw: list[str]  # land tiles face down; the next one is the last element
    bonus: list[str]  # bonus tiles face down; the next one is the last element
    discards: list[str] = Field(default_factory=list)  # tiles that fitted nowhere
    figures: list[Figure] = Field(default_factory=list)
    turn: int = 0
    step: Step = "spot"
    current: str | None = None  # the tile in hand
    current_bonus: bool = False  # whether it is a bonus tile (no further bonus turn)
    spot: tuple[int, int] | None = None  # chosen position of the tile in hand
    rotation: int | None = None  # chosen rotation of the tile in hand
    bonus_due: bool = False  # the seat has earned a bonus-tile turn after this one
    end_reason: str | None = None
    rng: RandomSource
    actions: int = 0
    # How squares are named (``coords.NAMINGS``): fixed when the game begins. A stored
    # game that records none was begun with the first scheme, and keeps it.
    naming: int = FIRST

    @property
    def names(self) -> Naming:
        """How this game names its squares (``coords``)."""
        return naming(self.naming)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)


def copy_state(state: HuntersGatherersState) -> HuntersGatherersState:
    """An independent copy of ``state`` (equal to a JSON round trip), made field by
    field, since search copies a state per trial: the frozen tiles and figures are
    shared, the piles, the list of figures, the players and the random source are
    copied."""
    return state.model_copy(update={
        "players": [p.model_copy(update={"points": dict(p.points)}) for p in state.players],
        "draw": list(state.draw),
        "bonus": list(state.bonus),
        "discards": list(state.discards),
        "figures": list(state.figures),
        "rng": state.rng.model_copy(deep=True),
    })
