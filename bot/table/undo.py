"""Taking back one's own decision (``/undo``).

A player may take back their last decision while nothing random or hidden has been
shown since and nobody else has decided since (Board Game Arena's rule for undo in
turn-based games). The table does not go back in its history: the undo is a new
version, so every button shown before it is out of date. Its game state is the trail's
state replayed without the decision (``bot.table.undo_trail``), its bookkeeping the one
the decision replaced (clocks, open decisions, votes), and its follow-ups correct what
the decision's messages showed: the table's message, the player's private prompt, and
"your turn" for whoever the decision had handed the turn to. The log keeps the decision,
followed by an ``undo`` entry that takes it back on replay.

Taking back a decision that another player has built on would need their consent (a
vote); it is refused for now with its reason, as are decisions sealed by a roll, a draw
or a card turned up.
"""

from __future__ import annotations

from typing import Any

from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, TableRecord
from bot.table.commits import Change, commit_change
from bot.table.moves import not_playing, seat_of
from bot.table.refusals import Refusal, refusal_reply
from bot.table.settings import TableMeta, UndoTrail, meta_of
from bot.table.settle import settle
from bot.table.turns import RECENT_EVENTS, state_dict
from bot.table.undo_trail import UNDO_EVENT, replay_trail
from bot.ui.message import Reply
from engine.core.protocol import Game
from engine.registry import get_game


async def undo(sv: Services, ctx: Ctx, record: TableRecord) -> Reply:
    """Take back ``ctx.user``'s last decision at ``record``'s table, or say why not."""
    game = get_game(record.game)
    done = await commit_change(sv, record.table_id,
                               lambda current: taken_back(game, current, ctx.user.id),
                               seen=record)
    if isinstance(done, Refusal):
        return refusal_reply(sv, ctx, done)
    settled = await settle(sv, done.before, done.after)
    return Reply(answer=sv.t(ctx.lang, "undo.done"), out=settled.out, owed=settled.owed)


def taken_back(game: Game[Any], record: TableRecord, user_id: str) -> Change | Refusal:
    """``record`` with ``user_id``'s last decision taken back, or why it cannot be."""
    refused = not_playing(record)
    if refused is not None:
        return refused
    seat = seat_of(record, user_id)
    if seat is None:
        return Refusal("cmd.no_seat", {"table": record.table_id})
    meta = meta_of(record)
    trail = meta.undo
    # A trail is current only if no other change (a vote, a time-out) came after it.
    points = trail.points if trail is not None and trail.points \
        and trail.points[-1].version == record.version else []
    mine = [i for i, point in enumerate(points) if point.seat == seat]
    if trail is None or not mine or str(seat) in meta.autopilot:
        acted = meta.last_acted.get(str(seat), 0)
        if 0 < acted <= meta.sealed:
            return Refusal("undo.sealed")
        return Refusal("undo.nothing")
    last = mine[-1]
    if last != len(points) - 1:
        return Refusal("undo.others_decided")
    point = points[last]
    state = replay_trail(game, trail, last)
    version = record.version + 1
    recent = meta.recent[:len(meta.recent) - point.events] if point.events else meta.recent
    restored = TableMeta.model_validate({
        **point.meta, "names": meta.names, "sealed": meta.sealed, "undone": version,
        "recent": [*recent, [UNDO_EVENT, seat, {}]][-RECENT_EVENTS:],
        "undo": UndoTrail(base=trail.base, points=points[:last]) if last else None,
    })
    # Buttons shown before the undo are out of date (the seat has acted since them),
    # and the seat's decision opens again at this version: its prompt is sent anew.
    restored.last_acted[str(seat)] = version
    restored.opened[str(seat)] = version
    changed = record.model_copy(update={"state": state_dict(state),
                                        "meta": restored.model_dump(mode="json")})
    return Change(changed, Action(key="undo", user_id=user_id, seat=seat,
                                  kind=ActionKind.UNDO),
                  prompts=game.pending(state), state=state)
