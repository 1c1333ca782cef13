"""A whole 2-player Caverna game on Telegram (the fake Bot API), pictures on.

The bot runs as ``campfire telegram`` runs it; the two simulated players only tap the
buttons the fake shows them: the table's photo in the group (its caption holds the
prompt) or their private prompt. One seat presses a random button of those shown;
the other looks for the option the engine's greedy heuristic prefers and turns the
pages of a long list (furnishings: 16 to a page) until that option shows.
"""

from __future__ import annotations

import io
import random
import re
from typing import cast

from PIL import Image

from adapters.store import GameStore
from adapters.telegram.service import RunningTelegram
from bot.games import manifests
from bot.storage import TableStatus
from bot.table.autopilot import choose
from bot.table.turns import load_state
from bot.ui.present import winners_number
from engine.registry import get_game
from tests.adapters.telegram.e2e_helpers import (
    EDIT_METHODS,
    NAV_PREFIXES,
    GroupTable,
    StartBot,
    chat_calls,
    en,
    move_buttons,
    token_field,
)
from tests.adapters.telegram.fake_api import FakeMessage, FakeTelegram, FakeUser

GAME = get_game("caverna")
ENTRY = manifests()["caverna"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: Seeds ``sv.rng`` (seat order and game seed) and the players' choices.
SEED = 14
MAX_PRESSES = 1500
RANKED = re.compile(r"^(\d)\. (\w+) — (-?\d+)$")


def _text(message: FakeMessage) -> str:
    return message.text or message.caption or ""


def _option(data: str) -> int:
    """The prompt option a move token plays (kind.table.version.seat.digest.option…)."""
    return int(token_field(data, 5))


def _page_forward(message: FakeMessage) -> str | None:
    """The data of the button that shows the next page of a long list, if any."""
    for label, data in FakeTelegram.keyboard(message):
        if data is not None and data.startswith("p.") and label.startswith("›"):
            return data
    return None


async def _asked(table: GroupTable, running: RunningTelegram) -> tuple[int, FakeUser,
                                                                      FakeMessage] | None:
    """The seat asked now, its player and the message to press in: the table's photo
    when it carries buttons, else the player's private prompt."""
    buttons = move_buttons(table.table_message)
    if buttons:
        seat = int(token_field(buttons[0][1], 3))
        return seat, table.seats[seat], table.table_message
    for seat, user in enumerate(table.seats):
        message = table.dm_prompt(user)
        if message is not None:
            return seat, user, message
    return None


async def test_two_players_play_caverna_with_pictures(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    """Lobby by buttons, every decision by a button (pages turned where needed), the
    final scores as a new group message and each player's own score privately."""
    anna, boris = (tg.add_user(name, username=name.lower()) for name in ("Anna", "Boris"))
    for user in (anna, boris):
        tg.user_starts_bot(user)
    group = tg.add_group("Cave night", members=[anna, boris])
    rnd = random.Random(SEED)
    async with start_bot(pictures=True) as running:
        running.app.sv.rng = random.Random(SEED)
        table = GroupTable(tg, running, group, [anna, boris])
        tid = await table.open("/new caverna 2")

        # The table is the Caverna picture, sent once as a photo and then replaced.
        [photo_call] = chat_calls(tg, ("sendPhoto",), group)
        lobby_id = table.message_id
        table.message_id = int(photo_call.result["message_id"])
        photo = table.table_message
        assert photo.photo_bytes is not None and photo.photo_bytes.startswith(PNG_MAGIC)
        assert _text(photo).startswith(f"{en('cav.title')} · #{tid}")
        with Image.open(io.BytesIO(photo.photo_bytes)) as image:
            assert image.width == 960 and image.height > 400
        first_picture = photo.photo_bytes

        greedy_seat = 1
        presses = pages = greedy = 0
        while (asked := await _asked(table, running)) is not None:
            assert presses < MAX_PRESSES, "the game did not end"
            seat, user, message = asked
            shown = [(label, data) for label, data in move_buttons(message)
                     if not label.startswith(NAV_PREFIXES)]
            assert shown, _text(message)
            data = rnd.choice(shown)[1]
            if seat == greedy_seat:
                record = await table.record()
                state = load_state(GAME, record)
                [prompt] = [p for p in GAME.pending(state) if p.seat == seat]
                wanted = prompt.keys().index(choose(GAME, state, prompt, "greedy", rnd))
                while not (found := [d for _, d in move_buttons(message)
                                     if _option(d) == wanted]):
                    forward = _page_forward(message)
                    assert forward is not None, (wanted, _text(message))
                    query = await table.press(user, message, forward)
                    assert query.answer is not None and not query.answer.show_alert
                    message = tg.message(message.chat, message.message_id)
                    pages += 1
                data = found[0]
                greedy += 1
            query = await table.press(user, message, data)
            assert query.answer is not None and not query.answer.show_alert, query.answer
            presses += 1

        # The results: a new group message (it notifies) with every seat's whole score
        # sheet and the winners; the table's photo keeps no buttons.
        store = cast(GameStore, running.app.sv.store)
        record = await store.get_archived(tid)
        assert record.status == TableStatus.FINISHED
        result = GAME.result(load_state(GAME, record))
        assert result is not None
        names = [u.first_name for u in table.seats]
        final = tg.messages_in(group)[-1]
        assert final.message_id != table.message_id
        lines = _text(final).splitlines()
        assert lines[0] == en("result.header", game=en("cav.title"), table=tid)
        assert en(f"cav.result.reason.{result.reason}") in lines
        ranked = {m[2]: (int(m[3]), i) for i, line in enumerate(lines)
                  if (m := RANKED.match(line))}
        assert set(ranked) == set(names)
        for score in result.scores:
            total, at = ranked[names[score.seat]]
            assert total == score.total
            for key in ENTRY.result.score_sheet:
                assert en(f"cav.score.{key}", points=score.breakdown[key]) in lines[at + 1]
        winners = ", ".join(names[w] for w in result.winners)
        assert lines[-1] == en(f"result.winners.{winners_number(result)}", names=winners)
        assert table.table_message.buttons == []
        assert table.table_message.photo_bytes != first_picture

        # Each player's own score, privately, in a new message.
        order = sorted(result.scores, key=lambda sc: (-sc.total, sc.seat))
        for place, score in enumerate(order, start=1):
            user = table.seats[score.seat]
            last = tg.messages_in(user)[-1]
            if score.seat in result.winners:
                expected = en(f"turn.ended_won.{winners_number(result)}",
                              game=en("cav.title"), table=tid,
                              score=score.total, winners=winners)
            else:
                expected = en(f"turn.ended_place.{winners_number(result)}",
                              game=en("cav.title"), table=tid,
                              score=score.total, place=place, players=2, winners=winners)
            assert _text(last) == expected
            assert last.buttons == []

        # The photo was replaced in place all game long; nothing failed; every press
        # was answered; the greedy seat turned pages to reach its options.
        media = chat_calls(tg, ("editMessageMedia",), group)
        assert len(media) > presses // 4
        assert {int(c.params["message_id"]) for c in media} == {table.message_id}
        edited = {int(c.params["message_id"]) for c in chat_calls(tg, EDIT_METHODS, group)}
        assert edited == {lobby_id, table.message_id}  # the lobby only lost its buttons
        assert greedy > 50 and pages > 0, (greedy, pages)
        assert tg.unanswered_callbacks == []
        assert tg.errors() == []
