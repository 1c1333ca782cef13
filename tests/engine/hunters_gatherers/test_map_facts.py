"""A map's facts derived a tile at a time are the facts of the map built at once, and
they agree with the plain geometry functions."""

from __future__ import annotations

import random

import pytest

from engine.hunters_gatherers.board import BoardKey, group_spots, taken
from engine.hunters_gatherers.game import HuntersGatherers
from engine.hunters_gatherers.geometry import facing_edges, frontier, legal_placements
from engine.hunters_gatherers.map_facts import MapFacts
from engine.hunters_gatherers.tiles import all_tiles

from .test_features import totals
from .test_geometry import grow


def _key(seed: int) -> BoardKey:
    board, _ = grow(seed)
    return tuple((x, y, p.tile.id, p.rotation) for (x, y), p in board.items())


@pytest.mark.parametrize("seed", range(3))
def test_facts_grown_a_tile_at_a_time_are_the_facts_built_at_once(seed: int) -> None:
    key = _key(seed)
    grown = MapFacts.of(key[:1])
    for n in range(2, len(key) + 1):
        smaller = grown
        if n % 3:  # the frontier's order, once known, is kept up as the map grows
            assert smaller.cells
        before = (dict(smaller.needs), totals(smaller.features), list(smaller.completed))
        grown = smaller.extended(key[n - 1])
        # The smaller map's facts are left as they were.
        assert (smaller.needs, totals(smaller.features), smaller.completed) == before
        if n % 10 == 0 or n == len(key):
            built = MapFacts.of(key[:n])
            assert grown.needs == built.needs and grown.cells == built.cells
            assert grown.completed == built.completed
            assert totals(grown.features) == totals(built.features)
        assert list(grown.cells) == sorted(grown.needs, key=lambda cell: (cell[1], cell[0]))


@pytest.mark.parametrize("seed", range(2))
def test_facts_agree_with_the_geometry(seed: int) -> None:
    key = _key(seed)
    for n in (1, 5, 30, len(key)):
        facts = MapFacts.of(key[:n])
        board = facts.board
        assert list(facts.cells) == frontier(board)
        assert facts.needs == {cell: facing_edges(board, cell) for cell in frontier(board)}
        for placed in all_tiles().values():
            found = legal_placements(board, placed)
            assert facts.spots(placed.edges) == group_spots(found)
            assert facts.fits(placed.edges) == bool(found)


def test_claims_are_what_the_figures_asked_about_take() -> None:
    game = HuntersGatherers()
    state = game.new(4, 31)
    agent = random.Random(31)
    asked = 0
    while prompts := game.pending(state):
        if state.figures:
            facts = game.cache.facts(state)
            figures = list(state.figures)
            assert facts.claims(figures) == taken(facts.features, figures)
            # Asked about other figures (fewer, or others in their places), it answers
            # for those, not from its memo of the last ones.
            fewer = figures[:-1]
            assert facts.claims(fewer) == taken(facts.features, fewer)
            moved = [*fewer, figures[-1].model_copy(update={"seat": (figures[-1].seat + 1) % 4})]
            assert facts.claims(moved) == taken(facts.features, moved)
            assert facts.claims(figures) == taken(facts.features, figures)
            asked += 1
        prompt = agent.choice(prompts)
        game.apply(state, prompt.seat, agent.choice(prompt.options).key)
    assert asked > 50
