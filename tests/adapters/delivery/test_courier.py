"""One item through a platform: send, edit the kept message, or neither
(adapters/delivery/courier.py)."""

from __future__ import annotations

import pytest

from adapters.delivery.courier import Courier
from adapters.delivery.platform import FailureKind
from adapters.delivery.records import SentRecord, parse_record
from bot.ui.message import Button, Message, Outgoing, Picture, ToChat, block
from tests.adapters.delivery.memory_platform import Boom, MemoryPlatform

G = "mem:g"
PNG = Picture(b"png", "p.png")


def slot(text: str, **kw: object) -> Outgoing:
    return Outgoing(ToChat(G), Message(text, slot="table", **kw))  # type: ignore[arg-type]


async def test_a_slot_is_sent_then_edited_and_its_record_follows() -> None:
    platform = MemoryPlatform()
    courier = Courier(platform)
    first = await courier.deliver(slot("v1", choices=block([Button("a", "t")])))
    record = parse_record(first)
    assert record is not None and record.buttons and not record.picture
    second = await courier.deliver(slot("v2"), first)
    assert platform.calls("edit") == ["v2"]
    assert parse_record(second) == SentRecord(record.id, buttons=False,
                                              digest=parse_record(second).digest)  # type: ignore[union-attr]
    assert await courier.deliver(slot("v2"), second) is None  # nothing changes: no call
    assert len(platform.log) == 2


async def test_a_kept_message_that_is_gone_is_sent_anew() -> None:
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = await courier.deliver(slot("v1"))
    platform.messages.clear()  # deleted by someone
    again = await courier.deliver(slot("v2"), record)
    assert platform.sent() == ["v1", "v2"]
    assert parse_record(again) != parse_record(record)


async def test_as_text_a_picture_slot_is_replaced_quietly_by_a_text_message() -> None:
    """The old map would mislead under new text: it loses its buttons, and a text
    message takes the slot's place without a notification."""
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = await courier.deliver(slot("v1", picture=PNG, choices=block([Button("a", "t")])))
    new = await courier.deliver(slot("v2", picture=PNG), record, as_text=True)
    assert platform.calls("strip") == ["v1"]
    assert platform.messages["2"].quiet and not platform.messages["2"].picture
    assert parse_record(new) is not None and not parse_record(new).picture  # type: ignore[union-attr]


async def test_a_renewed_message_takes_the_old_ones_buttons_away() -> None:
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = await courier.deliver(slot("Anna, your tribe is 1 short", choices=block([
        Button("a", "t")])))
    await courier.deliver(slot("your turn", renew=True), record)
    assert platform.messages["1"].text == "Anna, your tribe is 1 short"
    assert not platform.messages["1"].buttons and platform.sent() == [
        "Anna, your tribe is 1 short", "your turn"]


@pytest.mark.parametrize("buttons", [True, False])
async def test_a_final_message_is_what_the_old_one_says_too(buttons: bool) -> None:
    """A finished table's result comes as a new message, and the table's older message
    says the result too (without buttons) rather than its last prompt."""
    platform = MemoryPlatform()
    courier = Courier(platform)
    choices = block([Button("a", "t")]) if buttons else None
    record = await courier.deliver(slot("Anna, your tribe is 1 short", choices=choices))
    await courier.deliver(slot("Results: Anna 30", renew=True, final=True), record)
    assert platform.sent() == ["Anna, your tribe is 1 short", "Results: Anna 30"]
    assert platform.messages["1"].text == "Results: Anna 30"
    assert not platform.messages["1"].buttons


async def test_a_final_message_keeps_the_old_pictures_picture() -> None:
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = await courier.deliver(slot("prompt", picture=PNG, choices=block([
        Button("a", "t")])))
    await courier.deliver(slot("Results", picture=PNG, renew=True, final=True), record)
    assert platform.messages["1"].text == "Results" and platform.messages["1"].picture
    assert not platform.messages["1"].buttons


async def test_other_errors_are_raised_for_the_sender() -> None:
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = await courier.deliver(slot("v1"))
    platform.fail("v2", Boom(FailureKind.TRANSIENT))
    with pytest.raises(Boom):
        await courier.deliver(slot("v2"), record)


async def test_a_plain_messages_picture_follows_on_its_own() -> None:
    platform = MemoryPlatform()
    await Courier(platform).follow(Outgoing(ToChat(G), Message("map\nmore", picture=PNG)))
    assert platform.calls("picture") == ["map\nmore"]


async def test_an_edit_the_platform_calls_unchanged_is_remembered() -> None:
    """A record without a digest (kept before digests were): the platform says the edit
    changes nothing; the record learns the digest, and the next such edit makes no call."""
    platform = MemoryPlatform()
    courier = Courier(platform)
    record = parse_record(await courier.deliver(slot("v1")))
    assert record is not None
    old = SentRecord(record.id, buttons=False)  # as stored before digests
    learned = await courier.deliver(slot("v1"), old.dump())
    assert learned is not None and parse_record(learned).digest == record.digest  # type: ignore[union-attr]
    assert await courier.deliver(slot("v1"), learned) is None
    assert platform.calls("edit") == []
