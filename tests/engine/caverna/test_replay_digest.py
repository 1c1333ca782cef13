"""Seeded random games replay to the same moves and scores: a digest of ten games'
action sequences and final score sheets, pinned so that speed work on the engine cannot
change what it does unnoticed. A deliberate rule change updates ``DIGEST`` (print it with
``python -m tests.engine.caverna.test_replay_digest``).

Last updated for the one-or-two-tap prompts: twin tiles by square then direction,
furnishings grouped, loot as toggles put back before a confirmation, payments asking
whenever food must be converted (cheapest ways, one good at a time, trades), at most
three cheapest ways in a feeding, and the ``housed`` event; then a step of gold buys
only the food missing (1 gold more than the food), not all the gold; then identical parts
of one action (Adventure's two level-1 expeditions) offered as one option, a nested group's
label naming its parts' goods (so two groups that differ only there are two options); then
steps with one real option taken by the engine, not asked (``engine.caverna.forced``:
one spot, one strength, the payment once the food is there, loot with nothing left to
take), and a feeding's step of one kind that is a whole way too offered once; so the
random player draws differently, and logs of the earlier games no longer replay."""

from __future__ import annotations

import hashlib
import json
import random

from engine.caverna.caverna_game import CAVERNA

# (players, seed): every player count, and more four-player games (the bench's count).
GAMES: tuple[tuple[int, int], ...] = (
    (1, 11), (2, 12), (3, 13), (4, 14), (5, 15), (6, 16), (7, 17), (4, 101), (4, 102), (4, 103),
)
DIGEST = "5d6202a86fac218ae228c3e01c9bbc34b0926564cf0db009fcc6f0cbdbb25ac3"


def record(players: int, seed: int) -> dict[str, object]:
    """One random game (the uniform player of ``random_playout``): every (seat, key)
    played and the final score sheet."""
    agent = random.Random(seed)
    state = CAVERNA.new(players, seed)
    moves: list[tuple[int, str]] = []
    while prompts := CAVERNA.pending(state):
        prompt = agent.choice(prompts)
        key = agent.choice(prompt.options).key
        CAVERNA.apply(state, prompt.seat, key)
        moves.append((prompt.seat, key))
    result = CAVERNA.result(state)
    assert result is not None
    sheet = [(s.total, sorted(s.breakdown.items())) for s in result.scores]
    return {"moves": moves, "scores": sheet, "winners": list(result.winners)}


def digest() -> str:
    records = [record(players, seed) for players, seed in GAMES]
    return hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()


def test_seeded_games_replay_unchanged() -> None:
    assert digest() == DIGEST


if __name__ == "__main__":
    print(digest())
