"""What a table's vote says in the table's chat, in the table's language: the question
with its answers as buttons when the vote opens, and how it ended.

Both are new messages (they notify everyone concerned) in the vote's own slot, so the
question loses its buttons once it is answered. Like everything a change owes, they
are derived from the table as committed (``bot.table.settle.follow_ups``): a vote
opened or ended at this version says so, and a repair after a crash says it again
(keyed by version, so it is said once). A vote that may lapse has its due job.
"""

from __future__ import annotations

from datetime import UTC, datetime

from pydantic import JsonValue

from bot.services import Services
from bot.storage import TableRecord
from bot.table.settings import Vote, VoteEnd, meta_view
from bot.table.vote_kinds import KINDS, voter_seats
from bot.ui.message import Choice, Message, Outgoing, ToChat, block
from bot.ui.present import seat_names
from bot.ui.tokens import TokenKind

LAPSE = "lapse"  # the kind of a vote's due job


def vote_slot(table_id: str) -> str:
    """The slot of a table's vote messages in its chat."""
    return f"vote:{table_id}"


def lapse_job(table_id: str) -> str:
    """The id of the job that ends a table's vote when its time runs out."""
    return f"vote.{table_id}"


def vote_message(sv: Services, record: TableRecord, vote: Vote) -> Message:
    """The question ``vote`` asks, with a button per answer."""
    lang = sv.table_lang(record)
    names = seat_names(record)
    voters = ", ".join(names[s] for s in voter_seats(vote, len(record.seats)))
    choices = block(
        Choice(sv.catalog.plain(lang, f"vote.btn.{c}"),
               sv.signer.make(TokenKind.VOTE, record.table_id, vote.opened, c), "action")
        for c in KINDS[vote.kind].choices
    )
    text = sv.t(lang, f"vote.{vote.kind}", name=names[vote.seat], table=record.table_id,
                voters=voters)
    return Message(text=text, choices=choices, slot=vote_slot(record.table_id), renew=True)


def ended_message(sv: Services, record: TableRecord, ended: VoteEnd) -> Message:
    """How a vote ended."""
    lang = sv.table_lang(record)
    names = seat_names(record)
    text = sv.t(lang, f"vote.ended.{ended.kind}.{ended.outcome}", name=names[ended.seat],
                table=record.table_id, by="" if ended.by is None else names[ended.by])
    return Message(text=text, slot=vote_slot(record.table_id), renew=True)


def vote_news(sv: Services, record: TableRecord) -> list[Outgoing]:
    """What the change that made ``record`` has to say about votes: the one it ended,
    the one it opened."""
    meta = meta_view(record)
    out = []
    if meta.ended is not None and meta.ended.version == record.version:
        out.append(Outgoing(ToChat(record.chat_id), ended_message(sv, record, meta.ended),
                            version=record.version))
    if meta.vote is not None and meta.vote.opened == record.version:
        out.append(Outgoing(ToChat(record.chat_id), vote_message(sv, record, meta.vote),
                            version=record.version))
    return out


def vote_jobs(record: TableRecord) -> tuple[
        list[tuple[str, datetime, dict[str, JsonValue]]], list[str]]:
    """The table's vote job as it should be: (to schedule, to cancel). An open vote
    that may lapse has it (scheduling it again changes nothing); a vote that ended at
    this version has it no longer."""
    meta = meta_view(record)
    vote = meta.vote
    if vote is not None and vote.until:
        payload: dict[str, JsonValue] = {"kind": LAPSE, "table": record.table_id,
                                         "opened": vote.opened}
        return [(lapse_job(record.table_id), datetime.fromtimestamp(vote.until, UTC),
                 payload)], []
    if meta.ended is not None and meta.ended.version == record.version:
        return [], [lapse_job(record.table_id)]
    return [], []
