"""Typed commands: one small handler per command, looked up in a table.

Any command that names a table takes its id as first argument; without one, the
only active table of the chat (or, in a private chat, of the user) is meant.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.games import alias_key, find_game, find_upcoming, manifests
from bot.i18n import Lang, Markup, escape, normalize_lang
from bot.input.commands import COMMANDS, Command
from bot.input.new_table_args import BadArgument, parse_new_args
from bot.input.presses import play
from bot.services import Ctx, Services
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
from bot.table.lobby_actions import abort_request, confirm_abort, lobby_verb
from bot.table.moves import MoveRequest, Typed, prompt_of, seat_of
from bot.table.refusals import Refusal, refusal_reply, refuse
from bot.table.repair import repair
from bot.table.settings import meta_of, options_of
from bot.table.settle import settle, table_message
from bot.table.turns import fingerprint
from bot.table.undo import undo
from bot.table.votes import CHOICES, cast_vote
from bot.texts import texts_for
from bot.ui.markup import as_rich
from bot.ui.message import Message, Outgoing, Private, Reply, ToChat, ToUser
from bot.ui.present import seat_names
from engine.registry import get_game

Handler = Callable[[Services, Ctx, tuple[str, ...]], Awaitable[Reply]]
SWITCH = {"on": "on", "off": "off", "вкл": "on", "выкл": "off", "да": "on", "нет": "off"}
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
    return ", ".join(f"{name} ({sv.presenter.game_title(lang, name)})" for name in manifests())


async def cmd_new(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Open a table: ``new <game> [3 | 2-4] [ru|en] [remind=12h] [repeat=3]
    [clock[=24/12/72]] [quiet] [variants]`` (see ``bot.input.new_table_args``)."""
    if ctx.chat.private:
        return refuse(sv, ctx, "cmd.new_in_group")
    if not args:
        return refuse(sv, ctx, "cmd.new_usage", games=_game_list(sv, ctx.lang))
    found = find_game(args[0])
    if found is None:
        upcoming = find_upcoming(args[0])
        code = "cmd.game_not_yet" if upcoming else "cmd.unknown_game"
        title = upcoming[ctx.lang] if upcoming else args[0]
        return refuse(sv, ctx, code, game=title, games=_game_list(sv, ctx.lang))
    try:
        options = parse_new_args(found, ctx.lang, args[1:])
    except BadArgument as exc:
        return refuse(sv, ctx, exc.code, **exc.fill)
    table_id = await sv.store.new_table_id()
    record = await sv.store.create(
        lobby.open_table(table_id, found.game, ctx.chat, ctx.user, options))
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
        return refuse(sv, ctx, "cmd.move_usage")
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


def _named_game(words: list[str]) -> tuple[str | None, dict[str, str] | None, list[str]]:
    """A game named by the first one or two words: (hosted game, or the titles of an
    announced one, and the words left)."""
    for n in (2, 1):
        if len(words) >= n:
            head = " ".join(words[:n])
            if found := find_game(head):
                return found.name, None, words[n:]
            if upcoming := find_upcoming(head):
                return None, upcoming, words[n:]
    return None, None, words


async def _game_in_play(sv: Services, ctx: Ctx) -> str | None:
    """The game of the tables active here, if they all play one."""
    games = {t.game for t in await _active(sv, ctx)}
    return games.pop() if len(games) == 1 else None


async def cmd_rules(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``rules [game] [words]``: the best-matching rules topics, or the topic list. Without
    a game named, the game played here; with several or none, the player is asked."""
    game, upcoming, words = _named_game(list(args))
    if upcoming is not None:
        return say(sv.t(ctx.lang, "cmd.game_not_yet", game=upcoming[ctx.lang],
                        games=_game_list(sv, ctx.lang)))
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
                          count=count, game=game))
    return Markup("\n".join(lines))


async def cmd_language(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``language ru|en``: this chat's language (in a private chat: the user's)."""
    if len(args) != 1 or args[0].lower() not in ("ru", "en"):
        return refuse(sv, ctx, "cmd.language_usage")
    lang = normalize_lang(args[0])
    scope = f"user:{ctx.user.id}" if ctx.chat.private else f"chat:{ctx.chat.id}"
    await sv.prefs.set_pref(f"{scope}:lang", lang)
    return say(sv.t(lang, "cmd.language_set"))


async def cmd_abort(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """End a table early (creator or chat admin): ``abort [table]`` asks for confirmation
    with a button; ``abort [table] yes`` is the typed confirmation."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, rest, ctx = found
    if rest and rest[0].lower() in ("yes", "да"):
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
    """Typed vote after a time-out: ``vote [table] wait|random|greedy|abort``."""
    found = await resolve_table(sv, ctx, args)
    if isinstance(found, Reply):
        return found
    record, rest, ctx = found
    if len(rest) != 1 or rest[0].lower() not in CHOICES:
        return refuse(sv, ctx, "vote.usage")
    vote = meta_of(record).vote
    opened = vote.opened if vote is not None else -1
    return await cast_vote(sv, ctx, record.table_id, opened, rest[0].lower())


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
        return refuse(sv, ctx, "log.usage")
    events = table_log.replay_events(get_game(record.game), record, log)
    if events is None:
        return say(sv.t(ctx.lang, "log.unreadable", table=record.table_id))
    lines = sv.presenter.event_lines(record, ctx.lang, events)[-count:]
    if not lines:
        return say(sv.t(ctx.lang, "log.empty", table=record.table_id))
    head = sv.t(ctx.lang, "log.header", game=sv.presenter.game_title(ctx.lang, record.game),
                table=record.table_id, n=len(lines))
    return say(table_log.join_lines([head, *lines]))


async def cmd_settings(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``settings next on|off``: whether the user hears "you're next" before their turns.
    ``settings`` alone shows the user's settings."""
    words = [a.lower() for a in args]
    if len(words) == 2 and words[0] in ("next", "следующий") and words[1] in SWITCH:
        await sv.prefs.set_pref(f"user:{ctx.user.id}:next", SWITCH[words[1]])
        return say(sv.t(ctx.lang, f"settings.next_{SWITCH[words[1]]}"))
    if words:
        return refuse(sv, ctx, "settings.usage")
    current = await sv.prefs.get_pref(f"user:{ctx.user.id}:next") or "on"
    shown = sv.catalog.plain(ctx.lang, f"settings.{current}")
    return say(sv.t(ctx.lang, "settings.show", next=shown, language=await sv.user_lang(ctx.user)))


async def cmd_help(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """Every command with a line about it."""
    lines = [sv.t(ctx.lang, "help.header")]
    lines += [sv.t(ctx.lang, "help.line", cmd=c, text=sv.catalog.plain(ctx.lang, f"help.{c}"))
              for c in COMMANDS]
    return say(Markup("\n".join(lines)))


HANDLERS: dict[str, Handler] = {
    "new": cmd_new,
    "join": _verb("join"),
    "leave": _verb("leave"),
    "start": _verb("start"),
    "cancel": _verb("cancel"),
    "status": cmd_status,
    "board": cmd_board,
    "move": cmd_move,
    "turn": cmd_turn,
    "rules": cmd_rules,
    "language": cmd_language,
    "abort": cmd_abort,
    "games": cmd_games,
    "mygames": cmd_mygames,
    "resume": cmd_resume,
    "undo": cmd_undo,
    "vote": cmd_vote,
    "log": cmd_log,
    "settings": cmd_settings,
    "help": cmd_help,
}


async def run_command(sv: Services, ctx: Ctx, command: Command) -> Reply:
    """Dispatch a parsed command."""
    handler = HANDLERS.get(command.name)
    if handler is None:
        return refuse(sv, ctx, "cmd.unknown", command=command.name)
    return await handler(sv, ctx, command.args)
