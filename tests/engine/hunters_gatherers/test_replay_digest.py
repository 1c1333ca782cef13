"""Seeded random games replay to the same prompts, events and states: a digest of whole
games, pinned so that speed work on the engine cannot change what it does unnoticed.

Each game is played to its end by the uniform random player of ``random_playout``; the
digest takes in every prompt offered (seat, step, label code and arguments, every
option's key, label and ``back``), every event of every action, the state's JSON after
every action, the onlooker's view now and then, and the final result. A deliberate rule
change updates ``DIGEST`` (print it with
``python -m tests.engine.hunters_gatherers.test_replay_digest``).
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from engine.hunters_gatherers.game import HuntersGatherers
from tests.engine.digests import event_record, prompt_record

# (players, seed, options): every player count, more four-player games (the bench's
# count), and one game named in the first naming scheme (``names: n14``).
GAMES: tuple[tuple[int, int, dict[str, str]], ...] = (
    (2, 12, {}), (3, 13, {}), (4, 14, {}), (5, 15, {}),
    (4, 101, {}), (4, 102, {}), (2, 103, {"names": "n14"}),
)
# The onlooker's view is hashed every this many actions (views cost more than prompts).
VIEW_EVERY = 25
DIGEST = "918d84a6d32fdc84ef067578b617e09a2fe364bf9ad4fcb80ba96bb12c19b2b0"


def play(game: HuntersGatherers, hasher: Any, players: int, seed: int,
         options: dict[str, str]) -> None:
    """One random game fed into ``hasher``."""
    agent = random.Random(seed)

    def feed(item: object) -> None:
        hasher.update(json.dumps(item, sort_keys=True).encode())

    state = game.new(players, seed, options)
    feed(game.dump(state))
    actions = 0
    while prompts := game.pending(state):
        feed([prompt_record(p) for p in prompts])
        prompt = agent.choice(prompts)
        key = agent.choice(prompt.options).key
        feed([event_record(e) for e in game.apply(state, prompt.seat, key)])
        feed(game.dump(state))
        actions += 1
        if actions % VIEW_EVERY == 0:
            feed(game.view(state, None).model_dump(mode="json"))
    result = game.result(state)
    assert result is not None
    feed([[s.seat, s.total, s.breakdown, s.tiebreak] for s in result.scores])
    feed([result.winners, result.reason, result.details])


def digest() -> str:
    """The digest of every game of ``GAMES``, played one after another by one game
    object (as the bench plays them: its memos carry over from game to game)."""
    game = HuntersGatherers()
    hasher = hashlib.sha256()
    for players, seed, options in GAMES:
        play(game, hasher, players, seed, options)
    return hasher.hexdigest()


def test_seeded_games_replay_unchanged() -> None:
    assert digest() == DIGEST


if __name__ == "__main__":
    print(digest())
