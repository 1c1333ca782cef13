"""Properties that hold in every reachable state, for fuzzing.

Checks return readable violations instead of raising, so self-play can count broken
games without stopping. The map questions go through the game's ``BoardCache``.
"""

from __future__ import annotations

from collections import Counter

from engine.hunters_gatherers.board import node_of, pieces
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.decisions import figure_choices
from engine.hunters_gatherers.geometry import ORIGIN, is_connected, mismatches
from engine.hunters_gatherers.scoring import final_result
from engine.hunters_gatherers.state import HUTS, MEMBERS, SOURCES, HuntersGatherersState
from engine.hunters_gatherers.tiles import all_tiles, oriented, start_tile, tile


def _figure_problems(state: HuntersGatherersState, cache: BoardCache) -> list[str]:
    out = []
    on_board: Counter[tuple[int, bool]] = Counter((f.seat, f.kind == "hut") for f in state.figures)
    for seat, p in enumerate(state.players):
        if p.members < 0 or p.huts < 0:
            out.append(f"seat {seat}: negative supply {p.members}/{p.huts}")
        if p.members + on_board[(seat, False)] != MEMBERS:
            out.append(f"seat {seat}: members not conserved")
        if p.huts + on_board[(seat, True)] != HUTS:
            out.append(f"seat {seat}: huts not conserved")
    board = cache.board(state)
    features = cache.features(state)
    for f in state.figures:
        placed = board.get((f.x, f.y))
        if placed is None or not 0 <= f.index < pieces(placed.oriented, f.feature):
            out.append(f"figure {f} stands on no feature")
            continue
        if f.kind in ("gatherer", "fisher"):
            if state.step == "over":
                out.append(f"{f.kind} left on the board after the end")
            elif features.feature(node_of(f)).complete:
                out.append(f"{f.kind} on a completed {f.feature} was not sent home")
    return out


def _tile_problems(state: HuntersGatherersState, cache: BoardCache) -> list[str]:
    out = []
    everything = [t.tile for t in state.tiles] + state.draw + state.bonus + state.discards
    if state.current is not None:
        everything.append(state.current)
    counts = Counter(everything)
    if set(counts) != set(all_tiles()) or any(n != 1 for n in counts.values()):
        out.append("tiles not conserved")
    if any(tile(t).kind != "land" for t in state.draw):
        out.append("a non-land tile in the draw pile")
    if any(tile(t).kind != "bonus" for t in state.bonus):
        out.append("a non-bonus tile in the bonus pile")
    first = state.tiles[0] if state.tiles else None
    if first is None or (first.x, first.y) != ORIGIN or first.tile != start_tile().id:
        out.append("the start tile is not at the origin")
    board = cache.board(state)
    if len(board) != len(state.tiles):
        out.append("two tiles on one position")
    if mismatches(board):
        out.append(f"edges do not match at {mismatches(board)[:3]}")
    if not is_connected(board):
        out.append("the map is not connected")
    return out


def _step_problems(state: HuntersGatherersState, cache: BoardCache) -> list[str]:
    out = []
    if not 0 <= state.turn < state.n:
        out.append(f"turn {state.turn} out of range")
    if state.step == "over":
        if state.current is not None or state.end_reason is None:
            out.append("a finished game still holds a tile or has no end reason")
        return out
    if state.current is None:
        return ["no tile in hand during play"]
    if tile(state.current).kind != ("bonus" if state.current_bonus else "land"):
        out.append("the tile in hand is of the wrong kind")
    legal = dict(cache.spots(state))
    if not legal:
        out.append("the tile in hand fits nowhere")
    if state.step == "spot" and (state.spot is not None or state.rotation is not None):
        out.append("a spot is chosen during the spot step")
    if state.step in ("rotation", "figure") and state.spot not in legal:
        out.append("the chosen spot is not legal")
    if state.step == "figure" and state.spot in legal and state.rotation not in legal[state.spot]:
        out.append("the chosen rotation is not legal")
    elif state.step == "figure" and state.spot is not None and state.rotation is not None:
        # A figure step with nothing to place is skipped, never left open.
        facts = cache.facts_with(state, (*state.spot, state.current, state.rotation))
        placed = oriented(tile(state.current), state.rotation)
        if not figure_choices(state, facts, state.spot, placed, state.turn):
            out.append("a figure step is open with no figure to place")
    return out


def problems(state: HuntersGatherersState, cache: BoardCache) -> list[str]:
    """Every broken invariant of ``state``; empty when all is well."""
    out = (
        _tile_problems(state, cache) + _figure_problems(state, cache) + _step_problems(state, cache)
    )
    for seat, p in enumerate(state.players):
        if set(p.points) != set(SOURCES) or any(v < 0 for v in p.points.values()):
            out.append(f"seat {seat}: bad points {p.points}")
    if state.step == "over":
        result = final_result(state)
        for s in result.scores:
            if s.total != sum(s.breakdown.values()) or s.total != state.players[s.seat].score:
                out.append(f"seat {s.seat}: total {s.total} is not the sum of its breakdown")
        if not result.winners:
            out.append("a finished game has no winner")
    return out
