"""``/stats``: a chat's leaderboards, or a player's own record (``/stats me``).

In a group ``/stats`` shows the chat's leaderboard of every game rated there (or of the
game named); ``/stats me`` (and ``/stats`` in a private chat) shows the asker's games,
wins, average and best score and rating in each game, with a chart of the rating
after each game. The ratings are brought up to date with every kept result first.
"""

from __future__ import annotations

from collections import defaultdict
from statistics import fmean

from bot.games import manifests, named_game
from bot.i18n import Lang, Markup
from bot.i18n.grammar import Count
from bot.identity import AI_PREFIX
from bot.input.command_schema import arg_of
from bot.input.usage import usage_reply
from bot.services import Ctx, Services
from bot.stats.chart import Line, rating_chart
from bot.stats.keeping import catch_up
from bot.stats.ratings import EVERYWHERE, chat_scope, shown
from bot.storage.results import KeptRating, KeptResult
from bot.ui.message import Message, Outgoing, Picture, Reply, ToChat

# Players listed in a game's leaderboard.
LEADERS = 10
# The latest ratings written out under a game in /stats me (the chart shows them all).
HISTORY_SHOWN = 8


def _count(sv: Services, lang: Lang, noun: str, n: int) -> Count:
    return Count(n, sv.catalog.noun(lang, f"stats.noun.{noun}"))


def _name(sv: Services, lang: Lang, player: str, rating: KeptRating) -> str:
    """A rated player's name: their name at their last rated game, or an AI's level."""
    if player.startswith(AI_PREFIX):
        return sv.catalog.plain(lang, f"stats.ai.{player.removeprefix(AI_PREFIX)}")
    return rating.name or player


def _games_asked(sv: Services, lang: Lang, game: str | None) -> list[str]:
    """The games to show: the one named, else every game by its title."""
    return [game] if game else sorted(manifests(), key=lambda g: sv.presenter.game_title(lang, g))


async def _chat_boards(sv: Services, ctx: Ctx, game: str | None) -> Reply:
    lang = ctx.lang
    parts: list[Markup] = []
    for name in _games_asked(sv, lang, game):
        board = await sv.stats.leaderboard(name, chat_scope(ctx.chat.id))
        if not board:
            continue
        ranked = sorted(board.items(), key=lambda pr: (-shown(pr[1]), -pr[1].games, pr[0]))
        lines = [sv.t(lang, "stats.game_header", game=sv.presenter.game_title(lang, name))]
        lines += [sv.t(lang, "stats.line", place=n, name=_name(sv, lang, player, rating),
                       rating=shown(rating), games=_count(sv, lang, "game", rating.games),
                       wins=_count(sv, lang, "win", rating.wins))
                  for n, (player, rating) in enumerate(ranked[:LEADERS], start=1)]
        parts.append(Markup("\n".join(lines)))
    if not parts:
        if game:
            return Reply(answer=sv.t(lang, "stats.none_game",
                                     game=sv.presenter.game_title(lang, game)))
        return Reply(answer=sv.t(lang, "stats.none_chat"))
    head = sv.t(lang, "stats.chat_header")
    return Reply(answer=Markup("\n\n".join([head, *parts, sv.t(lang, "stats.ratings_note")])))


async def _own_record(sv: Services, ctx: Ctx, game: str | None) -> Reply:
    lang, user = ctx.lang, ctx.user
    results = [r for r in await sv.stats.results_of_user(user.id) if game in (None, r.game)]
    played: dict[str, list[KeptResult]] = defaultdict(list)
    for result in results:
        if result.rated:
            played[result.game].append(result)
    ended_early = len(results) - sum(len(rs) for rs in played.values())
    if not played:
        return Reply(answer=sv.t(lang, "stats.me_none", name=user.name))
    lines = [sv.t(lang, "stats.me_header", name=user.name)]
    chart: list[Line] = []
    for name in _games_asked(sv, lang, None):
        if name not in played:
            continue
        mine = [next(s for s in r.seats if s.user_id == user.id) for r in played[name]]
        rating = (await sv.stats.ratings_at([(name, EVERYWHERE, user.id)])).get(
            (name, EVERYWHERE, user.id))
        title = sv.presenter.game_title(lang, name)
        lines.append(sv.t(
            lang, "stats.me_game", game=title,
            rating=shown(rating) if rating else "—",
            games=_count(sv, lang, "game", len(mine)),
            wins=_count(sv, lang, "win", sum(s.place == 1 for s in mine)),
            average=round(fmean(s.score for s in mine)), best=max(s.score for s in mine)))
        history = await sv.stats.history(name, user.id)
        if history:
            chart.append(Line(title, [step.shown for step in history]))
            lines.append(sv.t(lang, "stats.me_history", steps=" → ".join(
                str(step.shown) for step in history[-HISTORY_SHOWN:])))
    if ended_early:
        lines.append(sv.t(lang, "stats.me_also", games=_count(sv, lang, "game", ended_early)))
    text = Markup("\n".join(lines))
    if not (sv.pictures and chart):
        return Reply(answer=text)
    png = rating_chart(sv.catalog.plain(lang, "stats.chart_title", name=user.name),
                       sv.catalog.plain(lang, "stats.chart_axis"), chart)
    return Reply(out=[Outgoing(ToChat(ctx.chat.id),
                               Message(text=text, picture=Picture(png, "stats.png")))])


async def cmd_stats(sv: Services, ctx: Ctx, args: tuple[str, ...]) -> Reply:
    """``stats [me] [game]``: the chat's leaderboards, or the asker's own record."""
    me = bool(args) and arg_of("stats", "who").value_of(args[0]) == "me"
    named = named_game(args[1:] if me else args)
    if named.rest or named.upcoming is not None:
        return usage_reply(sv, ctx, "stats")
    await catch_up(sv.stats)
    game = named.game.name if named.game else None
    if me or ctx.chat.private:
        return await _own_record(sv, ctx, game)
    return await _chat_boards(sv, ctx, game)
