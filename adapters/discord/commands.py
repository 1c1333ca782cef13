"""The slash commands, generated from the one command schema, and how an invocation is read.

``discord_commands`` gives every command as Discord's JSON (English
names, Russian ones as localizations, typed options); ``layout.yaml`` arranges them in
Discord's idiom: ``/table …`` and ``/settings …`` groups, ``/rules`` and ``/help`` at
the top, a thread option for ``/table new``, autocomplete for rules topics. The payload
is synced as is (``commands_sync``); an invocation is read back into the schema's
command name and typed arguments (``invoked``), which the core checks and runs
(``Campfire.on_command``) — one parser and one set of handlers for every platform.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from bot.i18n import Lang
from bot.input.command_schema import Arg, schema, spec_named, spec_of
from engine.core.data import load_yaml

SUB_COMMAND = 1
SUB_COMMAND_GROUP = 2
AUTOCOMPLETE = 4  # interaction type of an autocomplete request
# Option types (STRING 3, INTEGER 4) by argument kind, and Discord's rule for names.
DISCORD_TYPES = {"game": 3, "table": 3, "integer": 4, "text": 3, "choice": 3}
DISCORD_NAME = re.compile(r"^[-_\w]{1,32}$")


def _discord_option(arg: Arg) -> dict[str, Any]:
    option: dict[str, Any] = {
        "type": DISCORD_TYPES[arg.kind], "name": arg.name,
        "description": arg.about.en[:100], "required": arg.required,
        "description_localizations": {"ru": arg.about.ru[:100]},
    }
    if "ru" in arg.names:
        option["name_localizations"] = {"ru": arg.named("ru").lower()}
    if arg.kind == "choice":
        option["choices"] = [{"name": v.key, "value": v.key,
                              "name_localizations": {"ru": v.word("ru")}} for v in arg.values]
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
        if spec.spoken("ru") != spec.name:
            command["name_localizations"] = {"ru": spec.spoken("ru").lower()}
        commands.append(command)
    return commands


@cache
def layout() -> dict[str, Any]:
    """``layout.yaml``: groups, renamed subcommands, extra options, autocompleted text."""
    text = resources.files("adapters.discord").joinpath("layout.yaml").read_text("utf-8")
    data: dict[str, Any] = load_yaml(text)
    return data


def _extra_option(raw: dict[str, Any]) -> dict[str, Any]:
    return {"type": raw["type"], "name": raw["name"], "required": False,
            "description": raw["about"]["en"][:100],
            "description_localizations": {"ru": raw["about"]["ru"][:100]},
            "name_localizations": {"ru": raw["names"]["ru"]}}


def _dressed(command: dict[str, Any]) -> dict[str, Any]:
    """A schema command with the layout's extra options and autocompleted text."""
    data = layout()
    out = dict(command)
    completes = set(data.get("autocomplete", {}).get(command["name"], ()))
    options = [dict(o, autocomplete=True) if o["name"] in completes else o
               for o in command.get("options", [])]
    options += [_extra_option(o) for o in data.get("extra", {}).get(command["name"], ())]
    out["options"] = options
    return out


@cache
def payload() -> tuple[dict[str, Any], ...]:
    """Every application command as Discord's HTTP API takes it (what is synced)."""
    data = layout()
    by_name = {c["name"]: _dressed(c) for c in discord_commands()}
    grouped: set[str] = set()
    out: list[dict[str, Any]] = []
    for group, body in data["groups"].items():
        subs = []
        for sub, command in body["commands"].items():
            grouped.add(command)
            entry = dict(by_name[command], type=SUB_COMMAND, name=sub)
            renamed = data.get("subcommands", {}).get(sub)
            if renamed:
                entry["name_localizations"] = dict(renamed)
            subs.append(entry)
        out.append({"type": 1, "name": group, "description": body["about"]["en"][:100],
                    "description_localizations": {"ru": body["about"]["ru"][:100]},
                    "name_localizations": dict(body["names"]), "options": subs})
    out += [c for name, c in by_name.items() if name not in grouped]
    return tuple(out)


@cache
def typed(name: str, lang: Lang) -> str:
    """The schema command ``name`` as a Discord user of ``lang`` types it: its group and
    subcommand (``/table vote``, ``/стол голос``, ``/settings show``) or its own name
    (``/rules``, ``/правила``), as the synced payload names them."""
    spec = spec_named(name)
    data = layout()
    for group, body in data["groups"].items():
        for sub, command in body["commands"].items():
            if command != name:
                continue
            if lang == "en":
                return f"/{group} {sub}"
            renamed = data.get("subcommands", {}).get(sub, {}).get(lang)
            return f"/{body['names'][lang]} {renamed or spec.spoken(lang).lower()}"
    return f"/{spec.spoken(lang).lower()}"


@dataclass(frozen=True)
class Invocation:
    """A slash command as the core reads it: the schema's command, its typed arguments,
    the Discord-only options apart, and (for autocomplete) the option being typed."""

    command: str
    args: dict[str, object]
    extra: dict[str, object]
    focused: str | None = None
    typed: str = ""


def invoked(data: dict[str, Any]) -> Invocation | None:
    """Read an application-command interaction's ``data``; None for a command that is
    not ours (an older deploy's, say)."""
    path = [str(data.get("name", ""))]
    options: list[dict[str, Any]] = list(data.get("options") or [])
    while options and options[0].get("type") in (SUB_COMMAND, SUB_COMMAND_GROUP):
        path.append(str(options[0]["name"]))
        options = list(options[0].get("options") or [])
    command = _command_of(path)
    spec = spec_of(command) if command else None
    if spec is None or command is None:
        return None
    args: dict[str, object] = {}
    extra: dict[str, object] = {}
    focused, typed = None, ""
    for option in options:
        name, value = str(option["name"]), option.get("value")
        if option.get("focused"):
            focused, typed = name, str(value or "")
            continue
        (args if spec.arg(name) is not None else extra)[name] = value
    return Invocation(command, args, extra, focused, typed)


def _command_of(path: list[str]) -> str | None:
    groups = layout()["groups"]
    if len(path) == 2 and path[0] in groups:
        found: str | None = groups[path[0]]["commands"].get(path[1])
        return found
    if len(path) == 1 and path[0] not in groups:
        return path[0]
    return None


def completion_kind(invocation: Invocation) -> str | None:
    """What the focused option names: "game", "table", "topic" or None."""
    spec = spec_of(invocation.command)
    arg = spec.arg(invocation.focused) if spec and invocation.focused else None
    if arg is None:
        return None
    if arg.kind in ("game", "table"):
        return arg.kind
    completes = layout().get("autocomplete", {}).get(invocation.command, ())
    return "topic" if arg.name in completes else None
