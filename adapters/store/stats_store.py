"""Kept results and ratings in Redis (``bot.storage.ports.StatsPort``).

Results are written by the game store's archive script (``GameStore.archive``); this
reads them, and writes the ratings derived from them together with their cursor in
one script (``scripts.ADD_RATINGS``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, cast

from redis.asyncio import Redis

from adapters.store import scripts
from adapters.store.client import unavailable_on_outage
from adapters.store.keys import DEFAULT_PREFIX, Keys
from bot.storage.results import KeptRating, KeptResult, RatingKey, Ratings, RatingStep


class StatsStore:
    """The results kept for good and the players' ratings, under one key prefix."""

    def __init__(self, redis: Redis, *, prefix: str = DEFAULT_PREFIX) -> None:
        """Keep them under ``prefix`` (the game store's)."""
        self._redis = redis
        self.keys = Keys(prefix)
        self._add_script = redis.register_script(scripts.ADD_RATINGS)

    async def _results(self, ids: list[str]) -> list[KeptResult]:
        if not ids:
            return []
        with unavailable_on_outage("read results"):
            raw = await self._redis.mget([self.keys.result(i) for i in ids])
        return [KeptResult.model_validate_json(r) for r in raw if r is not None]

    async def results_after(self, seq: int, *, limit: int = 100) -> list[tuple[int, KeptResult]]:
        """Kept results numbered after ``seq``, in the order they were kept."""
        with unavailable_on_outage("list results"):
            raw = await self._redis.zrangebyscore(self.keys.results(), f"({seq}", "+inf",
                                                  start=0, num=limit, withscores=True)
        found = [(str(table_id), int(n)) for table_id, n in cast(list[tuple[Any, float]], raw)]
        results = {r.table_id: r for r in await self._results([t for t, _ in found])}
        return [(n, results[t]) for t, n in found if t in results]

    async def results_of_user(self, user_id: str) -> list[KeptResult]:
        """Every kept result the user played in, oldest first."""
        with unavailable_on_outage("list results"):
            ids = await self._redis.zrange(self.keys.user_results(user_id), 0, -1)
        return await self._results([str(i) for i in ids])

    async def rating_cursor(self) -> int:
        """The number of the last kept result the ratings include."""
        with unavailable_on_outage("read ratings"):
            raw = await self._redis.get(self.keys.ratings_cursor())
        return int(raw or 0)

    async def ratings_at(self, keys: Iterable[RatingKey]) -> dict[RatingKey, KeptRating]:
        """The ratings of ``keys`` that exist."""
        wanted = list(keys)
        if not wanted:
            return {}
        with unavailable_on_outage("read ratings"):
            async with self._redis.pipeline(transaction=False) as pipe:
                for game, scope, player in wanted:
                    pipe.hget(self.keys.rating(game, scope), player)
                raw = await pipe.execute()
        return {key: KeptRating.model_validate_json(r)
                for key, r in zip(wanted, raw, strict=True) if r is not None}

    async def leaderboard(self, game: str, scope: str) -> dict[str, KeptRating]:
        """Every rating of ``game`` in ``scope``, by player."""
        with unavailable_on_outage("read ratings"):
            raw = await self._redis.hgetall(self.keys.rating(game, scope))
        return {str(p): KeptRating.model_validate_json(r) for p, r in raw.items()}

    async def history(self, game: str, player: str) -> list[RatingStep]:
        """A player's rating after each of their rated games of ``game``, oldest first."""
        with unavailable_on_outage("read ratings"):
            raw = await self._redis.lrange(self.keys.rating_history(game, player), 0, -1)
        return [RatingStep.model_validate_json(r) for r in raw]

    async def _write(self, expected: str, ratings: Ratings, keys: Iterable[RatingKey],
                     replace: bool) -> bool:
        wanted = [k for k in keys if k in ratings.ratings]
        args: list[str | int] = [expected, ratings.cursor, "1" if replace else "0", len(wanted)]
        for key in wanted:
            game, scope, player = key
            args += [self.keys.rating(game, scope), player,
                     ratings.ratings[key].model_dump_json()]
        for (game, player), steps in ratings.history.items():
            for step in steps:
                args += [self.keys.rating_history(game, player), step.model_dump_json()]
        with unavailable_on_outage("write ratings"):
            done = await self._add_script(
                keys=[self.keys.ratings_cursor(), self.keys.rating_keys()], args=args)
        return bool(done)

    async def add_ratings(self, cursor: int, ratings: Ratings,
                          keys: Iterable[RatingKey]) -> bool:
        """Write ``ratings``'s figures of ``keys`` and its history steps, and move the
        cursor from ``cursor`` to ``ratings.cursor``, in one step; False (nothing
        written) when the cursor had moved meanwhile."""
        return await self._write(str(cursor), ratings, keys, replace=False)

    async def replace_ratings(self, ratings: Ratings) -> None:
        """Every rating and history replaced by ``ratings`` (a rebuild), in one step."""
        await self._write("*", ratings, ratings.ratings, replace=True)

