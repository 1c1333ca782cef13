"""The table header of a game of Caverna: round, phase, who decides, running scores,
and per seat the few facts players glance at between turns.

``sections`` (JSON-ready, read by Caverna's texts):

``players``   one entry per seat, in seat order: ``seat``; ``goods`` (only goods held,
              ``{id: n}``); ``animals`` (only kinds held); ``dwarfs`` (how many),
              ``home`` (dwarfs still to place this round), ``weapons`` (each dwarf's
              strength, 0 unarmed, in family order), ``room`` (dwarfs the dwellings
              house); ``begging``; ``furnishings`` (tiles laid, the printed entry
              dwelling left out); ``score`` (the total as things stand).
``harvest``   this round's harvest (``none``, ``feed1``, ``harvest``, ``choice``; see
              :class:`engine.caverna.view_model.HarvestTrack`).
``first``     the seat holding the first-player token.
``last_round`` the last round's number (11 with 1–2 players, else 12).
"""

from __future__ import annotations

from typing import Any

from engine.caverna.board import ENTRY_DWELLING
from engine.caverna.decisions import pending
from engine.caverna.family import room
from engine.caverna.results import sheet
from engine.caverna.state import CavernaState, Player
from engine.core.protocol import Summary


def player_section(player: Player, seat: int, total: int) -> dict[str, Any]:
    """One seat's line of the header."""
    return {
        "seat": seat,
        "goods": {g: n for g, n in player.goods.items() if n},
        "animals": {a: n for a, n in player.animals.items() if n},
        "dwarfs": len(player.dwarfs),
        "home": len(player.home()),
        "weapons": [d.weapon for d in player.dwarfs],
        "room": room(player),
        "begging": player.begging,
        "furnishings": [f for f in player.board.furnishings if f != ENTRY_DWELLING],
        "score": total,
    }


def summary(state: CavernaState) -> Summary:
    """Round, phase, the seats deciding, running scores and the players' sections."""
    totals = tuple(sum(sheet(state, seat).values()) for seat in range(state.n))
    return Summary(
        round=state.round,
        phase=state.phase,
        deciding=tuple(sorted({p.seat for p in pending(state)})),
        scores=totals,
        sections={
            "players": [player_section(p, s, totals[s]) for s, p in enumerate(state.players)],
            "harvest": state.harvest,
            "first": state.first,
            "last_round": state.rounds[-1],
        },
    )
