"""Button presses: every token is checked against the current table before it acts.

A press is routed by its token's kind (``PRESSES``). A move goes through the one move
path (``bot.table.moves``): applied only if the token is authentic, the presser holds
the seat it was issued to, the seat has not acted since, and the seat's prompt still
reads the same (its fingerprint). Otherwise the presser gets a clear answer and nothing
changes. Concurrent presses are settled by the store's optimistic commit: a loser
re-reads the table and is checked again, so of 50 presses of one button exactly one acts.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot import metrics as figures
from bot.i18n import Markup, escape
from bot.services import Ctx, Services
from bot.storage import StoreUnavailable, TableNotFound, TableStatus
from bot.table import lobby_actions
from bot.table.commits import CommitLost
from bot.table.moves import (
    STALE,
    ByIndex,
    MoveRequest,
    check,
    commit,
    lost_commit,
    not_your_button,
    prompt_of,
    seat_of,
)
from bot.table.refusals import Refusal, refusal_reply, refuse
from bot.table.settings import meta_view
from bot.table.settle import settle, table_message
from bot.table.turns import fingerprint
from bot.table.votes import cast_vote
from bot.ui.markup import as_rich
from bot.ui.message import Message, Outgoing, Private, Reply, ToChat, ToUser
from bot.ui.present import table_slot
from bot.ui.tokens import Token, TokenKind
from engine.registry import get_game

log = logging.getLogger(__name__)


async def play(sv: Services, ctx: Ctx, table_id: str, request: MoveRequest,
               via: str | None = None) -> Reply | Refusal:
    """Check and commit a player's move (``bot.table.moves``), then everything it owes;
    the refusal, unworded, if it is not made (the caller may look at its code)."""
    try:
        done = await commit(sv, table_id, lambda record: check(record, request, sv.prompts),
                            ctx.user.id, via=via, guard=ctx.guard)
    except CommitLost as lost:
        return await lost_commit(sv, lost)
    if isinstance(done, Refusal):
        return done
    sv.fault("after_commit")
    try:
        settled = await settle(sv, done.before, done.after)
    except StoreUnavailable:
        # The move is saved; only its messages (and reminder changes) are missing.
        # Say so instead of the usual "nothing was changed".
        log.warning("table %s: move saved, follow-up failed (storage)", table_id)
        return Reply(answer=sv.t(ctx.lang, "press.saved_not_shown"), alert=True)
    return Reply(out=settled.out, owed=settled.owed)


async def _move(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    request = MoveRequest(user_id=ctx.user.id, seen=token.int_field(0), seat=token.int_field(1),
                          fingerprint=token.fields[2], choice=ByIndex(token.int_field(3)))
    played = await play(sv, ctx, token.table, request, via=raw)
    if not isinstance(played, Refusal):
        return played
    if played.code == STALE:
        again = await _pressed_before(sv, ctx, token, raw)
        if again is not None:
            return again
    return refusal_reply(sv, ctx, played)


async def _lobby(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    return await lobby_actions.lobby_verb(sv, ctx, token.table, token.fields[0])


async def _abort(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    return await lobby_actions.confirm_abort(sv, ctx, token.table, token.int_field(0))


async def _vote(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    return await cast_vote(sv, ctx, token.table, token.int_field(0), token.fields[1])


async def _web(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    """The presser's own link to the table's page, shown to them alone."""
    if sv.pages is None:
        return refuse(sv, ctx, "web.not_served")
    try:
        await sv.store.get(token.table)
    except TableNotFound:
        return refuse(sv, ctx, "press.no_table")
    url = sv.pages.link(ctx.user.id, ctx.user.name, token.table)
    text = sv.t(ctx.lang, "web.link_line", table=token.table,
                url=Markup(f'<a href="{escape(url)}">{escape(url)}</a>'))
    note = None if ctx.chat.private else as_rich(sv.t(ctx.lang, "web.link_sent"))
    return Reply(private=Private(Message(text=text), token.table, note))


PressHandler = Callable[[Services, Ctx, Token, str], Awaitable[Reply]]


async def press(sv: Services, ctx: Ctx, raw: str) -> Reply:
    """Handle one button press: a forged token is refused, any other goes to its kind's
    handler. Every press is counted, and so is its refusal by reason, labelled by the
    chat's platform and the table's game."""
    token = sv.signer.parse(raw)
    if token is None:
        return _counted(sv, ctx, figures.NO_GAME, refuse(sv, ctx, "press.forged"))
    record = await sv.seen_table(token.table)
    if record is None:  # gone: its handler says so
        return _counted(sv, ctx, figures.NO_GAME, await PRESSES[token.kind](sv, ctx, token, raw))
    reply = await PRESSES[token.kind](sv, await sv.about(ctx, record), token, raw)
    return _counted(sv, ctx, record.game, reply)


def _counted(sv: Services, ctx: Ctx, game: str, reply: Reply) -> Reply:
    """``reply``, once the press and its refusal (if any) are counted."""
    labels = {"platform": figures.namespace(ctx.chat.id), "game": game}
    sv.metrics.count(figures.PRESSES, labels)
    if reply.refused is not None:
        sv.metrics.count(figures.REFUSALS, {**labels, "reason": reply.refused})
    return reply


async def _pressed_before(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply | None:
    """A press of a button whose move is already saved (the platform delivered it again,
    or it was tapped twice): answer with the table as it stands, not "out of date"."""
    try:
        record = await sv.store.get(token.table)
    except TableNotFound:
        return None
    seat = token.int_field(1)
    acted = meta_view(record).last_acted.get(str(seat), 0)
    if acted <= token.int_field(0):
        return None
    entry = await sv.store.log_entry(token.table, acted)
    if entry is None or entry.via != raw or entry.user_id != ctx.user.id:
        return None
    out = [Outgoing(ToChat(record.chat_id), await table_message(sv, record),
                    version=record.version)]
    prompt = prompt_of(sv.prompts(record), seat) if record.status == TableStatus.RUNNING \
        else None
    if prompt is not None:
        message = sv.presenter.private_prompt(record, prompt, ctx.lang, heading="turn.continue",
                                              now=sv.now())
        out.append(Outgoing(ToUser(ctx.user.id), message, record.table_id,
                            version=record.version))
    return Reply(answer=sv.t(ctx.lang, "press.already_saved"), out=out)


async def _page(sv: Services, ctx: Ctx, token: Token, raw: str) -> Reply:
    try:
        record = await sv.store.get(token.table)
    except TableNotFound:
        return refuse(sv, ctx, "press.no_table")
    seat, fp, page = token.int_field(1), token.fields[2], token.int_field(3)
    if seat_of(record, ctx.user.id) != seat:
        return refusal_reply(sv, ctx, not_your_button(record, seat))
    prompt = prompt_of(sv.prompts(record), seat) if record.status == TableStatus.RUNNING \
        else None
    if prompt is None or fingerprint(prompt) != fp:
        return refuse(sv, ctx, STALE)
    # Turning a page updates the pressed message in place: no new message, no
    # notification. The page number is the presser's platform's own (its layout).
    if ctx.chat.private:
        message = sv.presenter.private_prompt(record, prompt, ctx.lang, page, now=sv.now())
        return Reply(update=replace(message, renew=False))
    game = get_game(record.game)
    base = sv.presenter.table(record, game, sv.view_state(record), sv.table_lang(record),
                              sv.prompts(record), now=sv.now())
    choices = sv.presenter.prompt_choices(record, prompt, ctx.lang, page)
    return Reply(update=Message(text=base.text, choices=choices, slot=table_slot(record)))



# What a press does, by its token's kind.
PRESSES: dict[TokenKind, PressHandler] = {
    TokenKind.MOVE: _move,
    TokenKind.PAGE: _page,
    TokenKind.LOBBY: _lobby,
    TokenKind.ABORT: _abort,
    TokenKind.VOTE: _vote,
    TokenKind.WEB: _web,
}
