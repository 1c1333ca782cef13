"""The hosted games: every subpackage of ``bot.games`` with a ``MANIFEST`` is one.

Adding a game is an engine package plus a folder here; nothing lists games by hand.
``upcoming.yaml`` names games that are announced but not hosted yet, so a player who
asks for one hears "not yet" rather than "unknown". ``hosting`` adds a manifest package
from elsewhere for a while (a game the tests define), found the same way.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from bot.games.manifest import GameManifest, Renderer, ResultWording, Variant
from engine.core.data import load_yaml

_EXTRA: list[str] = []  # manifest packages hosted besides our own, while ``hosting`` lasts

__all__ = [
    "GameManifest",
    "Named",
    "Renderer",
    "ResultWording",
    "Variant",
    "alias_key",
    "find_game",
    "find_upcoming",
    "hosting",
    "manifest",
    "manifests",
    "named_game",
]


def alias_key(name: str) -> str:
    """A game name as typed, reduced so that "Stone Age", "stone-age", "stone_age" and
    "STONEAGE" read the same."""
    return "".join(ch for ch in name.casefold().replace("ё", "е") if ch.isalnum())


@cache
def manifests() -> Mapping[str, GameManifest]:
    """Every hosted game by engine name, in a stable order."""
    found: dict[str, GameManifest] = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        entry = getattr(module, "MANIFEST", None)
        if isinstance(entry, GameManifest):
            found[entry.name] = entry
    for package in _EXTRA:
        entry = importlib.import_module(package).MANIFEST
        found[entry.name] = entry
    _check_aliases(found)
    return MappingProxyType(found)


@contextmanager
def hosting(package: str) -> Iterator[GameManifest]:
    """Host the game whose manifest is ``package``'s ``MANIFEST`` while the block runs, as
    if it were a folder here (its texts join the shipped catalog); afterwards everything
    read from the manifests is as it was."""
    _EXTRA.append(package)
    _forget()
    try:
        yield manifest(importlib.import_module(package).MANIFEST.name)
    finally:
        _EXTRA.remove(package)
        _forget()


def _forget() -> None:
    """Drop everything remembered from the manifests, to be read again."""
    from bot.i18n.catalog import default_catalog
    from bot.texts import forget_shipped_texts

    for memo in (manifests, _alias_table, _upcoming, default_catalog):
        memo.cache_clear()
    forget_shipped_texts()


def _check_aliases(found: Mapping[str, GameManifest]) -> None:
    owner: dict[str, str] = {}
    for name, entry in found.items():
        for alias in (name, *entry.aliases):
            key = alias_key(alias)
            if owner.setdefault(key, name) != name:
                raise ValueError(f"alias {alias!r} names both {owner[key]} and {name}")


def manifest(name: str) -> GameManifest:
    """The manifest of the game ``name`` (engine name); KeyError names the games there are."""
    try:
        return manifests()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(manifests())}") from None


@cache
def _alias_table() -> Mapping[str, str]:
    table: dict[str, str] = {}
    for name, entry in manifests().items():
        for alias in (name, *entry.aliases):
            table[alias_key(alias)] = name
    return MappingProxyType(table)


def find_game(word: str) -> GameManifest | None:
    """The hosted game a player's word names (any alias, any language), or None."""
    name = _alias_table().get(alias_key(word))
    return manifests()[name] if name else None


@cache
def _upcoming() -> Mapping[str, tuple[str, dict[str, str]]]:
    source = resources.files(__name__).joinpath("upcoming.yaml").read_text(encoding="utf-8")
    table: dict[str, tuple[str, dict[str, str]]] = {}
    for name, entry in (load_yaml(source) or {}).items():
        if name in manifests():
            continue  # hosted now: its manifest speaks for it
        for alias in (name, *entry.get("aliases", ())):
            table[alias_key(alias)] = (name, dict(entry["title"]))
    return MappingProxyType(table)


def find_upcoming(word: str) -> dict[str, str] | None:
    """The titles (by language) of an announced game not hosted yet, or None."""
    found = _upcoming().get(alias_key(word))
    return found[1] if found else None


@dataclass(frozen=True, slots=True)
class Named:
    """A game named by a command's first words: the hosted game, or the titles (by
    language) of an announced one; the words left after its name."""

    game: GameManifest | None
    upcoming: dict[str, str] | None
    rest: tuple[str, ...]


def named_game(words: Sequence[str]) -> Named:
    """The game the longest run of ``words``' first words names (``carcassonne: hunters
    and gatherers rotation`` names the game by its first four), for every command that
    takes a game; none named: nothing found and every word left."""
    for n in range(len(words), 0, -1):
        head = " ".join(words[:n])
        if (found := find_game(head)) is not None:
            return Named(found, None, tuple(words[n:]))
        if (upcoming := find_upcoming(head)) is not None:
            return Named(None, upcoming, tuple(words[n:]))
    return Named(None, None, tuple(words))
