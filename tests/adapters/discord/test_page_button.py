"""The table's page from Discord: the 🌐 button on the table message answers the member
who presses it, and only them (ephemerally), with their own signed link."""

from __future__ import annotations

import re

from adapters.store import StoreSettings
from adapters.web.links import LinkSigner, SignedLinks
from tests.adapters.discord.harness import Table, buttons, running_bot

KEY = b"pages-on-discord-test-secret-000"
BASE = "https://pages.test"


async def test_the_page_button_gives_the_presser_their_own_link_ephemerally(
        store_settings: StoreSettings) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        bot.app.sv.serve_pages(SignedLinks(LinkSigner(KEY), BASE, 1.0, bot.clock))
        guild = bot.env.create_guild(name="Game night")
        channel = guild.create_text_channel("games")
        members = [guild.add_member(bot.env.create_user(n)) for n in ("Anna", "Boris")]
        watcher = guild.add_member(bot.env.create_user("Vera"))
        table = Table(bot, channel, members)
        await table.open("stone_age")
        page = next(cid for label, cid in buttons(table.table_message) if label.startswith("🌐"))
        version = (await bot.app.sv.store.get(table.table_id)).version
        for member in (members[0], watcher):  # a player, and a member not seated
            result = await member.click(table.table_message, custom_id=page)
            assert result.acknowledged and result.ephemeral
            assert result.response is not None
            # The link's target (Discord shows its text with markdown escapes).
            found = re.search(rf"\(<{re.escape(BASE)}/t/{table.table_id}\?k=([\w.\-]+)>\)",
                              result.response.content)
            assert found, result.response.content
            grant = LinkSigner(KEY).check(found.group(1), bot.clock())
            assert grant is not None and grant.user_id == f"dc:{member.id}"
        # Asking for a link changes nothing at the table.
        assert (await bot.app.sv.store.get(table.table_id)).version == version
