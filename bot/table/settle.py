"""After a table changed: messages, reminders, clocks and the autopilot's next move.

``settle`` takes a freshly committed record and the record as it was before the
change, and returns everything to send: the table's message, private prompts for
players whose turn began or continues, "done" edits for players whose turn ended,
"you're next" notices — and the changes to each seat's reminder and clock jobs, made
when the messages are handed over, among them the job that makes the autopilot's next
move where it holds an open prompt (``autopilot_move``, run by ``bot.table.due``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial

from pydantic import JsonValue

from bot.identity import is_ai
from bot.services import Services
from bot.stats.keeping import keep_and_archive
from bot.storage import JobChanges, Owed, TableRecord, TableStatus
from bot.table.moves import commit
from bot.table.refusals import Refusal
from bot.table.settings import meta_view, options_of
from bot.table.vote_messages import vote_jobs, vote_news
from bot.ui.message import Message, Outgoing, ToChat, ToUser
from bot.ui.present import dm_slot, seat_names
from engine.core.prompts import Prompt
from engine.registry import get_game

MAX_AUTOPILOT_MOVES = 1000
NEXT_FLAG_TTL = timedelta(days=30)
RESULT_KEY = "result"  # the idempotency key of a player's own result of a finished game
ARCHIVE_AFTER_FINISH = True


def prompt_key(record: TableRecord, seat: int) -> str:
    """The idempotency key of a seat's prompt as it stands (the version it opened at)."""
    return f"prompt:{seat}:{meta_view(record).opened.get(str(seat), record.version)}"


def reminder_job(table_id: str, seat: int) -> str:
    """The job id of a seat's reminder."""
    return f"rem.{table_id}.{seat}"


def clock_job(table_id: str, seat: int) -> str:
    """The job id of a seat's turn-clock time-out."""
    return f"clk.{table_id}.{seat}"


Schedule = list[tuple[str, datetime, dict[str, JsonValue]]]


def _at(ts: float) -> datetime:
    return datetime.fromtimestamp(ts, UTC)


AUTOPILOT = "autopilot"  # the actor its moves are logged under
THINK = "think"  # the kind of the job that makes the autopilot's next move


def _held_prompt(sv: Services, record: TableRecord) -> Prompt | None:
    """An open prompt of a seat the autopilot holds, if any."""
    if record.status != TableStatus.RUNNING:
        return None
    held = meta_view(record).autopilot
    if not held:  # nobody on autopilot: no state to load (most moves of most games)
        return None
    return next((p for p in sv.prompts(record) if str(p.seat) in held), None)


def _as_decided(decided_on: TableRecord, seat: int, key: str, record: TableRecord
                ) -> tuple[int, str] | Refusal:
    """The autopilot's move on ``record``: ``key`` for ``seat``, decided on
    ``decided_on``, if the table is still in the game state it was decided on (a ballot
    or a lobby note may have come between) and the autopilot still holds the seat."""
    if record.status != TableStatus.RUNNING or (
            record.state is not decided_on.state and record.state != decided_on.state) \
            or str(seat) not in meta_view(record).autopilot:
        return Refusal("autopilot.moved_on")
    return seat, key


async def autopilot_move(sv: Services, record: TableRecord) -> TableRecord:
    """Play one open prompt of a seat the autopilot holds, through the one move path
    (``bot.table.moves.commit``); the table after it (``record`` itself, or the table
    as stored, when there was nothing to play).

    The decision is thought out off the event loop (``Services.thinker``, on the seat's
    own randomness for the version) and committed only onto the game state it was made
    for; if the game moved on meanwhile, it is thought out again on the table as stored
    (whoever moved it owes the same and may get there first: one of the two moves, the
    other finds nothing left to play)."""
    for _ in range(MAX_AUTOPILOT_MOVES):
        prompt = _held_prompt(sv, record)
        if prompt is None:
            return record
        level = meta_view(record).autopilot[str(prompt.seat)]
        key = await sv.thinker.decide(record.game, record.state, prompt.seat, level,
                                      f"{record.table_id}:{record.version}")
        done = await commit(sv, record.table_id,
                            partial(_as_decided, record, prompt.seat, key), AUTOPILOT,
                            first=record)
        if not isinstance(done, Refusal):
            return done.after
        stored = await sv.store.get(record.table_id)
        if stored.state == record.state:
            return stored  # refused for another reason than a move: nothing to play now
        record = stored
    return record


def think_job(table_id: str) -> str:
    """The job id of the autopilot's next move at a table."""
    return f"ai.{table_id}"


def _think_jobs(sv: Services, record: TableRecord) -> Schedule:
    """The autopilot's next move, owed as a job due now, when it holds an open prompt.

    A move is never thought out inside the change that handed the turn on: the player
    who made that change is answered at once, and the job, written in the same step as
    the change's follow-ups are settled, makes the move soon after (``bot.table.due``),
    on any worker, after any crash."""
    if _held_prompt(sv, record) is None:
        return []
    return [(think_job(record.table_id), _at(sv.now()),
             {"kind": THINK, "table": record.table_id, "version": record.version})]


def seat_jobs(sv: Services, record: TableRecord, seat: int) -> Schedule:
    """The reminder (and clock time-out) for a turn that has just opened."""
    options = options_of(record)
    meta = meta_view(record)
    now = sv.now()
    opened = meta.opened[str(seat)]
    jobs: Schedule = []
    if options.reminder_repeats > 0:
        jobs.append((
            reminder_job(record.table_id, seat),
            _at(now + options.reminder_h * 3600),
            {"kind": "remind", "table": record.table_id, "seat": seat, "opened": opened, "n": 1},
        ))
    if options.clock:
        left = meta.bank.get(str(seat), options.clock_initial_h * 3600)
        jobs.append((
            clock_job(record.table_id, seat),
            _at(now + max(left, 0.0)),
            {"kind": "clock", "table": record.table_id, "seat": seat, "opened": opened},
        ))
    return jobs


def seat_job_ids(record: TableRecord, seat: int) -> list[str]:
    """The jobs a seat may have pending."""
    ids = [reminder_job(record.table_id, seat)]
    if options_of(record).clock:
        ids.append(clock_job(record.table_id, seat))
    return ids


async def table_message(sv: Services, record: TableRecord) -> Message:
    """The table's own message as it should look now (with a picture when enabled)."""
    game = get_game(record.game)
    lang = sv.table_lang(record)
    if record.status in (TableStatus.LOBBY, TableStatus.ABORTED):
        return sv.presenter.table_any(record, game, None, lang, [])
    state = sv.view_state(record)
    prompts = sv.prompts(record) if record.status == TableStatus.RUNNING else []
    # With one decision open the table carries its buttons: the picture marks them.
    focus = prompts[0] if len(prompts) == 1 else None
    now = sv.now()
    picture = (sv.presenter.picture(record, game, state, lang, focus=focus, now=now)
               if sv.pictures else None)
    return sv.presenter.table_any(record, game, state, lang, prompts, picture, now)


@dataclass
class Settled:
    """What a committed change led to: the messages to send, the job changes, and the
    table as it stands. Its store marker
    is cleared with ``owed`` once the messages are handed over."""

    out: list[Outgoing]
    record: TableRecord
    jobs: JobChanges

    @property
    def owed(self) -> list[Owed]:
        """What the messages' hand-over settles: the table's mark for this version, and
        the job changes, made in the same write (``Campfire.acknowledge``)."""
        return [Owed(self.record.table_id, self.record.version, self.jobs)]


async def settle(sv: Services, before: TableRecord, record: TableRecord) -> Settled:
    """Everything that follows a committed change of a running (or just ended) table:
    ``follow_ups`` of the new version, knowing the version it came from.

    The change's commit marked the table as owing these; the caller hands the messages
    over, then clears the mark and changes the jobs in one write (``Reply.owed``). The
    jobs wait for that write rather than going first: a reminder of the turn that just
    ended can only fire stale (it checks the table, and is dropped), and a crash before
    leaves the mark, from which ``repair`` re-derives the messages and the jobs alike."""
    return await follow_ups(sv, record, before)


async def follow_ups(sv: Services, record: TableRecord, before: TableRecord | None,
                     *, prompts: bool = True) -> Settled:
    """What a table owes as it stands: the one derivation behind ``settle`` (a change just
    committed) and ``repair`` (a change whose follow-ups were never confirmed).

    The table's message, each open decision privately to its player (a turn that began
    at its version as a new message, one that went on as an edit; keyed, so that a
    delivery layer that sent it already does not send it twice), the players' own
    results of a game that ended, the reminder and clock jobs of every open decision,
    the job of the autopilot's next move where it holds an open prompt
    (``_think_jobs``), and archiving once the table is over. ``before`` is the table the
    change started from, when known: then only what changed is sent (decisions opened
    since), the players whose turn ended get their "done" edit, the next player may be
    told, and the jobs follow from the difference. Unknown (a repair), every open
    decision is sent again and the jobs are reconciled with the queue. A vote opened or
    ended by the change is told in the table's chat (``bot.table.vote_messages``).
    ``prompts`` off sends neither private messages nor votes' (a look that owes nothing,
    like ``/status``)."""
    news = vote_news(sv, record) if prompts else []
    lapse, lapsed = vote_jobs(record)
    out = [Outgoing(ToChat(record.chat_id), await table_message(sv, record)), *news]
    meta = meta_view(record)
    running = record.status == TableStatus.RUNNING
    asked = {p.seat: p for p in sv.prompts(record)} if running else {}
    since = -1 if before is None else before.version
    was_open = meta_view(before).opened if (
        before is not None and before.status == TableStatus.RUNNING) else {}
    schedule: Schedule = []
    cancel: list[str] = []
    told = await _who_is_next(sv, record, asked) if before is not None else None
    nxt = told[1] if told is not None else None
    now_open = meta.opened if running else {}
    for key in sorted(set(was_open) - set(now_open)):
        seat = int(key)
        cancel += seat_job_ids(record, seat)
        if not prompts or is_ai(record.seats[seat]):
            continue
        lang = await sv.seat_lang(record, seat)
        title = sv.presenter.game_title(lang, record.game)
        if record.status.is_over:
            continue  # every seat hears the end below
        elif meta.undone == record.version:
            # The decision that handed this seat its turn was taken back (its "you're
            # next" would only take this edit's place in the same message).
            done = sv.t(lang, "turn.taken_back", game=title, table=record.table_id)
            nxt = None if seat == nxt else nxt
        elif seat == nxt:
            # The player who just finished is also the next one (two players): say so in
            # the edit their turn ends with, instead of a second message right after it.
            done = sv.t(lang, "turn.done_next", game=title, table=record.table_id,
                        name=seat_names(record)[told[0] if told else seat])
            nxt = None
        else:
            done = sv.t(lang, "turn.done", game=title, table=record.table_id)
        out.append(Outgoing(ToUser(record.seats[seat]),
                            Message(text=done, slot=dm_slot(record, seat)), record.table_id))
    for key, version in sorted(now_open.items()):
        seat = int(key)
        if key in meta.autopilot or seat not in asked or version <= since:
            continue  # the autopilot's, or sent with an earlier version
        if before is not None:
            schedule += seat_jobs(sv, record, seat)
        if not prompts:
            continue
        lang = await sv.seat_lang(record, seat)
        heading = "turn.your_turn" if meta.began.get(key) == version else "turn.continue"
        out.append(Outgoing(ToUser(record.seats[seat]),
                            sv.presenter.private_prompt(record, asked[seat], lang,
                                                        heading=heading, now=sv.now()),
                            record.table_id, key=prompt_key(record, seat)))
    if nxt is not None and told is not None:
        out.append(await _next_notice(sv, record, told[0], nxt))
    if prompts and record.status.is_over and record.seed is not None and (
            before is None or before.status == TableStatus.RUNNING):
        # The game ended with this change (or may have: a repair sends them again, keyed):
        # every seat hears how, its result or that the table was aborted.
        state = sv.view_state(record)
        for seat in range(len(record.seats)):
            if is_ai(record.seats[seat]):
                continue  # an AI's result is the table's, told in its chat
            lang = await sv.seat_lang(record, seat)
            text = sv.presenter.personal_result(record, get_game(record.game), state, seat, lang) \
                if record.status == TableStatus.FINISHED else sv.t(
                    lang, "turn.aborted", game=sv.presenter.game_title(lang, record.game),
                    table=record.table_id)
            # A new message (it notifies), where the player's turns were.
            out.append(Outgoing(ToUser(record.seats[seat]),
                                Message(text=text, slot=dm_slot(record, seat), renew=True),
                                record.table_id, key=RESULT_KEY))
    if before is None:
        await _reconcile_jobs(sv, record)
        cancel = []  # made already
    elif record.status.is_over:
        for seat in range(len(record.seats)):
            cancel += seat_job_ids(record, seat)
    if before is not None:
        schedule += _think_jobs(sv, record)
    schedule += lapse
    cancel += lapsed
    if record.status.is_over and ARCHIVE_AFTER_FINISH:
        await keep_and_archive(sv, record)
    return Settled([replace(item, version=record.version) for item in out], record,
                   JobChanges(tuple(schedule), tuple(cancel)))


async def _reconcile_jobs(sv: Services, record: TableRecord) -> None:
    """Every open decision has its jobs (for the prompt now open); no other seat has any
    (for a repair, which cannot know which changes were made)."""
    meta = meta_view(record)
    asked = {p.seat for p in sv.prompts(record)} if record.status == TableStatus.RUNNING \
        else set()
    wanted: Schedule = []
    cancel: list[str] = []
    for seat in range(len(record.seats)):
        ids = seat_job_ids(record, seat)
        key = str(seat)
        if seat not in asked or key in meta.autopilot or key not in meta.opened:
            cancel += ids
            continue
        current = await sv.jobs.payloads(ids)
        for job_id, due, payload in seat_jobs(sv, record, seat):
            held = current.get(job_id)
            if held is None or held.get("opened") != payload["opened"]:
                wanted.append((job_id, due, payload))
    wanted += _think_jobs(sv, record)
    await sv.jobs.change(schedule=wanted, cancel=cancel)
    sv.wake_if_due(wanted)


async def _who_is_next(
    sv: Services, record: TableRecord, prompts: dict[int, Prompt]
) -> tuple[int, int] | None:
    """(the seat deciding, the seat surely after it) when "you're next" is due: one seat
    decides, the game is certain who follows (``Game.next_turn``), that player is not
    the autopilot and wants to be told, and they were not told yet during this turn."""
    if len(prompts) != 1 or not options_of(record).notify_next:
        return None
    [seat] = prompts
    nxt = get_game(record.game).next_turn(sv.view_state(record), seat)
    meta = meta_view(record)
    if nxt is None or nxt == seat or str(nxt) in meta.autopilot:
        return None
    if await sv.prefs.get_pref(f"user:{record.seats[nxt]}:next") == "off":
        return None
    turn = meta.began.get(str(seat), record.version)
    if not await sv.once.first(f"next.{record.table_id}.{seat}.{turn}", NEXT_FLAG_TTL):
        return None
    return seat, nxt


async def _next_notice(sv: Services, record: TableRecord, seat: int, nxt: int) -> Outgoing:
    """Tell ``nxt`` that they play after ``seat``."""
    lang = await sv.seat_lang(record, nxt)
    text = sv.t(lang, "turn.you_are_next", game=sv.presenter.game_title(lang, record.game),
                table=record.table_id, name=seat_names(record)[seat])
    # An edit of the player's private message for this table, not a new one: it is
    # there when they look, and the one push of their turn comes when the turn does.
    return Outgoing(ToUser(record.seats[nxt]), Message(text=text, slot=dm_slot(record, nxt)),
                    record.table_id)
