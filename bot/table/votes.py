"""What a table decides when a player's clock runs out: wait, autopilot, or abort.

The other seated players vote; the first choice backed by a strict majority of them
is carried out. Waiting grants the player one turn bonus of time.
"""

from __future__ import annotations

from bot.i18n import Lang
from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, Owed, TableRecord, TableStatus
from bot.table.commits import Change, commit_change
from bot.table.refusals import Refusal, refusal_reply
from bot.table.settings import meta_of, options_of
from bot.table.settle import settle
from bot.ui.message import Choice, Message, Reply, block
from bot.ui.tokens import TokenKind

CHOICES: tuple[str, ...] = ("wait", "random", "greedy", "abort")


def vote_message(sv: Services, table_id: str, version: int, name: str, lang: Lang) -> Message:
    """The announcement of a time-out with the voting buttons."""
    choices = block(
        Choice(sv.catalog.plain(lang, f"vote.btn.{c}"),
               sv.signer.make(TokenKind.VOTE, table_id, version, c), "action")
        for c in CHOICES
    )
    text = sv.t(lang, "vote.timeout", name=name, table=table_id)
    return Message(text=text, choices=choices)


async def cast_vote(sv: Services, ctx: Ctx, table_id: str, version: int, choice: str) -> Reply:
    """Count one ballot; carry out the decision once a majority agrees."""
    if choice not in CHOICES:
        return refusal_reply(sv, ctx, Refusal("press.forged"))

    def ballot(record: TableRecord) -> Change | Refusal:
        meta = meta_of(record)
        if record.status != TableStatus.RUNNING or meta.vote is None:
            return Refusal("vote.closed")
        if meta.vote.opened != version:  # a button of an earlier vote
            return Refusal("press.stale")
        voters = [u for i, u in enumerate(record.seats) if i != meta.vote.seat]
        if ctx.user.id not in voters:
            return Refusal("vote.not_a_voter")
        meta.vote.ballots[ctx.user.id] = choice
        tally = sum(1 for c in meta.vote.ballots.values() if c == choice)
        seat = meta.vote.seat
        status: TableStatus = record.status
        if tally * 2 > len(voters):
            meta.vote = None
            if choice == "wait":
                options = options_of(record)
                meta.bank[str(seat)] = options.clock_bonus_h * 3600 or options.reminder_h * 3600
                meta.opened_at[str(seat)] = sv.now()
                meta.opened[str(seat)] = meta.began[str(seat)] = record.version + 1
            elif choice == "abort":
                status = TableStatus.ABORTED
            else:
                meta.autopilot[str(seat)] = "greedy" if choice == "greedy" else "random"
        changed = record.model_copy(update={"meta": meta.model_dump(mode="json"),
                                            "status": status})
        return Change(changed, Action(key=f"vote:{choice}", user_id=ctx.user.id,
                                      kind=ActionKind.SYSTEM))

    done = await commit_change(sv, table_id, ballot)
    if isinstance(done, Refusal):
        return refusal_reply(sv, ctx, done)
    committed = done.after
    if meta_of(committed).vote is not None:  # counted, not decided yet
        return Reply(answer=sv.t(ctx.lang, "vote.counted"),
                     owed=[Owed(committed.table_id, committed.version)])
    sv.fault("after_commit")
    settled = await settle(sv, done.before, committed)
    return Reply(answer=sv.t(ctx.lang, f"vote.decided.{choice}"), out=settled.out,
                 owed=settled.owed)
