"""The bounded memo: the least recently used entry goes first."""

from __future__ import annotations

import pytest

from engine.core.lru import Lru


def test_lru_forgets_the_least_recently_used() -> None:
    memo: Lru[str, int] = Lru(2)
    memo.put("a", 1)
    memo.put("b", 2)
    assert memo.get("a") == 1  # "a" is now the most recent
    memo.put("c", 3)
    assert "b" not in memo and memo.get("b") is None
    assert (memo.get("a"), memo.get("c"), len(memo)) == (1, 3, 2)
    memo.put("a", 4)  # replacing refreshes too
    memo.put("d", 5)
    assert "c" not in memo and memo.get("a") == 4 and len(memo) == 2
    memo.clear()
    assert len(memo) == 0
    with pytest.raises(ValueError):
        Lru[str, int](0)
