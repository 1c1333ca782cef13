"""Concurrent presses: one button pressed 50 times acts once; simultaneous decisions of
different players all land."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import ActionKind
from bot.table.settings import meta_of
from tests.bot.conftest import AppFactory
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    EVA,
    GROUP,
    Clock,
    Harness,
    dm,
    feeding_goal,
    is_asked,
    plain,
    reach,
)


async def test_fifty_presses_of_one_button_act_once(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    record = await h.get(table_id)
    player = h.user_at(record, 0)
    prompt = (await h.prompts(table_id))[0]
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    key = prompt.options[h.parse(token).int_field(3)].key
    log_before = await h.store.action_log(table_id)
    replies = await asyncio.gather(
        *(h.app.on_press(dm(player), player, token) for _ in range(50)))
    applied = [r for r in replies if r.owed]
    assert len(applied) == 1
    assert applied[0].answer is None and applied[0].out
    # The other 49 see that the move is saved (or, racing, that it is out of date).
    others = {plain(r.answer) for r in replies if not r.owed}
    assert others <= {h.t("press.already_saved"), h.t("press.stale"), h.t("press.busy")}
    assert sum(not r.owed for r in replies) == 49
    after = await h.get(table_id)
    assert after.version == record.version + 1
    log = await h.store.action_log(table_id)
    assert log[:-1] == log_before
    assert log[-1].key == key and log[-1].kind == ActionKind.MOVE
    assert log[-1].user_id == player.id and log[-1].seat == 0
    assert log[-1].version == after.version


@pytest.mark.parametrize("count", [2, 3])
async def test_simultaneous_feeding_decisions_all_land(h: Harness, count: int) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    prompts = await reach(h, table_id, feeding_goal(count))
    feeding = [p for p in prompts if p.label.code == "sa.prompt.pay_feed"]
    assert len(feeding) == count
    table = h.table_message(table_id)
    assert table.choices is None  # several decide at once: each answers privately
    assert h.t("table.answer_in_private") in plain(table.text)
    record = await h.get(table_id)
    log_before = await h.store.action_log(table_id)
    presses = []
    for prompt in feeding:
        user = h.user_at(record, prompt.seat)
        message = h.dm_prompt(record, prompt.seat)  # each was asked privately
        assert f"{user.name}, your tribe is" in plain(message.text)
        token = h.move_tokens(message, prompt)[0]
        presses.append((user, token, prompt))
    replies = await asyncio.gather(*(h.app.on_press(dm(u), u, t) for u, t, _ in presses))
    for reply in replies:
        assert not reply.alert, plain(reply.answer)
    after = await h.get(table_id)
    assert after.version == record.version + len(feeding)
    new = (await h.store.action_log(table_id))[len(log_before):]
    assert sorted((e.seat, e.key) for e in new) == sorted(
        (p.seat, p.options[h.parse(t).int_field(3)].key) for _, t, p in presses)
    assert {e.user_id for e in new} == {u.id for u, _, _ in presses}
    meta = meta_of(after)
    for prompt in feeding:
        assert meta.last_acted[str(prompt.seat)] > record.version
    assert not any(p.label.code == "sa.prompt.pay_feed" for p in await h.prompts(table_id))


async def test_concurrent_joins_never_overfill_a_table(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "2-3", "en")
    join = h.lobby_token(table_id, "join")
    crowd = [BORIS, CLARA, DAN, EVA]
    replies = await asyncio.gather(*(h.app.on_press(GROUP, u, join) for u in crowd))
    joined = [u for u, r in zip(crowd, replies, strict=True) if not r.alert]
    assert len(joined) == 2
    assert {plain(r.answer) for r in replies if r.alert} <= {h.t("lobby.full"),
                                                             h.t("press.busy")}
    record = await h.get(table_id)
    assert record.seats[0] == ANNA.id and sorted(record.seats[1:]) == sorted(
        u.id for u in joined)
    assert record.version == 2 and len(await h.store.action_log(table_id)) == 2


async def test_concurrent_ballots_both_count(h: Harness, clock: Clock) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "clock=1/1/2", "remind=20"))
    clock.advance(3601)
    [announce] = await h.due()
    wait = next(b.token for b in announce.message.all_buttons()
                if b.token.split(".")[3] == "wait")
    record = await h.get(table_id)
    voters = [h.user_at(record, s) for s in (1, 2)]
    replies = await asyncio.gather(*(h.app.on_press(GROUP, v, wait) for v in voters))
    assert sorted(plain(r.answer) for r in replies) == sorted(
        [h.t("vote.counted"), h.t("vote.decided.wait")])
    after = await h.get(table_id)
    assert meta_of(after).vote is None and after.version == record.version + 2


async def test_one_typed_move_sent_five_times_at_once_acts_once(
        make_app: AppFactory, clock: Clock) -> None:
    # Two workers, as behind a balancer: the same command reaches both, several times.
    apps = [await make_app(worker_id="w1"), await make_app(worker_id="w2")]
    h = Harness(apps[0], clock)
    for _ in range(5):
        table_id = await h.started(ANNA, BORIS, CLARA)
        record = await h.get(table_id)
        player = h.user_at(record, 0)
        replies = await asyncio.gather(
            *(apps[i % 2].on_text(GROUP, player, f"/move {table_id} 1", sent_at=clock())
              for i in range(5)))
        applied = [r for r in replies if not r.alert]
        assert len(applied) == 1, [plain(r.answer) for r in replies]
        assert {plain(r.answer) for r in replies if r.alert} <= {
            h.t("press.stale"), h.t("reason.not_your_turn")}
        log = await h.store.action_log(table_id)
        assert [e.kind for e in log].count(ActionKind.MOVE) == 1
        assert (await h.get(table_id)).version == record.version + 1
        # A move typed after the first was saved is a move of its own.
        clock.advance(2)
        if await is_asked(h, table_id, player):
            reply = await apps[1].on_text(GROUP, player, f"/move {table_id} 1",
                                          sent_at=clock())
            assert not reply.alert, plain(reply.answer)


async def test_a_worker_behind_on_a_table_judges_presses_on_the_stored_table(
    h: Harness, make_app: AppFactory, clock: Clock
) -> None:
    """A move is first decided on the table as the worker last saw it (no round trip).
    A second worker that saw the table before the first moved it on applies a press of
    the new turn (not "out of date"), and refuses one of the old turn (the commit's
    version check sends it back to the stored table)."""
    table_id = await h.started(ANNA, BORIS)
    other = Harness(await make_app(worker_id="w2"), clock)
    seen = await other.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    old_token = h.move_tokens(h.dm_prompt(seen, prompt.seat), prompt)[0]
    reply = await h.press(h.user_at(seen, prompt.seat), old_token)
    assert reply.owed, plain(reply.answer)
    moved = await h.get(table_id)
    assert other.store.last_seen(table_id).version == seen.version < moved.version
    after = (await h.prompts(table_id))[0]
    new_token = h.move_tokens(h.dm_prompt(moved, after.seat), after)[0]
    # The old turn's button again, through the worker that is behind: refused.
    again = await other.press(h.user_at(seen, prompt.seat), old_token)
    assert not again.owed and again.answer is not None
    assert (await h.get(table_id)).version == moved.version
    # Behind no more (it has just read the table), but behind again after this:
    reply = await h.press(h.user_at(moved, after.seat), new_token)
    assert reply.owed, plain(reply.answer)
    newest = await h.get(table_id)
    third = (await h.prompts(table_id))[0]
    token = h.move_tokens(h.dm_prompt(newest, third.seat), third)[0]
    assert other.store.last_seen(table_id).version < newest.version
    reply = await other.press(h.user_at(newest, third.seat), token)
    assert reply.owed and not reply.alert, plain(reply.answer)
    assert (await h.get(table_id)).version == newest.version + 1
