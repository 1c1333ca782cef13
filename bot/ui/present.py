"""Turning tables and prompts into neutral messages.

The table's own message (slot ``table:<id>``) shows the lobby, or during play the
recent events, every open decision and — when exactly one player is to decide — that
player's buttons, so a group can play without leaving the chat. A player's private
message (slot ``dm:<id>:<seat>``) always carries their own buttons.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import BaseModel

from bot import metrics as figures
from bot.games import GameManifest, manifests
from bot.i18n import Lang, Markup
from bot.i18n.catalog import Catalog
from bot.identity import is_ai
from bot.metrics import Metrics, NoMetrics
from bot.render.caption import with_caption
from bot.render.targets import Drawn
from bot.storage import TableRecord, TableStatus
from bot.table.clock import duration_words, time_left
from bot.table.lobby import AI_DROP, AI_VERBS
from bot.table.settings import meta_view, options_of
from bot.table.turns import fingerprint
from bot.table.undo_trail import UNDO_EVENT, UNDO_MANY_EVENT
from bot.texts import GameTexts, texts_for
from bot.ui.choices import Choice, ChoiceBlock, Group, block
from bot.ui.markup import rich_lines
from bot.ui.message import Message, Picture
from bot.ui.tokens import TokenKind, TokenSigner
from engine.core.prompts import Event, Prompt
from engine.core.protocol import Game, Result, Summary


def seat_names(record: TableRecord) -> list[str]:
    """Display names in seat order."""
    # Read straight from the record (validated when it was loaded): this runs for
    # every line of every message, so a full metadata validation here adds up.
    names = record.meta.get("names")
    known = names if isinstance(names, dict) else {}
    return [str(known.get(uid, uid)) for uid in record.seats]


def winners_number(result: Result) -> str:
    """``one`` or ``many``: the variant of a sentence naming the winners (it agrees with
    their number: "Winner: Anna", "Winners: Anna, Boris")."""
    return "one" if len(result.winners) == 1 else "many"


def table_slot(record: TableRecord) -> str:
    """The slot of the table's own message."""
    return f"table:{record.table_id}"


def dm_slot(record: TableRecord, seat: int) -> str:
    """The slot of a player's private prompt message for this table."""
    return f"dm:{record.table_id}:{seat}"


# Events the table itself adds to a game's story, by code: the catalog text of each.
TABLE_EVENTS: dict[str, str] = {UNDO_EVENT: "undo.event", UNDO_MANY_EVENT: "undo.event_many"}


class Presenter:
    """Builds every message the bot sends about tables."""

    def __init__(
        self, catalog: Catalog, signer: TokenSigner,
        games: Mapping[str, GameManifest] | None = None, metrics: Metrics | None = None,
    ) -> None:
        """``games``: the hosted games' manifests (all of them unless given);
        ``metrics``: where the time each picture takes is reported (by default nowhere)."""
        self.catalog = catalog
        self.signer = signer
        self.metrics: Metrics = metrics or NoMetrics()
        self.games = games if games is not None else manifests()
        # The table message and the private prompt show the same choices: build once.
        self._blocks: dict[tuple[str, int, int, str, str], ChoiceBlock] = {}
        # Whether tables have pages (``Services.serve_pages``): the table message and
        # every private prompt then offer to open the page.
        self.pages = False
        self._lines: dict[tuple[object, ...], Markup] = {}

    def t(self, lang: Lang, code: str, **args: Any) -> Markup:
        """A catalog text."""
        return self.catalog.t(lang, code, **args)

    # --- lobby ---------------------------------------------------------------------

    def lobby(self, record: TableRecord, lang: Lang) -> Message:
        """The open table with its join/leave/start/cancel buttons, and the creator's
        for AI players."""
        options = options_of(record)
        names = seat_names(record)
        text = self.t(
            lang, "lobby.table", game=self.game_title(lang, record.game), table=record.table_id,
            count=len(names), min=options.min_seats, max=options.max_seats,
            players=", ".join(names), creator=meta_view(record).names.get(record.creator_id, "?"),
        )
        rules = self.variants_line(record, lang)
        if rules is not None:
            text = Markup(f"{text}\n{rules}")
        verbs = ["join", "leave", "start", "cancel"]
        # The creator's: an AI player of each level while a seat is free, and taking the
        # last one away while there is one.
        if len(record.seats) < options.max_seats:
            verbs += AI_VERBS
        if any(is_ai(s) for s in record.seats):
            verbs.append(AI_DROP)
        actions = [
            Choice(self.catalog.plain(lang, f"lobby.btn.{v}"),
                   self.signer.make(TokenKind.LOBBY, record.table_id, v), "action")
            for v in verbs
        ]
        return Message(text=text, choices=block(actions), slot=table_slot(record))

    def variants_line(self, record: TableRecord, lang: Lang) -> Markup | None:
        """The table's settings that differ from its game's defaults, in words
        (``<prefix>.variant.<name>.<value>``), or None when it plays by the defaults."""
        entry = self.games[record.game]
        chosen = options_of(record).variants
        named = [self.catalog.plain(lang, f"{entry.prefix}.variant.{v.name}.{chosen[v.name]}")
                 for v in entry.variants if chosen.get(v.name, v.default) != v.default]
        return self.t(lang, "lobby.variants", rules=", ".join(named)) if named else None

    def game_title(self, lang: Lang, game: str) -> str:
        """A game's display name."""
        return self.catalog.plain(lang, self.games[game].title_code)

    def game_word(self, lang: Lang, game: str) -> str:
        """The word that names a game in a command, in ``lang``."""
        return self.catalog.plain(lang, self.games[game].word_code)

    # --- prompts -------------------------------------------------------------------

    def prompt_choices(
        self, record: TableRecord, prompt: Prompt, lang: Lang, page: int = 0
    ) -> ChoiceBlock:
        """The prompt's options as a choice block: every option (grouped where the
        game's texts group them), "back" options as ``back`` items, a pager for
        platforms that must split the list, and the page asked for."""
        fp = fingerprint(prompt)
        key = (record.table_id, record.version, prompt.seat, fp, lang)
        if key not in self._blocks:
            if len(self._blocks) > 2048:
                self._blocks.clear()
            self._blocks[key] = self._make_block(record, prompt, lang, fp)
        made: ChoiceBlock = self._blocks[key]
        return replace(made, page=page) if page else made

    def _make_block(self, record: TableRecord, prompt: Prompt, lang: Lang, fp: str,
                    ) -> ChoiceBlock:
        texts = texts_for(record.game)
        choices = []
        groups: dict[str, Group] = {}
        for i, option in enumerate(prompt.options):
            token = self.signer.make(TokenKind.MOVE, record.table_id, record.version,
                                     prompt.seat, fp, i)
            label = texts.option(lang, option.label)
            if option.back:
                choices.append(Choice(label, token, "back", mark=i + 1))
                continue
            group = texts.option_group(lang, option)
            if group is not None:
                groups.setdefault(group.key, group)
            choices.append(Choice(label, token, "option", group.key if group else None,
                                  mark=i + 1, short=texts.option_short(lang, option.label)))
        pager = self.signer.make_pager(record.table_id, record.version, prompt.seat, fp)
        choices += self.web_choices(record, lang)
        return ChoiceBlock(tuple(choices), tuple(groups.values()),
                           prompt=f"{record.table_id}:{record.version}:{prompt.seat}:{fp}",
                           pager=pager)

    def web_choices(self, record: TableRecord, lang: Lang) -> list[Choice]:
        """The item that opens the table's page, while pages are served (else none)."""
        if not self.pages:
            return []
        token = self.signer.make(TokenKind.WEB, record.table_id)
        return [Choice(self.catalog.plain(lang, "web.open_page"), token, "web",
                       table=record.table_id)]

    def prompt_line(self, record: TableRecord, prompt: Prompt, lang: Lang) -> Markup:
        """One line saying who decides what."""
        # A move's table message and the player's private prompt both say it: word it
        # once. A game's wording depends only on what the key holds (the engine builds
        # equal arguments in the same order, so their repr is a fine key).
        names = seat_names(record)
        key = (record.game, lang, prompt.seat, prompt.label.code, repr(prompt.label.args),
               *names)
        line = self._lines.get(key)
        if line is None:
            if len(self._lines) > 2048:
                self._lines.clear()
            line = self._lines[key] = texts_for(record.game).prompt(
                lang, prompt.label, names, seat=prompt.seat)
        return line

    def private_prompt(
        self, record: TableRecord, prompt: Prompt, lang: Lang, page: int = 0,
        heading: str = "turn.your_turn", now: float | None = None,
    ) -> Message:
        """A player's private message with their decision and buttons (and, with a turn
        clock and ``now``, the time they have left)."""
        text = self.t(
            lang, heading, game=self.game_title(lang, record.game), table=record.table_id,
            prompt=self.prompt_line(record, prompt, lang),
        )
        note = self.clock_note(record, prompt.seat, lang, now)
        if note is not None:
            text = Markup(f"{text}\n{note}")
        return Message(text=text, choices=self.prompt_choices(record, prompt, lang, page),
                       slot=dm_slot(record, prompt.seat),
                       renew=heading in ("turn.your_turn", "turn.reminder"))

    # --- the running table ---------------------------------------------------------

    def event_lines(self, record: TableRecord, lang: Lang, events: list[Event]) -> list[Markup]:
        """Chat-log lines for events (some events say nothing): the game's, and the
        table's own (``TABLE_EVENTS``) in the shared catalog's words."""
        texts = texts_for(record.game)
        names = seat_names(record)
        return [line for e in events
                if (line := self._event_line(texts, lang, e, names)) is not None]

    def _event_line(self, texts: GameTexts[Any], lang: Lang, event: Event,
                    names: list[str]) -> Markup | None:
        """One event's line: the table's own events in the shared catalog's words, the
        game's in its texts'."""
        code = TABLE_EVENTS.get(event.code)
        if code is None:
            return texts.event(lang, event, names)
        return self.t(lang, code, name=names[event.seat or 0])

    def recent_events(self, record: TableRecord) -> list[Event]:
        """The last events noted in the record."""
        return [Event(code, seat, args) for code, seat, args in meta_view(record).recent]

    def picture(
        self, record: TableRecord, game: Game[Any], state: BaseModel, lang: Lang,
        seat: int | None = None, focus: Prompt | None = None, now: float | None = None,
    ) -> Picture | None:
        """The board as a picture, if the game has one; ``focus`` is the prompt it is
        shown with (the picture may mark what its buttons mean). With a turn clock and
        ``now``, every seat's time left is written under it."""
        drawn = self.drawn(record, game, state, lang, seat, focus)
        if drawn is None:
            return None
        png = drawn.png
        if now is not None and options_of(record).clock:
            png = with_caption(png, self.clock_strip(record, lang, now))
        return Picture(png=png, name=f"{record.table_id}-{record.version}.png")

    def drawn(
        self, record: TableRecord, game: Game[Any], state: BaseModel, lang: Lang,
        seat: int | None = None, focus: Prompt | None = None,
    ) -> Drawn | None:
        """The board as the game draws it for ``seat`` (None: the public view), with
        the places of ``focus``'s options (a page makes them buttons); None for a
        game without a picture."""
        render = self.games[record.game].picture
        if render is None:
            return None
        # Pictures are the slowest thing a move makes: the operator sees their time.
        started = time.perf_counter()
        drawn: Drawn = render(game.view(state, seat), seat_names(record), lang, focus)
        self.metrics.observe(figures.PICTURE_SECONDS, time.perf_counter() - started,
                             figures.table_labels(record))
        return drawn

    def clock_note(self, record: TableRecord, seat: int, lang: Lang, now: float | None,
                   code: str = "clock.left") -> Markup | None:
        """``⏳ 5 h 10 min left``: a seat's clock, if the table has one."""
        left = time_left(record, seat, now) if now is not None else None
        if left is None:
            return None
        return self.t(lang, code, left=duration_words(self.catalog, lang, left))

    def clock_strip(self, record: TableRecord, lang: Lang, now: float) -> str:
        """Every seat's time left, for the caption under a picture."""
        seats = []
        for seat, name in enumerate(seat_names(record)):
            left = time_left(record, seat, now) or 0.0
            seats.append(f"{name} {duration_words(self.catalog, lang, left)}")
        return self.catalog.plain(lang, "clock.strip", seats=" · ".join(seats))

    def scores_line(self, record: TableRecord, summary: Summary, lang: Lang) -> Markup:
        """Everyone's score right now, with what such a score means in the game's words
        when its texts say (``<prefix>.scores_now``: a total counted as if the game
        ended now starts below zero)."""
        parts = [
            self.t(lang, "table.score_part", name=name, score=score)
            for name, score in zip(seat_names(record), summary.scores, strict=False)
        ]
        line = Markup(" · ".join(parts))
        meaning = f"{self.games[record.game].prefix}.scores_now"
        if self.catalog.raw(lang, meaning) is not None:
            return self.t(lang, meaning, scores=line)
        return line

    def table(
        self, record: TableRecord, game: Game[Any], state: BaseModel, lang: Lang,
        prompts: list[Prompt], picture: Picture | None = None, now: float | None = None,
    ) -> Message:
        """The table's message during play (with ``now``, each clock of a seat asked)."""
        summary = game.summary(state)
        title = self.game_title(lang, record.game)
        phase_code = f"{self.games[record.game].prefix}.phase.{summary.phase}"
        if summary.round is None:
            header = self.t(lang, "table.header_plain", game=title, table=record.table_id)
        elif summary.phase and self.catalog.raw(lang, phase_code) is not None:
            header = self.t(lang, "table.header_phase", game=title, table=record.table_id,
                            round=summary.round, phase=self.catalog.plain(lang, phase_code))
        else:
            header = self.t(lang, "table.header", game=title, table=record.table_id,
                            round=summary.round)
        lines = [header, self.scores_line(record, summary, lang)]
        recent = self.event_lines(record, lang, self.recent_events(record))[-5:]
        lines += recent
        meta = meta_view(record)
        for prompt in prompts:
            # A game may describe the choices before its question (lines of words for
            # play without pictures): the turn marker belongs on the question itself.
            details, _, question = self.prompt_line(record, prompt, lang).rpartition("\n")
            if details:
                lines.append(Markup(details))
            line = Markup(question)
            note = self.clock_note(record, prompt.seat, lang, now, "clock.seat")
            if note is not None:
                line = Markup(f"{line} {note}")
            if str(prompt.seat) in meta.autopilot:
                line = self.t(lang, "table.autopilot_marker", line=line)
            lines.append(self.t(lang, "table.now", line=line))
        choices = None
        if len(prompts) == 1:
            choices = self.prompt_choices(record, prompts[0], lang)
        elif len(prompts) > 1:
            lines.append(self.t(lang, "table.answer_in_private"))
        if choices is None and self.pages:
            choices = block(self.web_choices(record, lang))
        return Message(text=rich_lines(lines), choices=choices, picture=picture,
                       slot=table_slot(record))

    def finished(
        self, record: TableRecord, game: Game[Any], state: BaseModel, lang: Lang,
        picture: Picture | None = None,
    ) -> Message:
        """The end: why it ended (once), every seat's total with its whole score sheet in
        the game's words, best first, and the winners."""
        result = game.result(state)
        names = seat_names(record)
        entry = self.games[record.game]
        texts = texts_for(record.game)
        lines = [self.t(lang, "result.header", game=self.game_title(lang, record.game),
                        table=record.table_id)]
        if result is not None:
            lines.append(self.t(lang, f"{entry.prefix}.result.reason.{result.reason}"))
            ranked = sorted(result.scores, key=lambda s: (-s.total, -s.tiebreak, s.seat))
            for place, score in enumerate(ranked, start=1):
                if entry.result.tiebreak:
                    tiebreak = self.t(lang, f"{entry.prefix}.result.tiebreak",
                                      tiebreak=score.tiebreak)
                    lines.append(self.t(lang, "result.line_tiebreak", place=place,
                                        name=names[score.seat], total=score.total,
                                        tiebreak=tiebreak))
                else:
                    lines.append(self.t(lang, "result.line", place=place,
                                        name=names[score.seat], total=score.total))
                parts = [texts.score_part(lang, key, score.breakdown[key])
                         for key in entry.result.sheet_order(score.breakdown)]
                lines.append(Markup("   " + "; ".join(parts)))
            if len(result.scores) > 1:  # a solo game has a score, not a winner
                winners = ", ".join(names[s] for s in result.winners)
                lines.append(self.t(lang, f"result.winners.{winners_number(result)}",
                                    names=winners))
        # A new message, not an edit far up the chat: platforms notify of new messages.
        # The table's older message says the result too, not its last prompt.
        return Message(text=Markup("\n".join(lines)), picture=picture, slot=table_slot(record),
                       renew=True, final=True,
                       choices=block(self.web_choices(record, lang)) if self.pages else None)

    def personal_result(self, record: TableRecord, game: Game[Any], state: BaseModel,
                        seat: int, lang: Lang) -> Markup:
        """A player's own line of a finished game: their score, place and the winners."""
        result = game.result(state)
        if result is None:
            return self.t(lang, "turn.ended", game=self.game_title(lang, record.game),
                          table=record.table_id)
        names = seat_names(record)
        ranked = sorted(result.scores, key=lambda s: (-s.total, -s.tiebreak, s.seat))
        place = next(i for i, s in enumerate(ranked, start=1) if s.seat == seat)
        mine = next(s for s in result.scores if s.seat == seat)
        winners = ", ".join(names[s] for s in result.winners)
        if len(result.scores) == 1:
            code = "turn.ended_solo"
        else:
            outcome = "ended_won" if seat in result.winners else "ended_place"
            code = f"turn.{outcome}.{winners_number(result)}"
        return self.t(lang, code, game=self.game_title(lang, record.game),
                      table=record.table_id, score=mine.total, place=place,
                      players=len(record.seats), winners=winners)

    def aborted(self, record: TableRecord, lang: Lang) -> Message:
        """The table's message once it was cancelled or aborted."""
        return Message(
            text=self.t(lang, "table.aborted", game=self.game_title(lang, record.game),
                        table=record.table_id),
            slot=table_slot(record),
        )

    def table_any(
        self, record: TableRecord, game: Game[Any], state: BaseModel | None, lang: Lang,
        prompts: list[Prompt], picture: Picture | None = None, now: float | None = None,
    ) -> Message:
        """The table's message for whatever state it is in."""
        if record.status == TableStatus.ABORTED:
            return self.aborted(record, lang)
        if record.status == TableStatus.LOBBY or state is None:
            return self.lobby(record, lang)
        if record.status == TableStatus.FINISHED:
            return self.finished(record, game, state, lang, picture)
        return self.table(record, game, state, lang, prompts, picture, now)
