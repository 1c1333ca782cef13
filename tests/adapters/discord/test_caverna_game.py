"""A whole 2-player Caverna game on Discord, through simcord.

Members open the table by slash command, join and start it by button, and play every
decision from the table's message or their DMs: one member picks a random choice of
those shown (buttons, or options of a select menu where a list is long), the other
looks for the option the engine's greedy heuristic prefers, turning pages where a list
does not fit one message (furnishings: 48 tiles, Discord shows 25 components); a few
moves are typed with ``/table move``. The final scores, with every score-sheet category,
arrive in the channel; each member hears their own result by DM.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import simcord

from adapters.store import StoreSettings
from bot.games import manifests
from bot.storage import TableStatus
from bot.table.autopilot import choose
from bot.table.turns import load_state
from bot.ui.present import winners_number
from engine.registry import get_game
from tests.adapters.discord.harness import (
    NAV_PREFIXES,
    Table,
    answered_in_time,
    choices,
    opened_table,
    play_choice,
    running_bot,
    token_field,
)
from tests.adapters.discord.test_games import en, final_lines, sent_ids

GAME = get_game("caverna")
ENTRY = manifests()["caverna"]
MAX_MOVES = 1500
RANKED = re.compile(r"^(\d)\. \*\*(\w+)\*\* — (\\?-?\d+)$")
GREEDY_SEAT = 0
TYPED_EVERY = 25


def _asked(table: Table) -> tuple[int, simcord.MemberActor, Any] | None:
    """The seat asked now, its member and the message to act on: the table's message
    when it shows moves, else the member's newest DM prompt of this table."""
    moves = [c for c in choices(table.table_message) if c[1].startswith("m.")]
    if moves:
        seat = int(token_field(moves[0][1], 3))
        return seat, table.seats[seat], table.table_message
    for seat, member in enumerate(table.seats):
        for message in reversed(table.dm(member)):
            mine = [c for c in choices(message) if c[1].startswith("m.")
                    and token_field(c[1], 1) == table.table_id]
            if mine:
                return seat, member, message
    return None


def _fresh(table: Table, member: simcord.MemberActor, message: Any) -> Any:
    """The message as it is now (after its page was turned)."""
    history = table.history() if message.guild is not None else table.dm(member)
    return next(m for m in history if m.id == message.id)


async def _greedy_choice(table: Table, seat: int, member: simcord.MemberActor, message: Any,
                         rng: random.Random, how: Counter[str],
                         ) -> tuple[Any, tuple[str, str, str | None]]:
    """The heuristic's option on ``message``, pages turned forward until it shows."""
    record = await table.bot.app.sv.store.get(table.table_id)
    state = load_state(GAME, record)
    [prompt] = [p for p in GAME.pending(state) if p.seat == seat]
    wanted = prompt.keys().index(choose(GAME, state, prompt, "greedy", rng))
    for _ in range(10):
        found = [c for c in choices(message) if c[1].startswith("m.")
                 and int(token_field(c[1], 5)) == wanted]
        if found:
            return message, found[0]
        forward = [c for c in choices(message) if c[1].startswith("p.")
                   and c[0].startswith("›")]
        assert forward, (wanted, choices(message))
        result = await table.choose(member, message, forward[0])
        assert result.acknowledged
        how["pages"] += 1
        message = _fresh(table, member, message)
    raise AssertionError(f"option {wanted} never showed")


async def test_two_members_play_caverna_to_the_end(store_settings: StoreSettings) -> None:
    rng = random.Random(14)
    async with running_bot(store_settings, seed=14) as bot:
        table = await opened_table(bot, "caverna", "Caves", "caverna", ("Anna", "Boris"),
                                   options="2")
        members = table.members
        how: Counter[str] = Counter()
        moves = widest = 0
        while (asked := _asked(table)) is not None:
            assert moves < MAX_MOVES, "the game did not end"
            seat, member, message = asked
            widest = max(widest, len([c for c in choices(message) if c[1].startswith("m.")]))
            if seat == GREEDY_SEAT:
                message, choice = await _greedy_choice(table, seat, member, message, rng, how)
            else:
                shown = [c for c in choices(message) if c[1].startswith("m.")
                         and not c[0].startswith(NAV_PREFIXES)]
                choice = rng.choice(shown)
            await play_choice(table, member, message, choice, how,
                              typed=moves % TYPED_EVERY == TYPED_EVERY - 1)
            moves += 1

        # The final scores in the channel: every seat, its whole sheet, the winners.
        record = await bot.app.sv.store.get_archived(table.table_id)
        assert record.status == TableStatus.FINISHED
        result_ = GAME.result(load_state(GAME, record))
        assert result_ is not None
        names = [m.name for m in table.seats]
        lines = final_lines(table, en("cav.title"))
        ranked = {m[2]: (int(m[3].replace("\\", "")), i) for i, line in enumerate(lines)
                  if (m := RANKED.match(line))}
        assert set(ranked) == set(names), lines
        for score in result_.scores:
            total, at = ranked[names[score.seat]]
            assert total == score.total
            for key in ENTRY.result.score_sheet:
                part = en(f"cav.score.{key}", points=str(score.breakdown[key]))
                assert part in lines[at + 1], (part, lines[at + 1])
        winners = ", ".join(names[w] for w in result_.winners)
        assert lines[-1] == en(f"result.winners.{winners_number(result_)}", names=winners)
        assert table.table_message.components == []
        for member in members:
            assert f"#{table.table_id} has ended" in table.dm(member)[-1].content

        # Buttons, selects, typed moves and page turns were all used; every interaction
        # was answered in time; every custom_id and select value fits 100 bytes.
        assert how["channel:button"] + how["dm:button"] > 30, how
        assert how["channel:select"] + how["dm:select"] > 0, how
        assert how["typed"] > 1, how
        # A list longer than Discord's 25 components was shown whole, in select menus
        # (a page holds five menus of 25: pages are turned only past that).
        assert widest > 25, widest
        assert answered_in_time(table.results)
        sent = list(sent_ids(bot.env.http_requests))
        assert max(len(i.encode()) for i in sent) <= 100
