"""Every outcome a player can reach: for comparing ways of asking the same choices.

``outcomes`` expands every path of decisions from a state, each seat asked choosing
every option it is offered (``back`` aside: it only undoes a step), until ``done`` says
the decisions under test are over; it returns the set of states reached, in a
canonical form (``canonical``). Two ways of asking offer the same choices exactly when
they reach the same set.

A "two resources" card kept unused may be taken at any later moment (the rulebook says
so; the engine offers it with every payment and counts it as two resources at the
end), so an outcome that keeps one also stands for each outcome where it was taken
now: the set includes those too (``_boons_taken``). Without this, asking less often
would seem to lose the moments a player could take it, though nothing is lost.

``base_order`` brings back, for the length of a ``with``, how the action phase asked
at this issue's base: a player chose among all the places they still stood on, and
only the last one resolved by itself.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from engine.stone_age.components import RESOURCES
from engine.stone_age.decisions import TWO_RESOURCE_BILLS
from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState
from tests.engine.patching import patch_source

Outcome = str
Options = Callable[[StoneAgeState, Any], list[str]]


def canonical(state: StoneAgeState) -> Outcome:
    """The state as JSON, leaving out what does not make outcomes differ: the count of
    choices made, the order cards and buildings were got in, and which of two tool tiles
    of one value is the used one (tiles of one value are alike)."""
    data = state.model_dump(mode="json")
    data.pop("actions")
    for player in data["players"]:
        for key in ("cards", "blind", "buildings", "one_use_tools"):
            player[key] = sorted(player[key])
        player["tools"] = sorted(zip(player["tools"], player["tools_used"], strict=True))
        player.pop("tools_used")
    return json.dumps(data, sort_keys=True)


def _boons_taken(state: StoneAgeState) -> set[Outcome]:
    """``state`` and every state with some kept "two resources" cards taken."""
    found = {canonical(state)}
    for player in state.players:
        if player.boons:
            for bill in TWO_RESOURCE_BILLS:
                taken = state.model_copy(deep=True)
                mine = taken.players[state.players.index(player)]
                mine.boons -= 1
                for n, resource in zip(bill, RESOURCES, strict=True):
                    mine.goods[resource] += n
                found |= _boons_taken(taken)
            break
    return found


def offered(state: StoneAgeState, prompt: Any) -> list[str]:
    """The keys a prompt offers, back options aside."""
    return [o.key for o in prompt.options if not o.back]


def outcomes(state: StoneAgeState, done: Callable[[StoneAgeState], bool],
             options: Options = offered, limit: int = 20_000) -> set[Outcome]:
    """Every outcome reachable from ``state`` (left untouched) until ``done``; each
    asked seat chooses among ``options(state, prompt)``, applied through the engine."""
    found: set[Outcome] = set()
    seen: set[str] = set()
    start = state.model_copy(deep=True)
    start.actions = 0
    todo = [GAME.dump(start)]
    while todo:
        frozen = todo.pop()
        if frozen in seen:
            continue
        seen.add(frozen)
        assert len(seen) <= limit, "too many positions to expand"
        current = GAME.load(frozen)
        prompts = GAME.pending(current)
        if done(current) or not prompts:
            found |= _boons_taken(current)
            continue
        for prompt in prompts:
            for key in options(current, prompt):
                after = GAME.load(frozen)
                GAME.apply(after, prompt.seat, key)
                after.actions = 0  # positions reached by more or fewer presses are one
                todo.append(GAME.dump(after))
    return found


def _base_next_action(state: StoneAgeState, seat: int) -> tuple[str | None, list[str]]:
    places = list(state.players[seat].placed)
    if len(places) == 1:
        return places[0], []
    return None, places


@contextmanager
def base_order() -> Iterator[None]:
    """Within the block, the action phase asks as at the base: every place left is an
    option, and only the last one resolves by itself."""
    with patch_source("engine.stone_age.flow.next_action", _base_next_action), \
            patch_source("engine.stone_age.decisions.next_action", _base_next_action):
        yield
