"""A whole game through the fake Telegram, watched as Prometheus watches it: ``/metrics``
scraped over HTTP while it is played and after it ended shows presses, commits,
deliveries and picture times with plausible values, labelled by platform and game and
never by who played."""

from __future__ import annotations

import random
from dataclasses import replace

from adapters.edge.settings import AiEnv, OpsEnv, WebEnv
from adapters.ops.service import ops_on
from adapters.runtime import running_core
from adapters.store import StoreSettings
from adapters.telegram.service import telegram_on
from adapters.telegram.settings import TelegramSettings
from tests.adapters.ops.scrape import get, label_values, samples, total
from tests.adapters.telegram.e2e_helpers import GroupTable, players
from tests.adapters.telegram.fake_api import FakeTelegram

GAME = "hunters_gatherers"  # the shortest shipped game with a picture (~190 moves for two)
MAX_PRESSES = 1500
PREFIX = "campfire_"


async def test_a_scrape_during_a_whole_game_shows_its_figures(
    tg: FakeTelegram, settings: TelegramSettings, store_settings: StoreSettings,
    quick_sender: None,
) -> None:
    anna, boris = players(tg, "Anna", "Boris")
    group = tg.add_group("Camp", members=[anna, boris])
    async with running_core(store_settings, pictures=True, web=WebEnv(),
                            ai=AiEnv(workers=0)) as core, \
            telegram_on(core, replace(settings)) as running, \
            ops_on(core, OpsEnv(listen="127.0.0.1:0")) as port:
        assert port is not None
        running.app.sv.rng = random.Random(5)
        table = GroupTable(tg, running, group, [anna, boris])
        await table.open(f"/new {GAME} 2 en")
        status, text = await get(port, "/metrics")
        assert status == 200
        early = samples(text)
        where = await table.play_through(MAX_PRESSES, dm_after="group")
        status, text = await get(port, "/metrics")
        assert status == 200
        late = samples(text)
        status, _ = await get(port, "/readyz")
        assert status == 200

    on_game = {"platform": "telegram", "game": GAME}
    # Every press is counted once, under its game: the lobby's (Join, Start), then the
    # game's; each one not refused saved a change.
    assert total(early, PREFIX + "presses_total", **on_game) == 2
    presses = total(late, PREFIX + "presses_total", **on_game)
    assert presses == where.total() + 2, (presses, where)
    refused = total(late, PREFIX + "refusals_total", **on_game)
    commits = total(late, PREFIX + "commits_total", **on_game)
    assert commits == presses - refused > 0, (commits, presses, refused)
    # Messages went out, and the table's message was edited in place move after move.
    sent = total(late, PREFIX + "deliveries_total", platform="telegram", method="sendMessage")
    photos = total(late, PREFIX + "deliveries_total", platform="telegram", method="sendPhoto")
    edits = sum(total(late, PREFIX + "deliveries_total", platform="telegram", method=m)
                for m in ("editMessageText", "editMessageCaption", "editMessageMedia"))
    assert sent > 0 and edits > 0, (sent, edits)
    # Every message the players and the group got went out through the sender (the
    # presses' answers are calls of their own, not deliveries).
    got = sum(len(tg.messages_in(chat)) for chat in (group, anna, boris))
    assert sent + photos == got, (sent, photos, got)
    # Pictures were drawn and timed: a plausible mean (seconds, not micro- or kiloseconds).
    count = total(late, PREFIX + "picture_seconds_count", **on_game)
    took = total(late, PREFIX + "picture_seconds_sum", **on_game)
    assert count > 0 and 0 < took / count < 10, (count, took)
    assert count > total(early, PREFIX + "picture_seconds_count", **on_game)
    # Everything delivered: the outbox is empty again.
    assert total(late, PREFIX + "outbox_depth", platform="telegram") == 0
    # Nobody is named: no label value is a player's id (Telegram's or Campfire's).
    ids = {str(user.id) for user in (anna, boris)} | {f"tg:{u.id}" for u in (anna, boris)}
    ids |= {str(group.id), f"tg:{group.id}", table.table_id}
    assert not ids & label_values(late)
    assert tg.unanswered_callbacks == [] and tg.errors() == []
