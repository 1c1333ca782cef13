"""DiscordPlatform: what Discord's errors mean to the delivery layer (unit), and the two
remedies seen end to end through simcord: a deleted table message is sent anew, and a
server error is retried until the edit goes through."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from adapters.delivery import FailureKind
from adapters.discord.delivery import DiscordPlatform, split_id
from adapters.store import StoreSettings
from bot.ui.message import Message, Outgoing, ToChat, ToUser
from tests.adapters.discord.harness import choices, settle
from tests.adapters.discord.test_interactions import play, started

TO_CHANNEL = Outgoing(ToChat("dc:10"), Message("hi"))
TO_MEMBER = Outgoing(ToUser("dc:20"), Message("hi"), table="t1")


def http_error(kind: type[discord.HTTPException], status: int, code: int = 0,
               ) -> discord.HTTPException:
    """An error as discord.py raises it for an answer with ``status`` and ``code``."""
    class Response:
        reason = "x"

    response: Any = Response()
    response.status = status
    return kind(response, {"message": "x", "code": code})


def platform() -> DiscordPlatform:
    return DiscordPlatform(client=None, redis=None, prefix="t:")  # type: ignore[arg-type]


@pytest.mark.parametrize(("exc", "item", "kind"), [
    (http_error(discord.Forbidden, 403, 50007), TO_MEMBER, FailureKind.UNREACHABLE),
    (http_error(discord.Forbidden, 403, 50001), TO_CHANNEL, FailureKind.PERMANENT),
    (http_error(discord.NotFound, 404, 10008), TO_CHANNEL, FailureKind.GONE),
    (http_error(discord.NotFound, 404, 10003), TO_CHANNEL, FailureKind.PERMANENT),
    (http_error(discord.DiscordServerError, 502), TO_CHANNEL, FailureKind.TRANSIENT),
    (http_error(discord.HTTPException, 400, 50035), TO_CHANNEL, FailureKind.PERMANENT),
    (aiohttp.ClientConnectionError("reset"), TO_CHANNEL, FailureKind.TRANSIENT),
    (TimeoutError(), TO_CHANNEL, FailureKind.TRANSIENT),
])
def test_errors_are_classified_by_what_helps(exc: BaseException, item: Outgoing,
                                             kind: FailureKind) -> None:
    failure = platform().classify(exc, item)
    assert failure is not None and failure.kind is kind


def test_a_rate_limit_says_how_long_to_wait() -> None:
    failure = platform().classify(discord.RateLimited(7.5), TO_CHANNEL)
    assert failure is not None and failure.kind is FailureKind.RETRY_AFTER
    assert failure.retry_after_s == 7.5
    raw = http_error(discord.HTTPException, 429)
    raw.retry_after = 3.0  # type: ignore[attr-defined]
    failure = platform().classify(raw, TO_CHANNEL)
    assert failure is not None and failure.retry_after_s == 3.0


def test_a_bug_is_not_discords() -> None:
    assert platform().classify(KeyError("x"), TO_CHANNEL) is None


def test_windows_are_per_channel_and_per_member() -> None:
    assert platform().rate_key(TO_CHANNEL) == ("ch:dc:10", False)
    assert platform().rate_key(TO_MEMBER) == ("dm:dc:20", True)
    assert split_id("10/30") == (10, 30)


async def test_a_deleted_table_message_is_sent_anew(store_settings: StoreSettings) -> None:
    from tests.adapters.discord.harness import running_bot

    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        old = table.message_id
        bot.env.backend.delete_message(table.channel.id, old)
        await play_one(table)
        live = [m for m in table.history()
                if any(token.startswith("m.") for _, token, _ in choices(m))]
        assert len(live) == 1 and live[0].id != old


async def test_a_server_error_is_retried_until_the_edit_goes_through(
    store_settings: StoreSettings, caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.adapters.discord.harness import running_bot

    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        before = table.table_message.content
        bot.env.inject_error("PATCH", f"/channels/{table.channel.id}/messages/*", status=500,
                             times=2)
        await play(table, 1)
        await settle(bot)
        assert table.table_message.content != before
        failed = [r.getMessage() for r in caplog.records if "500" in r.getMessage()]
        assert failed and "edit" in failed[0]  # the failure was met, logged once, retried


async def play_one(table: Any) -> None:
    """One move from the players' DMs or the table message (found before it changed)."""
    found = table.next_choice(from_dm=True)
    assert found is not None
    await table.choose(*found)


async def test_a_quiet_message_goes_silent_and_a_loud_one_does_not(
    store_settings: StoreSettings,
) -> None:
    """``quiet`` (a resend that may have arrived already, a following picture) is
    Discord's silent flag: the message notifies nobody; a plain one keeps its push."""
    from tests.adapters.discord.harness import running_bot

    silent = discord.MessageFlags(suppress_notifications=True).value
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        item = Outgoing(ToChat(f"dc:{table.channel.id}"), Message("Round 2"))
        sent = {quiet: await bot.client.platform.send(item, item.message, quiet=quiet)
                for quiet in (True, False)}
        stored = {quiet: bot.env.backend.get_message(table.channel.id,
                                                     split_id(ref)[1])
                  for quiet, ref in sent.items()}
        assert stored[True].flags & silent
        assert not stored[False].flags & silent
