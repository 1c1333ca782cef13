"""The engines' stored models (engine/core/model.py): an assignment stores the value
as it is, while building a model and loading JSON still validate."""

from __future__ import annotations

import pytest
from pydantic import Field, PrivateAttr, ValidationError

from engine.core.model import EngineModel


class _Counter(EngineModel):
    count: int = 0
    names: list[str] = Field(default_factory=list)
    _note: str = PrivateAttr(default="fresh")


def test_an_assigned_field_is_stored_dumped_and_copied() -> None:
    counter = _Counter()
    counter.count += 2
    counter.names = ["a"]
    assert counter.model_dump() == {"count": 2, "names": ["a"]}
    assert _Counter.model_validate_json(counter.model_dump_json()) == counter
    assert counter.model_copy(deep=True) == counter


def test_building_and_loading_still_validate() -> None:
    with pytest.raises(ValidationError):
        _Counter(count="many")
    with pytest.raises(ValidationError):
        _Counter.model_validate_json('{"count": [1]}')


def test_private_attributes_are_made_by_pydantic_as_before() -> None:
    assert _Counter()._note == "fresh"
