"""The slash commands: ``/table …``, ``/rules``, ``/settings …``, ``/help``.

Each command turns its options back into the core's command line (``/new stone_age 3``)
and hands it to the client's ``on_command``: the core keeps one parser and one set of
handlers for every platform. Names and descriptions are ``locale_str``s; the
``Translator`` gives their Russian forms from ``commands.yaml``, so a member whose client
is in Russian sees ``/стол новый``. Options that name a game, a table or a rules topic
autocomplete from the client's ``complete_*`` methods.
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from typing import Any, Literal, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from engine.core.data import load_yaml

Choices = list[app_commands.Choice[str]]


@cache
def schema() -> dict[str, Any]:
    """``commands.yaml``: Russian names and both languages' descriptions."""
    text = resources.files("adapters.discord").joinpath("commands.yaml").read_text("utf-8")
    data: dict[str, Any] = load_yaml(text)
    return data


def name(word: str) -> locale_str:
    """A command or option name, translatable."""
    return locale_str(word, kind="name")


def about(key: str) -> locale_str:
    """A description in English, translatable by its key."""
    return locale_str(schema()["descriptions"][key]["en"][:100], kind="description", key=key)


class Translator(app_commands.Translator):
    """Russian names and descriptions from ``commands.yaml``; English is the default."""

    async def translate(self, string: locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        """The Russian form of a name or description, None for other languages."""
        if locale is not discord.Locale.russian:
            return None
        data = schema()
        if string.extras.get("kind") == "name":
            found: str | None = data["names"].get(string.message)
            return found
        key = string.extras.get("key")
        entry = data["descriptions"].get(key) if key else None
        return str(entry["ru"])[:100] if entry else None


class Host(Protocol):
    """What the commands need of the client."""

    async def on_command(self, interaction: discord.Interaction[Any], line: str, *,
                         thread: bool = False) -> None:
        """Run a core command line for this interaction."""

    async def complete_games(self, interaction: discord.Interaction[Any],
                             current: str) -> Choices:
        """Games matching what is typed."""

    async def complete_tables(self, interaction: discord.Interaction[Any],
                              current: str) -> Choices:
        """Tables the member can act on."""

    async def complete_topics(self, interaction: discord.Interaction[Any],
                              current: str) -> Choices:
        """Rules topics matching what is typed."""


def _host(interaction: discord.Interaction[Any]) -> Host:
    host: Host = interaction.client
    return host


def line(command: str, *args: object) -> str:
    """The core's command line: empty options left out."""
    words = [str(a).strip() for a in args if a is not None and str(a).strip()]
    return " ".join([f"/{command}", *words])


async def _games(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _host(interaction).complete_games(interaction, current)


async def _tables(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _host(interaction).complete_tables(interaction, current)


async def _topics(interaction: discord.Interaction[Any], current: str) -> Choices:
    return await _host(interaction).complete_topics(interaction, current)


def _table_verb(group: app_commands.Group, verb: str) -> None:
    """``/table <verb> [table]``: the lobby verbs and the commands that only need a table."""

    @app_commands.rename(table=name("table"))
    @app_commands.describe(table=about("opt.table"))
    @app_commands.autocomplete(table=_tables)
    async def callback(interaction: discord.Interaction[Any], table: str | None = None) -> None:
        await _host(interaction).on_command(interaction, line(verb, table))

    group.add_command(app_commands.Command(name=name(verb), description=about(verb),
                                           callback=callback))


def table_group() -> app_commands.Group:
    """``/table …``."""
    group = app_commands.Group(name=name("table"), description=about("table"))

    @group.command(name=name("new"), description=about("new"))
    @app_commands.rename(game=name("game"), players=name("players"), options=name("options"),
                         thread=name("thread"))
    @app_commands.describe(game=about("opt.game"), players=about("opt.players"),
                           options=about("opt.options"), thread=about("opt.thread"))
    @app_commands.autocomplete(game=_games)
    async def new(interaction: discord.Interaction[Any], game: str, players: str | None = None,
                  options: str | None = None, thread: bool = False) -> None:
        await _host(interaction).on_command(interaction, line("new", game, players, options),
                                            thread=thread)

    for verb in ("join", "leave", "start", "cancel", "status", "board", "turn", "resume"):
        _table_verb(group, verb)

    @group.command(name=name("move"), description=about("move"))
    @app_commands.rename(choice=name("choice"), table=name("table"))
    @app_commands.describe(choice=about("opt.choice"), table=about("opt.table"))
    @app_commands.autocomplete(table=_tables)
    async def move(interaction: discord.Interaction[Any], choice: str,
                   table: str | None = None) -> None:
        await _host(interaction).on_command(interaction, line("move", table, choice))

    @group.command(name=name("vote"), description=about("vote"))
    @app_commands.rename(choice=name("choice"), table=name("table"))
    @app_commands.describe(choice=about("opt.vote"), table=about("opt.table"))
    @app_commands.autocomplete(table=_tables)
    async def vote(interaction: discord.Interaction[Any],
                   choice: Literal["wait", "random", "greedy", "abort"],
                   table: str | None = None) -> None:
        await _host(interaction).on_command(interaction, line("vote", table, choice))

    @group.command(name=name("abort"), description=about("abort"))
    @app_commands.rename(table=name("table"), confirm=name("confirm"))
    @app_commands.describe(table=about("opt.table"), confirm=about("opt.confirm"))
    @app_commands.autocomplete(table=_tables)
    async def abort(interaction: discord.Interaction[Any], table: str | None = None,
                    confirm: bool = False) -> None:
        await _host(interaction).on_command(
            interaction, line("abort", table, "yes" if confirm else None))

    @group.command(name=name("log"), description=about("log"))
    @app_commands.rename(table=name("table"), count=name("count"))
    @app_commands.describe(table=about("opt.table"), count=about("opt.count"))
    @app_commands.autocomplete(table=_tables)
    async def log(interaction: discord.Interaction[Any], table: str | None = None,
                  count: app_commands.Range[int, 1, 50] | None = None) -> None:
        await _host(interaction).on_command(interaction, line("log", table, count))

    for listing in ("games", "mygames"):
        _listing(group, listing)
    return group


def _listing(group: app_commands.Group, command: str) -> None:
    async def callback(interaction: discord.Interaction[Any]) -> None:
        await _host(interaction).on_command(interaction, line(command))

    group.add_command(app_commands.Command(name=name(command), description=about(command),
                                           callback=callback))


def settings_group() -> app_commands.Group:
    """``/settings show | next on|off | language ru|en``."""
    group = app_commands.Group(name=name("settings"), description=about("settings"))

    @group.command(name=name("show"), description=about("show"))
    async def show(interaction: discord.Interaction[Any]) -> None:
        await _host(interaction).on_command(interaction, line("settings"))

    @group.command(name=name("next"), description=about("next"))
    @app_commands.rename(value=name("value"))
    @app_commands.describe(value=about("opt.next"))
    async def next_(interaction: discord.Interaction[Any], value: Literal["on", "off"]) -> None:
        await _host(interaction).on_command(interaction, line("settings", "next", value))

    @group.command(name=name("language"), description=about("language"))
    @app_commands.rename(value=name("value"))
    @app_commands.describe(value=about("opt.language"))
    async def language(interaction: discord.Interaction[Any],
                       value: Literal["ru", "en"]) -> None:
        await _host(interaction).on_command(interaction, line("language", value))

    return group


def top_level() -> list[app_commands.Command[Any, ..., Any]]:
    """``/rules`` and ``/help``."""

    @app_commands.command(name=name("rules"), description=about("rules"))
    @app_commands.rename(game=name("game"), topic=name("topic"))
    @app_commands.describe(game=about("opt.game"), topic=about("opt.topic"))
    @app_commands.autocomplete(game=_games, topic=_topics)
    async def rules(interaction: discord.Interaction[Any], game: str | None = None,
                    topic: str | None = None) -> None:
        await _host(interaction).on_command(interaction, line("rules", game, topic))

    @app_commands.command(name=name("help"), description=about("help"))
    async def help_(interaction: discord.Interaction[Any]) -> None:
        await _host(interaction).on_command(interaction, line("help"))

    return [rules, help_]


def install(tree: app_commands.CommandTree[Any]) -> None:
    """Add every command to ``tree``."""
    tree.add_command(table_group())
    tree.add_command(settings_group())
    for command in top_level():
        tree.add_command(command)
