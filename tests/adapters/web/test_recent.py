"""A page worker's recent drawings: kept by key, the least recently used forgotten first."""

from __future__ import annotations

from adapters.web.recent import Recent


def test_the_oldest_is_forgotten_beyond_the_size() -> None:
    kept: Recent[str, int] = Recent(2)
    assert kept.keep("a", 1) == 1
    kept.keep("b", 2)
    kept.keep("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (None, 2, 3)


def test_a_value_asked_for_is_kept_longer() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.keep("a", 1)
    kept.keep("b", 2)
    assert kept.get("a") == 1  # now "b" is the oldest
    kept.keep("c", 3)
    assert (kept.get("a"), kept.get("b"), kept.get("c")) == (1, None, 3)


def test_keeping_a_key_again_replaces_its_value() -> None:
    kept: Recent[str, int] = Recent(2)
    kept.keep("a", 1)
    kept.keep("a", 5)
    kept.keep("b", 2)
    assert (kept.get("a"), kept.get("b")) == (5, 2)
