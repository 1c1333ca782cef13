"""What a table decides when a player's clock runs out: wait, autopilot, or abort.

The other seated players vote; the first choice backed by a strict majority of them
is carried out. Waiting grants the player one turn bonus of time.
"""

from __future__ import annotations

from bot.i18n import Lang
from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, Owed, StaleVersion, TableNotFound, TableStatus
from bot.table.settings import meta_of, options_of
from bot.table.settle import settle
from bot.ui.message import Choice, Message, Reply, block
from bot.ui.tokens import TokenKind

CHOICES: tuple[str, ...] = ("wait", "random", "greedy", "abort")
ATTEMPTS = 8


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
        return Reply(answer=sv.t(ctx.lang, "press.forged"), alert=True)
    for _ in range(ATTEMPTS):
        try:
            record = await sv.store.get(table_id)
        except TableNotFound:
            return Reply(answer=sv.t(ctx.lang, "press.no_table"), alert=True)
        meta = meta_of(record)
        if record.status != TableStatus.RUNNING or meta.vote is None:
            return Reply(answer=sv.t(ctx.lang, "vote.closed"), alert=True)
        if meta.vote.opened != version:  # a button of an earlier vote
            return Reply(answer=sv.t(ctx.lang, "press.stale"), alert=True)
        voters = [u for i, u in enumerate(record.seats) if i != meta.vote.seat]
        if ctx.user.id not in voters:
            return Reply(answer=sv.t(ctx.lang, "vote.not_a_voter"), alert=True)
        meta.vote.ballots[ctx.user.id] = choice
        tally = sum(1 for c in meta.vote.ballots.values() if c == choice)
        decided = tally * 2 > len(voters)
        seat = meta.vote.seat
        status: TableStatus = record.status
        if decided:
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
        try:
            committed = await sv.store.commit(
                table_id, record.version, changed,
                Action(key=f"vote:{choice}", user_id=ctx.user.id, kind=ActionKind.SYSTEM),
            )
        except StaleVersion:
            continue
        answer = sv.t(ctx.lang, "vote.counted" if not decided else f"vote.decided.{choice}")
        if not decided:
            return Reply(answer=answer, owed=[Owed(committed.table_id, committed.version)])
        sv.fault("after_commit")
        done = await settle(sv, record, committed)
        return Reply(answer=answer, out=done.out, owed=done.owed)
    return Reply(answer=sv.t(ctx.lang, "press.busy"), alert=True)
