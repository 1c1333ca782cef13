"""The shape of a Stone Age view: typed models the bot reads by attribute.

``engine.stone_age.view`` decides what a seat may see; this module only says what a
view looks like. The field names and the JSON (``model_dump(mode="json")``) are those
of the plain dictionaries the view used to be, so a page or a log reading the JSON
sees no change:

- a card's description leaves out what its kind of card does not have (a culture card
  has no ``multiplier`` or ``figures``; only food, resource and points cards have an
  ``amount``), as the dictionary did: such fields are None in the model and absent
  from its JSON;
- a building's description is one of three models told apart by ``form``, each with
  exactly the keys of that form;
- ``by_seat`` maps seat numbers to worker counts; in JSON its keys are strings, and
  reading the JSON back gives numbers again.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, SerializerFunctionWrapHandler, model_serializer

from engine.core.views import View
from engine.stone_age.state import Phase


class CardView(View):
    """A civilization card's public description: what it gives at once (``top`` and
    its ``amount``, ``resource`` or one-use tool ``value``) and what it scores at the
    end: a ``culture`` symbol, or ``figures`` times a ``multiplier``."""

    id: str
    top: str
    # Only food, resource and points cards say how much.
    amount: int | None = None
    resource: str | None = None
    # A one-use tool's value; left out when the card has none.
    value: int | None = None
    culture: str | None = None
    # The bottom of a card without a culture symbol.
    multiplier: str | None = None
    figures: int | None = None

    @model_serializer(mode="wrap")
    def _leave_out_what_the_card_lacks(
        self, handler: SerializerFunctionWrapHandler
    ) -> dict[str, Any]:
        """Drop the None fields: the JSON names only what the card has, as it always
        did, and reads back to an equal model (a missing field is None)."""
        data: dict[str, Any] = handler(self)
        return {key: value for key, value in data.items() if value is not None}


class FixedBuildingView(View):
    """A building bought for exactly the goods in ``cost``, worth ``points``."""

    id: str
    form: Literal["fixed"] = "fixed"
    cost: list[str]
    points: int


class KindsBuildingView(View):
    """A building bought for ``count`` resources of exactly ``kinds`` kinds."""

    id: str
    form: Literal["kinds"] = "kinds"
    count: int
    kinds: int


class AnyBuildingView(View):
    """A building bought for ``count_min`` to ``count_max`` resources of any kinds."""

    id: str
    form: Literal["any"] = "any"
    count_min: int
    count_max: int


# A building's public description: its ``form`` says which of the three it is.
BuildingView = Annotated[
    FixedBuildingView | KindsBuildingView | AnyBuildingView, Field(discriminator="form")
]


class RowSlotView(View):
    """One place of the card row: its location key (``card1``..``card4``), what a card
    there costs, the card (None once taken) and the seat whose worker stands there."""

    loc: str
    cost: int
    card: CardView | None
    taken_by: int | None


class PileView(View):
    """One building pile: its location key (``bld1``..), how many tiles are left, the
    face-up one (None when the pile is empty) and the seat whose worker stands there.
    The tiles under the top one are hidden."""

    loc: str
    size: int
    top: BuildingView | None
    taken_by: int | None


class SiteView(View):
    """A gathering or village place: how many workers stand there, and whose."""

    workers: int
    # Seat -> workers of that seat here; only seats with workers here appear.
    by_seat: dict[int, int]


class PlayerView(View):
    """One player's board as a viewer sees it. ``cards`` are those the viewer may see
    (all of them for the player's own view and once the game is over); ``card_count``
    counts every card held and ``hidden_cards`` those left out."""

    seat: int
    score: int
    goods: dict[str, int]
    people: int
    agriculture: int
    tools: list[int]
    tools_used: list[bool]
    tool_total: int
    one_use_tools: list[int]
    # Unused "two resources of your choice" cards.
    boons: int
    buildings: list[BuildingView]
    # Workers standing on each location this round.
    placed: dict[str, int]
    card_count: int
    cards: list[CardView]
    hidden_cards: int


class StoneAgeView(View):
    """What one seat (``you``; None for an onlooker) sees of a game of Stone Age: the
    round and phase, the card row, the building piles, the places with their workers
    and every player's board. The deck shows only its size."""

    game: Literal["stone_age"] = "stone_age"
    you: int | None
    round: int
    phase: Phase
    first: int
    turn: int
    row: list[RowSlotView]
    deck_size: int
    piles: list[PileView]
    # Every gathering and village place, by location key.
    sites: dict[str, SiteView]
    players: list[PlayerView]
    end_reason: str | None
