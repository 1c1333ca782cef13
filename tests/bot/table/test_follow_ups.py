"""``follow_ups``: a move's own follow-ups and the repair of the same version are one
derivation, so a crash never makes a player see a different message than the move
would have sent."""

from __future__ import annotations

import random

import pytest

from bot.storage import OwedTable, TableStatus
from bot.table.repair import repair
from bot.ui.message import Outgoing, ToUser
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Clock, Harness
from tests.bot.table.test_votes import time_out


def _private(out: list[Outgoing]) -> dict[tuple[str, str | None], tuple[str, object]]:
    """Each private message by (player, delivery key): its text and buttons."""
    return {(item.to.user_id, item.key): (str(item.message.text), item.message.choices)
            for item in out if isinstance(item.to, ToUser) and item.key is not None}


@pytest.mark.parametrize("autopilot", [False, True])
async def test_a_moves_prompts_are_what_a_repair_of_its_version_sends(
    h: Harness, clock: Clock, autopilot: bool
) -> None:
    if autopilot:
        # Two players, one of them on the autopilot: its moves come between a player's
        # move and their next prompt, which must still read as their new turn.
        timed_out = await time_out(h, clock, BORIS)
        table_id = timed_out.table_id
        await h.press(timed_out.voters[0], timed_out.token("easy"), GROUP)
    else:
        table_id = await h.started(ANNA, BORIS, CLARA)
    # A move's own follow-ups are compared before the autopilot's moves come after it.
    h.auto_due = False
    rnd = random.Random(5)
    compared = 0
    for _ in range(60):
        await h.due()  # the autopilot's moves owed since
        record = await h.get(table_id)
        if record.status != TableStatus.RUNNING:
            break
        _, reply = await h.play_one(table_id, rnd)
        after = await h.get(table_id)
        sent = _private(reply.out)
        repaired, version = await repair(h.sv, OwedTable(table_id, after.version, False))
        again = _private(repaired)
        assert version == after.version
        # Every prompt the move sent is sent again, word for word, under the same key;
        # the repair sends the prompts still open from earlier versions too.
        for key, message in sent.items():
            assert again[key] == message
            compared += 1
        assert set(sent) <= set(again)
    assert compared > 10
