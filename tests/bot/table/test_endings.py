"""What players are told when a game ends: finished or aborted."""

from __future__ import annotations

import pytest

from bot.storage import TableStatus
from bot.ui.message import ToUser
from tests.bot.helpers import ANNA, BORIS, CLARA, Harness, plain, plan_until, type_moves


async def test_a_game_played_with_typed_moves_finishes(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    assert record.seed is not None
    moves = plan_until(2, record.seed, lambda prompts: not prompts, limit=5000)
    reply = await type_moves(h, table_id, moves)
    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.FINISHED
    assert archived.version == record.version + len(moves)
    assert any("final scores" in plain(o.message.text) for o in reply.out)


@pytest.mark.parametrize("how", ["abort", "finish"])
async def test_nobody_is_told_to_wait_for_a_game_that_ended(h: Harness, how: str) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    if how == "abort":
        reply = await h.text(ANNA, "/abort yes")
    else:
        assert record.seed is not None
        moves = plan_until(2, record.seed, lambda prompts: not prompts, limit=5000)
        reply = await type_moves(h, table_id, moves)
    assert (await h.store.get_archived(table_id)).status.is_over
    waiting = [o for o in reply.out if isinstance(o.to, ToUser)
               and "waiting for the others" in plain(o.message.text)]
    assert waiting == []


async def test_every_player_hears_that_a_game_was_aborted(h: Harness) -> None:
    """Not only the player whose turn it was: everyone seated gets a new message (one
    that notifies) saying the table was aborted."""
    table_id = await h.started(ANNA, BORIS, CLARA)
    reply = await h.text(ANNA, "/abort yes")
    told = {o.to.user_id: o.message for o in reply.out if isinstance(o.to, ToUser)}
    assert set(told) == {ANNA.id, BORIS.id, CLARA.id}
    for message in told.values():
        assert "was aborted" in plain(message.text) and message.renew
    assert (await h.store.get_archived(table_id)).status == TableStatus.ABORTED
