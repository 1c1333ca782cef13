"""The turn clock: a player who runs out is announced with vote buttons; the others
decide to wait, hand the seat to the AI (easy, normal or strong) or abort; the group
hears how the vote ended. A ballot or a button of the autopilot's old levels (random,
greedy) counts for the level that plays alike."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis

from bot.storage import ActionKind, TableNotFound, TableRecord, TableStatus
from bot.table.autopilot import choose
from bot.table.settings import meta_of
from bot.table.turns import replay, state_dict
from bot.ui.message import Message, ToChat, ToUser
from engine.registry import get_game
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    GROUP,
    Clock,
    Harness,
    User,
    feeding_goal,
    plain,
    reach,
)

HOUR = 3600.0
CLOCK = ("en", "clock=1/1/2", "remind=20")  # one hour to start with, +1 h a turn, 2 h max


@dataclass
class TimedOut:
    table_id: str
    vote: Message
    late: User  # the player who ran out
    voters: list[User]

    def token(self, choice: str) -> str:
        return next(b.token for b in self.vote.all_buttons() if b.token.split(".")[3] == choice)


async def time_out(h: Harness, clock: Clock, *others: User) -> TimedOut:
    """A started table whose first player has just run out of time."""
    table_id = await h.started(ANNA, *(others or (BORIS, CLARA)), options=CLOCK)
    record = await h.get(table_id)
    late = h.user_at(record, 0)
    out = await h.due_around(HOUR, 5)
    assert len(out) == 1 and out[0].to == ToChat(GROUP.id)
    voters = [h.user_at(record, s) for s in range(1, len(record.seats))]
    return TimedOut(table_id, out[0].message, late, voters)


async def test_time_out_is_announced_with_vote_buttons(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    assert plain(t.vote.text) == (f"⌛ {t.late.name} ran out of time at table #{t.table_id}. "
                                  "The other players decide:")
    assert [b.label for b in t.vote.all_buttons()] == [
        "Wait longer", "AI: easy", "AI: normal", "AI: strong", "Abort the game"]
    record = await h.get(t.table_id)
    vote = meta_of(record).vote
    assert vote is not None and vote.seat == 0 and vote.ballots == {}
    last = (await h.store.action_log(t.table_id))[-1]
    assert (last.key, last.kind, last.seat) == ("timeout", ActionKind.SYSTEM, 0)
    assert await h.due() == []  # announced once


async def test_the_late_player_and_outsiders_cannot_vote(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    before = await h.snapshot(t.table_id)
    for user in (t.late, DAN):
        for choice in ("wait", "abort"):
            reply = await h.press(user, t.token(choice), GROUP)
            assert reply.alert and plain(reply.answer) == h.t("vote.not_a_voter")
        reply = await h.text(user, "/vote abort")
        assert plain(reply.answer) == h.t("vote.not_a_voter")
    await h.assert_unchanged(t.table_id, before)


async def test_vote_wait_gives_more_time(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    first, second = t.voters
    reply = await h.press(first, t.token("abort"), GROUP)
    assert plain(reply.answer) == h.t("vote.counted") and reply.out == []
    reply = await h.press(second, t.token("wait"), GROUP)
    assert plain(reply.answer) == h.t("vote.counted")  # 1:1 is no majority
    vote = meta_of(await h.get(t.table_id)).vote
    assert vote is not None and vote.ballots == {first.id: "abort", second.id: "wait"}
    reply = await h.press(first, t.token("wait"), GROUP)  # a voter may change their mind
    assert plain(reply.answer) == h.t("vote.decided.wait")
    record = await h.get(t.table_id)
    meta = meta_of(record)
    assert meta.vote is None and meta.autopilot == {}
    assert meta.bank["0"] == pytest.approx(HOUR)  # one turn bonus
    assert record.status == TableStatus.RUNNING
    dms = [o for o in reply.out if o.to == ToUser(t.late.id)]
    assert dms and dms[0].message.choices  # the late player is asked again
    # The new time runs out an hour later, not before.
    out = await h.due_around(HOUR, 5)
    assert [plain(o.message.text).startswith(f"⌛ {t.late.name} ran out") for o in out] == [True]
    # The late player may still play with the buttons they have.
    prompt = (await h.prompts(t.table_id))[0]
    token = h.move_tokens(dms[0].message, prompt)[0]
    assert not (await h.press(t.late, token)).alert
    assert meta_of(await h.get(t.table_id)).vote is None  # playing ends the vote
    reply = await h.press(first, t.token("abort"), GROUP)
    assert reply.alert and plain(reply.answer) == h.t("vote.closed")


async def autopilot_moves(h: Harness, table_id: str) -> list[tuple[int, str, int]]:
    return [(e.seat, e.key, e.version) for e in await h.store.action_log(table_id)
            if e.user_id == "autopilot"]


async def assert_seat_0_played_as(h: Harness, record: TableRecord, level: str) -> None:
    """Every autopilot move in the table's log is what ``choose`` at ``level`` plays for
    seat 0 on the table as it stood, with the autopilot's randomness for that version;
    and the log replays to the stored state."""
    log = await h.store.action_log(record.table_id)
    auto = [i for i, e in enumerate(log) if e.user_id == "autopilot"]
    assert auto
    game = get_game("stone_age")
    for i in auto:
        state = replay(game, record, log[:i])
        prompt = next(p for p in game.pending(state) if p.seat == 0)
        assert log[i].key == choose(game, state, prompt, level,
                                    random.Random(f"{record.table_id}:{log[i].version - 1}"))
    assert state_dict(replay(game, record, log)) == record.state


async def test_vote_easy_ai_plays_now_and_later_until_resume(
    h: Harness, clock: Clock
) -> None:
    t = await time_out(h, clock)
    record = await h.get(t.table_id)
    old_buttons = h.move_tokens(h.dm_prompt(record, 0))
    await h.press(t.voters[0], t.token("easy"), GROUP)
    reply = await h.text(t.voters[1], "/vote easy")
    assert plain(reply.answer) == h.t("vote.decided.easy")
    after = await h.get(t.table_id)
    assert meta_of(after).autopilot == {"0": "easy"}
    moves = await autopilot_moves(h, t.table_id)
    assert moves and {seat for seat, _, _ in moves} == {0}
    assert all(p.seat != 0 for p in await h.prompts(t.table_id))  # played at once
    reply = await h.press(t.late, old_buttons[0])
    assert reply.alert and plain(reply.answer) == h.t("press.stale")
    # Whenever the seat is asked again, the autopilot answers at once.
    rnd = random.Random(9)
    for _ in range(40):
        _, reply = await h.play_one(t.table_id, rnd)
        assert not reply.alert
        assert all(p.seat != 0 for p in await h.prompts(t.table_id))
    later = await autopilot_moves(h, t.table_id)
    assert len(later) > len(moves)
    # No reminders or time-outs for a seat the autopilot holds.
    clock.advance(30 * HOUR)
    out = await h.due()
    assert all(o.to != ToUser(t.late.id) for o in out)
    assert not any("ran out of time" in plain(o.message.text) and t.late.name in
                   plain(o.message.text) for o in out)
    # /resume gives the seat back.
    reply = await h.text(t.late, "/resume")
    assert plain(reply.answer) == h.t("cmd.resumed")
    assert meta_of(await h.get(t.table_id)).autopilot == {}
    assert plain((await h.text(t.late, "/resume")).answer) == h.t("cmd.not_on_autopilot")
    for _ in range(40):
        if any(p.seat == 0 for p in await h.prompts(t.table_id)):
            break
        await h.play_one(t.table_id, rnd)
    assert any(p.seat == 0 for p in await h.prompts(t.table_id))
    assert await autopilot_moves(h, t.table_id) == later
    record = await h.get(t.table_id)
    prompt = next(p for p in await h.prompts(t.table_id) if p.seat == 0)
    token = h.move_tokens(h.dm_prompt(record, 0), prompt)[0]  # asked privately again
    assert not (await h.press(t.late, token)).alert


async def test_vote_normal_ai_plays_the_greedy_choice(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock, BORIS)  # two players: one voter decides alone
    reply = await h.press(t.voters[0], t.token("normal"), GROUP)
    assert plain(reply.answer) == h.t("vote.decided.normal")
    record = await h.get(t.table_id)
    assert meta_of(record).autopilot == {"0": "normal"}
    await assert_seat_0_played_as(h, record, "normal")


async def test_vote_abort_ends_the_game(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    record = await h.get(t.table_id)
    button = h.move_tokens(h.dm_prompt(record, 0))[0]
    await h.press(t.voters[0], t.token("abort"), GROUP)
    reply = await h.press(t.voters[1], t.token("abort"), GROUP)
    assert plain(reply.answer) == h.t("vote.decided.abort")
    with pytest.raises(TableNotFound):
        await h.get(t.table_id)
    assert (await h.store.get_archived(t.table_id)).status == TableStatus.ABORTED
    reply = await h.press(t.late, button)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    reply = await h.press(t.voters[0], t.token("wait"), GROUP)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    clock.advance(100 * HOUR)
    assert await h.due() == []


async def test_buttons_of_an_earlier_vote_do_not_count(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    for voter in t.voters:
        await h.press(voter, t.token("wait"), GROUP)
    clock.advance(HOUR + 10)
    out = await h.due()
    assert len(out) == 1  # the same player ran out again: a new vote
    before = await h.snapshot(t.table_id)
    reply = await h.press(t.voters[0], t.token("abort"), GROUP)  # the OLD message's button
    assert reply.alert and plain(reply.answer) == h.t("press.stale")
    await h.assert_unchanged(t.table_id, before)


async def test_two_players_running_out_together_both_get_a_vote(
    h: Harness, clock: Clock
) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=CLOCK)
    prompts = await reach(h, table_id, feeding_goal(2))
    late = sorted(p.seat for p in prompts)
    clock.advance(3 * HOUR)
    out = await h.due()
    assert len(out) == 1
    first = meta_of(await h.get(table_id)).vote
    assert first is not None and first.seat in late
    record = await h.get(table_id)
    voters = [h.user_at(record, s) for s in range(3) if s != first.seat]
    token = next(b.token for b in out[0].message.all_buttons()
                 if b.token.split(".")[3] == "easy")
    for voter in voters:
        await h.press(voter, token, GROUP)
    clock.advance(HOUR)
    out = await h.due()
    other = meta_of(await h.get(table_id)).vote
    assert other is not None and other.seat in late and other.seat != first.seat
    assert any("ran out of time" in plain(o.message.text) for o in out)


async def test_the_group_hears_how_the_vote_ended(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    for voter in t.voters:
        await h.press(voter, t.token("strong"), GROUP)
    told = h.inbox[(GROUP.id, f"vote:{t.table_id}")]
    assert plain(told.text) == h.t("vote.ended.timeout.strong", name=t.late.name,
                                   table=t.table_id)
    assert told.renew and told.choices is None


async def test_the_late_players_move_ends_the_vote(h: Harness, clock: Clock) -> None:
    t = await time_out(h, clock)
    record = await h.get(t.table_id)
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    assert not (await h.press(t.late, token)).alert
    assert meta_of(await h.get(t.table_id)).vote is None
    told = h.inbox[(GROUP.id, f"vote:{t.table_id}")]
    assert plain(told.text) == h.t("vote.ended.timeout.moved_on", name=t.late.name,
                                   table=t.table_id)
    reply = await h.press(t.voters[0], t.token("wait"), GROUP)
    assert reply.alert and plain(reply.answer) == h.t("vote.closed")


async def _with_ai(h: Harness, *people: User, ai: int) -> str:
    """A started clocked table of ``people`` and ``ai`` AI players."""
    table_id = await h.new_table(people[0], str(len(people) + ai), f"ai={ai}", *CLOCK)
    for user in people[1:]:
        await h.press(user, h.lobby_token(table_id, "join"), GROUP)
    assert not (await h.press(people[0], h.lobby_token(table_id, "start"), GROUP)).alert
    return table_id


async def test_only_people_are_asked_and_one_person_decides_beside_ai_players(
    h: Harness, clock: Clock
) -> None:
    table_id = await _with_ai(h, ANNA, BORIS, ai=2)
    for _ in range(10):
        clock.advance(HOUR + 5)
        if any("ran out of time" in plain(o.message.text) for o in await h.due()):
            break
    vote = meta_of(await h.get(table_id)).vote
    assert vote is not None
    record = await h.get(table_id)
    late = record.seats[vote.seat]
    [voter] = [u for u in (ANNA, BORIS) if u.id != late]
    assert [record.seats[s] for s in vote.voters] == [voter.id]
    message = h.inbox[(GROUP.id, f"vote:{table_id}")]
    assert plain(message.text).endswith("The other players decide:")
    assert [b.label for b in message.all_buttons()] == [
        "Wait longer", "AI: easy", "AI: normal", "AI: strong", "Abort the game"]
    # An AI's ballot cannot be cast (no platform gives an ``ai:`` id), and one person's
    # ballot is the majority.
    reply = await h.text(voter, "/vote strong")
    assert plain(reply.answer) == h.t("vote.decided.strong")
    assert meta_of(await h.get(table_id)).autopilot[str(vote.seat)] == "strong"


async def test_a_person_alone_with_ai_players_is_waited_for(h: Harness, clock: Clock) -> None:
    """Nobody could vote: the clock running out asks nothing, and the player plays on."""
    table_id = await _with_ai(h, ANNA, ai=1)
    before = len(await h.store.action_log(table_id))
    clock.advance(3 * HOUR)
    out = await h.due()
    assert not any("ran out of time" in plain(o.message.text) for o in out)
    record = await h.get(table_id)
    assert meta_of(record).vote is None and len(await h.store.action_log(table_id)) == before
    assert any(record.seats[p.seat] == ANNA.id for p in await h.prompts(table_id))


async def test_a_stored_vote_of_the_autopilots_old_levels_counts_as_the_ai_levels(
    h: Harness, clock: Clock, raw_redis: Redis, key_prefix: str
) -> None:
    """A table stored before the AI levels: its open vote holds a ``greedy`` ballot, and
    its message the old buttons. The ballot still counts (as ``normal``), an old
    button still votes, and the seat is played."""
    t = await time_out(h, clock)
    first, second = t.voters
    key = f"{key_prefix}table:{t.table_id}"
    stored = json.loads(await raw_redis.hget(key, "record"))
    stored["meta"]["vote"]["ballots"] = {first.id: "greedy"}
    await raw_redis.hset(key, "record", json.dumps(stored))
    old_button = h.sv.signer.make("v", t.table_id, str(stored["meta"]["vote"]["opened"]),
                                  "greedy")
    reply = await h.press(second, old_button, GROUP)
    assert plain(reply.answer) == h.t("vote.decided.normal")
    record = await h.get(t.table_id)
    assert meta_of(record).autopilot == {"0": "normal"}
    assert all(p.seat != 0 for p in await h.prompts(t.table_id))


async def test_a_stored_table_on_the_old_greedy_autopilot_loads_and_plays(
    h: Harness, raw_redis: Redis, key_prefix: str
) -> None:
    """A record written before the AI levels holds its seat on ``greedy``: it reads as
    ``normal``, and the seat is played as greedy played it."""
    table_id = await h.started(ANNA, BORIS)
    key = f"{key_prefix}table:{table_id}"
    stored = json.loads(await raw_redis.hget(key, "record"))
    stored["meta"]["autopilot"] = {"0": "greedy"}
    await raw_redis.hset(key, "record", json.dumps(stored))
    record = await h.get(table_id)
    assert meta_of(record).autopilot == {"0": "normal"}
    await h.text(BORIS, f"/status {table_id}")  # what the table owes: the seat's moves
    record = await h.get(table_id)
    assert all(p.seat != 0 for p in await h.prompts(table_id))
    await assert_seat_0_played_as(h, record, "greedy")
