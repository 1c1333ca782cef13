"""A vote in the table's chat, in the table's language: the question with a button per
answer, then how it ended as a new message in the same slot, the question's buttons
gone; a vote that may lapse has its job until it ends."""

from __future__ import annotations

import random

from bot.table.settings import meta_view
from bot.table.vote_messages import lapse_job
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Harness, plain
from tests.bot.table.test_undo import ask_after, vote_token


async def test_a_vote_speaks_the_tables_language(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("ru",))  # English players
    asked = await ask_after(h, table_id, 1, random.Random(4), lang="ru")
    assert asked is not None
    [voter] = asked.voters
    message = h.inbox[(GROUP.id, f"vote:{table_id}")]
    assert message.renew  # a new message: it notifies the group
    assert plain(message.text) == h.t("vote.undo", "ru", name=asked.asker.name,
                                      table=table_id, voters=voter.name)
    assert [b.label for b in message.all_buttons()] == ["Да, отменить", "Нет, оставить"]
    await h.press(voter, vote_token(h, table_id, "refuse"), GROUP)
    ended = [o.message for o in h.sent if o.message.slot == f"vote:{table_id}"][-1]
    assert ended.renew and ended.choices is None
    assert plain(ended.text) == h.t("vote.ended.undo.refuse", "ru", by=voter.name,
                                    name=asked.asker.name, table=table_id)


async def test_a_vote_that_may_lapse_has_its_job_until_it_ends(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA)
    asked = await ask_after(h, table_id, 1, random.Random(4))
    assert asked is not None
    vote = meta_view(await h.get(table_id)).vote
    assert vote is not None and vote.until > 0
    job = (await h.sv.jobs.payloads([lapse_job(table_id)]))[lapse_job(table_id)]
    assert job == {"kind": "lapse", "table": table_id, "opened": vote.opened}
    await h.press(asked.voters[0], vote_token(h, table_id, "agree"), GROUP)
    assert await h.sv.jobs.payloads([lapse_job(table_id)]) == {lapse_job(table_id): None}
