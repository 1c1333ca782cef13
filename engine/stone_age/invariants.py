"""Properties that hold in every reachable Stone Age state, for fuzzing.

Each check returns readable violations rather than raising, so a self-play run can
count broken games without stopping.
"""

from __future__ import annotations

from engine.stone_age.components import GATHERING, GOODS, VILLAGE, components
from engine.stone_age.placement import workers_at
from engine.stone_age.scoring import final_result
from engine.stone_age.state import StoneAgeState


def _player_problems(state: StoneAgeState) -> list[str]:
    comp = components()
    out = []
    for seat, p in enumerate(state.players):
        for g in GOODS:
            if p.goods[g] < 0:
                out.append(f"seat {seat}: {g} is {p.goods[g]}")
        if not comp.start_people <= p.people <= comp.max_people:
            out.append(f"seat {seat}: {p.people} people")
        if not 0 <= p.agriculture <= comp.max_agriculture:
            out.append(f"seat {seat}: agriculture {p.agriculture}")
        if p.tools != sorted(p.tools, reverse=True) or not all(
            0 <= t <= comp.max_tool_value for t in p.tools
        ):
            out.append(f"seat {seat}: tools {p.tools}")
        if any(u and t == 0 for t, u in zip(p.tools, p.tools_used, strict=True)):
            out.append(f"seat {seat}: an empty tool slot is marked used")
        if any(v not in (2, 3, 4) for v in p.one_use_tools) or p.boons < 0:
            out.append(f"seat {seat}: one-use tools {p.one_use_tools}, boons {p.boons}")
        if not set(p.blind) <= set(p.cards) or len(set(p.blind)) != len(p.blind):
            out.append(f"seat {seat}: blind cards {p.blind} not among held {p.cards}")
        if p.unplaced < 0:
            out.append(f"seat {seat}: more workers placed than owned")
        if p.points["feeding"] > 0 or p.points["feeding"] % 10:
            out.append(f"seat {seat}: feeding points {p.points['feeding']}")
    return out


def _board_problems(state: StoneAgeState) -> list[str]:
    comp = components()
    out = []
    limits = comp.by_players[state.n]
    for loc in GATHERING:
        cap = comp.sites[loc].capacity
        if cap is not None and workers_at(state, loc) > cap:
            out.append(f"{loc} holds {workers_at(state, loc)}")
        sharing = sum(1 for p in state.players if loc in p.placed)
        if loc != "hunt" and sharing > limits.players_per_site:
            out.append(f"{loc} shared by {sharing} players")
    taken = [v for v in VILLAGE if workers_at(state, v)]
    if len(taken) > limits.village_places_open:
        out.append(f"village places taken: {taken}")
    for v in taken:
        if sum(1 for p in state.players if v in p.placed) > 1:
            out.append(f"{v} taken by two players")
    for p in state.players:
        for loc, n in p.placed.items():
            if loc in VILLAGE and n != comp.village_people[loc]:
                out.append(f"{loc} holds {n}")
            if loc.startswith(("card", "bld")) and workers_at(state, loc) != 1:
                out.append(f"{loc} holds {workers_at(state, loc)}")
    return out


def _conservation_problems(state: StoneAgeState) -> list[str]:
    comp = components()
    out = []
    cards = state.deck + [c for c in state.row if c]
    for p in state.players:
        cards += p.cards
    if len(cards) != len(comp.cards) or set(cards) != comp.cards.keys():
        out.append("civilization cards not conserved")
    buildings = state.box + [b for pile in state.piles for b in pile]
    for p in state.players:
        buildings += p.buildings
    if len(buildings) != len(comp.buildings) or set(buildings) != comp.buildings.keys():
        out.append("buildings not conserved")
    return out


def problems(state: StoneAgeState) -> list[str]:
    """Every broken invariant of ``state``; empty when all is well."""
    out = _player_problems(state) + _board_problems(state) + _conservation_problems(state)
    if state.phase == "over":
        result = final_result(state)
        for s in result.scores:
            if s.total != sum(s.breakdown.values()):
                out.append(f"seat {s.seat}: total {s.total} is not the sum of its breakdown")
            running = state.players[s.seat].score
            in_play = sum(s.breakdown[k] for k in ("buildings", "cards", "feeding"))
            if running != in_play:
                out.append(f"seat {s.seat}: running score {running} != {in_play}")
        if not result.winners:
            out.append("a finished game has no winner")
    elif not state.stacks and state.phase == "feeding":
        out.append("feeding phase with nobody to ask")
    return out
