"""The bounded memory of bodies this process queued (adapters/delivery/recent.py)."""

from __future__ import annotations

from adapters.delivery.codec import encode
from adapters.delivery.recent import RecentBodies
from bot.ui.message import Message, Outgoing, ToChat


def item(text: str) -> Outgoing:
    """A message to one group."""
    return Outgoing(ToChat("tg:-1"), Message(text))


def test_a_kept_body_is_given_back_once() -> None:
    recent = RecentBodies()
    one = item("one")
    recent.keep(encode(one), one)
    assert recent.take(encode(one)) is one
    assert recent.take(encode(one)) is None


def test_an_unknown_body_is_not_guessed() -> None:
    recent = RecentBodies()
    one = item("one")
    recent.keep(encode(one), one)
    assert recent.take(encode(item("two"))) is None


def test_the_oldest_bodies_go_first_past_the_bound() -> None:
    recent = RecentBodies(max_items=2)
    items = [item(f"m{i}") for i in range(3)]
    for each in items:
        recent.keep(encode(each), each)
    assert len(recent) == 2
    assert recent.take(encode(items[0])) is None
    assert recent.take(encode(items[2])) is items[2]


def test_large_bodies_are_not_kept() -> None:
    recent = RecentBodies(max_body_chars=50)
    big = item("x" * 100)
    recent.keep(encode(big), big)
    assert len(recent) == 0 and recent.take(encode(big)) is None
