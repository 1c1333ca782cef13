"""What a player, or an onlooker, may see: everything on the table, nothing face down.

Hidden: the order of the land and bonus piles (only their sizes show) and the random
source. The shape is fixed because the picture renderer draws from it.
"""

from __future__ import annotations

from typing import Any

from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.state import HuntersGatherersState


def view(state: HuntersGatherersState, cache: BoardCache, seat: int | None) -> dict[str, Any]:
    """The public picture of the game for ``seat`` (``None`` for an onlooker).

    ``cache`` is the game's ``BoardCache``, asked for the legal spots.

    While the figure is being chosen, the tile in hand already shows in ``tiles`` at
    its chosen spot and rotation, and ``spots`` is empty.
    """
    tiles = [{"x": t.x, "y": t.y, "tile": t.tile, "rotation": t.rotation} for t in state.tiles]
    listed: list[dict[str, Any]] = []
    if state.step == "figure" and state.current and state.spot and state.rotation is not None:
        tiles.append({"x": state.spot[0], "y": state.spot[1], "tile": state.current,
                      "rotation": state.rotation})
    elif state.step in ("spot", "rotation"):
        listed = [
            {"n": n, "x": pos[0], "y": pos[1], "rotations": list(rots)}
            for n, (pos, rots) in enumerate(cache.spots(state), start=1)
        ]
    return {
        "game": "hunters_gatherers",
        "you": seat,
        "turn": state.turn,
        "step": state.step,
        "tiles_left": len(state.draw),
        "bonus_left": len(state.bonus),
        "tiles": tiles,
        "current": None if state.current is None
        else {"tile": state.current, "bonus": state.current_bonus},
        "spots": listed,
        "figures": [
            {"x": f.x, "y": f.y, "kind": f.kind, "feature": f.feature, "index": f.index,
             "seat": f.seat}
            for f in state.figures
        ],
        "players": [
            {"seat": s, "score": p.score, "members": p.members, "huts": p.huts}
            for s, p in enumerate(state.players)
        ],
        "end_reason": state.end_reason,
    }
