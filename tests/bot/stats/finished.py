"""Tables that are over, made by random playouts of the real engines: what the stats
tests keep, rate and show."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

from bot.identity import ai_id
from bot.storage import TableRecord, TableStatus
from bot.table.turns import state_dict
from engine.core.playout import random_moves
from engine.registry import get_game

PEOPLE = ("con:anna", "con:boris", "con:clara", "con:dan", "con:eva", "con:fedor")
NAMES = {"con:anna": "Anna", "con:boris": "Boris", "con:clara": "Clara", "con:dan": "Dan",
         "con:eva": "Eva", "con:fedor": "Fedor"}
CHATS = ("con:g1", "con:g2", "con:g3")


# Random moves a playout may take: far more than any game lasts.
MOST_MOVES = 100_000


def played_out(game_name: str, players: int, seed: int) -> dict[str, object]:
    """A game of ``players`` played to its end by the uniform random player, as record
    data."""
    game = get_game(game_name)
    state = game.new(players, seed)
    assert random_moves(game, state, random.Random(seed), MOST_MOVES)
    return state_dict(state)


def over_table(table_id: str, rnd: random.Random, *, game: str | None = None,
               seats: tuple[str, ...] | None = None, chat: str | None = None,
               aborted: bool = False) -> TableRecord:
    """A table that is over: by default a random game, chat and seats (people, and now
    and then AI players, two of one level among them); aborted halfway when asked."""
    name = game or rnd.choice(("stone_age", "hunters_gatherers", "caverna"))
    engine = get_game(name)
    if seats is None:
        count = rnd.randint(engine.min_players, min(engine.max_players, 4))
        seats = tuple(rnd.sample(PEOPLE, count))
        for i in range(count):
            if rnd.random() < 0.2:
                seats = (*seats[:i], ai_id(rnd.choice(("easy", "normal", "strong")), i + 1),
                         *seats[i + 1:])
    seed = rnd.getrandbits(32)
    if aborted:
        state = state_dict(engine.new(len(seats), seed))
    else:
        state = played_out(name, len(seats), seed)
    ended = datetime(2026, 12, 1, tzinfo=UTC) + timedelta(hours=rnd.randint(0, 500))
    return TableRecord(
        table_id=table_id, game=name, chat_id=chat or rnd.choice(CHATS), creator_id=PEOPLE[0],
        seats=seats, status=TableStatus.ABORTED if aborted else TableStatus.FINISHED,
        seed=seed, state=state, meta={"names": {s: NAMES.get(s, s) for s in seats}},
        created_at=ended - timedelta(days=2), updated_at=ended)
