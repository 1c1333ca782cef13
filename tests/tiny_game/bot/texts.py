"""Charm Nim in words: every code the engine says, read from ``texts.<lang>.yaml``."""

from __future__ import annotations

from typing import Any, ClassVar

from bot.i18n.catalog import Lang, Markup
from bot.texts.base import CatalogTexts
from engine.core.prompts import Event, Label
from tests.tiny_game.engine.game import CharmNimView


class CharmNimTexts(CatalogTexts):
    """The ``GameTexts`` of Charm Nim (catalog prefix ``cn``)."""

    prefix: ClassVar[str] = "cn"

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, addressed to ``names[seat]`` when a seat is given."""
        question = self._cat.t(lang, label.code, **self._args(lang, label.args))
        if seat is None:
            return Markup(question[:1].upper() + question[1:])
        return self._cat.t(lang, "cn.address", name=self._name(lang, names, seat),
                           question=question)

    def reason(self, lang: Lang, code: str, args: dict[str, Any]) -> Markup:
        """``cn.reason.<code>``, else the shared ``reason.<code>``, else a general refusal."""
        for full in (f"cn.reason.{code}", f"reason.{code}"):
            if self._cat.has(lang, full):
                return self._cat.t(lang, full, **args)
        return self._cat.t(lang, "cn.reason.other")

    def location(self, lang: Lang, loc: str) -> str:
        """The one place of the game: the pile."""
        return self._word(lang, "cn.pile")

    def board(self, lang: Lang, view: CharmNimView, seat: int, names: list[str]) -> list[Markup]:
        """The seat's own charm (nobody else sees it) and the stones left."""
        lines = [self._cat.t(lang, "cn.board.pile", stones=self._count(lang, "stones", view.pile))]
        if view.my_charm is not None:
            lines.append(self._cat.t(lang, "cn.board.charm",
                                     charm=self._word(lang, f"cn.charm.{view.my_charm}"),
                                     n=view.my_number))
        return lines

    def _args(self, lang: Lang, raw: dict[str, Any]) -> dict[str, Any]:
        args = dict(raw)
        for key in ("pile", "n", "left"):
            if isinstance(raw.get(key), int):
                args[f"{key}_stones"] = self._count(lang, "stones", raw[key])
        return args

    def _option(self, lang: Lang, label: Label) -> str:
        return self._cat.plain(lang, label.code, **self._args(lang, label.args))

    def _event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        name = self._name(lang, names, event.seat)
        return self._cat.t(lang, event.code, name=name, **self._args(lang, event.args))
