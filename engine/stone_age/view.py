"""What one player, or an onlooker, may see of a game.

Hidden: the deck's order (only its size shows), the buildings under each face-up
tile, the unused buildings, the random source, and the civilization cards another
player drew blind from the deck (only how many shows). A card bought from the
face-up row was seen by the whole table, so it shows in everyone's view with its
scoring bottom. Once the game is over every card shows.
"""

from __future__ import annotations

from typing import Any

from engine.stone_age.components import components
from engine.stone_age.placement import building_locations, card_locations, workers_at
from engine.stone_age.state import Player, StoneAgeState
from engine.stone_age.tools import tool_total


def card_info(card_id: str) -> dict[str, Any]:
    """A card's public description."""
    card = components().cards[card_id]
    info: dict[str, Any] = {"id": card.id, "top": card.top.effect}
    if card.top.effect in ("food", "resource", "points"):
        info["amount"] = card.top.amount
    if card.top.resource:
        info["resource"] = card.top.resource
    if card.top.value:
        info["value"] = card.top.value
    if card.culture:
        info["culture"] = card.culture
    else:
        info["multiplier"] = card.multiplier
        info["figures"] = card.figures
    return info


def building_info(building_id: str) -> dict[str, Any]:
    """A building's public description."""
    b = components().buildings[building_id]
    info: dict[str, Any] = {"id": b.id, "form": b.form}
    if b.form == "fixed":
        info.update(cost=list(b.cost), points=b.points)
    elif b.form == "kinds":
        info.update(count=b.count, kinds=b.kinds)
    else:
        info.update(count_min=b.count_min, count_max=b.count_max)
    return info


def _player_view(player: Player, seat: int, viewer: int | None, over: bool) -> dict[str, Any]:
    own = viewer == seat or over
    shown = [c for c in player.cards if own or c not in player.blind]
    return {
        "seat": seat,
        "score": player.score,
        "goods": dict(player.goods),
        "people": player.people,
        "agriculture": player.agriculture,
        "tools": list(player.tools),
        "tools_used": list(player.tools_used),
        "tool_total": tool_total(player),
        "one_use_tools": list(player.one_use_tools),
        "boons": player.boons,
        "buildings": [building_info(b) for b in player.buildings],
        "placed": dict(player.placed),
        # Every card held; those this viewer may see; how many they may not.
        "card_count": len(player.cards),
        "cards": [card_info(c) for c in shown],
        "hidden_cards": len(player.cards) - len(shown),
    }


def view(state: StoneAgeState, seat: int | None) -> dict[str, Any]:
    """The board, every player's public board and open cards, and ``seat``'s own
    blind-drawn cards."""
    row = []
    for loc, card_id in zip(card_locations(state), state.row, strict=True):
        row.append({
            "loc": loc,
            "cost": components().slot_costs[int(loc[4:]) - 1],
            "card": card_info(card_id) if card_id else None,
            "taken_by": _occupant(state, loc),
        })
    piles = []
    for loc, pile in zip(building_locations(state), state.piles, strict=True):
        piles.append({
            "loc": loc,
            "size": len(pile),
            "top": building_info(pile[-1]) if pile else None,
            "taken_by": _occupant(state, loc),
        })
    sites = {
        loc: {"workers": workers_at(state, loc),
              "by_seat": {s: p.placed[loc] for s, p in enumerate(state.players) if loc in p.placed}}
        for loc in ("hunt", "forest", "clay", "quarry", "river", "toolmaker", "hut", "field")
    }
    return {
        "game": state.game,
        "you": seat,
        "round": state.round,
        "phase": state.phase,
        "first": state.first,
        "turn": state.turn,
        "row": row,
        "deck_size": len(state.deck),
        "piles": piles,
        "sites": sites,
        "players": [
            _player_view(p, i, seat, over=state.phase == "over")
            for i, p in enumerate(state.players)
        ],
        "end_reason": state.end_reason,
    }


def _occupant(state: StoneAgeState, loc: str) -> int | None:
    for seat, player in enumerate(state.players):
        if loc in player.placed:
            return seat
    return None
