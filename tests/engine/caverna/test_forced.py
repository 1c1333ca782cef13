"""Steps with one real option are taken by the engine (``engine.caverna.forced``): no
prompt asked over random whole games leaves nothing to choose, and the engine reaches
exactly the outcomes a player could reach when every step was asked.

The outcome sets are compared by expanding every option of a decision, with the rule
(the engine as it plays) and without it (``forced_move`` switched off, so every step is
asked: each of its options is expanded, step backs and put-backs included), up to the
end of the deciding seat's turn. A rule that took a real choice away — the last check
makes one, skipping "Done with this action" — shows up as outcomes missing.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import pytest

from engine.caverna import forced
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.state import CavernaState, LootStep
from engine.core.prompts import Option, only_choice
from tests.engine.caverna.scenario import give, play, scripted

GAMES = [(1 + seed % 4, seed) for seed in range(20)]  # (players, seed)


def _random_game(players: int, seed: int) -> Iterator[CavernaState]:
    """The states of one seeded random game (the uniform player), each before a move."""
    agent = random.Random(seed)
    state = CAVERNA.new(players, seed)
    while prompts := CAVERNA.pending(state):
        yield state
        prompt = agent.choice(prompts)
        CAVERNA.apply(state, prompt.seat, agent.choice(prompt.options).key)
    assert CAVERNA.result(state) is not None


def test_no_prompt_asked_leaves_nothing_to_choose() -> None:
    """Every prompt of 20 random whole games (1–4 players) offers at least two options
    that are not a step back."""
    asked = 0
    for players, seed in GAMES:
        for state in _random_game(players, seed):
            for prompt in CAVERNA.pending(state):
                asked += 1
                real = [o.key for o in prompt.options if not o.back]
                assert len(real) >= 2, (players, seed, prompt.label.code, prompt.keys())
    assert asked > 1000


# --- the same outcomes ---------------------------------------------------------------

NODES = 800  # options expanded per sample at most (larger turns are left out)


def _canonical(state: CavernaState) -> str:
    """The state as a player would find it: everything but the count of presses."""
    return json.dumps(state.model_dump(mode="json", exclude={"actions"}), sort_keys=True)


@dataclass
class Outcomes:
    """Where a decision can end: the canonical states, the options expanded, and how
    many of the prompts met had one real option (asked only without the rule)."""

    states: set[str]
    expanded: int
    single: int


def _outcomes(start: CavernaState, seat: int) -> Outcomes | None:
    """Every state in which ``seat``'s turn is over and nobody faces a step with one
    real option, over all choices from ``start`` (None past ``NODES``)."""
    found = Outcomes(set(), 0, 0)
    seen = {_canonical(start)}
    todo = [CAVERNA.dump(start)]
    while todo:
        text = todo.pop()
        state = CAVERNA.load(text)
        prompts = CAVERNA.pending(state)
        singles = [p for p in prompts if only_choice(p.options) is not None]
        if seat not in state.stacks and not singles:
            found.states.add(_canonical(state))
            continue
        # The seat's own step first; once its turn is over, whoever has one option.
        prompt = next((p for p in prompts if p.seat == seat), None) or singles[0]
        found.single += prompt in singles
        for option in prompt.options:
            found.expanded += 1
            if found.expanded > NODES:
                return None
            after = CAVERNA.load(text)
            CAVERNA.apply(after, prompt.seat, option.key)
            key = _canonical(after)
            if key not in seen:
                seen.add(key)
                todo.append(CAVERNA.dump(after))
    return found


@contextmanager
def _every_step_asked() -> Iterator[None]:
    """The engine without the rule: every step is asked."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(forced, "forced_move", lambda state: None)
        yield


def _above_taken_loot(state: CavernaState, seat: int) -> bool:
    """Is ``seat`` deciding something opened by a loot item, with items taken? Taking
    the last item ends the loot, so putting one back afterwards (an undo, which
    ``/undo`` offers) is no longer there: such states are not a decision's start."""
    below = state.stacks.get(seat, [])[:-1]
    return any(isinstance(frame, LootStep) and frame.taken for frame in below)


def _samples(rate: float = 0.1, per_game: int = 4) -> Iterator[tuple[CavernaState, int]]:
    """States of the random games where a seat faces a step of a decision under way."""
    for players, seed in GAMES:
        pick = random.Random(seed)
        taken = 0
        for state in _random_game(players, seed):
            seats = [p.seat for p in CAVERNA.pending(state) if p.seat in state.stacks]
            if not seats or pick.random() > rate:
                continue
            seat = pick.choice(seats)
            if _above_taken_loot(state, seat):
                continue
            yield CAVERNA.load(CAVERNA.dump(state)), seat
            taken += 1
            if taken == per_game:
                break


def _compare(until_different: bool = False) -> tuple[int, int, int]:
    """(samples compared, samples whose steps had one option, samples that differ);
    with ``until_different``, up to the first that differs."""
    compared = exercised = differ = 0
    for state, seat in _samples():
        with_rule = _outcomes(state, seat)
        with _every_step_asked():
            asked = _outcomes(state, seat)
        if with_rule is None or asked is None:
            continue
        compared += 1
        exercised += asked.single > 0
        differ += with_rule.states != asked.states
        if differ and until_different:
            break
    return compared, exercised, differ


def test_the_rule_reaches_exactly_the_outcomes_of_asking_every_step() -> None:
    compared, exercised, differ = _compare()
    assert differ == 0
    assert compared >= 50 and exercised >= 12, (compared, exercised)


def test_a_rule_that_took_a_real_choice_would_be_seen() -> None:
    """Were "Done with this action" not counted as an option, the engine would carry
    out the part left without asking, and the comparison finds outcomes missing."""

    def careless(options: list[Option]) -> str | None:
        return only_choice([o for o in options if o.key != "stop"])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(forced, "only_choice", careless)
        compared, _, differ = _compare(until_different=True)
    assert compared > 0 and differ > 0


def test_leaving_the_trades_is_a_step_back_until_a_trade_is_made() -> None:
    """Opened and left without a trade, the any-time trades changed nothing: leaving
    is a step back (and the autopilot, which takes none, trades rather than open and
    leave them for ever). Once a trade is made, stopping is a real choice."""
    state = scripted(3)
    give(state, 0, ruby=2)
    play(state, 0, "exchange")
    options = {o.key: o for o in CAVERNA.pending(state)[0].options}
    assert options["back"].back and len(options) > 2
    play(state, 0, "buy:wood")
    options = {o.key: o for o in CAVERNA.pending(state)[0].options}
    assert not options["back"].back and "buy:wood" in options
    play(state, 0, "back")
    assert state.players[0].goods["ruby"] == 1 and state.top(0) is None
