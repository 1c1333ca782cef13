"""What a state keeps beside its value (engine/core/aside.py)."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.core.aside import Aside, forgetting_after
from engine.core.prompts import Event


class Kept(Aside):
    __slots__ = ("items",)

    def __init__(self) -> None:
        self.items: list[int] = []


def test_an_aside_is_no_part_of_a_value_and_copies_empty() -> None:
    full = Kept()
    full.items.append(1)
    assert full == Kept() and full != object()
    for twin in (copy.copy(full), copy.deepcopy(full), pickle.loads(pickle.dumps(full))):
        assert isinstance(twin, Kept) and twin.items == []
    with pytest.raises(TypeError):
        hash(full)


def test_what_was_kept_is_forgotten_after_a_key_taken_or_refused() -> None:
    kept = Kept()

    def apply(state: Kept, step: int, key: str, events: list[Event]) -> None:
        state.items.append(step)
        if key == "bad":
            raise ValueError(key)

    applying = forgetting_after(apply, lambda state: state.items.clear())
    applying(kept, 1, "ok", [])
    assert kept.items == []
    with pytest.raises(ValueError):
        applying(kept, 2, "bad", [])
    assert kept.items == []
