"""``/stats``: a chat's leaderboards and a player's own record, in the chat's language,
as the console, Telegram and Discord show them (bot/stats/command.py)."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image
from redis.asyncio import Redis

from adapters.store.console_buttons import ConsoleButtons
from bot.i18n import Lang
from bot.stats.keeping import keep_and_archive
from bot.ui.message import Reply
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, dm, plain
from tests.bot.stats.finished import over_table
from tests.bot.test_table_words import (
    TELEGRAM_COMMAND,
    ConsoleScreen,
    discord_reply,
    leaks,
    telegram_reply,
)

OTHER: dict[Lang, Lang] = {"ru": "en", "en": "ru"}
GAMES = ("hunters_gatherers", "stone_age")


async def played(h: Harness) -> None:
    """Five finished tables in the group (Anna and Boris in each, a strong AI in some),
    one aborted, and one in another chat."""
    rnd = random.Random(11)
    seats = [(ANNA.id, BORIS.id), (BORIS.id, ANNA.id, "ai:strong:3"),
             (ANNA.id, CLARA.id, BORIS.id), (ANNA.id, BORIS.id), ("ai:strong:1", ANNA.id, BORIS.id)]
    for n, seat in enumerate(seats):
        record = await h.store.create(over_table(f"s{n}", rnd, game=GAMES[n % 2], seats=seat,
                                                 chat=GROUP.id))
        await keep_and_archive(h.sv, record)
    for table, chat, aborted in (("s8", GROUP.id, True), ("s9", "con:elsewhere", False)):
        record = await h.store.create(over_table(table, rnd, game="stone_age",
                                                 seats=(ANNA.id, CLARA.id), chat=chat,
                                                 aborted=aborted))
        await keep_and_archive(h.sv, record)


def shown_everywhere(console: list[str], reply: Reply) -> dict[str, list[str]]:
    return {"console": console, "telegram": telegram_reply(reply),
            "discord": discord_reply(reply)}


@pytest.mark.parametrize("lang", ["ru", "en"])
async def test_stats_speaks_the_chats_language_on_every_platform(
        h: Harness, lang: Lang, tmp_path: Path, raw_redis: Redis, key_prefix: str) -> None:
    await played(h)
    await h.sv.prefs.set_pref(f"chat:{GROUP.id}:lang", lang)
    screen = ConsoleScreen(h, tmp_path, ConsoleButtons(raw_redis, prefix=key_prefix))
    users = [u.__class__(id=u.id, name=u.name, lang=OTHER[lang]) for u in (ANNA, BORIS)]
    anna, boris = users
    word = h.sv.presenter.game_word(lang, "stone_age")
    me = {"ru": "я", "en": "me"}[lang]
    said: dict[str, str] = {}
    for line in ("/stats", f"/stats {word}", f"/stats {me}", f"/stats {me} {word}",
                 "/stats frob"):
        reply = await h.text(anna, line, GROUP)
        said[line] = plain(reply.answer) if reply.answer is not None \
            else plain(reply.out[0].message.text)
        for platform, texts in shown_everywhere(
                await screen.reply(anna, GROUP, reply), reply).items():
            for shown in texts:
                # Telegram takes only Latin command names: a Russian chat says /stats there.
                names = ("Anna", "Boris", "Clara", *(
                    TELEGRAM_COMMAND.findall(shown) if platform == "telegram" else ()))
                assert not leaks(shown, lang, names), (platform, line, shown)
    board = said["/stats"]
    titles = [h.sv.presenter.game_title(lang, g) for g in GAMES]
    assert all(t in board for t in titles)
    # The chat's own tables only: Clara played one here (and one elsewhere).
    assert "Anna" in board and "Boris" in board and "Clara" in board
    assert {"ru": "сильный ИИ", "en": "strong AI"}[lang] in board
    assert titles[0] not in said[f"/stats {word}"] and titles[1] in said[f"/stats {word}"]
    mine = said[f"/stats {me}"]
    assert mine.startswith("📊 Anna") and all(t in mine for t in titles)
    # Anna's record counts the aborted game apart, and the table in the other chat too.
    assert {"ru": "прервано", "en": "ended early"}[lang] in mine
    assert {"ru": "Формат", "en": "Usage"}[lang] in said["/stats frob"]
    # In a private chat /stats is the asker's own record.
    private = await h.text(boris, "/stats", dm(boris))
    assert plain(private.answer or private.out[0].message.text).startswith("📊 Boris")


async def test_stats_me_draws_the_rating_history(h: Harness) -> None:
    await played(h)
    h.sv.pictures = True
    reply = await h.text(ANNA, "/stats me", GROUP)
    [item] = reply.out
    assert item.message.picture is not None
    image = Image.open(io.BytesIO(item.message.picture.png))
    assert image.size == (800, 420)
    text = plain(item.message.text)
    for game in GAMES:
        history = await h.sv.stats.history(game, ANNA.id)
        # The text says what the chart draws: the rating after each game.
        assert history and " → ".join(str(s.shown) for s in history) in text


async def test_a_chat_without_rated_games_says_so(h: Harness) -> None:
    reply = await h.text(ANNA, "/stats", GROUP)
    assert plain(reply.answer) == plain(h.t("stats.none_chat"))
    reply = await h.text(ANNA, "/stats me", GROUP)
    assert plain(reply.answer) == plain(h.t("stats.me_none", name="Anna"))
