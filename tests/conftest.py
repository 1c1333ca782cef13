"""Fixtures every test folder may use: hosting the tests' own games (``tests/tiny_game``)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tiny_game.hosting import GAMES, hosted


@pytest.fixture
def hosted_game(name: str) -> Iterator[str]:
    """The game ``name`` a test is parametrised with, hosted for the test when it is one
    of the tests' own games (registered before, and unregistered after, the test)."""
    with hosted(name):
        yield name


@pytest.fixture(params=sorted(GAMES))
def own_game(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each of the tests' own games in turn (a parametrised fixture), hosted for the
    test."""
    name: str = request.param
    with hosted(name):
        yield name
