"""Lobby verbs (join, leave, start, cancel; the creator's seating and unseating of AI
players) and aborting, from buttons or commands."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot.i18n import Markup
from bot.identity import User
from bot.services import Ctx, Services
from bot.storage import Action, ActionKind, Owed, TableRecord, TableStatus
from bot.table import lobby
from bot.table.access import admin_here, belongs_here
from bot.table.commits import Change, commit_change
from bot.table.lobby import AI_DROP, AI_VERBS
from bot.table.refusals import Refusal, refusal_reply, refuse
from bot.table.settings import AiLevel, meta_view
from bot.table.settle import settle, table_message
from bot.table.turns import open_first_prompts
from bot.ui.message import Choice, Message, Outgoing, Reply, ToChat, block
from bot.ui.present import seat_names
from bot.ui.tokens import TokenKind
from engine.registry import get_game


def ai_name(sv: Services, record: TableRecord, level: AiLevel, n: int) -> str:
    """The name of the table's ``n``-th AI player: it says it is an AI, and its level,
    in the table's language."""
    return sv.catalog.plain(sv.table_lang(record), f"ai.name.{level}", n=n)


async def _change(
    sv: Services, ctx: Ctx, table_id: str, verb: str,
    change: Callable[[TableRecord], TableRecord],
) -> tuple[TableRecord, TableRecord] | Reply:
    """Apply a lobby change through the one commit loop: (before, after) or a refusal."""

    def lobby_change(record: TableRecord) -> Change | Refusal:
        if not belongs_here(record, ctx.chat, ctx.user):
            return Refusal("press.no_table")
        try:
            changed = change(record)
        except lobby.LobbyError as exc:
            # About this table, so in the table's language (chosen when it was opened).
            return Refusal(exc.code, lang=sv.table_lang(record))
        return Change(changed, Action(key=verb, user_id=ctx.user.id, kind=ActionKind.LOBBY))

    done = await commit_change(sv, table_id, lobby_change)
    if isinstance(done, Refusal):
        return refusal_reply(sv, ctx, done)
    return done.before, done.after


async def lobby_verb(sv: Services, ctx: Ctx, table_id: str, verb: str) -> Reply:
    """Join, leave, start or cancel a table."""
    user = ctx.user
    changes: dict[str, Callable[[TableRecord], TableRecord]] = {
        "join": lambda r: lobby.join(r, user),
        "leave": lambda r: lobby.leave(r, user),
        "cancel": lambda r: lobby.cancel(r, user),
        **{verb: partial(seat_ai, sv, user=user, level=level)
           for verb, level in AI_VERBS.items()},
        AI_DROP: lambda r: lobby.remove_ai(r, user),
        "start": lambda r: open_first_prompts(
            get_game(r.game), lobby.start(r, user, get_game(r.game), sv.rng), sv.now()
        ),
    }
    if verb not in changes:
        return refuse(sv, ctx, "press.forged")
    done = await _change(sv, ctx, table_id, verb, changes[verb])
    if isinstance(done, Reply):
        return done
    before, record = done
    sv.fault("after_commit")
    lang = sv.table_lang(record)
    if verb == "start":
        order = [sv.t(lang, "lobby.seat_line", n=i + 1, name=name)
                 for i, name in enumerate(seat_names(record))]
        announce = sv.t(lang, "lobby.started", table=record.table_id,
                        order="\n".join(order))
        rules = sv.presenter.variants_line(record, lang)
        if rules is not None:
            announce = Markup(f"{announce}\n{rules}")
        out = [Outgoing(ToChat(record.chat_id), Message(text=announce))]
        settled = await settle(sv, before, record)
        return Reply(out=out + settled.out, owed=settled.owed)
    if record.status == TableStatus.ABORTED:
        await sv.store.archive(record.table_id)
    answer = sv.t(lang, f"lobby.done.{'ai' if verb in AI_VERBS else verb}",
                  table=record.table_id, name=_who(before, record, ctx.user.name))
    message = await table_message(sv, record)
    return Reply(answer=answer, out=[Outgoing(ToChat(record.chat_id), message,
                                              version=record.version)],
                 owed=[Owed(record.table_id, record.version)])


def seat_ai(sv: Services, record: TableRecord, user: User, level: AiLevel) -> TableRecord:
    """``record`` with one more AI player at ``level``, seated by ``user`` (named in the
    table's language)."""
    return lobby.add_ai(record, user, level, lambda n: ai_name(sv, record, level, n))


def _who(before: TableRecord, after: TableRecord, actor: str) -> str:
    """The name of whoever sat down or got up in a lobby change (else the actor's)."""
    moved = [s for s in after.seats if s not in before.seats] + [
        s for s in before.seats if s not in after.seats]
    if not moved:
        return actor
    return {**meta_view(before).names, **meta_view(after).names}.get(moved[0], actor)


async def abort_request(sv: Services, ctx: Ctx, record: TableRecord) -> Reply:
    """Ask the creator or an admin to confirm aborting; nothing changes yet."""
    if record.status.is_over:
        return refuse(sv, ctx, "table.over")
    if ctx.user.id != record.creator_id and not await admin_here(sv.admins, record, ctx.chat,
                                                                 ctx.user):
        return refuse(sv, ctx, "table.abort_not_allowed")
    token = sv.signer.make(TokenKind.ABORT, record.table_id, record.version)
    button = Choice(sv.catalog.plain(ctx.lang, "table.abort_confirm_btn"), token, "confirm")
    return Reply(answer=sv.t(ctx.lang, "table.abort_confirm", table=record.table_id),
                 answer_choices=block([button]))


async def confirm_abort(sv: Services, ctx: Ctx, table_id: str, version: int) -> Reply:
    """Abort the table if it has not moved on since the confirmation was asked."""
    # Asked once, before the retries of the change (which must not wait on a platform).
    admin = not ctx.chat.private and await sv.admins.is_admin(ctx.chat, ctx.user)

    def change(record: TableRecord) -> TableRecord:
        if record.version != version:
            raise lobby.LobbyError("press.stale")
        return lobby.abort(record, ctx.user, admin=admin and record.chat_id == ctx.chat.id)

    done = await _change(sv, ctx, table_id, "abort", change)
    if isinstance(done, Reply):
        return done
    before, record = done
    sv.fault("after_commit")
    settled = await settle(sv, before, record)
    return Reply(answer=sv.t(ctx.lang, "table.aborted_short", table=table_id),
                 out=settled.out, owed=settled.owed)
