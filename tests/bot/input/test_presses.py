"""Every button is checked against the table: forged, foreign, stale or dead buttons
are answered with an alert and change nothing."""

from __future__ import annotations

import random
import string

import pytest
from redis.asyncio import Redis

from bot.storage import TableNotFound, TableStatus
from bot.ui.message import Reply
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    GROUP,
    Harness,
    dm,
    plain,
)


def refused(h: Harness, reply: Reply, code: str, **args: object) -> None:
    assert reply.alert, plain(reply.answer)
    assert plain(reply.answer) == h.t(code, **args)
    assert reply.out == []


async def running_with_button(h: Harness) -> tuple[str, str, int]:
    """A running two-player table and the first player's first move token."""
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    return table_id, token, 0


def altered(token: str, position: int) -> str:
    """``token`` with one character replaced by another allowed one."""
    alphabet = string.ascii_letters + string.digits + "-_"
    old = token[position]
    new = alphabet[(alphabet.index(old) + 1) % len(alphabet)] if old in alphabet else "x"
    return token[:position] + new + token[position + 1:]


async def test_forged_tokens_are_refused(h: Harness) -> None:
    table_id, token, seat = await running_with_button(h)
    player = h.user_at(await h.get(table_id), seat)
    before = await h.snapshot(table_id)
    rnd = random.Random(5)
    forged = [
        "",
        "hello",
        "".join(rnd.choice(string.printable) for _ in range(40)),
        token + "x" * 64,
        "m." + "a" * 200,
        token.rsplit(".", 1)[0] + ".",
        token.rsplit(".", 1)[0],
    ]
    forged += [altered(token, i) for i in range(len(token)) if token[i] != "."]
    forged += [token.replace(".", ":", 1), token[1:]]
    for raw in forged:
        reply = await h.press(player, raw)
        refused(h, reply, "press.forged")
    await h.assert_unchanged(table_id, before)
    # The genuine token still works afterwards.
    assert not (await h.press(player, token)).alert
    assert (await h.get(table_id)).version == before.version + 1


async def test_a_token_signed_with_another_secret_is_refused(h: Harness) -> None:
    from bot.ui.tokens import TokenSigner

    table_id, token, seat = await running_with_button(h)
    player = h.user_at(await h.get(table_id), seat)
    parsed = h.parse(token)
    other = TokenSigner(b"some-other-deployment-secret!!").make(
        parsed.kind, parsed.table, *parsed.fields)
    before = await h.snapshot(table_id)
    refused(h, await h.press(player, other), "press.forged")
    await h.assert_unchanged(table_id, before)


async def test_another_players_button(h: Harness) -> None:
    table_id, token, seat = await running_with_button(h)
    record = await h.get(table_id)
    owner, other = h.user_at(record, seat), h.user_at(record, 1 - seat)
    before = await h.snapshot(table_id)
    refused(h, await h.press(other, token), "press.not_your_button", name=owner.name)
    # Also from the group message, where everyone sees the buttons.
    group_token = h.move_tokens(h.table_message(table_id))[0]
    refused(h, await h.press(other, group_token, GROUP), "press.not_your_button",
            name=owner.name)
    await h.assert_unchanged(table_id, before)


async def test_a_non_players_press(h: Harness) -> None:
    table_id, token, _ = await running_with_button(h)
    before = await h.snapshot(table_id)
    refused(h, await h.press(DAN, token), "press.not_a_player")
    refused(h, await h.press(DAN, h.move_tokens(h.table_message(table_id))[0], GROUP),
            "press.not_a_player")
    await h.assert_unchanged(table_id, before)


async def test_stale_button_after_the_turn_moved_on(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    old_dm = h.move_tokens(h.dm_prompt(record, 0))
    old_group = h.move_tokens(h.table_message(table_id))
    rnd = random.Random(2)
    while (await h.prompts(table_id))[0].seat == 0:  # the first player finishes the turn
        _, reply = await h.play_one(table_id, rnd)
        assert not reply.alert
    before = await h.snapshot(table_id)
    used = {e.via for e in before.log}
    for token, chat in [*((t, dm(first)) for t in old_dm), *((t, GROUP) for t in old_group[:3])]:
        reply = await h.press(first, token, chat)
        if token in used:  # pressed before: the table again, not "out of date"
            assert not reply.alert and plain(reply.answer) == h.t("press.already_saved")
            assert any(o.message.slot == f"table:{table_id}" for o in reply.out)
        else:
            refused(h, reply, "press.stale")
    await h.assert_unchanged(table_id, before)
    # The first player's move-step button of a multi-step choice is stale too once used.
    current = (await h.prompts(table_id))[0]
    player = h.user_at(await h.get(table_id), current.seat)
    token = h.move_tokens(h.dm_prompt(await h.get(table_id), current.seat), current)[0]
    assert not (await h.press(player, token)).alert
    before = await h.snapshot(table_id)
    again = await h.press(player, token)  # a double tap, or the platform's redelivery
    assert not again.alert and plain(again.answer) == h.t("press.already_saved")
    await h.assert_unchanged(table_id, before)
    # Another player's press of that button is still refused.
    other = h.user_at(await h.get(table_id), (current.seat + 1) % 3)
    refused(h, await h.press(other, token), "press.not_your_button", name=player.name)


async def test_lobby_table_move_and_vote_tokens(h: Harness) -> None:
    """Tokens of kinds that do not fit the table's state are refused."""
    table_id = await h.new_table(ANNA, "en")
    await h.text(BORIS, "/join")
    signer = h.sv.signer
    before = await h.snapshot(table_id)
    refused(h, await h.press(ANNA, signer.make("m", table_id, 0, 0, "00000000", 0)),
            "press.not_started")
    refused(h, await h.press(BORIS, signer.make("v", table_id, 0, "abort"), GROUP),
            "vote.closed")
    refused(h, await h.press(ANNA, signer.make("l", table_id, "explode"), GROUP),
            "press.forged")
    await h.assert_unchanged(table_id, before)


async def test_buttons_of_an_aborted_game(h: Harness) -> None:
    table_id, token, seat = await running_with_button(h)
    record = await h.get(table_id)
    player, other = h.user_at(record, seat), h.user_at(record, 1 - seat)
    reply = await h.text(ANNA, "/abort")
    assert reply.answer_choices is not None
    [confirm] = reply.answer_choices.choices
    assert not (await h.press(ANNA, confirm.token, GROUP)).alert
    with pytest.raises(TableNotFound):
        await h.get(table_id)
    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.ABORTED
    log = await h.store.action_log(table_id, archived=True)
    refused(h, await h.press(player, token), "press.no_table")
    join = h.sv.signer.make("l", table_id, "join")
    refused(h, await h.press(other, join, GROUP), "press.no_table")
    refused(h, await h.press(ANNA, confirm.token, GROUP), "press.no_table")
    reply = await h.text(player, f"/move {table_id} 1")
    assert reply.answer and "#" in plain(reply.answer)
    assert (await h.store.get_archived(table_id)) == archived
    assert await h.store.action_log(table_id, archived=True) == log


async def test_abort_needs_the_creator_and_a_fresh_confirmation(h: Harness) -> None:
    table_id, token, seat = await running_with_button(h)
    before = await h.snapshot(table_id)
    reply = await h.text(BORIS, "/abort")
    assert reply.alert and plain(reply.answer) == h.t("table.abort_not_allowed")
    reply = await h.text(BORIS, "/abort yes")
    assert reply.alert and plain(reply.answer) == h.t("table.abort_not_allowed")
    reply = await h.text(ANNA, "/abort")
    assert reply.answer_choices is not None
    [confirm] = reply.answer_choices.choices
    refused(h, await h.press(BORIS, confirm.token, GROUP), "table.abort_not_allowed")
    await h.assert_unchanged(table_id, before)
    # The table moves on: the old confirmation is stale.
    player = h.user_at(await h.get(table_id), seat)
    assert not (await h.press(player, token)).alert
    before = await h.snapshot(table_id)
    refused(h, await h.press(ANNA, confirm.token, GROUP), "press.stale")
    await h.assert_unchanged(table_id, before)
    # An admin may abort; the typed confirmation works.
    from dataclasses import replace

    admin = replace(CLARA, is_admin=True)
    reply = await h.text(admin, f"/abort {table_id} yes")
    assert plain(reply.answer) == h.t("table.aborted_short", table=table_id)
    assert (await h.store.get_archived(table_id)).status == TableStatus.ABORTED


async def test_buttons_of_a_deleted_game(h: Harness, raw_redis: Redis) -> None:
    table_id, token, seat = await running_with_button(h)
    player = h.user_at(await h.get(table_id), seat)
    keys = h.store.keys
    await raw_redis.delete(keys.table(table_id), keys.log(table_id))
    for raw, chat in [(token, dm(player)), (h.sv.signer.make("l", table_id, "join"), GROUP),
                      (h.sv.signer.make("v", table_id, 1, "wait"), GROUP)]:
        refused(h, await h.press(player, raw, chat), "press.no_table")
    with pytest.raises(TableNotFound):
        await h.get(table_id)
    with pytest.raises(TableNotFound):
        await h.store.get_archived(table_id)


async def test_odd_and_garbled_tokens_get_the_forged_answer(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    before = await h.snapshot(table_id)
    signer = h.sv.signer
    for raw in (f"v.{table_id}.1.wait.ы", signer.make("m", table_id, "x", 0, "zz", 0),
                signer.make("m", table_id, 1, 0, "0a1b2c3d", 0, 9), "\udcff"):
        reply = await h.press(BORIS, raw, GROUP)
        assert reply.alert and plain(reply.answer) == h.t("press.forged"), raw
    await h.assert_unchanged(table_id, before)


def test_every_token_kind_has_its_press_handler() -> None:
    from bot.input.presses import PRESSES
    from bot.ui.tokens import SHAPES, TokenKind

    assert set(PRESSES) == set(TokenKind) == set(SHAPES)
