"""Game texts: what a game's codes say to people, in every catalog language.

The engine speaks in codes (prompt and option ``Label``s, ``Event``s, refusal
reasons); a ``GameTexts`` turns them into chat text for one game. The sentences live
in the catalog (``bot/i18n/data/<game>.<lang>.yaml``); the implementations only pick
the code and turn arguments (goods, dice, locations) into short text.

``texts_for(name)`` gives the texts of a game by its engine name.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol

from bot.i18n.catalog import Catalog, Lang, Markup, default_catalog
from bot.texts.plural import count_of, plural, plural_en, plural_ru
from engine.core.prompts import Event, Label

__all__ = [
    "GAMES",
    "GameTexts",
    "count_of",
    "plural",
    "plural_en",
    "plural_ru",
    "texts_for",
]

# Games that have texts, by engine name.
GAMES: tuple[str, ...] = ("stone_age", "hunters_gatherers")


class GameTexts(Protocol):
    """Everything a game shows in words."""

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, as markup: addressed to ``names[seat]`` when ``seat`` is given,
        standing alone (capitalised) otherwise — a label does not say whose it is."""
        ...

    def option(self, lang: Lang, label: Label) -> str:
        """A button text: plain, short (at most 40 characters)."""
        ...

    def event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        """One chat-log line for ``event``, or None when it is not worth a line."""
        ...

    def reason(self, lang: Lang, code: str, args: dict[str, Any]) -> Markup:
        """Why a move was refused (an ``IllegalMove``'s code and arguments)."""
        ...

    def location(self, lang: Lang, loc: str) -> str:
        """The name of a board location, plain."""
        ...

    def card(self, lang: Lang, info: dict[str, Any]) -> str:
        """A short description of a card from the view's card info, plain."""
        ...

    def building(self, lang: Lang, info: dict[str, Any]) -> str:
        """A short description of a building from the view's building info, plain."""
        ...

    def score_lines(self, lang: Lang, breakdown: dict[str, int]) -> list[Markup]:
        """One line per part of a final score, in score-sheet order."""
        ...


def texts_for(game_name: str, catalog: Catalog | None = None) -> GameTexts:
    """The texts of ``game_name``; the shipped catalog unless another is given.

    Raises ``KeyError`` naming the games that have texts.
    """
    if catalog is None:
        return _shipped_texts(game_name)
    if game_name == "stone_age":
        from bot.texts.stone_age import StoneAgeTexts

        return StoneAgeTexts(catalog)
    if game_name == "hunters_gatherers":
        from bot.texts.hunters_gatherers import HuntersGatherersTexts

        return HuntersGatherersTexts(catalog)
    raise KeyError(f"no texts for game {game_name!r}; known: {', '.join(GAMES)}")


@cache
def _shipped_texts(game_name: str) -> GameTexts:
    """One texts object per game over the shipped catalog, so its memo is shared."""
    if game_name == "stone_age":
        from bot.texts.stone_age import StoneAgeTexts

        return StoneAgeTexts(default_catalog())
    if game_name == "hunters_gatherers":
        from bot.texts.hunters_gatherers import HuntersGatherersTexts

        return HuntersGatherersTexts(default_catalog())
    raise KeyError(f"no texts for game {game_name!r}; known: {', '.join(GAMES)}")
