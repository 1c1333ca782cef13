"""Where on a game's picture the options of its prompt are drawn: tap targets.

A picture shown with an open prompt numbers the options that mean a place (a square,
an action space, a tile in the supply) like their buttons: the option's 1-based
position in the prompt. Each such place is a :class:`Target`, its box in pixels of the
finished PNG, so that a page laying the picture out can make the place itself a
button. A renderer hands back the PNG with its targets as one :class:`Drawn`.

Several options may mean one place (the numbers of people sent to one site): their
target is one, with all their numbers. A caption strip added below a picture
(``bot.render.caption``) leaves every box where it was.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterable
from dataclasses import dataclass

from PIL import Image

from bot.render.palette import Box


@dataclass(frozen=True, slots=True)
class Target:
    """One place on a picture that stands for options of its prompt.

    ``numbers`` are the options' 1-based positions in the prompt, in rising order;
    ``box`` is ``(x0, y0, x1, y1)`` in pixels of the finished PNG, ``x1`` and ``y1``
    excluded, so a box never has no area.
    """

    numbers: tuple[int, ...]
    box: Box

    def __post_init__(self) -> None:
        if not self.numbers or any(n < 1 for n in self.numbers):
            raise ValueError(f"a target stands for options 1.., not {self.numbers}")
        if list(self.numbers) != sorted(set(self.numbers)):
            raise ValueError(f"a target's numbers rise, each once: {self.numbers}")
        x0, y0, x1, y1 = self.box
        if x0 >= x1 or y0 >= y1:
            raise ValueError(f"a target's box has an area: {self.box}")


def target(numbers: Iterable[int], box: tuple[float, float, float, float]) -> Target:
    """The target of the options ``numbers`` drawn in ``box`` (drawing coordinates, which
    may fall between pixels): the whole pixels the box touches, the numbers sorted."""
    x0, y0, x1, y1 = box
    return Target(tuple(sorted(set(numbers))),
                  (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1)))


@dataclass(frozen=True, slots=True)
class Drawn:
    """A finished picture: its PNG, its size in pixels and the targets on it (none
    when it was drawn without a prompt, or for a prompt naming no place)."""

    png: bytes
    width: int
    height: int
    targets: tuple[Target, ...] = ()


def numbers_text(numbers: Iterable[int]) -> str:
    """Option numbers as the short label a mark shows: ``3``, ``3,4``, ``3–6``."""
    ordered = sorted(set(numbers))
    if len(ordered) > 2 and ordered[-1] - ordered[0] == len(ordered) - 1:
        return f"{ordered[0]}–{ordered[-1]}"
    return ",".join(str(n) for n in ordered)


def finished(image: Image.Image, targets: Iterable[Target] = ()) -> Drawn:
    """``image`` encoded as the PNG every game's picture is sent as, with ``targets``.

    A 256-colour palette keeps the PNG small and quick to encode (a picture has a few
    thousand colours, nearly all of them anti-aliasing shades); the octree quantizer is
    deterministic, so equal pictures still give equal bytes.
    """
    out = io.BytesIO()
    small = image.quantize(colors=256, method=Image.Quantize.FASTOCTREE)
    small.save(out, format="PNG", compress_level=6)
    return Drawn(out.getvalue(), image.width, image.height, tuple(targets))
