"""Button presses: every token is checked against the current table before it acts.

A move is applied only if the token is authentic, the presser holds the seat it was
issued to, the seat has not acted since, and the seat's prompt still reads the same
(its fingerprint). Otherwise the presser gets a clear answer and nothing changes.
Concurrent presses are settled by the store's optimistic commit: a loser re-reads the
table and is checked again, so of 50 presses of one button exactly one acts.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import replace

from bot.services import Ctx, Services
from bot.storage import (
    Action,
    StaleVersion,
    StoreUnavailable,
    TableNotFound,
    TableRecord,
    TableStatus,
)
from bot.table import lobby_actions
from bot.table.moves import apply_move, fingerprint
from bot.table.settings import meta_view
from bot.table.settle import settle, table_message
from bot.table.votes import cast_vote
from bot.texts import texts_for
from bot.ui.markup import rich
from bot.ui.message import Message, Outgoing, Reply, ToChat, ToUser
from bot.ui.present import table_slot
from bot.ui.tokens import MOVE_KIND, Token
from engine.core.errors import IllegalMove
from engine.core.prompts import Prompt
from engine.registry import get_game

log = logging.getLogger(__name__)
COMMIT_ATTEMPTS = 8


def refuse(sv: Services, ctx: Ctx, code: str, **args: object) -> Reply:
    """A refusal shown prominently to the presser; nothing else happens."""
    return Reply(answer=sv.t(ctx.lang, code, **args), alert=True)


def seat_of(record: TableRecord, user_id: str) -> int | None:
    """The seat a user holds at a table, if any."""
    return record.seats.index(user_id) if user_id in record.seats else None


def _prompt_for(sv: Services, record: TableRecord, seat: int) -> Prompt | None:
    return next((p for p in sv.prompts(record) if p.seat == seat), None)


def check_move(
    sv: Services, ctx: Ctx, record: TableRecord, token: Token
) -> tuple[int, str] | Reply:
    """The (seat, option key) a move token stands for now, or the refusal to give."""
    if record.status != TableStatus.RUNNING:
        code = "press.not_started" if record.status == TableStatus.LOBBY else "press.game_over"
        return refuse(sv, ctx, code)
    version, seat, fp, index = token.int_field(0), token.int_field(1), token.fields[2], \
        token.int_field(3)
    mine = seat_of(record, ctx.user.id)
    if mine is None:
        return refuse(sv, ctx, "press.not_a_player")
    if seat != mine or seat >= len(record.seats):
        names = meta_view(record).names
        owner = names.get(record.seats[seat], "?") if seat < len(record.seats) else "?"
        return refuse(sv, ctx, "press.not_your_button", name=owner)
    if version > record.version or meta_view(record).last_acted.get(str(seat), 0) > version:
        return refuse(sv, ctx, "press.stale")
    prompt = _prompt_for(sv, record, seat)
    if prompt is None or fingerprint(prompt) != fp or index >= len(prompt.options):
        return refuse(sv, ctx, "press.stale")
    return seat, prompt.options[index].key


Decide = Callable[[TableRecord], "tuple[int, str] | Reply"]
# After an outage cut a commit's reply off, how often to ask whether it went through.
LOST_COMMIT_CHECKS = 3
LOST_COMMIT_PAUSE_S = 0.2


async def _lost_commit(sv: Services, ctx: Ctx, table_id: str, commit_id: str) -> Reply:
    """The storage failed while a move was being saved: find out whether it was, and
    say exactly that (a saved move's follow-ups are repaired from its mark)."""
    for attempt in range(LOST_COMMIT_CHECKS):
        try:
            saved = await sv.store.committed(table_id, commit_id)
        except StoreUnavailable:
            await asyncio.sleep(LOST_COMMIT_PAUSE_S * (attempt + 1))
            continue
        code = "press.saved_not_shown" if saved else "err.store_unavailable"
        return refuse(sv, ctx, code)
    return refuse(sv, ctx, "press.outcome_unknown")


async def play(
    sv: Services, ctx: Ctx, table_id: str, decide: Decide, via: str | None = None
) -> Reply:
    """Apply the move ``decide`` picks on the current record, retrying lost races.

    ``decide`` runs again on every attempt, so each retry re-checks the press
    against the table as it now is. The first attempt decides on the table as this
    process last saw it (``last_seen``: no round trip), which is nearly always the
    stored one: the commit's version check catches it being out of date, and anything
    but a move it allows (a refusal, an illegal move) is judged again on the stored
    table before it is answered.
    """
    fresh = False
    for _ in range(COMMIT_ATTEMPTS):
        record = None if fresh else sv.store.last_seen(table_id)
        if record is None:
            try:
                record = await sv.store.get(table_id)
            except TableNotFound:
                return refuse(sv, ctx, "press.no_table")
            fresh = True
        decided = decide(record)
        if isinstance(decided, Reply):
            if not fresh:
                fresh = True
                continue
            return decided
        seat, key = decided
        game = get_game(record.game)
        try:
            outcome = apply_move(game, record, seat, key, sv.now(), before=sv.prompts(record))
        except IllegalMove as exc:
            if not fresh:
                fresh = True
                continue
            reason = texts_for(record.game).reason(ctx.lang, exc.code, exc.args_map)
            return Reply(answer=reason, alert=True)
        commit_id = uuid.uuid4().hex
        try:
            committed = await sv.store.commit(
                table_id, record.version, outcome.record,
                Action(key=key, user_id=ctx.user.id, seat=seat, via=via),
                commit_id=commit_id, guard=ctx.guard,
            )
        except (StaleVersion, TableNotFound):
            # Another write got there first (or the table was archived meanwhile): read
            # it as stored, and judge the press again.
            fresh = True
            continue
        except StoreUnavailable:
            log.warning("table %s: storage failed during a commit; checking it", table_id)
            return await _lost_commit(sv, ctx, table_id, commit_id)
        sv.remember(committed, outcome.prompts, outcome.state)
        sv.fault("after_commit")
        try:
            done = await settle(sv, record, committed)
            return Reply(out=done.out, owed=done.owed)
        except StoreUnavailable:
            # The move is saved; only its messages (and reminder changes) are missing.
            # Say so instead of the usual "nothing was changed".
            log.warning("table %s: move saved, follow-up failed (storage)", table_id)
            return Reply(answer=sv.t(ctx.lang, "press.saved_not_shown"), alert=True)
    return refuse(sv, ctx, "press.busy")


async def press(sv: Services, ctx: Ctx, raw: str) -> Reply:
    """Handle one button press."""
    token = sv.signer.parse(raw)
    if token is None:
        return refuse(sv, ctx, "press.forged")
    if token.kind == MOVE_KIND:
        reply = await play(sv, ctx, token.table,
                           lambda record: check_move(sv, ctx, record, token), via=raw)
        if reply.alert and reply.answer == rich(sv.t(ctx.lang, "press.stale")):
            return await _pressed_before(sv, ctx, token, raw) or reply
        return reply
    if token.kind == "p":
        return await _page(sv, ctx, token)
    if token.kind == "l":
        return await lobby_actions.lobby_verb(sv, ctx, token.table, token.fields[0])
    if token.kind == "a":
        return await lobby_actions.confirm_abort(sv, ctx, token.table, token.int_field(0))
    return await cast_vote(sv, ctx, token.table, token.int_field(0), token.fields[1])


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
    prompt = _prompt_for(sv, record, seat) if record.status == TableStatus.RUNNING else None
    if prompt is not None:
        message = sv.presenter.private_prompt(record, prompt, ctx.lang, heading="turn.continue",
                                              now=sv.now())
        out.append(Outgoing(ToUser(ctx.user.id), message, record.table_id,
                            version=record.version))
    return Reply(answer=sv.t(ctx.lang, "press.already_saved"), out=out)


async def _page(sv: Services, ctx: Ctx, token: Token) -> Reply:
    try:
        record = await sv.store.get(token.table)
    except TableNotFound:
        return refuse(sv, ctx, "press.no_table")
    seat, fp, page = token.int_field(1), token.fields[2], token.int_field(3)
    if seat_of(record, ctx.user.id) != seat:
        names = meta_view(record).names
        owner = names.get(record.seats[seat], "?") if seat < len(record.seats) else "?"
        return refuse(sv, ctx, "press.not_your_button", name=owner)
    prompt = _prompt_for(sv, record, seat) if record.status == TableStatus.RUNNING else None
    if prompt is None or fingerprint(prompt) != fp:
        return refuse(sv, ctx, "press.stale")
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

