"""Looking for a game's secrets in what a page received: the byte strings that would
give a secret away, and the table's game at every step of its story (each step's
secrets count, not only the last one's)."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from bot.storage import LogEntry, TableRecord
from bot.table.turns import new_game, replay_steps
from engine.registry import get_game


def runs(secret: Any) -> list[bytes]:
    """The byte strings that would give ``secret`` away: a hidden order shows as two of
    its items side by side (however encoded in JSON), a hidden value as itself."""
    if isinstance(secret, dict):
        return [b for value in secret.values() for b in runs(value)]
    if isinstance(secret, list):
        if len(secret) == 1:
            return runs(secret[0])
        return [json.dumps(secret[i:i + 2], ensure_ascii=False)[1:-1].encode()
                for i in range(len(secret) - 1)]
    if isinstance(secret, str) and len(secret) >= 4:
        return [secret.encode()]
    return []  # small numbers and flags say nothing on their own


def leaked(bodies: list[bytes], secrets: list[Any]) -> list[bytes]:
    """Every give-away of ``secrets`` found in ``bodies``."""
    marks = {b for s in secrets for b in runs(s)}
    return [m for m in marks for body in bodies if m in body]


def story_states(record: TableRecord, log: list[LogEntry]) -> list[BaseModel]:
    """The table's game as dealt, then after each logged step."""
    game = get_game(record.game)
    states = [new_game(game, record)]
    states += [game.copy(state) for _, state, _ in replay_steps(game, record, log)]
    return states


def spectators_secrets(record: TableRecord, log: list[LogEntry]) -> list[Any]:
    """What no spectator may learn at any step of the table's story."""
    game = get_game(record.game)
    return [s for state in story_states(record, log) for s in game.secrets(state, None)]
