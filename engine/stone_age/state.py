"""The Stone Age game state: plain data that serialises to JSON and back losslessly.

Locations are named by short keys that also appear in option keys:
``hunt forest clay quarry river`` (gathering), ``toolmaker hut field`` (village),
``card1``..``card4`` (civilization card slots; slot 1 is the rightmost and costs 1) and
``bld1``..``bldN`` (building piles).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, PrivateAttr, model_validator

from engine.core.model import EngineModel
from engine.core.rng import RandomSource
from engine.stone_age.components import components
from engine.stone_age.listing import Listing, fresh

SCHEMA_VERSION = 1

Phase = Literal["placement", "actions", "feeding", "over"]


def start_goods(food: int) -> dict[str, int]:
    """A player's stock at the start: only food."""
    return {"food": food, "wood": 0, "clay": 0, "stone": 0, "gold": 0}


class Player(EngineModel):
    """One seat's village board and everything beside it."""

    goods: dict[str, int]
    people: int
    agriculture: int = 0
    tools: list[int] = Field(default_factory=lambda: [0, 0, 0])
    tools_used: list[bool] = Field(default_factory=lambda: [False, False, False])
    one_use_tools: list[int] = Field(default_factory=list)
    # Unused "two resources of your choice" cards: kept face up until taken.
    boons: int = 0
    # Civilization cards held. Cards bought from the face-up row were seen by everyone;
    # ``blind`` are those drawn from the deck unseen by the others (a subset of ``cards``).
    cards: list[str] = Field(default_factory=list)
    blind: list[str] = Field(default_factory=list)
    buildings: list[str] = Field(default_factory=list)
    # Points scored during play, by source; the running score is their sum.
    points: dict[str, int] = Field(
        default_factory=lambda: {"buildings": 0, "cards": 0, "feeding": 0}
    )
    # Workers standing on each location this round.
    placed: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _guess_blind(cls, data: Any) -> Any:
        """States stored before ``blind`` existed: the card drawn by an "extra card"
        card was appended right after it, so that one is taken for the blind card."""
        if not isinstance(data, dict) or "blind" in data:
            return data
        return {**data, "blind": blind_after_extra(list(data.get("cards") or ()))}

    @property
    def score(self) -> int:
        """The score on the track right now."""
        return sum(self.points.values())

    @property
    def unplaced(self) -> int:
        """Workers still on the player board during placement."""
        return self.people - sum(self.placed.values())


def blind_after_extra(cards: list[str]) -> list[str]:
    """The card following each "extra card" card in ``cards`` (the order they were got).

    Only for states stored before blind draws were recorded: when the deck was empty at
    the draw, the next card was bought in the open, and keeping it hidden errs safely.
    """
    table = components().cards
    return [
        after for card, after in pairwise(cards)
        if card in table and table[card].top.effect == "extra_card"
    ]


class PayRule(EngineModel):
    """What a payment must look like: a fixed bill, or a count of resources with an
    optional exact number of different kinds."""

    fixed: dict[str, int] | None = None
    count_min: int = 0
    count_max: int = 0
    kinds: int | None = None


class CountStep(EngineModel):
    """Placement, second step: how many workers go to ``loc``."""

    kind: Literal["count"] = "count"
    seat: int
    loc: str


class RollStep(EngineModel):
    """Dice are rolled; the roller may add tools before taking the yield."""

    kind: Literal["roll"] = "roll"
    seat: int
    source: str  # the location, or the card id for a card's dice
    resource: str
    dice: list[int]
    tools: list[int] = Field(default_factory=list)  # chosen permanent tool slots
    once: list[int] = Field(default_factory=list)  # chosen one-use tools (indexes)


class PayStep(EngineModel):
    """A payment in progress: for a card, a building or missing food."""

    kind: Literal["pay"] = "pay"
    seat: int
    purpose: Literal["card", "building", "feed"]
    target: str  # location key, or "feed"
    rule: PayRule
    paid: list[str] = Field(default_factory=list)  # resources chosen one by one


class BoonStep(EngineModel):
    """Taking the two resources of a "two resources of your choice" card."""

    kind: Literal["boon"] = "boon"
    seat: int


class PickStep(EngineModel):
    """"Dice for everyone": each seat in ``order`` takes one die in turn."""

    kind: Literal["pick"] = "pick"
    seat: int  # the buyer, who owns this step
    card: str
    dice: list[int]
    order: list[int]


Frame = Annotated[
    CountStep | RollStep | PayStep | BoonStep | PickStep, Field(discriminator="kind")
]


class StoneAgeState(EngineModel):
    """Everything about one game of Stone Age."""

    game: Literal["stone_age"] = "stone_age"
    schema_version: int = SCHEMA_VERSION
    players: list[Player]
    round: int = 1
    first: int = 0
    turn: int = 0
    phase: Phase = "placement"
    # Civilization cards on the board: index 0 is slot 1 (rightmost, cost 1).
    row: list[str | None]
    deck: list[str]  # next card is the last element
    piles: list[list[str]]  # the face-up building is the last element of each pile
    box: list[str] = Field(default_factory=list)  # buildings not used in this game
    # Open decisions: each seat's stack of steps, innermost last.
    stacks: dict[int, list[Frame]] = Field(default_factory=dict)
    # Seats still to decide how to cover missing food this round.
    feeding: list[int] = Field(default_factory=list)
    last_round: bool = False  # a building pile ran out: end after this round's feeding
    end_reason: str | None = None
    rng: RandomSource
    actions: int = 0  # choices applied so far
    # What placement counted on this state as it is now (engine.stone_age.listing):
    # never dumped, copied or viewed.
    _listing: Listing = PrivateAttr(default_factory=Listing)

    @property
    def n(self) -> int:
        """Number of players."""
        return len(self.players)



M = TypeVar("M", bound=BaseModel)


def _clone(model: M, fields: dict[str, Any]) -> M:
    """A model of ``model``'s class holding ``fields`` as they are (no validation, no
    copying): what ``model_copy`` does, without its generic bookkeeping."""
    clone = model.__class__.__new__(model.__class__)
    object.__setattr__(clone, "__dict__", fields)
    object.__setattr__(clone, "__pydantic_fields_set__", set(model.__pydantic_fields_set__))
    object.__setattr__(clone, "__pydantic_extra__", None)
    # The only private attribute of these models is a state's listing
    # (engine.stone_age.listing), which a copy starts without.
    private = None if model.__pydantic_private__ is None else fresh()
    object.__setattr__(clone, "__pydantic_private__", private)
    return clone


def copy_player(player: Player) -> Player:
    """An independent copy of one seat's board: every list and dict its own."""
    return _clone(player, {
        **player.__dict__,
        "goods": dict(player.goods),
        "tools": list(player.tools),
        "tools_used": list(player.tools_used),
        "one_use_tools": list(player.one_use_tools),
        "cards": list(player.cards),
        "blind": list(player.blind),
        "buildings": list(player.buildings),
        "points": dict(player.points),
        "placed": dict(player.placed),
    })


def copy_state(state: StoneAgeState) -> StoneAgeState:
    """An independent copy of ``state``, field by field: the shallow copies of its
    models with every list and dict copied again (the open steps, few and small, are
    copied deeply), and nothing counted for it. Search copies a state for every trial,
    so this avoids the JSON round trip; ``tests/engine/stone_age/test_state.py`` checks
    that nothing mutable is shared and that it equals the round trip."""
    return _clone(state, {
        **state.__dict__,
        "players": [copy_player(p) for p in state.players],
        "row": list(state.row),
        "deck": list(state.deck),
        "piles": [list(pile) for pile in state.piles],
        "box": list(state.box),
        "stacks": {seat: [deep_copy(step) for step in stack]
                   for seat, stack in state.stacks.items()},
        "feeding": list(state.feeding),
        "rng": deep_copy(state.rng),
    })


def deep_copy(value: Any) -> Any:
    """An independent copy of a value of the state: models, lists and dicts copied
    all the way down; anything else (numbers, strings, None) is immutable and shared."""
    if isinstance(value, BaseModel):
        return _clone(value, {k: deep_copy(v) for k, v in value.__dict__.items()})
    if isinstance(value, list):
        return [deep_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: deep_copy(v) for k, v in value.items()}
    return value
