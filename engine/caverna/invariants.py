"""The invariants of a Caverna state, for fuzzing: each broken one as a line of text.

Goods and animals never negative; 2 to 5 dwarfs (6 with the Additional dwelling); at
most 3 stables; weapons 0–14; every animal housed (checked when no decision is open,
since an overflow is settled by a decision); every home board laid out by the placement
rules; a single furnishing tile laid once at most and only tiles of the game's set; one
dwarf per action space, standing where its dwarf says it stands.
"""

from __future__ import annotations

from engine.caverna.animals import fits
from engine.caverna.board import ENTRY_DWELLING
from engine.caverna.board import problems as board_problems
from engine.caverna.components import components
from engine.caverna.family import max_dwarfs
from engine.caverna.state import CavernaState
from engine.caverna.variants import in_play, read_options


def problems(state: CavernaState) -> list[str]:
    """Every broken invariant of ``state`` (empty when all is well)."""
    out: list[str] = []
    options = read_options(state.options)
    for seat, p in enumerate(state.players):
        where = f"seat {seat}"
        out += [f"{where}: {g} is {n}" for g, n in p.goods.items() if n < 0]
        out += [f"{where}: {a} is {n}" for a, n in p.animals.items() if n < 0]
        if not 2 <= len(p.dwarfs) <= max_dwarfs(p):
            out.append(f"{where}: {len(p.dwarfs)} dwarfs")
        if len(p.board.stables) > 3:
            out.append(f"{where}: {len(p.board.stables)} stables")
        if any(not 0 <= d.weapon <= 14 for d in p.dwarfs):
            out.append(f"{where}: weapons {[d.weapon for d in p.dwarfs]}")
        if p.begging < 0:
            out.append(f"{where}: begging {p.begging}")
        if not state.stacks and not fits(p.board, p.animals, len(p.dwarfs)):
            out.append(f"{where}: animals {p.animals} not housed")
        out += [f"{where}: {problem}" for problem in board_problems(p.board)]
        out += [f"{where}: {t} is not in this game's set" for t in p.board.furnishings
                if t != ENTRY_DWELLING and not in_play(options, t)]
        for i, d in enumerate(p.dwarfs):
            if d.at is not None and (
                not state.has_space(d.at)
                or (state.space(d.at).seat, state.space(d.at).dwarf) != (seat, i)
            ):
                out.append(f"{where}: dwarf {i} is said to stand on {d.at}")
    tiles = components().furnishings
    unique = [t for p in state.players for t in p.board.furnishings
              if t in tiles and tiles[t].count is not None]
    if len(unique) != len(set(unique)):
        out.append(f"a furnishing tile that exists once is laid twice: {sorted(unique)}")
    for space in state.spaces:
        if space.seat is None:
            continue
        dwarfs = state.players[space.seat].dwarfs
        if space.dwarf is None or not 0 <= space.dwarf < len(dwarfs) or (
                dwarfs[space.dwarf].at != space.id):
            out.append(f"{space.id}: occupant {space.seat}/{space.dwarf} stands elsewhere")
    return out
