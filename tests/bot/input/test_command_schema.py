"""The command schema: the parser's names, typed arguments and both platforms' menus."""

from __future__ import annotations

import re

import pytest

from adapters.discord.commands import discord_commands
from adapters.telegram.menus import telegram_menus
from bot.input.command_schema import BadArgs, command_words, schema
from bot.input.commands import ALIASES, COMMANDS, parse_command
from bot.input.handlers import HANDLERS


def test_every_command_has_a_handler_and_help_order_is_kept() -> None:
    assert set(COMMANDS) == set(HANDLERS)
    assert COMMANDS[:3] == ("new", "join", "leave") and COMMANDS[-1] == "help"


@pytest.mark.parametrize(("typed", "name"), [
    ("/m 3", "move"), ("/play 3", "move"), ("ход 3", "move"), ("/lang en", "language"),
    ("/моиигры", "mygames"), ("/history", "log"), ("/ЛОГ", "log"), ("/tables", "games"),
    ("/новый stone_age", "new"), ("/Прервать", "abort"),
])
def test_aliases_from_the_schema_read_as_before(typed: str, name: str) -> None:
    command = parse_command(typed, bare=True)
    assert command is not None and command.known and command.name == name


def test_no_alias_is_a_command_name() -> None:
    assert not set(ALIASES) & set(COMMANDS)


def test_typed_arguments_become_the_words_handlers_read() -> None:
    assert command_words("move", {"table": "7dw5", "choice": "M13"}) == ("7dw5", "M13")
    assert command_words("move", {"choice": "3"}) == ("3",)
    assert command_words("new", {"game": "stone age", "options": "3 en quiet"}) == (
        "stone", "age", "3", "en", "quiet")
    assert command_words("log", {"count": 5}) == ("5",)
    assert command_words("abort", {"confirm": "yes"}) == ("yes",)
    assert command_words("games", {}) == ()


@pytest.mark.parametrize(("name", "args"), [
    ("move", {}),  # the choice is required
    ("move", {"choice": "a b"}),  # one word
    ("log", {"count": "many"}),
    ("log", {"count": True}),
    ("vote", {"choice": "maybe"}),
    ("join", {"table": "no such id!"}),
    ("join", {"colour": "red"}),
    ("dance", {}),
])
def test_arguments_that_do_not_fit_are_refused(name: str, args: dict[str, object]) -> None:
    with pytest.raises(BadArgs):
        command_words(name, args)


def test_telegram_menus_in_both_languages() -> None:
    menus = telegram_menus()
    assert set(menus) == {"ru", "en"}
    for menu in menus.values():
        assert [c for c, _ in menu] == list(COMMANDS)
        for command, about in menu:
            assert re.fullmatch(r"[a-z0-9_]{1,32}", command)
            assert 1 <= len(about) <= 256
    assert dict(menus["ru"])["join"] != dict(menus["en"])["join"]
    assert re.search("[а-я]", dict(menus["ru"])["join"])


def test_discord_commands_keep_discords_rules() -> None:
    name_rule = re.compile(r"^[-_\w]{1,32}$")
    commands = discord_commands()
    assert [c["name"] for c in commands] == list(COMMANDS)
    for command in commands:
        assert name_rule.match(command["name"])
        assert 1 <= len(command["description"]) <= 100
        ru = command.get("name_localizations", {}).get("ru")
        assert ru is None or (name_rule.match(ru) and ru == ru.lower())
        required = [o["required"] for o in command["options"]]
        assert required == sorted(required, reverse=True)  # required options first
        for option in command["options"]:
            assert name_rule.match(option["name"]) and option["type"] in (3, 4)
            assert 1 <= len(option["description"]) <= 100
            assert len(option.get("choices", [])) <= 25
    move = next(c for c in commands if c["name"] == "move")
    assert [o["name"] for o in move["options"]] == ["choice", "table"]
    assert move["name_localizations"] == {"ru": "ход"}


def test_each_spec_lists_its_aliases_once() -> None:
    seen: list[str] = [a for spec in schema() for lang in spec.aliases
                       for a in spec.aliases[lang]]
    assert len(seen) == len(set(seen)) == len(ALIASES)
