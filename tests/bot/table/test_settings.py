"""A table's settings and bookkeeping read from its record: parsed once per record, and
a changed record (a new ``model_copy``) is read afresh."""

from __future__ import annotations

from bot.storage import TableRecord
from bot.table.settings import meta_of, meta_view, options_of


def _record(**fields: object) -> TableRecord:
    values: dict[str, object] = {
        "table_id": "a7k2", "game": "stone_age", "chat_id": "tg:-1", "creator_id": "tg:u1",
        "seats": ("tg:u1", "tg:u2"), "options": {"min_seats": 2, "max_seats": 4},
        "meta": {"names": {"tg:u1": "Ann"}, "opened": {"0": 3}},
    }
    return TableRecord.model_validate(values | fields)


def test_views_follow_the_record_they_read() -> None:
    first = _record()
    assert meta_view(first) == meta_of(first)
    assert meta_view(first) is meta_view(first)  # parsed once
    assert options_of(first).max_seats == 4
    changed = first.model_copy(update={"meta": {"names": {}, "opened": {"1": 5}},
                                       "options": {"min_seats": 2, "max_seats": 3,
                                                   "lang": "en"}})
    assert meta_view(changed).opened == {"1": 5}
    assert (options_of(changed).max_seats, options_of(changed).lang) == (3, "en")
    # The first record reads as it did.
    assert meta_view(first).opened == {"0": 3}
    assert options_of(first).max_seats == 4


def test_meta_of_is_a_private_copy() -> None:
    record = _record()
    view = meta_view(record)
    mine = meta_of(record)
    mine.opened["0"] = 99
    mine.names.clear()
    assert view.opened == {"0": 3} and view.names == {"tg:u1": "Ann"}
    assert meta_view(record).opened == {"0": 3}
    assert meta_of(record).opened == {"0": 3}
