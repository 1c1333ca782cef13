"""Colours of the game pictures: one loader and the helpers every game's picture uses.

A game's colours are data, ``palette.yaml`` beside its picture: ``colors`` (a name
and an RGB triple each), ``tables`` (named colour tables: ``GOOD_COLORS: {food: ...}``)
and ``seats`` (player colours in seat order). ``bot/render/palette.yaml`` holds the
warm paper and ink every picture is drawn on; a game's ``colors`` override it by name.
A game's style module reads its palette once and offers each colour as a module
attribute (``from <game>.picture.style import INK``), so the drawing code names colours
as plain constants.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from types import MappingProxyType
from typing import Any

from PIL import ImageDraw

from engine.core.data import load_yaml

RGB = tuple[int, int, int]
Box = tuple[int, int, int, int]
Pt = tuple[float, float]
Draw = ImageDraw.ImageDraw


def _rgb(value: Any) -> RGB:
    red, green, blue = (int(v) for v in value)
    return (red, green, blue)


def _read(package: str) -> Mapping[str, Any]:
    source = resources.files(package).joinpath("palette.yaml").read_text(encoding="utf-8")
    return load_yaml(source) or {}


class Palette:
    """One picture's colours, read from the ``palette.yaml`` of ``package`` over the
    shared paper and ink."""

    def __init__(self, package: str) -> None:
        """Read ``package``'s palette (a dotted package name, e.g. its picture's)."""
        base, own = _read(__package__ or "bot.render"), _read(package)
        colors = {**base.get("colors", {}), **own.get("colors", {})}
        self.colors: Mapping[str, RGB] = MappingProxyType(
            {name: _rgb(value) for name, value in colors.items()})
        self.tables: Mapping[str, Mapping[str, RGB]] = MappingProxyType({
            name: MappingProxyType({key: _rgb(v) for key, v in table.items()})
            for name, table in own.get("tables", {}).items()
        })
        self.seats: tuple[RGB, ...] = tuple(_rgb(v) for v in own.get("seats", ()))

    def color(self, name: str) -> RGB:
        """The colour called ``name``; AttributeError (as for a missing module
        constant) if the palette has none, so a typo fails at import."""
        try:
            return self.colors[name]
        except KeyError:
            raise AttributeError(f"no colour {name!r} in the palette") from None

    def seat(self, seat: int) -> RGB:
        """The colour of a seat (colours repeat past the last one)."""
        return self.seats[seat % len(self.seats)]


def tint(color: RGB, amount: float) -> RGB:
    """``color`` mixed with white; ``amount`` 0 keeps it, 1 gives white."""
    r, g, b = color
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def on_color(color: RGB, dark: RGB, light: RGB, threshold: float) -> RGB:
    """``dark`` on a colour brighter than ``threshold`` (perceived: 0.3 R + 0.59 G +
    0.11 B), else ``light``: letters or outlines that stand out from ``color``."""
    r, g, b = color
    return dark if 0.3 * r + 0.59 * g + 0.11 * b > threshold else light
