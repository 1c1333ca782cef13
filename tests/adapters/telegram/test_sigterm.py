"""``campfire telegram`` as a real process, stopped by SIGTERM (docker stop, Kubernetes)
or SIGINT (Ctrl-C) in the middle of a game.

The process polls the fake Bot API this test runs, keeps its games in an embedded
redis-server under a temporary ``CAMPFIRE_DATA_DIR``, and is sent the signal right
after a move: it must exit by itself with code 0, its redis-server must be gone (shut
down, not orphaned), and the move must be in the data when the data dir is opened
again. Every wait is for a fact, bounded only as a safety net; nothing is timed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.store import GameStore, StoreSettings, open_storage
from tests.adapters.telegram.e2e_helpers import (
    SEAT_LINE,
    datas,
    move_buttons,
    progress_button,
    token_field,
    wait_until,
)
from tests.adapters.telegram.fake_api import FakeChat, FakeMessage, FakeTelegram, FakeUser

ROOT = Path(__file__).resolve().parents[3]
#: Safety nets (seconds): a start-up with imports and a fresh Redis, a stop.
START_S = 60.0
STOP_S = 30.0


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie, dead but not yet reaped, does not count)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # no /proc: it exists, so say it runs
    return stat.rsplit(")", 1)[-1].split()[0] not in ("Z", "X")


@pytest.fixture
async def bot_process(
    tg: FakeTelegram, tmp_path: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, Path]]:
    """``python -m adapters.cli telegram`` against the fake, its data in ``tmp_path``;
    killed (with its redis-server) if a test leaves it running."""
    data_dir = tmp_path / "data"
    env = {k: v for k, v in os.environ.items()
           if k not in ("REDIS_URL", "CAMPFIRE_KEY_PREFIX", "TELEGRAM_WEBHOOK_URL",
                        "TELEGRAM_WEBHOOK_SECRET", "DISCORD_TOKEN")}
    env.update(TELEGRAM_TOKEN=tg.token, TELEGRAM_BASE_URL=tg.base_url,
               TELEGRAM_BASE_FILE_URL=tg.base_file_url, CAMPFIRE_DATA_DIR=str(data_dir),
               PYTHONUNBUFFERED="1")
    with open(tmp_path / "bot.log", "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "adapters.cli", "telegram", cwd=ROOT, env=env,
            stdin=asyncio.subprocess.DEVNULL, stdout=log, stderr=log)
    try:
        yield proc, data_dir
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        pid_file = data_dir / "redis.pid"
        if pid_file.exists():
            pid = int(pid_file.read_text().strip() or 0)
            if pid and alive(pid):
                os.kill(pid, signal.SIGKILL)


def bot_log(data_dir: Path) -> str:
    return (data_dir.parent / "bot.log").read_text(errors="replace")


async def press(tg: FakeTelegram, user: FakeUser, message: FakeMessage, data: str) -> None:
    query = tg.user_presses(user, message, data)
    await wait_until(lambda: query.answered, START_S, f"an answer to {data!r}")
    assert query.answer is not None and not query.answer.show_alert, query.answer


def table_message(tg: FakeTelegram, group: FakeChat, table: str) -> FakeMessage | None:
    """The group's newest message with live move buttons of ``table``."""
    for message in reversed(tg.messages_in(group)):
        buttons = move_buttons(message)
        if buttons and token_field(buttons[0][1], 1) == table:
            return message
    return None


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
async def test_a_signal_mid_game_stops_the_bot_cleanly_and_keeps_the_move(
    tg: FakeTelegram, bot_process: tuple[asyncio.subprocess.Process, Path],
    sig: signal.Signals,
) -> None:
    proc, data_dir = bot_process
    anna, boris = (tg.add_user(name, username=name.lower()) for name in ("Anna", "Boris"))
    for user in (anna, boris):
        tg.user_starts_bot(user)
    group = tg.add_group("Game night", members=[anna, boris])

    await wait_until(lambda: tg.calls_to("getUpdates") or proc.returncode is not None,
                     START_S, "the bot to poll")
    assert proc.returncode is None, bot_log(data_dir)
    redis_pid = int((data_dir / "redis.pid").read_text().strip())
    assert alive(redis_pid)

    # A table, by buttons: open, join, start.
    tg.user_says(anna, group, "/new stone_age 2-2 en")
    lobby = await wait_until(lambda: next((m for m in tg.messages_in(group)
                                           if any(d.startswith("l.") for d in datas(m))),
                                          None), START_S, "the lobby")
    table = token_field(datas(lobby)[0], 1)
    join = next(d for d in datas(lobby) if ".join." in d)
    await press(tg, boris, lobby, join)
    start = next(d for d in datas(tg.message(group, lobby.message_id)) if ".start." in d)
    await press(tg, anna, tg.message(group, lobby.message_id), start)
    shown = await wait_until(lambda: table_message(tg, group, table), START_S,
                             "the table with its buttons")

    # One move, by the player asked, from the table's message; once saved, the next
    # prompt (in the group or privately) carries the next version.
    announce = await wait_until(lambda: next((m for m in tg.messages_in(group)
                                              if (m.text or "").startswith("🎲")), None),
                                START_S, "the seat order")
    by_name = {u.first_name: u for u in (anna, boris)}
    seats = [by_name[name.strip()] for _, name in
             sorted((int(n), name) for n, name in SEAT_LINE.findall(announce.text or ""))]
    version = int(token_field(move_buttons(shown)[0][1], 2))
    choice = progress_button(shown)
    assert choice is not None
    await press(tg, seats[int(token_field(choice[1], 3))], shown, choice[1])
    everywhere = (group, anna, boris)
    await wait_until(lambda: any(int(token_field(d, 2)) == version + 1
                                 for chat in everywhere for m in tg.messages_in(chat)
                                 for _, d in move_buttons(m)), START_S, "the move shown")

    os.kill(proc.pid, sig)
    code = await asyncio.wait_for(proc.wait(), STOP_S)  # a safety net, not a measure
    log = bot_log(data_dir)
    assert code == 0, log
    assert f"{sig.name}: stopping" in log and "stopped" in log, log
    assert "Traceback" not in log, log
    assert not alive(redis_pid), "the embedded redis-server was left running"
    assert not (data_dir / "redis.pid").exists()

    # The move is in the data: the table is at the version after it, with its log.
    async with open_storage(StoreSettings(data_dir=data_dir)) as storage:
        games = storage.games
        assert isinstance(games, GameStore)
        record = await games.get(table)
        assert record.version == version + 1
        assert len(await games.action_log(table)) >= 1
