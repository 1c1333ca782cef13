"""Reading a typed command: its name (with aliases in both languages) and arguments.

The names come from the command schema (``bot.input.command_schema``), which also types
each command's arguments for platforms that deliver them parsed.

``/cmd@BotName args`` (Telegram's form in groups), ``/cmd args`` and, in private chats
and the console, ``cmd args`` without the slash all read the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.input.command_schema import alias_table, canonical_names

# Canonical command names, in the order help lists them, and every other name (both
# languages) → canonical: both from the one command schema (bot/command_schema.yaml).
COMMANDS: tuple[str, ...] = canonical_names()
ALIASES: dict[str, str] = alias_table()


@dataclass(frozen=True, slots=True)
class Command:
    """A parsed command line."""

    name: str  # canonical, or the unknown word as typed
    args: tuple[str, ...]
    known: bool


def parse_command(text: str, *, bot_name: str | None = None, bare: bool = False) -> Command | None:
    """The command in ``text``, or None if it is not one.

    ``bare`` accepts commands without a slash (private chats and the console). A
    ``/cmd@OtherBot`` addressed to another bot is not ours: None.
    """
    stripped = text.strip()
    if not stripped:
        return None
    if stripped.startswith("/"):
        stripped = stripped[1:].strip()
    elif not bare:
        return None
    if not stripped:
        return None
    head, *rest = stripped.split()
    word, _, addressee = head.partition("@")
    if addressee and bot_name and addressee.lower() != bot_name.lower():
        return None
    word = word.lower()
    name = ALIASES.get(word, word)
    return Command(name=name, args=tuple(rest), known=name in COMMANDS)
