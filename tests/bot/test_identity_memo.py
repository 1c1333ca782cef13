"""Values remembered by their source object's identity (bot/identity_memo.py)."""

from __future__ import annotations

from bot.identity_memo import IdentityMemo


def counting() -> tuple[IdentityMemo[dict[str, int], int], list[dict[str, int]]]:
    """A memo of ``sum`` that notes every source it really derived from."""
    calls: list[dict[str, int]] = []

    def derive(source: dict[str, int]) -> int:
        calls.append(source)
        return sum(source.values())

    return IdentityMemo(derive, limit=2), calls


def test_one_object_is_derived_once() -> None:
    memo, calls = counting()
    source = {"a": 1, "b": 2}
    assert memo(source) == memo(source) == 3
    assert calls == [source]


def test_an_equal_but_other_object_is_derived_on_its_own() -> None:
    memo, calls = counting()
    one, other = {"a": 1}, {"a": 1}
    memo(one)
    memo(other)
    assert len(calls) == 2 and calls[1] is other


def test_past_its_limit_it_starts_afresh() -> None:
    memo, calls = counting()
    first = {"a": 1}
    for source in (first, {"b": 2}, {"c": 3}):
        memo(source)
    memo(first)
    assert calls.count(first) == 2
