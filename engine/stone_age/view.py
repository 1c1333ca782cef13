"""What one player, or an onlooker, may see of a game.

Hidden: the deck's order (only its size shows), the buildings under each face-up
tile, the unused buildings, the random source, and the civilization cards another
player drew blind from the deck (only how many shows). A card bought from the
face-up row was seen by the whole table, so it shows in everyone's view with its
scoring bottom. Once the game is over every card shows.

The view is a ``StoneAgeView`` (``engine.stone_age.view_model`` gives its shape); its
JSON is what the plain dictionary it used to be gave.
"""

from __future__ import annotations

from engine.stone_age.components import components
from engine.stone_age.placement import building_locations, card_locations, workers_at
from engine.stone_age.state import Player, StoneAgeState
from engine.stone_age.tools import tool_total
from engine.stone_age.view_model import (
    AnyBuildingView,
    BuildingView,
    CardView,
    FixedBuildingView,
    KindsBuildingView,
    PileView,
    PlayerView,
    RowSlotView,
    SiteView,
    StoneAgeView,
)


def card_info(card_id: str) -> CardView:
    """A card's public description."""
    card = components().cards[card_id]
    top = card.top
    # Only what the card has is given (see ``CardView``): an amount for the effects
    # that have one, a resource or a value when set, a culture or else its figures.
    return CardView(
        id=card.id,
        top=top.effect,
        amount=top.amount if top.effect in ("food", "resource", "points") else None,
        resource=top.resource or None,
        value=top.value or None,
        culture=card.culture or None,
        multiplier=None if card.culture else card.multiplier,
        figures=None if card.culture else card.figures,
    )


def building_info(building_id: str) -> BuildingView:
    """A building's public description."""
    b = components().buildings[building_id]
    if b.form == "fixed":
        return FixedBuildingView(id=b.id, cost=list(b.cost), points=b.points)
    if b.form == "kinds":
        return KindsBuildingView(id=b.id, count=b.count, kinds=b.kinds)
    return AnyBuildingView(id=b.id, count_min=b.count_min, count_max=b.count_max)


def _player_view(player: Player, seat: int, viewer: int | None, over: bool) -> PlayerView:
    own = viewer == seat or over
    shown = [c for c in player.cards if own or c not in player.blind]
    return PlayerView(
        seat=seat,
        score=player.score,
        goods=dict(player.goods),
        people=player.people,
        agriculture=player.agriculture,
        tools=list(player.tools),
        tools_used=list(player.tools_used),
        tool_total=tool_total(player),
        one_use_tools=list(player.one_use_tools),
        boons=player.boons,
        buildings=[building_info(b) for b in player.buildings],
        placed=dict(player.placed),
        # Every card held; those this viewer may see; how many they may not.
        card_count=len(player.cards),
        cards=[card_info(c) for c in shown],
        hidden_cards=len(player.cards) - len(shown),
    )


def view(state: StoneAgeState, seat: int | None) -> StoneAgeView:
    """The board, every player's public board and open cards, and ``seat``'s own
    blind-drawn cards."""
    row = [
        RowSlotView(
            loc=loc,
            cost=components().slot_costs[int(loc[4:]) - 1],
            card=card_info(card_id) if card_id else None,
            taken_by=_occupant(state, loc),
        )
        for loc, card_id in zip(card_locations(state), state.row, strict=True)
    ]
    piles = [
        PileView(
            loc=loc,
            size=len(pile),
            top=building_info(pile[-1]) if pile else None,
            taken_by=_occupant(state, loc),
        )
        for loc, pile in zip(building_locations(state), state.piles, strict=True)
    ]
    sites = {
        loc: SiteView(
            workers=workers_at(state, loc),
            by_seat={s: p.placed[loc] for s, p in enumerate(state.players) if loc in p.placed},
        )
        for loc in ("hunt", "forest", "clay", "quarry", "river", "toolmaker", "hut", "field")
    }
    return StoneAgeView(
        game=state.game,
        you=seat,
        round=state.round,
        phase=state.phase,
        first=state.first,
        turn=state.turn,
        row=row,
        deck_size=len(state.deck),
        piles=piles,
        sites=sites,
        players=[
            _player_view(p, i, seat, over=state.phase == "over")
            for i, p in enumerate(state.players)
        ],
        end_reason=state.end_reason,
    )


def _occupant(state: StoneAgeState, loc: str) -> int | None:
    """The seat whose worker stands on ``loc`` (a card or building place), if any."""
    for seat, player in enumerate(state.players):
        if loc in player.placed:
            return seat
    return None
