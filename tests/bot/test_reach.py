"""A user's private line: closed by a refusal, opened again by a private message."""

from __future__ import annotations

from bot.app import Campfire
from bot.identity import Chat, User
from bot.reach import close_dm, dm_closed, heard_privately


class MemoryPrefs:
    """A ``PrefsPort`` over a dict, counting writes."""

    def __init__(self) -> None:
        self.values: dict[str, str] = {}
        self.writes = 0

    async def get_pref(self, key: str) -> str | None:
        return self.values.get(key)

    async def set_pref(self, key: str, value: str) -> None:
        self.writes += 1
        self.values[key] = value


async def test_a_refusal_closes_the_line_and_a_private_message_opens_it() -> None:
    prefs = MemoryPrefs()
    assert not await dm_closed(prefs, "tg:1")
    await heard_privately(prefs, "tg:1")
    assert prefs.writes == 0  # nothing was closed: nothing to write
    await close_dm(prefs, "tg:1")
    assert await dm_closed(prefs, "tg:1") and not await dm_closed(prefs, "tg:2")
    await heard_privately(prefs, "tg:1")
    assert not await dm_closed(prefs, "tg:1")


async def test_the_core_opens_the_line_of_whoever_writes_privately(bot_app: Campfire) -> None:
    app = bot_app
    anna = User(id="tg:501", name="Anna")
    await app.dm_refused(anna.id)
    assert await app.dm_closed(anna.id)
    await app.on_text(Chat(id="tg:-100", title="group"), anna, "/help")
    assert await app.dm_closed(anna.id)  # a group message says nothing of the DM
    await app.on_text(Chat(id="tg:501", private=True), anna, "/help")
    assert not await app.dm_closed(anna.id)
