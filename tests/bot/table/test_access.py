"""A table id typed in another chat acts on nothing and gives nothing away.

Every command that takes a table id is tried with the id of a running table of another
group, by an admin of that other group, and from the private chat of someone without a
seat: each is answered exactly like an id that does not exist, and the table is left
as it was. Buttons of a table pressed from another chat are refused the same way.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from bot.input.commands import COMMANDS
from tests.bot.helpers import ANNA, BORIS, CLARA, DAN, GROUP, GROUP2, Harness, dm, plain

TABLE_COMMANDS = ("join", "leave", "start", "cancel", "status", "board", "move", "turn",
                  "abort", "resume", "undo", "vote", "log")
ARGS = {"move": "1", "abort": "yes", "vote": "abort"}


def test_the_list_covers_every_table_command() -> None:
    # Commands that never address a table by id.
    without_table = {"new", "rules", "language", "settings", "games", "mygames", "help",
                     "stats"}
    assert set(COMMANDS) - without_table == set(TABLE_COMMANDS)


@pytest.mark.parametrize("command", TABLE_COMMANDS)
async def test_a_foreign_table_id_is_unknown(h: Harness, command: str) -> None:
    table_id = await h.started(ANNA, BORIS)
    before = await h.snapshot(table_id)
    admin = replace(DAN, is_admin=True)
    arg = ARGS.get(command, "")
    unknown = h.t("cmd.no_such_table", table=table_id)
    for user, chat in ((admin, GROUP2), (CLARA, dm(CLARA)), (DAN, GROUP2)):
        reply = await h.text(user, f"/{command} {table_id} {arg}".strip(), chat)
        assert plain(reply.answer) == unknown, (command, user.id, chat.id)
        assert reply.out == []
    await h.assert_unchanged(table_id, before)


async def test_an_id_that_does_not_exist_reads_the_same(h: Harness) -> None:
    await h.started(ANNA, BORIS)
    reply = await h.text(DAN, "/status zz99", GROUP2)
    assert plain(reply.answer) == h.t("cmd.no_such_table", table="zz99")


async def test_abort_button_pressed_from_another_chat_does_nothing(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    reply = await h.text(ANNA, "/abort")
    assert reply.answer_choices is not None
    [button] = reply.answer_choices.choices
    before = await h.snapshot(table_id)
    admin = replace(DAN, is_admin=True)
    reply = await h.press(admin, button.token, GROUP2)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    await h.assert_unchanged(table_id, before)
    # In its own chat, an admin of that chat may abort.
    reply = await h.press(replace(CLARA, is_admin=True), button.token, GROUP)
    assert not reply.alert, plain(reply.answer)


async def test_an_admin_flag_in_a_private_chat_is_no_right(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    before = await h.snapshot(table_id)
    reply = await h.text(replace(BORIS, is_admin=True), f"/abort {table_id} yes", dm(BORIS))
    assert reply.alert and plain(reply.answer) == h.t("table.abort_not_allowed")
    await h.assert_unchanged(table_id, before)


async def test_lobby_buttons_pressed_from_another_chat_do_nothing(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    token = h.lobby_token(table_id, "join")
    reply = await h.press(CLARA, token, GROUP2)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    assert (await h.get(table_id)).seats == (ANNA.id,)
