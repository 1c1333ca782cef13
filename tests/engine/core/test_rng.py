"""Randomness whose position is part of the game state."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, TypeAdapter

from engine.core.rng import RandomSource, ScriptedRandom, SeededRandom


class Holder(BaseModel):
    """A state-like model holding either kind of source."""

    rng: RandomSource


def rolls(rng: SeededRandom | ScriptedRandom, n: int, lo: int = 1, hi: int = 6) -> list[int]:
    return [rng.randint(lo, hi) for _ in range(n)]


# --- SeededRandom ------------------------------------------------------------------


def test_same_seed_same_sequence() -> None:
    assert rolls(SeededRandom(seed=42), 200) == rolls(SeededRandom(seed=42), 200)


def test_values_depend_only_on_seed_and_position() -> None:
    sequence = rolls(SeededRandom(seed=7), 30)
    for pos in (0, 1, 13, 29):
        assert SeededRandom(seed=7, pos=pos).randint(1, 6) == sequence[pos]


def test_the_position_advances_by_one_per_value() -> None:
    rng = SeededRandom(seed=3)
    assert rng.pos == 0
    rng.randint(1, 6)
    assert rng.pos == 1
    rng.randint(0, 1000)
    assert rng.pos == 2
    rng.shuffle(list(range(10)))  # Fisher-Yates draws one value per swap: 9
    assert rng.pos == 11
    rng.shuffle([])
    rng.shuffle([1])
    assert rng.pos == 11


def test_a_json_round_trip_mid_sequence_continues_identically() -> None:
    rng = SeededRandom(seed=2024)
    rolls(rng, 17)
    data = rng.model_dump_json()
    restored = SeededRandom.model_validate_json(data)
    assert restored.pos == 17 and restored.seed == 2024
    assert rolls(restored, 50) == rolls(rng, 50)


def test_a_round_trip_through_the_tagged_union_keeps_the_kind() -> None:
    rng = SeededRandom(seed=99)
    rolls(rng, 5)
    holder = Holder(rng=rng)
    back = Holder.model_validate_json(holder.model_dump_json())
    assert isinstance(back.rng, SeededRandom)
    assert back.rng.pos == 5
    assert rolls(back.rng, 20) == rolls(rng, 20)
    adapter: TypeAdapter[SeededRandom | ScriptedRandom] = TypeAdapter(RandomSource)
    scripted = adapter.validate_json('{"kind": "scripted", "values": [4, 2], "pos": 1}')
    assert isinstance(scripted, ScriptedRandom)
    assert scripted.randint(1, 6) == 2


def test_different_seeds_differ() -> None:
    sequences = {tuple(rolls(SeededRandom(seed=s), 20)) for s in range(10)}
    assert len(sequences) == 10
    assert rolls(SeededRandom(seed=1), 20) != rolls(SeededRandom(seed=2), 20)


def test_values_stay_in_range_and_cover_it() -> None:
    rng = SeededRandom(seed=5)
    values = rolls(rng, 600)
    assert set(values) == {1, 2, 3, 4, 5, 6}
    assert all(rng.randint(5, 5) == 5 for _ in range(10))
    wide = rolls(rng, 500, -3, 3)
    assert min(wide) == -3 and max(wide) == 3
    # Roughly uniform: no face of 600 d6 rolls is wildly off its expected 100.
    assert all(60 < values.count(f) < 140 for f in range(1, 7))


def test_shuffle_is_a_deterministic_permutation() -> None:
    items = [f"c{i:02d}" for i in range(1, 37)]
    a, b = list(items), list(items)
    SeededRandom(seed=11).shuffle(a)
    SeededRandom(seed=11).shuffle(b)
    assert a == b
    assert sorted(a) == sorted(items) and len(a) == len(items)
    assert a != items
    c = list(items)
    SeededRandom(seed=12).shuffle(c)
    assert c != a and sorted(c) == sorted(items)


# --- ScriptedRandom ----------------------------------------------------------------


def test_scripted_values_come_in_order() -> None:
    rng = ScriptedRandom(values=[3, 1, 6, 6])
    assert rolls(rng, 4) == [3, 1, 6, 6]
    assert rng.pos == 4


def test_scripted_source_refuses_a_value_outside_the_range() -> None:
    rng = ScriptedRandom(values=[2, 7])
    assert rng.randint(1, 6) == 2
    with pytest.raises(RuntimeError, match="outside"):
        rng.randint(1, 6)
    assert rng.pos == 1  # the bad value was not consumed
    assert rng.randint(1, 10) == 7
    with pytest.raises(RuntimeError):
        ScriptedRandom(values=[0]).randint(1, 6)


def test_scripted_source_raises_when_exhausted() -> None:
    rng = ScriptedRandom(values=[5])
    rng.randint(1, 6)
    with pytest.raises(RuntimeError, match="ran out"):
        rng.randint(1, 6)
    with pytest.raises(RuntimeError, match="ran out"):
        ScriptedRandom().randint(1, 6)
    rng.extend([4, 2])
    assert rolls(rng, 2) == [4, 2]


def test_scripted_shuffle_keeps_the_order_and_uses_no_values() -> None:
    rng = ScriptedRandom(values=[1])
    items = ["c03", "c01", "c02"]
    rng.shuffle(items)
    assert items == ["c03", "c01", "c02"]
    assert rng.pos == 0
    assert rng.randint(1, 6) == 1


def test_scripted_source_survives_a_json_round_trip() -> None:
    rng = ScriptedRandom(values=[1, 2, 3, 4])
    rng.randint(1, 6)
    back = ScriptedRandom.model_validate_json(rng.model_dump_json())
    assert back.pos == 1
    assert rolls(back, 3) == [2, 3, 4]
