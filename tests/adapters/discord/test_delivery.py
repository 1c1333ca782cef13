"""Discord on the shared delivery layer, through simcord: a crash between a move and its
messages delays them and never drops them, two workers' senders share one outbox, the
board picture rides on the table message, and the token never reaches a log or a
traceback."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import traceback
from datetime import timedelta
from typing import Any

import discord
import pytest
from discord.http import HTTPClient

from adapters.delivery import Courier, Outbox
from adapters.delivery import Sender as DeliverySender
from adapters.discord.service import DiscordSettings, running_discord
from adapters.runtime import make_services, token_secret
from adapters.store import StoreSettings, open_storage
from bot.app import Campfire
from tests.adapters.discord.harness import Table, act, restart, running_bot, settle
from tests.adapters.discord.test_interactions import started, world

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GsEcRt.tH1s-iS-tHe-b0t-t0kEn-d0-n0t-l0g"


class Crash(Exception):
    """The process dies here (``Services.fault``)."""


async def test_a_crash_between_a_move_and_its_messages_delays_them_after_restart(
    store_settings: StoreSettings,
) -> None:
    # What a table owes is repaired once its grace (the store's own clock) is up.
    settings = dataclasses.replace(store_settings, owed_grace=timedelta(seconds=0.3))
    async with running_bot(settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        before = table.table_message.content

        def crash(point: str) -> None:
            if point == "after_commit":
                raise Crash(point)

        bot.app.sv.fault = crash
        member, message, choice = table.next_choice()  # type: ignore[misc]
        result = await act(member, message, choice)
        assert result.acknowledged  # the member hears of the failure, within the deadline
        await settle(bot)
        assert table.table_message.content == before  # the move's messages never left
        await restart(bot)  # a new process on the same Redis
        await asyncio.sleep(0.4)  # past the grace of what the table owes
        await bot.client.run_due()
        await settle(bot)
        assert table.table_message.content != before  # delayed, not dropped


async def test_queued_messages_survive_a_sender_killed_before_delivering(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        before = table.table_message.content
        member, message, choice = table.next_choice()  # type: ignore[misc]
        await act(member, message, choice)  # queued, not yet sent
        assert await bot.client.outbox.pending() > 0
        assert table.table_message.content == before
        await restart(bot)  # the sender that would have sent it is gone
        await settle(bot)
        assert table.table_message.content != before


async def test_two_workers_share_one_outbox_and_deliver_each_message_once(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris", "Vera")
        client = bot.client
        # A second worker: its own outbox handle and sender on the same Redis and prefix.
        outbox = Outbox(bot.storage.redis, store_settings.key_prefix, platform="dc",
                        limits=client.outbox.limits,
                        global_per_second=client.platform.limits.global_per_second)
        second = DeliverySender(outbox, Courier(client.platform), client.platform,
                                client.options, unreachable=client.unreachable)
        before = table.table_message.content
        for _ in range(6):  # moves queued without any sender running
            found = table.next_choice()
            assert found is not None
            await act(*found)
            while await client.outbox.pending() > 0:
                await asyncio.gather(client.sender.step(), second.step())
        assert table.table_message.content != before  # every move shows
        assert await client.outbox.pending() == 0 and await outbox.pending() == 0
        # One live set of buttons in the channel (the table message, edited in place, not
        # sent twice) and no DM sent twice in a row.
        live = [m for m in table.history() if _custom_ids(m)]
        assert [m.id for m in live] == [table.message_id]
        for member in table.seats:
            # A second send would be a neighbour reading the same, never edited; a message
            # edited until it reads like the one before it is not one (every placement
            # passes the turn, so a player's notices come round again).
            messages = table.dm(member)
            assert all(a.content != b.content or b.edited_at is not None
                       for a, b in itertools.pairwise(messages))


async def test_the_table_message_carries_the_board_picture(
    store_settings: StoreSettings,
) -> None:
    async with running_bot(store_settings, seed=238, pictures=True) as bot:
        channel, members = world(bot, "Anna", "Boris", "Vera")
        table = Table(bot, channel, members)
        await table.open("stone_age")
        message = table.table_message
        assert message.attachments, "the game's message has the board attached"
        assert message.attachments[0].filename.endswith(".png")
        assert any(cid.startswith(("cf:", "cfs:")) for cid in _custom_ids(message))


def _custom_ids(message: discord.Message) -> list[str]:
    """The custom_ids of a message's buttons and selects (``cf:…``, ``cfs:…``)."""
    return [str(getattr(c, "custom_id", "")) for row in message.components
            for c in getattr(row, "children", ())]


async def _failing_start(store_settings: StoreSettings, error: Exception,
                         monkeypatch: pytest.MonkeyPatch) -> BaseException:
    async def static_login(self: HTTPClient, token: str) -> None:
        # discord.py's real login runs up to the HTTP call, which fails here (and logs
        # the token, as a careless library might).
        logging.getLogger("discord.http").error("logging in with %s failed", token)
        raise error

    monkeypatch.setattr(HTTPClient, "static_login", static_login)
    async with open_storage(store_settings) as storage:
        secret = await token_secret(storage, store_settings.key_prefix)
        app = Campfire(make_services(storage, secret))
        with pytest.raises(RuntimeError) as raised:
            async with running_discord(DiscordSettings(token=TOKEN), app, storage.redis,
                                       store_settings.key_prefix):
                pass
    return raised.value


def _http_error(status: int) -> discord.HTTPException:
    class Response:
        reason = "Unauthorized"

    response: Any = Response()
    response.status = status
    return discord.HTTPException(response, {"message": f"bad token {TOKEN}", "code": 0})


@pytest.mark.parametrize("error", [
    discord.LoginFailure(f"Improper token has been passed: {TOKEN}"),
    "http",
    OSError(f"cannot connect for {TOKEN}"),
])
async def test_the_token_never_appears_in_logs_or_tracebacks(
    store_settings: StoreSettings, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture, error: Exception | str,
) -> None:
    caplog.set_level(logging.DEBUG)
    failure = await _failing_start(store_settings,
                                   _http_error(500) if error == "http" else error,
                                   monkeypatch)  # type: ignore[arg-type]
    shown = "".join(traceback.format_exception(failure))
    assert TOKEN not in shown
    assert "Discord" in str(failure)
    logged = "\n".join(caplog.handler.format(r) for r in caplog.records)
    assert "logging in with" in logged  # the record was written, the token taken out
    assert TOKEN not in logged
