"""The seeded generator's arithmetic (engine/core/splitmix.py), compiled or not: it must
give the values every stored game was played with."""

from __future__ import annotations

from engine.core.rng import SeededRandom
from engine.core.splitmix import draw, splitmix64


def test_the_hash_is_splitmix64() -> None:
    # The generator's published first output for a state of 0.
    assert splitmix64(0) == 0xE220A8397B1DCDAF


def test_the_values_are_those_games_were_stored_with() -> None:
    # Computed by the generator as it stood before its arithmetic moved here (f13ae9e).
    rng = SeededRandom(seed=42)
    assert [rng.randint(1, 6) for _ in range(10)] == [1, 2, 1, 5, 1, 3, 5, 3, 1, 3]
    far = SeededRandom(seed=2**40 + 7, pos=1000)
    assert [far.randint(0, 99) for _ in range(5)] == [95, 78, 99, 60, 24]
    assert far.pos == 1005


def test_a_draw_depends_only_on_seed_and_position_and_stays_in_range() -> None:
    values = [draw(9, pos, 3, 5) for pos in range(200)]
    assert set(values) == {3, 4, 5}
    assert values == [draw(9, pos, 3, 5) for pos in range(200)]
