"""The end of a game: every seat's score sheet and the winners.

The sheet's lines are :data:`engine.caverna.scoring.SCORE_SHEET` (the score pad's rows,
the tiles row split into furnishings, pastures and mines, gold and begging apart); the
yellow tiles' bonuses come from :mod:`engine.caverna.bonus_tiles`. The rulebook names no
tie-breaker: equal best totals share the win. ``details`` carries, per seat, the pad's
ten printed rows and each yellow tile's own bonus, for a result message to show.
"""

from __future__ import annotations

from engine.caverna.bonus_tiles import bonus_points
from engine.caverna.scoring import pad, score, winners
from engine.caverna.state import CavernaState
from engine.caverna.view import tally
from engine.core.protocol import Result, SeatScore


def sheet(state: CavernaState, seat: int) -> dict[str, int]:
    """``seat``'s score sheet as things stand, keyed as ``SCORE_SHEET``."""
    return score(tally(state.players[seat]))


def final_result(state: CavernaState) -> Result:
    """Every seat's final score sheet, the winners (ties shared) and the details."""
    scores = []
    pads: list[dict[str, int]] = []
    bonuses: list[dict[str, int]] = []
    for seat, player in enumerate(state.players):
        lines = sheet(state, seat)
        scores.append(SeatScore(seat=seat, total=sum(lines.values()), breakdown=lines))
        pads.append(pad(lines))
        bonuses.append(bonus_points(tally(player)))
    return Result(
        scores=scores,
        winners=winners([s.total for s in scores]),
        reason=state.end_reason or "last_round",
        details={"pad": pads, "bonus_tiles": bonuses, "tie": "shared"},
    )
