"""The table's page from Telegram, against the fake Bot API (which refuses a Mini App
button in a group and one that is not HTTPS, as Telegram does): a private prompt opens
the page as a Mini App, the group's table message by the Mini App's direct link."""

from __future__ import annotations

import json
from typing import Any

from adapters.edge.settings import WebEnv
from tests.adapters.telegram.e2e_helpers import GroupTable, StartBot, players
from tests.adapters.telegram.fake_api import FakeTelegram

WEB = WebEnv(url="https://pages.test", mini_app="https://t.me/campfire_bot/table")


def page_buttons(tg: FakeTelegram, chat_id: int) -> list[dict[str, Any]]:
    """Every button opening a page that the bot put on a keyboard in ``chat_id``."""
    found = []
    for call in tg.calls:
        if str(call.params.get("chat_id")) != str(chat_id) or call.error_code:
            continue
        markup = call.params.get("reply_markup")
        markup = json.loads(markup) if isinstance(markup, str) else markup
        for row in (markup or {}).get("inline_keyboard", []):
            found += [b for b in row if "web_app" in b or "url" in b]
    return found


async def test_private_prompts_open_the_mini_app_and_the_group_its_direct_link(
        tg: FakeTelegram, start_bot: StartBot) -> None:
    anna, boris = players(tg, "Anna", "Boris", started=True)
    group = tg.add_group("Game night", members=[anna, boris])
    async with start_bot(web=WEB) as running:
        table = GroupTable(tg, running, group, [anna, boris])
        table_id = await table.open("/new stone_age 2 en")
        in_group = page_buttons(tg, group.id)
        assert in_group and all(
            b["url"] == f"https://t.me/campfire_bot/table?startapp={table_id}" for b in in_group)
        asked = table.seats[0]
        in_private = page_buttons(tg, asked.id)
        assert in_private and all(
            b["web_app"] == {"url": f"https://pages.test/t/{table_id}"} for b in in_private)
        # Every call that carried one was accepted (none refused, none retried).
        assert not [c for c in tg.calls if c.error_code]
