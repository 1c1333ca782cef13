"""The bounded memo of answers about home boards."""

from __future__ import annotations

from engine.caverna.memo import Memo


def test_an_answer_is_computed_once_and_then_kept() -> None:
    memo: Memo[str, list[int]] = Memo()
    calls: list[str] = []

    def answer() -> list[int]:
        calls.append("asked")
        return [1]

    first = memo.get("q", answer)
    assert memo.get("q", answer) is first
    assert calls == ["asked"] and len(memo) == 1
    assert memo.get("other", lambda: [2]) == [2]
    assert len(memo) == 2


def test_a_full_memo_starts_again_from_empty() -> None:
    memo: Memo[int, int] = Memo(kept=3)
    for question in range(3):
        memo.get(question, lambda: 10)
    assert len(memo) == 3
    assert memo.get(3, lambda: 30) == 30
    assert len(memo) == 1  # emptied, then the new answer kept
    assert memo.get(0, lambda: -1) == -1  # forgotten: asked afresh


def test_a_known_answer_is_read_without_computing_one() -> None:
    memo: Memo[str, bool] = Memo()
    assert memo.known("q") is None and len(memo) == 0  # nothing computed or kept
    memo.get("q", lambda: False)
    assert memo.known("q") is False
