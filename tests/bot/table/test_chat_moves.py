"""A chat that changes its id (bot/table/chat_moves.py): tables, their index and the chat's
language follow; shown buttons keep working; repeating the move changes nothing."""

from __future__ import annotations

from bot.identity import Chat
from bot.storage import TableStatus
from bot.ui.message import ToChat
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, GROUP2, Harness, plain

MOVED = Chat(id="con:g1-moved", title="g1")


async def test_running_and_open_tables_move_with_their_chat(h: Harness) -> None:
    running = await h.started(ANNA, BORIS)
    lobby = await h.new_table(CLARA)
    elsewhere = await h.started(ANNA, CLARA, chat=GROUP2)
    out = await h.app.on_chat_moved(GROUP.id, MOVED.id)
    h.keep(out)
    assert sorted(o.message.slot or "" for o in out) == sorted(
        [f"table:{running}", f"table:{lobby}"])
    assert all(o.to == ToChat(MOVED.id) for o in out)
    assert await h.store.tables_in_chat(GROUP.id) == []
    assert sorted(r.table_id for r in await h.store.tables_in_chat(MOVED.id)) == \
        sorted([running, lobby])
    assert (await h.get(elsewhere)).chat_id == GROUP2.id
    assert (await h.get(lobby)).status == TableStatus.LOBBY

    # Typed commands in the new chat find the table; in the old one nothing is left.
    reply = await h.text(ANNA, f"/status {running}", MOVED)
    assert reply.out and reply.out[0].to == ToChat(MOVED.id)
    assert plain((await h.text(ANNA, "/games", GROUP)).answer) == h.t("cmd.no_tables")


async def test_buttons_shown_before_the_move_still_play(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    tokens = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
    h.keep(await h.app.on_chat_moved(GROUP.id, MOVED.id))
    reply = await h.press(h.user_at(record, prompt.seat), tokens[0])
    assert not reply.alert, plain(reply.answer)
    assert (await h.get(table_id)).version == record.version + 2  # the move, the press
    # The table's own message now goes to the new chat.
    assert any(o.to == ToChat(MOVED.id) and o.message.slot == f"table:{table_id}"
               for o in reply.out)


async def test_moving_again_changes_nothing_and_the_language_follows(h: Harness) -> None:
    await h.text(ANNA, "/language ru")
    table_id = await h.started(ANNA, BORIS)
    assert await h.app.on_chat_moved(GROUP.id, MOVED.id)
    version = (await h.get(table_id)).version
    assert await h.app.on_chat_moved(GROUP.id, MOVED.id) == []
    assert await h.app.on_chat_moved(MOVED.id, MOVED.id) == []
    assert (await h.get(table_id)).version == version
    assert await h.sv.chat_lang(MOVED, BORIS) == "ru"
