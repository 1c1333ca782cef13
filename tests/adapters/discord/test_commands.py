"""The slash commands generated from the command schema: every schema command is
reachable once, the payload keeps Discord's rules, and an invocation reads back into the
schema's command and typed arguments."""

from __future__ import annotations

from typing import Any

from adapters.discord.commands import DISCORD_NAME, completion_kind, invoked, payload
from bot.input.command_schema import canonical_names


def _leaves(commands: tuple[dict[str, Any], ...]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for command in commands:
        subs = [o for o in command.get("options", []) if o["type"] == 1]
        out += [(command["name"], s["name"]) for s in subs] or [(command["name"],)]
    return out


def test_every_schema_command_is_reachable_exactly_once() -> None:
    reached = []
    for path in _leaves(payload()):
        found = invoked({"name": path[0], "options": [
            {"type": 1, "name": path[1], "options": []}] if len(path) > 1 else []})
        assert found is not None, path
        reached.append(found.command)
    assert sorted(reached) == sorted(canonical_names())


def test_the_payload_keeps_discords_rules() -> None:
    def check(entry: dict[str, Any]) -> None:
        assert DISCORD_NAME.match(entry["name"]), entry["name"]
        for name in entry.get("name_localizations", {}).values():
            assert DISCORD_NAME.match(name) and name == name.lower(), name
        assert 1 <= len(entry["description"]) <= 100
        options = entry.get("options", [])
        assert len(options) <= 25
        required = [o.get("required", False) for o in options if o["type"] != 1]
        assert required == sorted(required, reverse=True)  # required options first
        for option in options:
            check(option)

    for command in payload():
        check(command)
    table = next(c for c in payload() if c["name"] == "table")
    assert table["name_localizations"] == {"ru": "стол"}
    new = next(o for o in table["options"] if o["name"] == "new")
    assert [o["name"] for o in new["options"]] == ["game", "options", "thread"]


def test_an_invocation_reads_back_into_typed_arguments() -> None:
    data = {"name": "table", "options": [{"type": 1, "name": "new", "options": [
        {"name": "game", "type": 3, "value": "stone_age"},
        {"name": "options", "type": 3, "value": "3 remind=1h"},
        {"name": "thread", "type": 5, "value": True}]}]}
    found = invoked(data)
    assert found is not None and found.command == "new"
    assert found.args == {"game": "stone_age", "options": "3 remind=1h"}
    assert found.extra == {"thread": True}
    show = invoked({"name": "settings", "options": [{"type": 1, "name": "show"}]})
    assert show is not None and show.command == "settings"
    assert invoked({"name": "table", "options": [{"type": 1, "name": "nope"}]}) is None
    assert invoked({"name": "gone"}) is None


def test_autocomplete_knows_what_the_focused_option_names() -> None:
    def focus(name: str, sub: str | None, option: str) -> str | None:
        leaf = [{"name": option, "type": 3, "value": "st", "focused": True}]
        data = {"name": name, "options": [{"type": 1, "name": sub, "options": leaf}]
                if sub else leaf}
        found = invoked(data)
        assert found is not None and found.typed == "st"
        return completion_kind(found)

    assert focus("table", "new", "game") == "game"
    assert focus("table", "status", "table") == "table"
    assert focus("rules", None, "words") == "topic"
    assert focus("table", "move", "choice") is None
