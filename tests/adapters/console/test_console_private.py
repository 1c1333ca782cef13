"""The console shows a reply's private part as a private message to the actor; asked in
the group, the group is told where it went (the note), as on Telegram."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, cast

from adapters.console.chat import GROUP, ConsoleChat, private_chat
from bot.identity import User
from bot.ui.markup import as_rich
from bot.ui.message import Message, Private, Reply

ANNA = User(id="con:anna", name="anna", lang="en")


async def shown(reply: Reply, private_asked: bool, tmp_path: Path) -> list[str]:
    out = io.StringIO()
    # Nothing here has buttons: neither the bot nor the button store is asked anything.
    console = ConsoleChat(cast(Any, None), cast(Any, None), out, tmp_path, lang="en")
    console.names[ANNA.id] = ANNA.name
    await console.show_reply(ANNA, private_chat(ANNA) if private_asked else GROUP, reply)
    return out.getvalue().splitlines()


async def test_a_private_part_asked_in_the_group_goes_privately_with_the_note(
    tmp_path: Path,
) -> None:
    reply = Reply(private=Private(Message("Your board"), "t1",
                                  note=as_rich("Sent to you privately.")))
    assert await shown(reply, False, tmp_path) == [
        "→ anna: Sent to you privately.", "── [DM → anna]", "   Your board"]


async def test_in_the_private_chat_there_is_no_note(tmp_path: Path) -> None:
    reply = Reply(private=Private(Message("Your board"), "t1", note=None))
    assert await shown(reply, True, tmp_path) == ["── [DM → anna]", "   Your board"]
