"""Migration hook: upgrades stored snapshots of old schema numbers on load.

A migration is registered per ``(game, from_schema)`` and receives the whole stored
record as a plain dict (``state``, ``options``, ``seats`` ... are all reachable), returning
the upgraded dict; the registry then sets ``schema_version`` to ``from_schema + 1``.
Steps run one after another until the game's current schema is reached.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

from bot.storage.errors import MigrationError

Migration = Callable[[dict[str, Any]], dict[str, Any]]


class MigrationRegistry:
    """``registry[(game, from_schema)] = fn`` plus the current schema of each game."""

    def __init__(
        self,
        migrations: Mapping[tuple[str, int], Migration] | None = None,
        *,
        current: Mapping[str, int] | None = None,
    ) -> None:
        """Start with optional migrations and optional declared current schemas.

        Without a declared current schema, a game's current schema is one past its
        newest registered migration (or whatever the snapshot says, if it has none).
        """
        self._steps: dict[tuple[str, int], Migration] = dict(migrations or {})
        self._current: dict[str, int] = dict(current or {})

    def __setitem__(self, key: tuple[str, int], fn: Migration) -> None:
        """Register ``fn`` to upgrade ``key = (game, from_schema)`` by one schema."""
        self._steps[key] = fn

    def __getitem__(self, key: tuple[str, int]) -> Migration:
        """Return the migration registered for ``(game, from_schema)``."""
        return self._steps[key]

    def __contains__(self, key: object) -> bool:
        """Tell whether a migration is registered for ``(game, from_schema)``."""
        return key in self._steps

    def register(self, game: str, from_schema: int) -> Callable[[Migration], Migration]:
        """Decorator form of ``registry[(game, from_schema)] = fn``."""

        def decorate(fn: Migration) -> Migration:
            self[(game, from_schema)] = fn
            return fn

        return decorate

    def set_current(self, game: str, schema: int) -> None:
        """Declare the schema this code writes for ``game``; newer snapshots are refused."""
        self._current[game] = schema

    def current_schema(self, game: str) -> int | None:
        """The schema this code writes for ``game``, or None when nothing is known."""
        if game in self._current:
            return self._current[game]
        steps = [schema for (name, schema) in self._steps if name == game]
        return max(steps) + 1 if steps else None

    def upgrade(self, data: dict[str, Any]) -> dict[str, Any]:
        """Return ``data`` (a stored record as a dict) upgraded to the current schema.

        The input is never modified: a failing migration must not leave a half
        upgraded dict behind for the caller to persist by accident.
        """
        game = data.get("game")
        schema = data.get("schema_version", 1)
        if not isinstance(game, str) or not isinstance(schema, int):
            raise MigrationError(f"record has no usable game/schema: {game!r}/{schema!r}")
        target = self.current_schema(game)
        if target is None or schema == target:
            return data
        if schema > target:
            # Written by newer code (e.g. mid rolling deploy): writing it back with this
            # code would silently drop what the newer schema added.
            raise MigrationError(f"{game} snapshot has schema {schema}, this code knows {target}")
        upgraded = copy.deepcopy(data)
        while schema < target:
            step = self._steps.get((game, schema))
            if step is None:
                raise MigrationError(f"no migration for {game} from schema {schema}")
            try:
                upgraded = step(upgraded)
            except Exception as exc:
                raise MigrationError(f"{game} migration from schema {schema} failed") from exc
            schema += 1
            upgraded["schema_version"] = schema
        return upgraded
