"""The storage fails around a move's commit: the player is told what really happened.

A store wrapper makes ``commit`` fail in the three ways a connection can: before the
script ran, after it ran (the reply lost), and with the store staying away.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import StoreUnavailable
from tests.bot.helpers import ANNA, BORIS, Harness, dm, plain


class FlakyStore:
    """The real store, whose next commit fails ``how``: "before", "after" or "away"."""

    def __init__(self, store: Any, how: str) -> None:
        self.store = store
        self.how = how
        self.armed = True

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def commit(self, *args: Any, **kwargs: Any) -> Any:
        if not self.armed:
            return await self.store.commit(*args, **kwargs)
        self.armed = False
        if self.how == "after":
            await self.store.commit(*args, **kwargs)
        raise StoreUnavailable("connection lost")

    async def committed(self, *args: Any, **kwargs: Any) -> bool:
        if self.how == "away":
            raise StoreUnavailable("still away")
        result: bool = await self.store.committed(*args, **kwargs)
        return result


@pytest.mark.parametrize(("how", "code", "saved"), [
    ("before", "err.store_unavailable", False),
    ("after", "press.saved_not_shown", True),
    ("away", "press.outcome_unknown", False),
])
async def test_a_lost_commit_is_answered_truthfully(
        h: Harness, how: str, code: str, saved: bool,
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.table.moves.LOST_COMMIT_PAUSE_S", 0.0)
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    player = h.user_at(record, 0)
    token = h.move_tokens(h.dm_prompt(record, 0))[0]
    h.sv.store = FlakyStore(h.sv.store, how)
    reply = await h.app.on_press(dm(player), player, token)
    assert reply.alert and plain(reply.answer) == h.t(code)
    after = await h.get(table_id)
    assert after.version == record.version + (1 if saved else 0)
