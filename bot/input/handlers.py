"""Typed commands: one small handler per command, looked up in a table.

Any command that names a table takes its id as first argument; without one, the
only active table of the chat (or, in a private chat, of the user) is meant.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.games import alias_key, manifests, named_game
from bot.i18n import Lang, Markup, escape
from bot.input.command_schema import arg_of, spec_named
from bot.input.commands import Command
from bot.input.new_table_args import SETTINGS, BadArgument, read_new_args
from bot.input.presses import play
from bot.input.usage import help_lines, usage, usage_reply
from bot.services import Ctx, Services
from bot.stats.command import cmd_stats
from bot.storage import (
    Action,
    ActionKind,
    Owed,
    OwedTable,
    TableNotFound,
    TableRecord,
    TableStatus,
)
from bot.table import lobby
from bot.table import log as table_log
from bot.table.access import belongs_here
from bot.table.commits import Change, commit_change
from bot.table.lobby_actions import abort_request, confirm_abort, lobby_verb, seat_ai
from bot.table.moves import MoveRequest, Typed, prompt_of, seat_of
from bot.table.refusals import Refusal, refusal_reply, refuse
from bot.table.repair import repair
from bot.table.settings import meta_of, options_of
from bot.table.settle import settle, table_message
from bot.table.turns import fingerprint
from bot.table.undo import undo
from bot.table.votes import cast_vote
from bot.texts import texts_for
from bot.ui.markup import as_rich
from bot.ui.message import Message, Outgoing, Private, Reply, ToChat, ToUser
from bot.ui.present import seat_names
from engine.registry import get_game

Handler = Callable[[Services, Ctx, tuple[str, ...]], Awaitable[Reply]]
TABLE_ID = re.compile(r"^#?[0-9a-z]{2,16}$")


def say(text: Markup) -> Reply:
    """An answer in the chat where the command was typed."""
    return Reply(answer=text)


async def _active(sv: Services, ctx: Ctx) -> list[TableRecord]:
    if ctx.chat.private:
        tables = await sv.store.tables_of_user(ctx.user.id)
    else:
        tables = await sv.store.tables_in_chat(ctx.chat.id)
    return [t for t in tables if not t.status.is_over]


async def resolve_table(
    sv: Services, ctx: Ctx, args: tuple[str, ...]
) -> tuple[TableRecord, tuple[str, ...], Ctx] | Reply:
    """The table a command means, the arguments after its id, and the context that
    speaks the table's language (``Services.about``): what follows is about the table.

    A table of another chat (or, in a private chat, one without the user's seat) is
    answered exactly like an id that does not exist: ids give nothing away.
    """
    if args and TABLE_ID.match(args[0].lower()):
        try:
            record = await sv.store.get(args[0].lower().lstrip("#"))
            if not belongs_here(record, ctx.chat, ctx.user):
                return refuse(sv, ctx, "cmd.no_such_table", table=args[0])
            return record, args[1:], await sv.about(ctx, record)
        except TableNotFound:
            # Words (``/vote wait``) and bare numbers (``/move 12``) are arguments; an
            # unknown id looks like ours: letters and digits mixed.
            word = args[0].lstrip("#")
            if any(c.isdigit() for c in word) and not word.isdigit():
                return refuse(sv, ctx, "cmd.no_such_table", table=args[0])
    tables = await _active(sv, ctx)
    if len(tables) == 1:
        return tables[0], args, await sv.about(ctx, tables[0])
    if not tables:
        return say(sv.t(ctx.lang, "cmd.no_tables"))
    listing = ", ".join(f"#{t.table_id}" for t in tables)
    return say(sv.t(ctx.lang, "cmd.which_table", tables=listing))


def _game_list(sv: Services, lang: Lang) -> str:
    return ", ".join(f"{sv.presenter.game_word(lang, name)} ({sv.presenter.game_title(lang, name)})"
                     for name in manifests())


def _settings_line(sv: Services, lang: Lang) -> Markup:
    """Every setting ``/new`` reads, each as typed, with what it does."""
    items = [sv.t(lang, "new.item", form=sv.catalog.plain(lang, f"new.setting.{s}.form"),
                  about=sv.catalog.plain(lang, f"new.setting.{s}.about")) for s in SETTINGS]
    return sv.t(lang, "new.settings", settings=Markup("; ".join(items)))


def _new_refusal(sv: Services, ctx: Ctx, bad: BadArgument) -> Reply:
    """A ``/new`` argument that does not read, answered with what its setting expects
    and an example (an unknown word: with every setting)."""
    fill: dict[str, object] = dict(bad.fill)
    if bad.setting is not None:
        fill["expected"] = sv.t(
            ctx.lang, "new.expect",
            form=sv.catalog.plain(ctx.lang, f"new.setting.{bad.setting}.form"),
            about=sv.catalog.plain(ctx.lang, f"new.setting.{bad.setting}.about"))
    fill["settings"] = _settings_line(sv, ctx.lang)
    return refuse(sv, ctx, bad.code, **fill)


async def cmd_new(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Open a table: ``new <game> [3 | 2-4] [ru|en] [remind=12h] [repeat=3]
    [clock[=24/12/72]] [quiet] [ai=2 [level=strong]] [variants]`` (see ``bot.input
    .new_table_args``), with the AI players asked for seated."""
    if ctx.chat.private:
        return refuse(sv, ctx, "cmd.new_in_group")
    games = sv.t(ctx.lang, "new.games", games=_game_list(sv, ctx.lang))
    if not args:
        return usage_reply(sv, ctx, "new", _settings_line(sv, ctx.lang), games)
    named = named_game(args)
    if named.game is None:
        code = "cmd.game_not_yet" if named.upcoming else "cmd.unknown_game"
        title = named.upcoming[ctx.lang] if named.upcoming else args[0]
        return refuse(sv, ctx, code, game=title, games=_game_list(sv, ctx.lang))
    try:
        asked = read_new_args(named.game, ctx.lang, named.rest)
    except BadArgument as bad:
        return _new_refusal(sv, ctx, bad)
    table_id = await sv.store.new_table_id()
    record = lobby.open_table(table_id, named.game.game, ctx.chat, ctx.user, asked.options)
    for _ in range(asked.ai):
        record = seat_ai(sv, record, ctx.user, asked.level)
    record = await sv.store.create(record)
    return Reply(out=[Outgoing(ToChat(ctx.chat.id), await table_message(sv, record))],
                 owed=[Owed(record.table_id, record.version)])


def _verb(verb: str) -> Handler:
    async def handler(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
        found = await resolve_table(sv, ctx, args)
        if isinstance(found, Reply):
            return found
        record, _, ctx = found
        return await lobby_verb(sv, ctx, record.table_id, verb)
    handler.__doc__ = f"The lobby verb {verb!r} as a command."
    return handler


async def cmd_status(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Show the table: whose turn, what they decide, the scores so far. Whatever the
    table owes is re-derived on the way (the autopilot's moves, reminder and clock jobs,
    archiving), so a table stalled by a crash moves on when someone looks."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, _, ctx = found
    owed = OwedTable(record.table_id, record.version, archived=False)
    await repair(sv, owed, prompts=False)
    try:
        record = await sv.store.get(owed.table_id)
    except TableNotFound:  # it had ended: the repair archived it
        record = await sv.store.get_archived(owed.table_id)
    message = await table_message(sv, record)
    # The table comes down to the bottom of the chat as a new message that takes over
    # its slot: the copy further up loses its buttons, so only one set stays live. In a
    # private chat, the user's own copy does the same with the one before it.
    if ctx.chat.private:
        target: ToChat | ToUser = ToUser(ctx.user.id)
        fresh = replace(message, slot=f"copy:{record.table_id}", renew=True)
    else:
        target = ToChat(ctx.chat.id)
        fresh = replace(message, renew=True)
    return Reply(out=[Outgoing(target, fresh, version=record.version)])


async def my_running_seat(
    sv: Services, ctx: Ctx, args: tuple[str, ...]
) -> tuple[TableRecord, int, Ctx] | Reply:
    """The table meant, the user's seat at it, if it is being played, and the context
    that speaks the table's language."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, _, ctx = found
    seat = seat_of(record, ctx.user.id)
    if seat is None or record.status != TableStatus.RUNNING:
        return refuse(sv, ctx, "cmd.board_not_playing")
    return record, seat, ctx


async def cmd_board(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Send the user the board as they see it, with the game's own notes, privately."""
    found = await my_running_seat(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, seat, ctx = found
    game = get_game(record.game)
    state = sv.view_state(record)
    lines = texts_for(record.game).board(ctx.lang, game.view(state, seat), seat,
                                         seat_names(record))
    text = Markup("\n".join([sv.t(ctx.lang, "cmd.board", table=record.table_id), *lines]))
    focus = prompt_of(sv.prompts(record), seat)
    picture = (sv.presenter.picture(record, game, state, ctx.lang, seat, focus, sv.now())
               if sv.pictures else None)
    # The asker's own view: only they see it (in a group, a platform that cannot show
    # them alone a message there sends it privately and says so with the note).
    note = None if ctx.chat.private else as_rich(sv.t(ctx.lang, "cmd.board_sent"))
    return Reply(private=Private(Message(text=text, picture=picture), record.table_id, note))


async def cmd_move(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Typed move: ``move [table] <option key or number>``. A single argument is always
    the move (a square like ``M13`` looks like a table id too)."""
    named = args[:1] if len(args) > 1 else ()
    found = await resolve_table(sv, ctx, named)
    if isinstance(found, Reply):
        return found
    record, named_rest, ctx = found
    rest = (*named_rest, *args[len(named):])
    if len(rest) != 1:
        return usage_reply(sv, ctx, "move")
    # The move is read against the table as the player saw it, like a button against
    # the version it was issued for: if the seat has moved since the command was sent or
    # read (the same command sent five times at once) or its question changed, it is
    # out of date. Platforms stamp messages in whole seconds, so a move saved in the
    # same second as the command was sent counts as newer: two deliberate moves typed
    # within one second are far rarer than a repeated one.
    seat = seat_of(record, ctx.user.id)
    asked = (prompt_of(sv.prompts(record), seat)
             if seat is not None and record.status == TableStatus.RUNNING else None)
    request = MoveRequest(user_id=ctx.user.id, seen=record.version,
                          fingerprint=None if asked is None else fingerprint(asked),
                          choice=Typed(rest[0]), sent_at=ctx.sent_at,
                          unasked="reason.not_your_turn")
    played = await play(sv, ctx, record.table_id, request)
    return refusal_reply(sv, ctx, played) if isinstance(played, Refusal) else played


async def cmd_turn(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Send the user their open decision privately again (e.g. after they opened a chat
    with the bot from a deep link)."""
    found = await my_running_seat(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, seat, ctx = found
    prompt = prompt_of(sv.prompts(record), seat)
    lang = await sv.seat_lang(record, seat)  # as every prompt of this seat is worded
    if prompt is None:
        return refuse(sv, ctx, "cmd.not_your_turn_now", table=record.table_id)
    message = sv.presenter.private_prompt(record, prompt, lang, now=sv.now())
    if ctx.chat.private:
        # Here it is the user's kept prompt message (its slot), edited as the turn goes on.
        return Reply(out=[Outgoing(ToUser(ctx.user.id), message, record.table_id)])
    # Asked in a group: the decision is the asker's alone (Discord: an ephemeral message
    # with its buttons; Telegram: their private chat, and the note in the group).
    note = as_rich(sv.t(ctx.lang, "cmd.turn_sent", table=record.table_id))
    return Reply(private=Private(message, record.table_id, note))


async def _game_in_play(sv: Services, ctx: Ctx) -> str | None:
    """The game of the tables active here, if they all play one."""
    games = {t.game for t in await _active(sv, ctx)}
    return games.pop() if len(games) == 1 else None


async def cmd_rules(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``rules [game] [words]``: the best-matching rules topics, or the topic list. Without
    a game named, the game played here; with several or none, the player is asked."""
    named = named_game(args)
    if named.upcoming is not None:
        return say(sv.t(ctx.lang, "cmd.game_not_yet", game=named.upcoming[ctx.lang],
                        games=_game_list(sv, ctx.lang)))
    game, words = (named.game.name if named.game else None), list(named.rest)
    if game is None:
        game = await _game_in_play(sv, ctx)
        if game is None and len(manifests()) == 1:
            game = next(iter(manifests()))
        if game is None:
            return say(sv.t(ctx.lang, "rules.which_game", games=_game_list(sv, ctx.lang)))
    title = sv.presenter.game_title(ctx.lang, game)
    if not words or (family := _rules_family(sv, game, words, ctx.lang)) is not None:
        listing = _topic_listing(sv, game, ctx.lang, family if words else None)
        return say(sv.t(ctx.lang, "rules.topics", game=title, topics=listing))
    hits = sv.rules.lookup(game, " ".join(words), ctx.lang, limit=3)
    if not hits:
        return say(sv.t(ctx.lang, "rules.nothing", query=" ".join(words)))
    parts = [sv.t(ctx.lang, "rules.topic", title=h.title, body=h.body) for h in hits]
    return say(Markup("\n\n".join(parts)))


def _rules_family(sv: Services, game: str, words: list[str], lang: Lang) -> str | None:
    """The family of topics ``words`` name exactly (its title in either language)."""
    asked = alias_key(" ".join(words))
    for key, title in sv.rules.index(game).book.groups.items():
        if asked in (alias_key(key), alias_key(title.ru), alias_key(title.en)):
            return key
    return None


def _topic_listing(sv: Services, game: str, lang: Lang, family: str | None) -> Markup:
    """The topic list: every topic outside a family, then one line per family (count and
    how to ask); with ``family``, that family's members only."""
    book = sv.rules.index(game).book
    lines: list[Markup] = []
    counted: dict[str, int] = {}
    for topic in book.topics:
        group = book.group_of(topic)
        if group == family:
            lines.append(Markup(f"• {escape(topic.title.get(lang))}"))
        elif family is None and group is not None:
            counted[group] = counted.get(group, 0) + 1
    for key, count in counted.items():
        lines.append(sv.t(lang, "rules.family", title=book.groups[key].get(lang),
                          count=count, game=sv.presenter.game_word(lang, game)))
    return Markup("\n".join(lines))


async def cmd_language(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``language ru|en``: this chat's language (in a private chat: the user's)."""
    chosen = _choice("language", "language", args)
    if len(args) != 1 or chosen is None:
        return usage_reply(sv, ctx, "language")
    lang: Lang = "ru" if chosen == "ru" else "en"
    scope = f"user:{ctx.user.id}" if ctx.chat.private else f"chat:{ctx.chat.id}"
    await sv.prefs.set_pref(f"{scope}:lang", lang)
    return say(sv.t(lang, "cmd.language_set"))


def _choice(command: str, arg: str, words: tuple[str, ...], at: int = 0) -> str | None:
    """The key of the value the word at ``at`` names for a choice argument of the
    command schema (either language's word), or None."""
    return arg_of(command, arg).value_of(words[at]) if len(words) > at else None


async def cmd_abort(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """End a table early (creator or chat admin): ``abort [table]`` asks for confirmation
    with a button; ``abort [table] yes`` is the typed confirmation."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, rest, ctx = found
    if _choice("abort", "confirm", rest) == "yes":
        return await confirm_abort(sv, ctx, record.table_id, record.version)
    return await abort_request(sv, ctx, record)


def _waiting_since(record: TableRecord, user_id: str) -> float | None:
    if record.status != TableStatus.RUNNING or user_id not in record.seats:
        return None
    return meta_of(record).opened_at.get(str(record.seats.index(user_id)))


async def _listing(sv: Services, ctx: Ctx, tables: list[TableRecord], user_id: str) -> Markup:
    lines = []
    for t in tables:
        waiting = _waiting_since(t, user_id)
        status = sv.catalog.plain(ctx.lang, f"status.{t.status.value}")
        mark = sv.t(ctx.lang, "games.waiting_on_you") if waiting is not None else ""
        lines.append(sv.t(ctx.lang, "games.line", table=t.table_id,
                          game=sv.presenter.game_title(ctx.lang, t.game), status=status,
                          players=len(t.seats), mark=mark))
    return Markup("\n".join(lines))


async def cmd_games(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """The tables of this chat."""
    tables = await _active(sv, ctx)
    if not tables:
        return say(sv.t(ctx.lang, "cmd.no_tables"))
    return say(await _listing(sv, ctx, tables, ctx.user.id))


async def cmd_mygames(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """The user's tables everywhere: those waiting on them first, longest-waiting first."""
    tables = [t for t in await sv.store.tables_of_user(ctx.user.id) if not t.status.is_over]
    if not tables:
        return say(sv.t(ctx.lang, "cmd.no_tables"))

    def order(t: TableRecord) -> tuple[int, float]:
        since = _waiting_since(t, ctx.user.id)
        return (0, since) if since is not None else (1, t.created_at.timestamp())

    return say(await _listing(sv, ctx, sorted(tables, key=order), ctx.user.id))


async def cmd_resume(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Take one's seat back from the autopilot."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    table, _, ctx = found

    def take_back(record: TableRecord) -> Change | Refusal:
        seat = seat_of(record, ctx.user.id)
        meta = meta_of(record)
        if seat is None:
            return Refusal("cmd.no_seat", {"table": record.table_id})
        if str(seat) not in meta.autopilot:
            return Refusal("cmd.not_on_autopilot")
        del meta.autopilot[str(seat)]
        meta.opened.pop(str(seat), None)
        if prompt_of(sv.prompts(record), seat) is not None:
            meta.opened[str(seat)] = meta.began[str(seat)] = record.version + 1
            meta.opened_at[str(seat)] = sv.now()
        options = options_of(record)
        if options.clock:
            # Back from the autopilot with an empty bank: at least one turn's increment
            # (the starting time when there is none), or it would run out again at once.
            least = min(options.clock_bonus_h or options.clock_initial_h,
                        options.clock_max_h) * 3600
            meta.bank[str(seat)] = max(meta.bank.get(str(seat), 0.0), least)
        changed = record.model_copy(update={"meta": meta.model_dump(mode="json")})
        return Change(changed, Action(key="resume", user_id=ctx.user.id, seat=seat,
                                      kind=ActionKind.SYSTEM))

    done = await commit_change(sv, table.table_id, take_back)
    if isinstance(done, Refusal):
        return say(sv.t(ctx.lang, done.code, **done.args))
    settled = await settle(sv, done.before, done.after)
    return Reply(answer=sv.t(ctx.lang, "cmd.resumed"), out=settled.out, owed=settled.owed)


async def cmd_undo(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Take back one's last decision (``bot.table.undo``)."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, _, ctx = found
    return await undo(sv, ctx, record)


async def cmd_vote(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """A typed ballot in the table's open vote: ``vote [table] <answer>`` (after a
    time-out wait|easy|normal|strong|abort, on taking back agree|refuse)."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, rest, ctx = found
    choice = _choice("vote", "choice", rest)
    if len(rest) != 1 or choice is None:
        return usage_reply(sv, ctx, "vote")
    vote = meta_of(record).vote
    opened = vote.opened if vote is not None else -1
    return await cast_vote(sv, ctx, record.table_id, opened, choice)


async def cmd_log(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``log [table] [n]``: the table's last ``n`` events (finished tables too)."""
    if args and TABLE_ID.match(args[0].lower()) and not args[0].isdigit():
        table_id, rest = args[0].lower().lstrip("#"), args[1:]
    else:
        found = await resolve_table(sv, ctx, args)
        if isinstance(found, Reply):
            return found
        table_id, rest = found[0].table_id, found[1]
    try:
        record, log = await table_log.load_any(sv.store, table_id)
    except TableNotFound:
        return refuse(sv, ctx, "cmd.no_such_table", table=table_id)
    if not belongs_here(record, ctx.chat, ctx.user):
        return refuse(sv, ctx, "cmd.no_such_table", table=table_id)
    ctx = await sv.about(ctx, record)
    count = table_log.parse_count(rest)
    if count is None:
        return usage_reply(sv, ctx, "log")
    told, whole = table_log.story(sv.presenter, record, log, ctx.lang)
    lines = told[-count:]
    cut = [] if whole else [sv.t(ctx.lang, "log.older_rules")]
    if not lines and whole:
        return say(sv.t(ctx.lang, "log.empty", table=record.table_id))
    head = sv.t(ctx.lang, "log.header", game=sv.presenter.game_title(ctx.lang, record.game),
                table=record.table_id, n=len(lines))
    return say(table_log.join_lines([head, *lines, *cut]))


async def cmd_settings(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``settings next on|off``: whether the user hears "you're next" before their turns.
    ``settings`` alone shows the user's settings."""
    setting, value = _choice("settings", "setting", args), _choice("settings", "value", args, 1)
    if len(args) == 2 and setting == "next" and value is not None:
        await sv.prefs.set_pref(f"user:{ctx.user.id}:next", value)
        return say(sv.t(ctx.lang, f"settings.next_{value}"))
    if args:
        return usage_reply(sv, ctx, "settings")
    current = await sv.prefs.get_pref(f"user:{ctx.user.id}:next") or "on"
    shown = sv.catalog.plain(ctx.lang, f"settings.{current}")
    mine = await sv.user_lang(ctx.user)
    named = next(v.about.of(ctx.lang) for v in arg_of("language", "language").values
                 if v.key == mine and v.about is not None)
    return say(sv.t(ctx.lang, "settings.show", next=shown, language=named,
                    settings=usage(spec_named("settings"), ctx.lang),
                    change_language=usage(spec_named("language"), ctx.lang)))


async def cmd_help(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Every command as it is typed here, with a line about it."""
    return say(Markup("\n".join([sv.t(ctx.lang, "help.header"), *help_lines(sv, ctx.lang)])))


def _about_the_chat(handler: Handler) -> Handler:
    """``handler`` answering in the language of the chat's tables: what it says is about
    the games played there (``Services.about_chat``)."""
    async def chat_wide(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
        return await handler(sv, await sv.about_chat(ctx), args)
    chat_wide.__doc__ = handler.__doc__
    return chat_wide


async def cmd_unknown(sv: Services, ctx: Ctx, name: str) -> Reply:
    """A command nobody knows: where the list is."""
    return refuse(sv, await sv.about_chat(ctx), "cmd.unknown", command=name)


HANDLERS: dict[str, Handler] = {
    "new": _about_the_chat(cmd_new),
    "join": _verb("join"),
    "leave": _verb("leave"),
    "start": _verb("start"),
    "cancel": _verb("cancel"),
    "status": cmd_status,
    "board": cmd_board,
    "move": cmd_move,
    "turn": cmd_turn,
    "rules": _about_the_chat(cmd_rules),
    "language": cmd_language,
    "abort": cmd_abort,
    "games": _about_the_chat(cmd_games),
    "mygames": cmd_mygames,
    "stats": _about_the_chat(cmd_stats),
    "resume": cmd_resume,
    "undo": cmd_undo,
    "vote": cmd_vote,
    "log": cmd_log,
    "settings": cmd_settings,
    "help": _about_the_chat(cmd_help),
}


async def run_command(sv: Services, ctx: Ctx, command: Command) -> Reply:
    """Dispatch a parsed command."""
    handler = HANDLERS.get(command.name)
    if handler is None:
        return await cmd_unknown(sv, ctx, command.name)
    return await handler(sv, ctx, command.args)
