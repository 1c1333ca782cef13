"""Game texts: what a game's codes say to people, in every catalog language.

The engine speaks in codes (prompt and option ``Label``s, ``Event``s, refusal
reasons); a ``GameTexts`` turns them into chat text for one game. The sentences live
in the catalog (``bot/games/<game>/texts.<lang>.yaml``), and so do the nouns with their
forms; the implementations only pick the code and turn arguments (goods, dice,
locations) into nouns, counts and short text.

``texts_for(name)`` gives the texts of a game by its engine name (from its manifest).
"""

from __future__ import annotations

from functools import cache
from typing import Any, Protocol, TypeVar

from bot.i18n.catalog import Catalog, Lang, Markup, default_catalog
from bot.ui.choices import Group
from engine.core.prompts import Event, Label, Option
from engine.core.views import View

__all__ = [
    "GameTexts",
    "texts_for",
]

# The game's own view model: ``board`` reads its typed fields.
V_contra = TypeVar("V_contra", bound=View, contravariant=True)


class GameTexts(Protocol[V_contra]):
    """Everything a game shows in words; ``V_contra`` is the game's view model."""

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, as markup: addressed to ``names[seat]`` when ``seat`` is given,
        standing alone (capitalised) otherwise — a label does not say whose it is."""
        ...

    def option(self, lang: Lang, label: Label) -> str:
        """A button text: plain, short (at most 40 characters)."""
        ...

    def option_short(self, lang: Lang, label: Label) -> str | None:
        """A short button text for narrow rows that still tells the option apart, or
        None (see ``bot.ui.layout``)."""
        ...

    def option_group(self, lang: Lang, option: Option) -> Group | None:
        """The group an option is shown in (``CatalogTexts`` reads the label's
        ``group`` argument), or None."""
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

    def board(self, lang: Lang, view: V_contra, seat: int, names: list[str]) -> list[Markup]:
        """What ``/board`` says beside the picture, from ``view(state, seat)``: the seat's
        own things the picture does not spell out, and what the others show openly."""
        ...

    def score_part(self, lang: Lang, key: str, points: int) -> Markup:
        """One part of a final score (``key`` of the result's breakdown) in words."""
        ...


def texts_for(game_name: str, catalog: Catalog | None = None) -> GameTexts[Any]:
    """The texts of ``game_name`` (its manifest's); the shipped catalog unless another is
    given. Raises ``KeyError`` naming the hosted games."""
    if catalog is None:
        return _shipped_texts(game_name)
    from bot.games import manifest

    return manifest(game_name).texts(catalog)


@cache
def _shipped_texts(game_name: str) -> GameTexts[Any]:
    """One texts object per game over the shipped catalog, so its memo is shared."""
    from bot.games import manifest

    return manifest(game_name).texts(default_catalog())


def forget_shipped_texts() -> None:
    """Drop the texts objects made so far (the hosted games or the catalog changed)."""
    _shipped_texts.cache_clear()
