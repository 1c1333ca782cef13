"""Private notices around a turn change (bot/table/settle.py): the finished player's prompt
becomes "done", the new player gets a fresh prompt, and the player after them hears
"you're next" — inside the "done" edit when that is the player who just finished."""

from __future__ import annotations

import random

from bot.identity import User
from bot.ui.message import Outgoing, Reply, ToUser
from tests.bot.helpers import ANNA, BORIS, CLARA, Harness, dm, plain

MAX_STEPS = 8  # a Stone Age placement takes at most a few taps


async def finish_turn(h: Harness, table_id: str) -> tuple[User, Reply]:
    """The player to decide taps (from their private chat) until their turn passes."""
    rnd = random.Random(7)
    first = (await h.prompts(table_id))[0].seat
    for _ in range(MAX_STEPS):
        user, reply = await h.play_one(table_id, rnd)
        assert not reply.alert, plain(reply.answer)
        if (await h.prompts(table_id))[0].seat != first:
            return user, reply
    raise AssertionError("the turn did not pass")


def private(out: list[Outgoing], user: User) -> list[tuple[str | None, str]]:
    """(slot, text) of every private message to ``user`` in ``out``."""
    return [(o.message.slot, plain(o.message.text)) for o in out
            if isinstance(o.to, ToUser) and o.to.user_id == user.id]


async def test_three_players_the_one_after_the_new_player_hears_they_are_next(
    h: Harness
) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    record = await h.get(table_id)
    names = [h.user_at(record, s).name for s in range(3)]
    player, reply = await finish_turn(h, table_id)
    assert player == h.user_at(record, 0)
    done = h.t("turn.done", game="Stone Age", table=table_id)
    assert private(reply.out, player) == [(f"dm:{table_id}:0", done)]
    [(slot, text)] = private(reply.out, h.user_at(record, 1))
    assert slot == f"dm:{table_id}:1" and text.startswith("🔔")
    nxt = h.t("turn.you_are_next", game="Stone Age", table=table_id, name=names[1])
    # An edit of their private message: it informs, the push comes with their turn.
    assert private(reply.out, h.user_at(record, 2)) == [(f"dm:{table_id}:2", nxt)]
    # Every message says which table version it shows (a queue keeps slots from going
    # back to an older one).
    assert {o.version for o in reply.out} == {(await h.get(table_id)).version}


async def test_two_players_the_done_edit_says_you_are_next_and_nothing_else_is_sent(
    h: Harness
) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    player, reply = await finish_turn(h, table_id)
    other = h.user_at(record, 1)
    both = h.t("turn.done_next", game="Stone Age", table=table_id, name=other.name)
    assert private(reply.out, player) == [(f"dm:{table_id}:0", both)]
    [(slot, text)] = private(reply.out, other)
    assert slot == f"dm:{table_id}:1" and text.startswith("🔔")


async def test_a_quiet_table_sends_no_next_notices(h: Harness) -> None:
    two = await h.started(ANNA, BORIS, options=("en", "quiet"))
    record = await h.get(two)
    player, reply = await finish_turn(h, two)
    done = h.t("turn.done", game="Stone Age", table=two)
    assert private(reply.out, player) == [(f"dm:{two}:0", done)]

    three = await h.started(ANNA, BORIS, CLARA, options=("en", "quiet"))
    record = await h.get(three)
    _, reply = await finish_turn(h, three)
    assert private(reply.out, h.user_at(record, 2)) == []


async def test_a_player_can_turn_next_notices_off_and_on(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    record = await h.get(table_id)
    third = h.user_at(record, 2)
    reply = await h.text(third, "/settings next off", dm(third))
    assert plain(reply.answer) == h.t("settings.next_off")
    assert "off" in plain((await h.text(third, "/settings", dm(third))).answer)
    _, reply = await finish_turn(h, table_id)
    assert private(reply.out, third) == []  # no "you're next" for them
    reply = await h.text(third, "/settings next on", dm(third))
    assert plain(reply.answer) == h.t("settings.next_on")
    assert plain((await h.text(third, "/settings next maybe", dm(third))).answer).startswith(
        "Usage: /settings [next] [on|off]")
