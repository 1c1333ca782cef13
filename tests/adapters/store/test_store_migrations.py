"""MigrationRegistry on plain dicts (no Redis needed)."""

from __future__ import annotations

from typing import Any

import pytest

from adapters.store.migrations import MigrationRegistry
from bot.storage.errors import MigrationError


def rename_food(data: dict[str, Any]) -> dict[str, Any]:
    data["state"]["grain"] = data["state"].pop("food")
    return data


def test_steps_run_in_order_until_current() -> None:
    registry = MigrationRegistry({("caverna", 1): rename_food})
    registry[("caverna", 2)] = lambda d: {**d, "state": {**d["state"], "v3": True}}
    old = {"game": "caverna", "schema_version": 1, "state": {"food": 3}}
    assert registry.current_schema("caverna") == 3
    assert registry.upgrade(old) == {
        "game": "caverna",
        "schema_version": 3,
        "state": {"grain": 3, "v3": True},
    }
    assert old == {"game": "caverna", "schema_version": 1, "state": {"food": 3}}  # untouched


def test_current_snapshot_and_unknown_game_pass_unchanged() -> None:
    registry = MigrationRegistry({("caverna", 1): rename_food})
    current = {"game": "caverna", "schema_version": 2, "state": {}}
    other = {"game": "stone_age", "schema_version": 7, "state": {}}
    assert registry.upgrade(current) is current
    assert registry.upgrade(other) is other


def test_missing_step_is_an_error() -> None:
    registry = MigrationRegistry(current={"caverna": 3})
    registry[("caverna", 2)] = rename_food
    with pytest.raises(MigrationError, match="from schema 1"):
        registry.upgrade({"game": "caverna", "schema_version": 1, "state": {"food": 1}})


def test_failing_step_is_wrapped() -> None:
    registry = MigrationRegistry({("caverna", 1): rename_food})
    with pytest.raises(MigrationError, match="failed"):
        registry.upgrade({"game": "caverna", "schema_version": 1, "state": {}})


def test_newer_snapshot_is_refused() -> None:
    registry = MigrationRegistry({("caverna", 1): rename_food})
    with pytest.raises(MigrationError, match="schema 5"):
        registry.upgrade({"game": "caverna", "schema_version": 5})


def test_register_decorator_and_lookup() -> None:
    registry = MigrationRegistry()

    @registry.register("stone_age", 1)
    def step(data: dict[str, Any]) -> dict[str, Any]:
        return data

    assert ("stone_age", 1) in registry
    assert registry[("stone_age", 1)] is step
    registry.set_current("stone_age", 4)
    assert registry.current_schema("stone_age") == 4
