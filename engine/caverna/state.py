"""The Caverna game state: plain data that serialises to JSON and back losslessly.

Action spaces are named by their reference ids (``drift_mining_1_3``, ``blacksmithing``)
which also appear in option keys. A dwarf is named by its index in its player's list;
the list keeps the order dwarfs joined the family.

Open decisions live on one stack per seat (innermost last), as in Stone Age: during the
work phase only the acting seat has one; in the harvest every seat may have its own at
the same time.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from engine.caverna.board import HomeBoard, new_home_board
from engine.caverna.components import ANIMALS, GOODS
from engine.caverna.listing import Listing
from engine.caverna.told import Told
from engine.core import stacks as seat_stacks
from engine.core.rng import RandomSource

SCHEMA_VERSION = 1

Phase = Literal["start", "work", "harvest", "final", "over"]
# What the harvest of a round is: nothing, feeding 1 food per dwarf only, a normal
# harvest, or a normal harvest where each player skips the field phase or breeding.
HarvestKind = Literal["none", "feed1", "harvest", "choice"]
Marker = Literal["green", "red"]


def no_goods() -> dict[str, int]:
    """Every good at zero."""
    return dict.fromkeys(GOODS, 0)


def no_animals() -> dict[str, int]:
    """Every animal (dogs included) at zero."""
    return dict.fromkeys(ANIMALS, 0)


class Dwarf(BaseModel):
    """One dwarf: its weapon (0 = unarmed), whether it was born this round (it neither
    works nor eats more than 1 food this round), and the action space it stands on."""

    weapon: int = 0
    born: bool = False
    at: str | None = None


class Player(BaseModel):
    """One seat: supply, animals (their housing is arranged by the engine), dwarfs,
    the home board and begging markers."""

    goods: dict[str, int] = Field(default_factory=no_goods)
    animals: dict[str, int] = Field(default_factory=no_animals)
    dwarfs: list[Dwarf] = Field(default_factory=lambda: [Dwarf(), Dwarf()])
    board: HomeBoard = Field(default_factory=new_home_board)
    begging: int = 0
    # Goods lying on future round spaces for this player (the supplier tiles): round ->
    # goods, taken at the start of that round.
    income: dict[int, dict[str, int]] = Field(default_factory=dict)
    # Furnishing tiles covered by another (the Trader and the Spare part storage overbuild
    # each other): no longer on the board, but gone from the supply for good.
    covered: list[str] = Field(default_factory=list)
    # Once-per-game abilities already used (``guest_room:extension``).
    spent: list[str] = Field(default_factory=list)
    # Where the animals lived when last told (engine.caverna.housed): holder -> animals.
    housed: dict[str, dict[str, int]] = Field(default_factory=dict)

    def home(self) -> list[int]:
        """Indexes of the dwarfs that may still go out this round."""
        return [i for i, d in enumerate(self.dwarfs) if d.at is None and not d.born]


class ActionSpace(BaseModel):
    """An action space on the table: the goods lying there and who stands on it
    (``seat``, ``dwarf``). Round cards carry the round they were revealed in."""

    id: str
    goods: dict[str, int] = Field(default_factory=dict)
    seat: int | None = None
    dwarf: int | None = None
    round: int | None = None

    @property
    def taken(self) -> bool:
        return self.seat is not None


# --- open decisions ------------------------------------------------------------------


class PlaceStep(BaseModel):
    """A dwarf chosen out of weapon order (a ruby is paid on placing): where it goes."""

    kind: Literal["place"] = "place"
    seat: int
    dwarf: int


class GroupStep(BaseModel):
    """Carrying out the parts of an action space (or of one of its nested groups).

    ``path`` leads from the space's top group to this group; ``done`` lists the parts
    carried out; ``imitated`` marks an action performed through an Imitation space (its
    accumulated goods stay where they are).
    """

    kind: Literal["group"] = "group"
    seat: int
    dwarf: int
    space: str
    path: list[int] = Field(default_factory=list)
    done: list[int] = Field(default_factory=list)
    imitated: bool = False


class ImitateStep(BaseModel):
    """Which occupied space to imitate, through the Imitation space ``space``."""

    kind: Literal["imitate"] = "imitate"
    seat: int
    dwarf: int
    space: str
    cost: int


class PayStep(BaseModel):
    """Covering ``food`` food the player lacks for a payment by converting goods: the
    payment itself (``bill``) is made once covered. ``then`` names what the payment is
    for, so the flow can carry on (``imitate:<space>``, ``furnish:<tile>``)."""

    kind: Literal["pay"] = "pay"
    seat: int
    bill: dict[str, int]
    then: str


class ForgeStep(BaseModel):
    """Choosing the strength of a new weapon for ``dwarf``."""

    kind: Literal["forge"] = "forge"
    seat: int
    dwarf: int


class LootStep(BaseModel):
    """An expedition under way: ``level`` items at most, chosen among those needing at
    most ``strength`` (the weapon as the expedition began), confirmed with ``done``.

    ``taken`` lists the items chosen so far, in order. ``returns`` holds, for each taken
    item that may still be put back before the confirmation, what taking it added to the
    supply (goods and animals, a furnishing's bonus included; nothing for the "+1 to
    every weapon" item, which acts when the expedition ends). Items that opened a
    decision or cost an animal elsewhere are not in it: they stay taken."""

    kind: Literal["loot"] = "loot"
    seat: int
    dwarf: int
    level: int
    strength: int
    taken: list[str] = Field(default_factory=list)
    returns: dict[str, dict[str, int]] = Field(default_factory=dict)


class MarketStep(BaseModel):
    """The weekly market: goods bought so far (at most one of each)."""

    kind: Literal["market"] = "market"
    seat: int
    bought: list[str] = Field(default_factory=list)


class TradeStep(BaseModel):
    """Ore trading: how many times to trade 2 ore for 2 gold and 1 food."""

    kind: Literal["trade"] = "trade"
    seat: int


class OverflowStep(BaseModel):
    """Animals that do not all fit the home board, and the room allows different sets:
    which to keep (the others are turned into food)."""

    kind: Literal["overflow"] = "overflow"
    seat: int


class BreedStep(BaseModel):
    """Breeding where the room allows only some of the young: which kinds get one
    (``limit``: at most that many kinds, for the breeding loot)."""

    kind: Literal["breed"] = "breed"
    seat: int
    limit: int | None = None


class ExchangeStep(BaseModel):
    """Trades allowed at any time: rubies for goods or single tiles, the furnishings'
    conversions, the Peaceful cave's weapons for food. ``final``: the trades after the
    last harvest, before scoring (closed with ``done`` rather than ``back``); ``traded``:
    a trade was made (or a tile bought) since the step opened: leaving is then more
    than a step back."""

    kind: Literal["exchange"] = "exchange"
    seat: int
    final: bool = False
    traded: bool = False


class SkipStep(BaseModel):
    """The third red harvest marker: skip the field phase or the breeding."""

    kind: Literal["skip"] = "skip"
    seat: int


class FeedStep(BaseModel):
    """Feeding in a harvest: ``need`` food is still owed."""

    kind: Literal["feed"] = "feed"
    seat: int
    need: int
    substituted: bool = False  # the Working cave fed one dwarf already


class HarvestStep(BaseModel):
    """A seat's harvest still to run: the stages left, in order
    (``choose``, ``field``, ``feed``, ``breed``)."""

    kind: Literal["harvest"] = "harvest"
    seat: int
    stages: list[str]
    feed_per_dwarf: int = 2


class ClearStep(BaseModel):
    """Solo: accumulating spaces holding 6 or more goods, still to keep (1 ruby) or clear."""

    kind: Literal["clear"] = "clear"
    seat: int
    spaces: list[str]


class BoardArgs(BaseModel):
    """What a home-board step needs to know. Arguments not set (None) are left out of
    the JSON, as they were when ``args`` was a plain dict: stored games keep their shape.
    """

    @model_serializer(mode="wrap")
    def _leave_out_unset(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {name: value for name, value in data.items() if value is not None}


class BoardStep(BaseModel):
    """A home-board decision (laying a tile, furnishing, sowing, fencing, a stable).

    Stored as ``{"kind": "board", "what": ..., "args": {...}}``: ``what`` says which
    decision (each has its own class below), ``args`` what its rules need.
    """

    kind: Literal["board"] = "board"
    seat: int


class TwinArgs(BoardArgs):
    """``kinds``: the twin tiles the action allows; ``first``: the square chosen for the
    tile's first half, when several ways lead from it."""

    kinds: list[str]
    first: str | None = None


class TwinTileStep(BoardStep):
    """Laying a twin tile (tunnel and cavern, meadow and field, …)."""

    what: Literal["twin"] = "twin"
    args: TwinArgs


class SingleArgs(BoardArgs):
    """``tile``: the single tile; ``ruby``: the rubies it costs, when bought with rubies
    (the step may then be left with ``back``); ``first`` as for a twin tile."""

    tile: str
    ruby: int | None = None
    first: str | None = None


class SingleTileStep(BoardStep):
    """Laying a single tile (bought with rubies, or taken as loot)."""

    what: Literal["single"] = "single"
    args: SingleArgs


class RubyMineArgs(BoardArgs):
    """``onto``: the tunnel the ruby mine goes on; ``first`` as for a twin tile."""

    onto: str
    first: str | None = None


class RubyMineStep(BoardStep):
    """Laying a ruby mine on a tunnel."""

    what: Literal["ruby_mine"] = "ruby_mine"
    args: RubyMineArgs


class FurnishArgs(BoardArgs):
    """``scope``: which furnishings may be chosen; ``tile`` and ``at``: the tile and the
    cavern chosen so far (``at`` only while the Builder's bill is still to choose)."""

    scope: str
    tile: str | None = None
    at: str | None = None


class FurnishStep(BoardStep):
    """Furnishing a cavern: the tile, then where, then (the Builder) how to pay."""

    what: Literal["furnish"] = "furnish"
    args: FurnishArgs


class SowArgs(BoardArgs):
    """Sowing needs nothing beyond the player's fields and seeds."""


class SowStep(BoardStep):
    """Sowing grain and vegetables."""

    what: Literal["sow"] = "sow"
    args: SowArgs = Field(default_factory=SowArgs)


class FenceArgs(BoardArgs):
    """The wood a small or a large pasture costs (a size left out may not be built);
    the sizes ``built`` so far; ``discounted``: the Carpenter's wood is spent."""

    small: int | None = None
    large: int | None = None
    built: list[str] | None = None
    discounted: int | None = None


class FenceStep(BoardStep):
    """Fencing pastures, each size at most once."""

    what: Literal["fences"] = "fences"
    args: FenceArgs


class StableArgs(BoardArgs):
    """The stone the stable costs."""

    stone: int


class StableStep(BoardStep):
    """Building a stable."""

    what: Literal["stable"] = "stable"
    args: StableArgs


# Every home-board step: all stored with kind "board", told apart by ``what``.
HomeBoardStep = (
    TwinTileStep | SingleTileStep | RubyMineStep | FurnishStep | SowStep | FenceStep
    | StableStep
)
BoardSteps = Annotated[HomeBoardStep, Field(discriminator="what")]


Frame = Annotated[
    PlaceStep | GroupStep | ImitateStep | PayStep | ForgeStep | LootStep | MarketStep
    | TradeStep | OverflowStep | BreedStep | ExchangeStep | SkipStep | FeedStep | HarvestStep
    | ClearStep | BoardSteps,
    Field(discriminator="kind"),
]


def fresh_asides() -> dict[str, Any]:
    """The private attributes of a state copied or rebuilt by hand: nothing kept beside
    it (nothing listed, no housing told)."""
    return {"_listing": Listing(), "_told": Told()}


class CavernaState(BaseModel):
    """Everything about one game of Caverna."""

    game: Literal["caverna"] = "caverna"
    schema_version: int = SCHEMA_VERSION
    players: list[Player]
    rounds: list[int]  # the round numbers played, in order (1–2 players skip 9)
    round: int = 0
    phase: Phase = "start"
    first: int = 0
    # Who took the first-player space this round: first from the next round on.
    next_first: int | None = None
    turn: int = 0
    # The seat whose placed dwarf's action is being carried out.
    acting: int | None = None
    # Seats with dwarfs at home but no space any of them could use: they sit out the
    # rest of this work phase.
    passed: list[int] = Field(default_factory=list)
    spaces: list[ActionSpace] = Field(default_factory=list)
    # Face-down round cards and harvest markers, by round (removed as revealed).
    cards: dict[int, str] = Field(default_factory=dict)
    markers: dict[int, Marker] = Field(default_factory=dict)
    reds: int = 0  # red harvest markers revealed so far
    revealed: dict[int, Marker] = Field(default_factory=dict)  # turned markers, by round
    # The game's declared options as chosen at setup (engine.caverna.variants).
    options: dict[str, str] = Field(default_factory=dict)
    harvest: HarvestKind = "none"  # this round's harvest, known once revealed
    stacks: dict[int, list[Frame]] = Field(default_factory=dict)
    rng: RandomSource
    actions: int = 0
    end_reason: str | None = None
    # What was listed for each seat on this state as it is now (engine.caverna.listing),
    # and what each seat's housing was last told from (engine.caverna.told): never
    # dumped, copied or viewed.
    _listing: Listing = PrivateAttr(default_factory=Listing)
    _told: Told = PrivateAttr(default_factory=Told)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)

    @property
    def solo(self) -> bool:
        return self.n == 1

    def space(self, space_id: str) -> ActionSpace:
        """The action space ``space_id`` on the table (KeyError if absent)."""
        for s in self.spaces:
            if s.id == space_id:
                return s
        raise KeyError(space_id)

    def has_space(self, space_id: str) -> bool:
        return any(s.id == space_id for s in self.spaces)

    def push(self, frame: Frame) -> None:
        """Open a decision on top of its seat's stack."""
        seat_stacks.push(self.stacks, frame)

    def top(self, seat: int) -> Frame | None:
        """The innermost open decision of ``seat``."""
        return seat_stacks.top(self.stacks, seat)

    def pop(self, seat: int) -> None:
        """Close the innermost decision of ``seat``."""
        seat_stacks.pop(self.stacks, seat)
