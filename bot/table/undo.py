"""Taking back one's own decision (``/undo``).

A player may take back their last decision while nothing random or hidden has been
shown since (Board Game Arena's rule for undo in turn-based games). The table does not
go back in its history: the undo is a new version, so every button shown before it is
out of date. Its game state is the trail's state replayed without the decision
(``bot.table.undo_trail``), its bookkeeping the one the decision replaced (clocks, open
decisions, votes), and its follow-ups correct what the decision's messages showed: the
table's message, the players' private prompts, and "your turn" for whoever the
decision had handed the turn to. The log keeps the decision, followed by an ``undo``
entry that takes it back on replay.

When other players have decided since, taking it back takes back their later decisions
too, so it needs their consent: ``/undo`` asks them (an ``undo`` vote, ``bot.table
.votes``), and once all agree the same change as above takes the table back, reaching
over their decisions. A decision sealed by a roll, a draw or a card turned up is never
taken back, with or without consent.
"""

from __future__ import annotations

from typing import Any

from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, TableRecord
from bot.table.commits import Change, commit_change
from bot.table.moves import not_playing, seat_of
from bot.table.refusals import Refusal, refusal_reply
from bot.table.settings import TableMeta, Vote, meta_of, meta_view, options_of
from bot.table.settle import settle
from bot.table.turns import RECENT_EVENTS, state_dict
from bot.table.undo_trail import carry, replay_trail, standing, undo_event, undo_key
from bot.table.vote_kinds import AGREE, MOVED_ON, end_vote
from bot.ui.message import Reply
from bot.ui.present import seat_names
from engine.core.protocol import Game
from engine.registry import get_game


async def undo(sv: Services, ctx: Ctx, record: TableRecord) -> Reply:
    """Take back ``ctx.user``'s last decision at ``record``'s table, ask the players
    who decided since to agree, or say why not."""
    game = get_game(record.game)
    done = await commit_change(sv, record.table_id,
                               lambda current: asked(sv, game, current, ctx.user.id),
                               seen=record)
    if isinstance(done, Refusal):
        return refusal_reply(sv, ctx, done)
    settled = await settle(sv, done.before, done.after)
    vote = meta_view(done.after).vote
    if vote is not None and vote.opened == done.after.version:
        names = seat_names(done.after)
        answer = sv.t(ctx.lang, "undo.asked", voters=", ".join(names[s] for s in vote.voters))
    else:
        answer = sv.t(ctx.lang, "undo.done")
    return Reply(answer=answer, out=settled.out, owed=settled.owed)


def asked(sv: Services, game: Game[Any], record: TableRecord, user_id: str) -> Change | Refusal:
    """``/undo`` by ``user_id`` on ``record``: the decision taken back at once when
    nobody else's would go with it, else a vote opened that asks those others."""
    refused = not_playing(record)
    if refused is not None:
        return refused
    seat = seat_of(record, user_id)
    if seat is None:
        return Refusal("cmd.no_seat", {"table": record.table_id})
    last = reach(record, seat)
    if isinstance(last, Refusal):
        return last
    meta = meta_of(record)
    voters = _consent_of(record, meta, seat, last)
    if not voters:
        return taken_back(game, record, seat)
    if meta.vote is not None:
        return Refusal("undo.vote_open")
    meta.vote = Vote(kind="undo", seat=seat, opened=record.version + 1, voters=voters,
                     until=sv.now() + options_of(record).reminder_h * 3600)
    carry(meta, record.version)
    changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
    return Change(changed, Action(key="undo:ask", user_id=user_id, seat=seat,
                                  kind=ActionKind.SYSTEM))


def reach(record: TableRecord, seat: int) -> int | Refusal:
    """Where ``seat``'s last decision stands among those that may be taken back (its
    index on the trail), or why it cannot be taken back."""
    meta = meta_view(record)
    points = standing(meta, record.version)
    mine = [i for i, point in enumerate(points) if point.seat == seat]
    if not mine or str(seat) in meta.autopilot:
        acted = meta.last_acted.get(str(seat), 0)
        if 0 < acted <= meta.sealed:
            return Refusal("undo.sealed")
        return Refusal("undo.nothing")
    return mine[-1]


def _consent_of(record: TableRecord, meta: TableMeta, seat: int, last: int) -> list[int]:
    """The seats whose decisions after ``seat``'s ``last`` one an undo would take back
    too and whose players must agree: not the asker's own seats, nor a seat the
    autopilot holds (it has no say, and decides again when asked again). An AI player's
    seat is always the autopilot's: taking back an AI's decision needs no consent —
    there is nobody to ask, and the AI loses nothing it could object to."""
    asker = record.seats[seat]
    later = standing(meta, record.version)[last + 1:]
    return sorted({p.seat for p in later
                   if record.seats[p.seat] != asker and str(p.seat) not in meta.autopilot})


def taken_back(game: Game[Any], record: TableRecord, seat: int,
               agreed_by: int | None = None) -> Change | Refusal:
    """``record`` with ``seat``'s last decision taken back, and every decision made
    after it (``agreed_by``: the seat whose consent completed the vote that allowed
    it), or why it cannot be. The one undo change, asked directly or agreed to."""
    last = reach(record, seat)
    if isinstance(last, Refusal):
        return last
    meta = meta_of(record)
    trail = meta.undo
    assert trail is not None  # ``reach`` found the seat's decision on it
    points = trail.points
    later = points[last:]
    point = points[last]
    state = replay_trail(game, trail, last)
    version = record.version + 1
    if meta.vote is not None and meta.vote.kind == "undo":
        # The vote that asked for this undo is decided by it; any other is moot now.
        end_vote(meta, AGREE if agreed_by is not None else MOVED_ON, version, agreed_by)
    cut = len(meta.recent) - sum(p.events for p in later)
    recent = [*meta.recent[:max(cut, 0)], [undo_event(len(later)), seat, {}]]
    restored = TableMeta.model_validate({
        **point.meta, "names": meta.names, "sealed": meta.sealed, "undone": version,
        "vote": _kept_vote(point.meta.get("vote"), version), "ended": meta.ended,
        # Nothing before an undo may be taken back after it (``undo_trail.standing``).
        "recent": recent[-RECENT_EVENTS:], "undo": None,
    })
    # Buttons shown before the undo are out of date (each seat taken back has acted
    # since them), and a decision that opens again opens at this version: its prompt
    # is sent anew.
    for key in {str(p.seat) for p in later}:
        restored.last_acted[key] = version
        if key in restored.opened:
            restored.opened[key] = version
    changed = record.model_copy(update={"state": state_dict(state),
                                        "meta": restored.model_dump(mode="json")})
    return Change(changed, Action(key=undo_key(len(later)), user_id=record.seats[seat],
                                  seat=seat, kind=ActionKind.UNDO),
                  prompts=game.pending(state), state=state)


def _kept_vote(vote: Any, version: int) -> Any:
    """The vote a decision's bookkeeping held, as an undo restores it: a time-out's
    vote comes back with the decision, asked anew at ``version`` (its message had
    said how it ended); a request to take back does not (the table it asked about is
    gone)."""
    if not isinstance(vote, dict) or vote.get("kind") == "undo":
        return None
    return {**vote, "opened": version}
