"""Private notices around a turn change (bot/table/settle.py): the finished player's prompt
becomes "done", the new player gets a fresh prompt, and the player after them hears
"you're next" — inside the "done" edit when that is the player who just finished. An AI
player is never sent anything."""

from __future__ import annotations

import random

import pytest

from bot.games import manifests
from bot.identity import User, is_ai
from bot.storage import TableNotFound, TableStatus
from bot.table.log import load_any
from bot.table.settings import meta_of
from bot.ui.message import Outgoing, Reply, ToUser
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, dm, plain

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


# --- AI players ------------------------------------------------------------------------


async def _ai_table(h: Harness, game: str, humans: tuple[User, ...], ai: int,
                    options: tuple[str, ...]) -> str:
    """A started table of ``game``: ``humans`` (the first opens it) and ``ai`` AI players."""
    seats = len(humans) + ai
    table_id = await h.new_table(humans[0], str(seats), f"ai={ai}", "level=normal", *options,
                                 game=game)
    for user in humans[1:]:
        assert not (await h.press(user, h.lobby_token(table_id, "join"), GROUP)).alert
    assert not (await h.press(humans[0], h.lobby_token(table_id, "start"), GROUP)).alert
    return table_id


async def _vote_as_people(h: Harness, table_id: str, rnd: random.Random) -> None:
    """Every person a time-out's vote asks answers it (never with abort)."""
    record = await h.get(table_id)
    vote = meta_of(record).vote
    if vote is None:
        return
    choices = ["wait", "easy", "normal", "strong"]
    assert vote.voters and not any(is_ai(record.seats[s]) for s in vote.voters)
    for seat in vote.voters:
        await h.text(h.user_at(record, seat), f"/vote {table_id} {rnd.choice(choices)}")


@pytest.mark.parametrize("game", ["stone_age", "hunters_gatherers", "caverna"])
async def test_nothing_is_ever_sent_to_an_ai_over_a_whole_game(h: Harness, game: str) -> None:
    """Two people and two AI players (one AI for a game of three at most), a clock that
    runs out now and then (reminders, time-outs, votes), commands typed along the way:
    every message of the game goes to a chat or a person, none to an AI; the AI seats
    play through the one move path; the result and ``/log`` name them as AI."""
    ai = 2 if manifests()[game].max_players >= 4 else 1
    table_id = await _ai_table(h, game, (ANNA, BORIS), ai, ("en", "clock=1/1/2", "remind=1"))
    record = await h.get(table_id)
    rnd = random.Random(game)
    for step in range(3000):
        try:
            record = await h.get(table_id)
        except TableNotFound:
            break
        if step % 41 == 40:
            h.clock.advance(7300)  # reminders, and the clock runs out: a vote
            await h.due()
            await _vote_as_people(h, table_id, rnd)
            continue
        if step % 97 == 50:
            await h.text(ANNA, f"/status {table_id}")
            await h.text(BORIS, f"/undo {table_id}")
        prompts = await h.prompts(table_id)
        if not prompts:
            await _vote_as_people(h, table_id, rnd)
            continue
        prompt = rnd.choice(prompts)
        assert not record.seats[prompt.seat].startswith("ai:"), "an AI's prompt was left open"
        user = h.user_at(record, prompt.seat)
        tokens = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
        if not tokens:
            await h.text(user, f"/turn {table_id}", dm(user))
            continue
        await h.press(user, rnd.choice(tokens))
    else:
        raise AssertionError("the game did not end")
    record, log = await load_any(h.store, table_id)
    assert record.status == TableStatus.FINISHED
    assert any(e.key == "timeout" for e in log)  # a vote was asked on the way
    to_people = {o.to.user_id for o in h.sent if isinstance(o.to, ToUser)}
    assert to_people and not [u for u in to_people if is_ai(u)], to_people
    ai_seats = {s for s, user_id in enumerate(record.seats) if is_ai(user_id)}
    assert len(ai_seats) == ai
    assert ai_seats <= {e.seat for e in log if e.user_id == "autopilot"}
    # The result and the log say which seats were AI: by their names.
    names = [f"🤖 AI {n} (normal)" for n in range(1, ai + 1)]
    result = plain(h.inbox[(GROUP.id, f"table:{table_id}")].text)
    assert all(name in result for name in names), result
    told = plain((await h.text(ANNA, f"/log {table_id} 60")).answer)
    assert any(name in told for name in names), told
    # The people hear their own results, privately.
    assert all(any(o.key == "result" for o in h.sent if o.to == ToUser(u.id))
               for u in (ANNA, BORIS))
