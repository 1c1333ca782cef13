"""Records and table ids (no Redis needed)."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from adapters.store.ids import ALPHABET, encode_table_id
from bot.storage.records import Action, LogEntry, TableRecord, TableStatus

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=10,
)


def test_ids_unique_across_width_boundary() -> None:
    start = 32**4 - 5000
    ids = [encode_table_id(n) for n in range(start, start + 10000)]
    assert len(set(ids)) == len(ids)
    assert {len(i) for i in ids} == {4, 5}
    assert len({encode_table_id(n) for n in range(50000)}) == 50000


@given(st.integers(min_value=0, max_value=10**12))
def test_ids_are_short_and_in_alphabet(n: int) -> None:
    table_id = encode_table_id(n)
    assert 4 <= len(table_id) <= 16
    assert set(table_id) <= set(ALPHABET)
    TableRecord(table_id=table_id, game="caverna", chat_id="c", creator_id="u")


def test_consecutive_ids_do_not_look_alike() -> None:
    first, second = encode_table_id(0), encode_table_id(1)
    assert sum(a == b for a, b in zip(first, second, strict=True)) <= 2


@settings(max_examples=40)
@given(st.dictionaries(st.text(max_size=8), json_values, max_size=5))
def test_record_json_round_trip(state: dict[str, object]) -> None:
    record = TableRecord(
        table_id="a7k2", game="stone_age", chat_id="tg:1", creator_id="tg:2", state=state
    )
    assert TableRecord.model_validate_json(record.model_dump_json()) == record


def test_record_validation() -> None:
    with pytest.raises(ValidationError):
        TableRecord(table_id="A7K2", game="stone_age", chat_id="c", creator_id="u")
    with pytest.raises(ValidationError):
        TableRecord(table_id="a7k2", game="stone_age", chat_id="has space", creator_id="u")
    with pytest.raises(ValidationError):
        TableRecord.model_validate(
            {"table_id": "a7k2", "game": "stone_age", "chat_id": "c", "creator_id": "u", "x": 1}
        )
    with pytest.raises(ValidationError):
        Action(key="x", at=datetime(2030, 1, 1))  # naive time


def test_user_ids_and_status() -> None:
    record = TableRecord(
        table_id="a7k2", game="stone_age", chat_id="c", creator_id="u1", seats=("u2", "u1")
    )
    assert record.user_ids() == ["u1", "u2"]
    assert TableStatus.FINISHED.is_over and TableStatus.ABORTED.is_over
    assert not TableStatus.RUNNING.is_over


def test_log_entry_extends_action() -> None:
    action = Action(key="hunt", user_id="tg:u1", seat=2)
    entry = LogEntry(version=3, **action.model_dump())
    assert (entry.key, entry.seat, entry.version, entry.at) == ("hunt", 2, 3, action.at)
