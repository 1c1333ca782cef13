"""The one commit loop (``bot.table.commits.commit_change``) on the real store: a change
decided on an out-of-date table is decided again, a refusal is judged on the table as
stored, a lost race is retried, an outage during the commit is reported as lost."""

from __future__ import annotations

from typing import Any

import pytest

from bot.storage import Action, ActionKind, StaleVersion, StoreUnavailable, TableRecord
from bot.table.commits import COMMIT_ATTEMPTS, Change, CommitLost, commit_change
from bot.table.refusals import Refusal
from tests.bot.helpers import ANNA, BORIS, Harness


def _rename_chat(to: str) -> Any:
    def change(record: TableRecord) -> Change | Refusal:
        if record.chat_id == to:
            return Refusal("chat.already_there")
        return Change(record.model_copy(update={"chat_id": to}),
                      Action(key="chat_moved", kind=ActionKind.SYSTEM))
    return change


async def test_a_change_is_committed_once_and_returns_both_sides(h: Harness) -> None:
    table_id = await h.new_table(ANNA)
    before = await h.get(table_id)
    done = await commit_change(h.sv, table_id, _rename_chat("g:elsewhere"))
    assert not isinstance(done, Refusal)
    assert done.before.version == before.version
    assert done.after.version == before.version + 1 and done.after.chat_id == "g:elsewhere"
    assert (await h.get(table_id)).chat_id == "g:elsewhere"


async def test_a_refusal_decided_on_an_old_table_is_judged_on_the_stored_one(
    h: Harness
) -> None:
    table_id = await h.new_table(ANNA)
    old = await h.get(table_id)
    await commit_change(h.sv, table_id, _rename_chat("g:elsewhere"))
    # On the table as the caller saw it the change is refused (already there); the
    # refusal is judged again on the stored table, where the change goes through.
    seen = old.model_copy(update={"chat_id": "g:back"})
    done = await commit_change(h.sv, table_id, _rename_chat("g:back"), seen=seen)
    assert not isinstance(done, Refusal) and done.after.chat_id == "g:back"
    # And a change decided on an out-of-date table is caught by the version check.
    done = await commit_change(h.sv, table_id, _rename_chat("g:third"), seen=old)
    assert not isinstance(done, Refusal)
    assert done.before.version == old.version + 2 and done.after.chat_id == "g:third"


async def test_lost_races_are_retried_then_the_table_is_busy(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await h.new_table(ANNA, "2-3")
    await h.text(BORIS, "/join")
    store = h.sv.store
    real = store.commit
    losses = {"left": 2}

    async def racing(*args: Any, **kwargs: Any) -> TableRecord:
        if losses["left"] > 0:
            losses["left"] -= 1
            raise StaleVersion(table_id, 0, 1)
        record: TableRecord = await real(*args, **kwargs)
        return record

    monkeypatch.setattr(store, "commit", racing)
    done = await commit_change(h.sv, table_id, _rename_chat("g:elsewhere"))
    assert not isinstance(done, Refusal) and losses["left"] == 0
    losses["left"] = COMMIT_ATTEMPTS
    assert await commit_change(h.sv, table_id, _rename_chat("g:x")) == Refusal("press.busy")
    assert (await h.get(table_id)).chat_id == "g:elsewhere"


async def test_an_outage_during_the_commit_is_a_lost_commit(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = await h.new_table(ANNA)

    async def down(*args: Any, **kwargs: Any) -> TableRecord:
        raise StoreUnavailable("down")

    monkeypatch.setattr(h.sv.store, "commit", down)
    with pytest.raises(CommitLost) as lost:
        await commit_change(h.sv, table_id, _rename_chat("g:elsewhere"))
    assert lost.value.table_id == table_id and lost.value.commit_id


async def test_a_missing_table_is_refused(h: Harness) -> None:
    assert await commit_change(h.sv, "nosuch", _rename_chat("g:x")) == Refusal("press.no_table")
