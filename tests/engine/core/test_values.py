"""The engines' value classes (engine/core/values.py): plain slotted dataclasses at run
time, compiled or not, that copy, pickle and compare by value."""

from __future__ import annotations

import copy
import pickle

import pytest

from engine.core.prompts import Event, Label, Option, Prompt
from engine.core.values import value

LABEL = Label("sa.opt.place", {"loc": "forest", "counts": [1, 2]})
VALUES = [
    LABEL,
    Option("place:forest:2", LABEL),
    Prompt(1, LABEL, (Option("a", LABEL), Option("back", Label("opt.back"), back=True)), 2),
    Event("placed", 0, {"loc": "forest", "count": 2}),
]


@pytest.mark.parametrize("item", VALUES, ids=lambda v: type(v).__name__)
def test_a_value_copies_pickles_and_compares_by_value(item: object) -> None:
    # The bot deep-copies labels it has seen, and the AI's processes pickle prompts.
    for twin in (copy.copy(item), copy.deepcopy(item), pickle.loads(pickle.dumps(item))):
        assert twin == item and twin is not item


def test_a_value_is_slotted_and_equal_by_its_fields() -> None:
    @value
    class Pair:
        a: int
        b: str = "x"

    assert Pair(1) == Pair(1, "x") != Pair(2)
    assert Label("a", {"n": 1}) != Label("a", {"n": 2})
    assert not hasattr(Pair(1), "__dict__")
    assert repr(Pair(1)).endswith("Pair(a=1, b='x')")
