"""One schema for every command: names, aliases, descriptions and typed arguments.

``bot/command_schema.yaml`` lists each command once — its canonical name, the other
names it answers to (Russian and English), a short description in both languages, and
its arguments in typed order. Everything that needs to know the commands reads it:

- the text parser (``bot.commands``): ``COMMANDS`` and ``ALIASES`` come from here;
- the typed entry (``Campfire.on_command(name, args)``): ``command_words`` checks
  arguments a platform delivered already parsed (slash-command options) against their
  kinds and turns them into the words the handlers read;
- ``telegram_menus`` — the (command, description) lists for Telegram's
  ``setMyCommands``, one per language;
- ``discord_commands`` — Discord application commands (JSON as the HTTP API takes
  them), with Russian names and descriptions as localizations.

Argument kinds: ``game`` (a hosted game's name), ``table`` (a table id), ``integer``,
``text`` (a word; ``rest``: every word left) and ``choice`` (one of ``values``). An
argument is optional unless ``required``. ``admin`` marks a command that may need the
chat's admin rights (asked through ``bot.access.AdminPort`` when it does).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from bot.i18n import LANGS, Lang
from engine.core.data import load_yaml

ArgKind = Literal["game", "table", "integer", "text", "choice"]
TABLE_ID = re.compile(r"^#?[0-9a-z]{2,16}$")
# Discord: option types (STRING 3, INTEGER 4) and its rule for names.
DISCORD_TYPES = {"game": 3, "table": 3, "integer": 4, "text": 3, "choice": 3}
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")
TELEGRAM_NAME = re.compile(r"^[a-z0-9_]{1,32}$")


class Words(BaseModel):
    """A text in both languages."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    en: str = Field(min_length=1)
    ru: str = Field(min_length=1)

    def of(self, lang: Lang) -> str:
        """The text in ``lang``."""
        return self.ru if lang == "ru" else self.en


class Arg(BaseModel):
    """One typed argument."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    kind: ArgKind
    required: bool = False
    rest: bool = False
    values: tuple[str, ...] = ()
    names: dict[Lang, str] = Field(default_factory=dict)
    about: Words

    @model_validator(mode="after")
    def _choices_have_values(self) -> Arg:
        if (self.kind == "choice") != bool(self.values):
            raise ValueError(f"{self.name}: a choice lists its values (and only a choice)")
        if self.rest and self.kind != "text":
            raise ValueError(f"{self.name}: only free text takes the rest of the words")
        return self


class CommandSpec(BaseModel):
    """One command."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    aliases: dict[Lang, tuple[str, ...]]
    about: Words
    args: tuple[Arg, ...] = ()
    admin: bool = False

    @model_validator(mode="after")
    def _rest_is_last(self) -> CommandSpec:
        if any(a.rest for a in self.args[:-1]):
            raise ValueError(f"{self.name}: only the last argument takes the rest")
        return self

    def arg(self, name: str) -> Arg | None:
        """The argument called ``name``, if any."""
        return next((a for a in self.args if a.name == name), None)


class BadArgs(ValueError):
    """Typed arguments that do not fit the command's schema."""


@cache
def schema() -> tuple[CommandSpec, ...]:
    """Every command, in the order help lists them (read once)."""
    text = resources.files("bot").joinpath("command_schema.yaml").read_text("utf-8")
    raw: dict[str, Any] = load_yaml(text)
    return tuple(CommandSpec(name=name, **body) for name, body in raw["commands"].items())


def spec_of(name: str) -> CommandSpec | None:
    """The command with canonical name ``name``."""
    return next((c for c in schema() if c.name == name), None)


def canonical_names() -> tuple[str, ...]:
    """Every canonical name, in help order."""
    return tuple(c.name for c in schema())


def alias_table() -> dict[str, str]:
    """Every other name (both languages) → its canonical name."""
    out: dict[str, str] = {}
    for spec in schema():
        for lang in LANGS:
            for alias in spec.aliases.get(lang, ()):
                if alias in out and out[alias] != spec.name:
                    raise ValueError(f"alias {alias!r} names two commands")
                out[alias] = spec.name
    return out


def _word(arg: Arg, value: object) -> list[str]:
    """A typed value as the words a handler reads (checked against the kind)."""
    if arg.kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int | str):
            raise BadArgs(f"{arg.name}: a number expected")
        try:
            return [str(int(value))]
        except ValueError:
            raise BadArgs(f"{arg.name}: a number expected") from None
    text = str(value).strip()
    if not text:
        return []
    if arg.kind == "table" and not TABLE_ID.match(text.lower()):
        raise BadArgs(f"{arg.name}: not a table id: {text!r}")
    if arg.kind == "choice" and text.lower() not in arg.values:
        raise BadArgs(f"{arg.name}: one of {', '.join(arg.values)} expected")
    if arg.rest or arg.kind == "game":
        return text.split()
    if len(text.split()) != 1:
        raise BadArgs(f"{arg.name}: one word expected")
    return [text]


def command_words(name: str, args: Mapping[str, object]) -> tuple[str, ...]:
    """Typed arguments of command ``name`` as the words its handler reads, in schema
    order (absent optional ones left out). Raises ``BadArgs`` for an unknown command or
    argument, a missing required one, or a value of the wrong kind."""
    spec = spec_of(name)
    if spec is None:
        raise BadArgs(f"unknown command {name!r}")
    unknown = set(args) - {a.name for a in spec.args}
    if unknown:
        raise BadArgs(f"{name}: unknown arguments {sorted(unknown)}")
    words: list[str] = []
    for arg in spec.args:
        value = args.get(arg.name)
        got = [] if value is None else _word(arg, value)
        if not got and arg.required:
            raise BadArgs(f"{name}: {arg.name} is required")
        words += got
    return tuple(words)


# --- command menus ----------------------------------------------------------------------


def telegram_menus() -> dict[Lang, list[tuple[str, str]]]:
    """``setMyCommands`` lists by language: (command, description) in help order.

    Telegram command names are Latin (``[a-z0-9_]``), so every language lists the
    canonical names; the descriptions are the language's own (at most 256 characters).
    """
    menus: dict[Lang, list[tuple[str, str]]] = {}
    for lang in LANGS:
        menus[lang] = [(c.name, c.about.of(lang)[:256]) for c in schema()
                       if TELEGRAM_NAME.match(c.name)]
    return menus


def _discord_option(arg: Arg) -> dict[str, Any]:
    option: dict[str, Any] = {
        "type": DISCORD_TYPES[arg.kind], "name": arg.name,
        "description": arg.about.en[:100], "required": arg.required,
        "description_localizations": {"ru": arg.about.ru[:100]},
    }
    if "ru" in arg.names:
        option["name_localizations"] = {"ru": arg.names["ru"].lower()}
    if arg.kind == "choice":
        option["choices"] = [{"name": v, "value": v} for v in arg.values]
    if arg.kind in ("game", "table"):
        option["autocomplete"] = True
    if arg.kind == "integer":
        option["min_value"] = 1
    return option


def discord_commands() -> list[dict[str, Any]]:
    """The commands as Discord application commands (chat input, type 1): English names
    and descriptions by default, Russian ones as localizations (the first Russian alias
    is the Russian name); required options first, as Discord requires."""
    commands = []
    for spec in schema():
        options = sorted((_discord_option(a) for a in spec.args),
                         key=lambda o: not o["required"])
        command: dict[str, Any] = {
            "type": 1, "name": spec.name, "description": spec.about.en[:100],
            "description_localizations": {"ru": spec.about.ru[:100]}, "options": options,
        }
        russian = spec.aliases.get("ru", ())
        if russian:
            command["name_localizations"] = {"ru": russian[0].lower()}
        commands.append(command)
    return commands
