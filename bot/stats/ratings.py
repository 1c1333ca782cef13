"""Players' ratings, derived from the kept results in the order they were kept.

Each game is rated on its own, in two scopes: everywhere, and within the chat it was
played in (a chat's leaderboard counts only its own tables). The system is OpenSkill's
Plackett–Luce model, which rates any number of seats at once from their places. An AI
seat is rated as a player of its level ("the strong AI"), the same one at every table;
two AI seats of one level at a table are each rated from the level's rating and the
level keeps the mean of what they earned. A game ended early is never rated.

Everything here is a pure function of the results it is given, so rating the results
one by one as tables end (``rate``) and rebuilding from all of them (``rebuild``) give
the same figures, float for float.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from statistics import fmean

from openskill.models import PlackettLuce

from bot.identity import AI_PREFIX
from bot.storage.results import KeptRating, KeptResult, KeptSeat, RatingKey, Ratings, RatingStep

EVERYWHERE = "all"
# The rating shown to players: the cautious estimate (skill less three times its
# uncertainty) on a scale where a newcomer stands at 1000, as players know from chess
# sites; each point of the model's scale is 40 shown points.
SHOWN_BASE = 1000
SHOWN_PER_POINT = 40


def model() -> PlackettLuce:
    """The rating model, with OpenSkill's default figures (a newcomer's skill 25, its
    uncertainty 25/3)."""
    return PlackettLuce()


def chat_scope(chat_id: str) -> str:
    """The scope of one chat's own leaderboard."""
    return f"chat:{chat_id}"


def scopes_of(result: KeptResult) -> tuple[str, str]:
    """The scopes a result is rated in: everywhere, and its chat."""
    return (EVERYWHERE, chat_scope(result.chat_id))


def rated_as(seat: KeptSeat) -> str:
    """Who a seat's rating belongs to: its player, or an AI's level."""
    return f"{AI_PREFIX}{seat.ai_level}" if seat.ai_level else seat.user_id


def shown(rating: KeptRating) -> int:
    """The rating players see (see ``SHOWN_BASE``)."""
    return round(SHOWN_BASE + SHOWN_PER_POINT * (rating.mu - 3 * rating.sigma))


def newcomer() -> KeptRating:
    """The rating of a player who has played no rated game yet."""
    fresh = model().rating()
    return KeptRating(mu=fresh.mu, sigma=fresh.sigma)


@dataclass
class Rated:
    """What rating one result changed: the new ratings by key, and a step of history
    for every player rated everywhere."""

    ratings: dict[RatingKey, KeptRating] = field(default_factory=dict)
    steps: dict[tuple[str, str], RatingStep] = field(default_factory=dict)


def involved(result: KeptResult) -> list[RatingKey]:
    """The rating keys ``result`` reads and changes."""
    players = sorted({rated_as(s) for s in result.seats})
    return [(result.game, scope, p) for scope in scopes_of(result) for p in players]


def rate(result: KeptResult, seq: int,
         current: Callable[[RatingKey], KeptRating | None]) -> Rated:
    """The ratings ``result`` (kept as number ``seq``) changes, from the ratings before
    it (``current``: None for a player never rated in that game and scope)."""
    rated = Rated()
    if not result.rated:
        return rated
    pl = model()
    for scope in scopes_of(result):
        before = {p: current((result.game, scope, p)) or newcomer()
                  for p in {rated_as(s) for s in result.seats}}
        teams = [[pl.rating(mu=before[rated_as(s)].mu, sigma=before[rated_as(s)].sigma)]
                 for s in result.seats]
        after = pl.rate(teams, ranks=[float(s.place) for s in result.seats])
        earned: dict[str, list[tuple[float, float]]] = {}
        for seat, (team,) in zip(result.seats, after, strict=True):
            earned.setdefault(rated_as(seat), []).append((team.mu, team.sigma))
        for player, figures in earned.items():
            own = [s for s in result.seats if rated_as(s) == player]
            was = before[player]
            rated.ratings[(result.game, scope, player)] = KeptRating(
                mu=fmean(m for m, _ in figures), sigma=fmean(s for _, s in figures),
                games=was.games + 1, wins=was.wins + any(s.place == 1 for s in own),
                name="" if own[0].ai_level else own[0].name)
    for (game, scope, player), rating in rated.ratings.items():
        if scope == EVERYWHERE:
            rated.steps[(game, player)] = RatingStep(seq=seq, table_id=result.table_id,
                                                     at=result.ended_at, shown=shown(rating))
    return rated


def rebuild(results: Iterable[tuple[int, KeptResult]],
            start: Mapping[RatingKey, KeptRating] | None = None) -> Ratings:
    """The ratings that the results (numbered, in the order they were kept) lead to,
    from ``start`` (the ratings before the first of them; none: from nothing)."""
    out = Ratings(ratings=dict(start or {}))
    for seq, result in results:
        rated = rate(result, seq, out.ratings.get)
        out.ratings.update(rated.ratings)
        for key, step in rated.steps.items():
            out.history.setdefault(key, []).append(step)
        out.cursor = seq
    return out
