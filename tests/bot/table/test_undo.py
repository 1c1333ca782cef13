"""Taking back one's own decision: over random games of every game, an undo returns
the table to the state before the decision, and making it again gives the same state;
across a roll, a draw or a card turned up, or after another player decided, it is
refused with its reason and changes nothing; old buttons are out of date afterwards;
the log replays to the table as it stands; the messages that showed the decision are
corrected."""

from __future__ import annotations

import random

import pytest

from bot.storage import ActionKind
from bot.table.settings import meta_view
from bot.table.turns import replay, state_dict
from engine.registry import get_game
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, dm, plain, texts_to

GAMES = ("stone_age", "hunters_gatherers", "caverna")


def undoable_seat(record: object) -> int | None:
    """The seat whose last decision the trail can take back now, if any."""
    meta = meta_view(record)  # type: ignore[arg-type]
    trail = meta.undo
    if trail is None or not trail.points or trail.points[-1].version != record.version:  # type: ignore[attr-defined]
        return None
    return trail.points[-1].seat


@pytest.mark.parametrize("game", GAMES)
async def test_undo_then_the_same_decision_gives_the_same_state(h: Harness, game: str) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, game=game)
    rnd = random.Random(11)
    undone = 0
    for _ in range(90):
        before = await h.get(table_id)
        if not await h.prompts(table_id):
            break
        await h.play_one(table_id, rnd)
        after = await h.get(table_id)
        seat = undoable_seat(after)
        if seat is None or rnd.random() < 0.4:
            continue
        entry = (await h.store.action_log(table_id))[-1]
        user = h.user_at(after, seat)
        reply = await h.text(user, "/undo")
        assert not reply.alert, plain(reply.answer)
        back = await h.get(table_id)
        assert back.version == after.version + 1
        assert back.state == before.state
        again = await h.text(user, f"/move {entry.key}")
        assert not again.alert, plain(again.answer)
        assert (await h.get(table_id)).state == after.state
        undone += 1
    assert undone >= 3, undone
    record = await h.get(table_id)
    log = await h.store.action_log(table_id)
    assert sum(e.kind == ActionKind.UNDO for e in log) == undone
    assert state_dict(replay(get_game(game), record, log)) == record.state


async def test_a_roll_seals_the_decision_before_it(h: Harness) -> None:
    """Stone Age: resolving a hunt rolls dice; that decision cannot be taken back."""
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(3)
    for _ in range(400):
        await h.play_one(table_id, rnd)
        record = await h.get(table_id)
        meta = meta_view(record)
        if meta.sealed == record.version:
            break
    else:
        raise AssertionError("no roll in 400 moves")
    log = await h.store.action_log(table_id)
    user = h.user_at(record, log[-1].seat or 0)
    reply = await h.text(user, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("undo.sealed")
    assert (await h.get(table_id)).version == record.version


async def test_after_another_player_decided_it_stands(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(5)
    first, _ = await h.play_one(table_id, rnd)  # Stone Age: players place in turn
    second, _ = await h.play_one(table_id, rnd)
    assert first != second
    before = await h.snapshot(table_id)
    reply = await h.text(first, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("undo.others_decided")
    await h.assert_unchanged(table_id, before)
    nothing = await h.text(CLARA, "/undo")  # no seat at all
    assert nothing.alert
    await h.assert_unchanged(table_id, before)


async def test_undo_corrects_the_messages_and_outdates_old_buttons(h: Harness) -> None:
    """Stone Age: Anna's placing ends her turn and opens Boris's; she takes it back."""
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(2)
    for _ in range(20):
        record = await h.get(table_id)
        prompt = (await h.prompts(table_id))[0]
        mover = h.user_at(record, prompt.seat)
        old_tokens = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
        await h.press(mover, rnd.choice(old_tokens), dm(mover))
        after = await h.get(table_id)
        if (await h.prompts(table_id))[0].seat != prompt.seat \
                and undoable_seat(after) == prompt.seat:
            break
    else:
        raise AssertionError("no turn passed in 20 moves")
    other = BORIS if mover == ANNA else ANNA
    reply = await h.text(mover, "/undo", GROUP)
    assert not reply.alert
    # The table's message says the decision was taken back, and asks the mover again.
    shown = plain(h.table_message(table_id).text)
    assert h.t("undo.event", name=mover.name) in shown
    assert (await h.prompts(table_id))[0].seat == prompt.seat
    # The other player, whose turn the move had opened, hears it is not theirs after all.
    told = texts_to(reply.out, other)
    assert any("taken back" in t for t in told), told
    # The buttons from before the move are out of date; the new ones work.
    stale = await h.press(mover, old_tokens[0], dm(mover))
    assert stale.alert
    record = await h.get(table_id)
    fresh = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
    assert not (await h.press(mover, fresh[0], dm(mover))).alert


async def test_nothing_is_taken_back_before_a_game_starts(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    before = await h.snapshot(table_id)
    reply = await h.text(ANNA, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("press.not_started")
    await h.assert_unchanged(table_id, before)
