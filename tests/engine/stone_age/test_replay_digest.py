"""Seeded random Stone Age games behave exactly as pinned: a digest of everything the
bot sees in twelve games — every prompt (seat, step, question, each option's key, label
and back mark, in order), every event, the state's JSON after every action, every few
actions a seat's view, the summary, the next turn and the secrets, and at the end every
view, the heuristic values and the result — so that speed work on the engine cannot
change what it does unnoticed. A deliberate rule change updates ``DIGEST`` (print it
with ``python -m tests.engine.stone_age.test_replay_digest``)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState
from tests.engine.digests import event_record, prompt_record

# (players, seed): every player count, and more four-player games (the bench's count).
GAMES: tuple[tuple[int, int], ...] = (
    (2, 11), (2, 12), (2, 13), (3, 21), (3, 22), (3, 23),
    (4, 31), (4, 32), (4, 33), (4, 34), (4, 35), (4, 36),
)
DIGEST = "11639ca3c47684b41070f1c6be5a3706b7c90893e957bacdce7a928162b24488"
# Views, summary, next turn and secrets are recorded every few entries of a record.
VIEW_EVERY = 9


def _looks(state: StoneAgeState, seat: int) -> list[Any]:
    """What else the bot reads of a running game: ``seat``'s view, the summary, who is
    next, what ``seat`` must not see."""
    summary = GAME.summary(state)
    return [GAME.view(state, seat).model_dump_json(),
            [summary.round, summary.phase, summary.deciding, summary.scores],
            GAME.next_turn(state, seat), GAME.secrets(state, seat)]


def record(players: int, seed: int) -> list[Any]:
    """One random game (the uniform player of ``random_playout``), as a list of JSON-ready
    entries: each turn's prompts, the choice, its events and the state after it."""
    agent = random.Random(seed)
    state = GAME.new(players, seed)
    out: list[Any] = [GAME.dump(state)]
    while prompts := GAME.pending(state):
        out.append([prompt_record(p) for p in prompts])
        prompt = agent.choice(prompts)
        key = agent.choice(prompt.options).key
        events = GAME.apply(state, prompt.seat, key)
        out.append([prompt.seat, key, [event_record(e) for e in events], GAME.dump(state)])
        if len(out) % VIEW_EVERY == 0:
            out.append(_looks(state, prompt.seat))
    result = GAME.result(state)
    assert result is not None
    summary = GAME.summary(state)
    out.append([[s.seat, s.total, s.breakdown, s.tiebreak] for s in result.scores])
    out.append([result.winners, result.reason, result.details])
    out.append([summary.round, summary.phase, summary.deciding, summary.scores])
    out.append([GAME.heuristic(state, seat) for seat in range(players)])
    out.append([GAME.view(state, seat).model_dump_json() for seat in [None, *range(players)]])
    return out


def digest() -> str:
    """The hash of every pinned game's record."""
    records = [record(players, seed) for players, seed in GAMES]
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()


def test_seeded_games_replay_unchanged() -> None:
    assert digest() == DIGEST


if __name__ == "__main__":
    print(digest())
