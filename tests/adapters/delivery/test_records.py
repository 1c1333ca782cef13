"""The record of a slot's message (adapters/delivery/records.py)."""

from __future__ import annotations

from adapters.delivery.records import SentRecord, parse_record


def test_a_record_round_trips() -> None:
    record = SentRecord("123", picture=True, picture_digest="ab", buttons=False, digest="cd")
    assert parse_record(record.dump()) == record
    assert parse_record(None) is None and parse_record("") is None


def test_a_record_telegram_stored_before_the_shared_layer_still_reads() -> None:
    """Integer ids, and no ``kb``/``td`` in the oldest ones: buttons are assumed (so an
    old message still loses them) and no digest (so the next edit is made)."""
    assert parse_record('{"id": 55, "photo": true, "pic": "ff"}') == SentRecord(
        "55", picture=True, picture_digest="ff", buttons=True, digest=None)
