"""Ballots: one way to count them for every kind of vote a table holds.

A vote asks some players (``bot.table.vote_kinds``): after a player's clock ran out,
the other people at the table decide by a majority to wait, hand the seat to the AI at
a level they choose, or abort (waiting grants the player one turn bonus of time); when
a player asks to take back a decision others have built on, those others must all
agree, and one refusal ends it.
A ballot that decides nothing is only counted; one that decides carries the answer out
(``DECIDED``, by kind) in the same change, so the vote's end and what it does are one
commit, and its messages come with the table's follow-ups (``bot.table.vote_messages``).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, Owed, TableRecord, TableStatus
from bot.table.commits import Change, commit_change
from bot.table.moves import seat_of
from bot.table.refusals import Refusal, refusal_reply
from bot.table.settings import (
    TableMeta,
    VoteKindName,
    as_level,
    current_level,
    meta_of,
    meta_view,
    options_of,
)
from bot.table.settle import settle
from bot.table.undo import taken_back
from bot.table.undo_trail import carry
from bot.table.vote_kinds import AGREE, CHOICES, KINDS, MOVED_ON, decided, end_vote, voter_seats
from bot.ui.message import Reply
from engine.registry import get_game


async def cast_vote(sv: Services, ctx: Ctx, table_id: str, version: int, choice: str) -> Reply:
    """Count one ballot; carry out the decision once the ballots decide one. A button of
    a vote asked before the AI had levels (``random``, ``greedy``) counts as the level
    that plays alike."""
    choice = current_level(choice)
    if choice not in CHOICES:
        return refusal_reply(sv, ctx, Refusal("press.forged"))

    def ballot(record: TableRecord) -> Change | Refusal:
        meta = meta_of(record)
        vote = meta.vote
        if record.status != TableStatus.RUNNING or vote is None:
            return Refusal("vote.closed")
        if vote.opened != version:  # a button of an earlier vote
            return Refusal("press.stale")
        kind = KINDS[vote.kind]
        if choice not in kind.choices:
            return Refusal("vote.not_a_choice", {"choices": ", ".join(kind.choices)})
        voters = list(dict.fromkeys(record.seats[s]
                                    for s in voter_seats(vote, len(record.seats))))
        if ctx.user.id not in voters:
            return Refusal("vote.not_a_voter")
        if vote.until and sv.now() >= vote.until:
            return Refusal("vote.closed")  # lapsed (its job ends it when it runs)
        vote.ballots[ctx.user.id] = choice
        outcome = decided(vote, len(voters))
        if outcome is None:
            carry(meta, record.version)
            changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
            return Change(changed, Action(key=f"vote:{choice}", user_id=ctx.user.id,
                                          kind=ActionKind.SYSTEM))
        by = seat_of(record, ctx.user.id)
        assert by is not None  # every voter holds a seat
        return DECIDED[vote.kind](sv, record, meta, outcome, by)

    done = await commit_change(sv, table_id, ballot)
    if isinstance(done, Refusal):
        return refusal_reply(sv, ctx, done)
    committed = done.after
    ended = meta_view(committed).ended
    if ended is None or ended.version != committed.version:  # counted, not decided yet
        return Reply(answer=sv.t(ctx.lang, "vote.counted"),
                     owed=[Owed(committed.table_id, committed.version)])
    sv.fault("after_commit")
    settled = await settle(sv, done.before, committed)
    return Reply(answer=sv.t(ctx.lang, f"vote.decided.{ended.outcome}"), out=settled.out,
                 owed=settled.owed)


def _timeout_decided(sv: Services, record: TableRecord, meta: TableMeta, choice: str,
                     by: int) -> Change | Refusal:
    """The others decided about a seat whose time ran out."""
    assert meta.vote is not None
    seat = meta.vote.seat
    version = record.version + 1
    status: TableStatus = record.status
    if choice == "wait":
        options = options_of(record)
        meta.bank[str(seat)] = options.clock_bonus_h * 3600 or options.reminder_h * 3600
        meta.opened_at[str(seat)] = sv.now()
        meta.opened[str(seat)] = meta.began[str(seat)] = version
    elif choice == "abort":
        status = TableStatus.ABORTED
    elif (level := as_level(choice)) is not None:
        meta.autopilot[str(seat)] = level
    end_vote(meta, choice, version, by)
    changed = record.model_copy(update={"meta": meta.model_dump(mode="json"), "status": status})
    return Change(changed, Action(key=f"vote:{choice}", user_id=record.seats[by],
                                  kind=ActionKind.SYSTEM))


def _undo_decided(sv: Services, record: TableRecord, meta: TableMeta, choice: str,
                  by: int) -> Change | Refusal:
    """The players asked agreed to take back the asker's decision (with theirs after
    it), or one refused."""
    assert meta.vote is not None
    if choice == AGREE:
        undone = taken_back(get_game(record.game), record, meta.vote.seat, agreed_by=by)
        if not isinstance(undone, Refusal):
            return undone
        # The table changed under the vote in a way an undo cannot pass (a seat taken
        # back from the autopilot): the question no longer stands.
        choice = MOVED_ON
    end_vote(meta, choice, record.version + 1, by)
    carry(meta, record.version)
    changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
    return Change(changed, Action(key=f"vote:{choice}", user_id=record.seats[by],
                                  kind=ActionKind.SYSTEM))


# What a decided answer does, by the vote's kind (the ballots are counted alike).
# (``by``: the seat whose ballot decided it.)
Decided = Callable[[Services, TableRecord, TableMeta, str, int], "Change | Refusal"]
DECIDED: dict[VoteKindName, Decided] = {
    "timeout": _timeout_decided,
    "undo": _undo_decided,
}
