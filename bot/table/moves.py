"""The one move path: every way a decision reaches a table is checked and committed here.

A button, a typed ``/move``, the autopilot — and any later way a decision arrives —
describe what the player saw as a ``MoveRequest``. ``check`` decides, on the table as it
stands, which (seat, option key) the request stands for, or the ``Refusal`` to give; the
checks are the same for every source, in one order: the table is being played, the
actor holds a seat, it is the seat the request names, the seat is asked something, the
seat has not acted since the request was made, and its question still reads the same
(its fingerprint). ``commit`` applies and commits a decided move, re-reading and deciding
again when another write got there first; its caller says what to do after.

Refusals are codes (catalog keys, or the engine's reason codes for its game's texts),
never compared as rendered text.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from bot.services import Services
from bot.storage import Action, ScriptPart, StoreUnavailable, TableRecord, TableStatus
from bot.table.commits import Change, CommitLost, Committed, commit_change
from bot.table.refusals import Refusal
from bot.table.settings import meta_view
from bot.table.turns import apply_move, fingerprint
from engine.core.errors import IllegalMove
from engine.core.prompts import Prompt
from engine.registry import get_game

# After an outage cut a commit's reply off, how often to ask whether it went through.
LOST_COMMIT_CHECKS = 3
LOST_COMMIT_PAUSE_S = 0.2

STALE = "press.stale"


@dataclass(frozen=True, slots=True)
class ByIndex:
    """The option at a position of the prompt (a button carries its index)."""

    index: int

    def key_in(self, prompt: Prompt) -> str | None:
        """The option's key, or None when the prompt has no such option."""
        return prompt.options[self.index].key if self.index < len(prompt.options) else None


@dataclass(frozen=True, slots=True)
class Typed:
    """What a player typed: an option's number as listed (from 1), or its key."""

    text: str

    def key_in(self, prompt: Prompt) -> str | None:
        """The key meant; an unknown key goes on to the engine, which says why not."""
        keys = prompt.keys()
        wanted = self.text
        if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= len(keys):
            return keys[int(wanted) - 1]
        return wanted


@dataclass(frozen=True, slots=True)
class MoveRequest:
    """A decision as its player made it: against which version of the table, for which
    seat (None: the actor's own) and which question (the prompt's fingerprint, None if
    none was open), picking which option. ``sent_at`` is when the platform says the
    player sent it, if it says; ``unasked`` is the refusal for a seat asked nothing
    (a stale button, or "not your turn" to a typed move)."""

    user_id: str
    seen: int
    fingerprint: str | None
    choice: ByIndex | Typed
    seat: int | None = None
    sent_at: float | None = None
    unasked: str = STALE


def seat_of(record: TableRecord, user_id: str | None) -> int | None:
    """The seat a user holds at a table, if any (None for nobody: a spectator)."""
    return record.seats.index(user_id) if user_id in record.seats else None


def prompt_of(prompts: list[Prompt], seat: int) -> Prompt | None:
    """The open prompt of ``seat`` among a table's prompts, if it is asked anything."""
    return next((p for p in prompts if p.seat == seat), None)


def not_playing(record: TableRecord) -> Refusal | None:
    """The refusal for a move at a table that is not being played, if it is not."""
    if record.status == TableStatus.RUNNING:
        return None
    return Refusal("press.not_started" if record.status == TableStatus.LOBBY
                   else "press.game_over")


def not_your_button(record: TableRecord, seat: int) -> Refusal:
    """A button of another seat was pressed: name whose it is."""
    names = meta_view(record).names
    owner = names.get(record.seats[seat], "?") if seat < len(record.seats) else "?"
    return Refusal("press.not_your_button", {"name": owner})


def check(record: TableRecord, request: MoveRequest,
          prompts: Callable[[TableRecord], list[Prompt]]) -> tuple[int, str] | Refusal:
    """The (seat, option key) ``request`` stands for on ``record``, or why it stands for
    none; ``prompts`` gives a running table's open prompts (``Services.prompts``)."""
    refused = not_playing(record)
    if refused is not None:
        return refused
    mine = seat_of(record, request.user_id)
    if mine is None:
        return Refusal("press.not_a_player")
    seat = mine if request.seat is None else request.seat
    if seat != mine:
        return not_your_button(record, seat)
    prompt = prompt_of(prompts(record), seat)
    if prompt is None:
        return Refusal(request.unasked)
    meta = meta_view(record)
    moved_since_sent = (request.sent_at is not None
                        and meta.acted_at.get(str(seat), float("-inf")) >= request.sent_at)
    if (request.seen > record.version or meta.last_acted.get(str(seat), 0) > request.seen
            or moved_since_sent or fingerprint(prompt) != request.fingerprint):
        return Refusal(STALE)
    key = request.choice.key_in(prompt)
    return Refusal(STALE) if key is None else (seat, key)


Decide = Callable[[TableRecord], "tuple[int, str] | Refusal"]


async def lost_commit(sv: Services, lost: CommitLost) -> Refusal:
    """Find out whether a lost commit went through, and say exactly that (a saved
    move's follow-ups are repaired from its mark)."""
    table_id, commit_id = lost.table_id, lost.commit_id
    for attempt in range(LOST_COMMIT_CHECKS):
        try:
            saved = await sv.store.committed(table_id, commit_id)
        except StoreUnavailable:
            await asyncio.sleep(LOST_COMMIT_PAUSE_S * (attempt + 1))
            continue
        return Refusal("press.saved_not_shown" if saved else "err.store_unavailable")
    return Refusal("press.outcome_unknown")


async def commit(
    sv: Services, table_id: str, decide: Decide, user_id: str, *,
    via: str | None = None, guard: ScriptPart | None = None, first: TableRecord | None = None,
) -> Committed | Refusal:
    """Apply and commit the move ``decide`` picks on the table (``commit_change``: the
    one commit loop), as ``user_id``'s.

    ``decide`` runs again on every attempt, so each retry judges the decision against
    the table as it now is. The first attempt decides on ``first`` if given, else on
    the table as this process last saw it (``last_seen``: no round trip), which is
    nearly always the stored one; an illegal move found on it is judged again on the
    stored table before it is answered. ``via`` is logged with the move (the button
    pressed). A storage outage during the commit raises ``CommitLost``
    (``lost_commit`` finds out what became of the move).
    """

    def change(record: TableRecord) -> Change | Refusal:
        decided = decide(record)
        if isinstance(decided, Refusal):
            return decided
        seat, key = decided
        try:
            outcome = apply_move(get_game(record.game), record, seat, key, sv.now(),
                                 before=sv.prompts(record))
        except IllegalMove as exc:
            return Refusal(exc.code, dict(exc.args_map), game=record.game)
        return Change(outcome.record, Action(key=key, user_id=user_id, seat=seat, via=via),
                      outcome.prompts, outcome.state)

    seen = first if first is not None else sv.store.last_seen(table_id)
    return await commit_change(sv, table_id, change, seen=seen, guard=guard)
