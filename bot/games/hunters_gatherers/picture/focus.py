"""What the buttons of the open prompt mean on the picture.

The bot draws the picture for the prompt it is shown with (``focus``). Each step gets
marks:

- choosing a spot (``hg.prompt.spot``): each offered spot (``at:x,y``) on the map,
  numbered like its button: the option's 1-based position in the prompt;
- choosing a rotation (``hg.prompt.rotation``): the spot being turned (the label's
  ``x``, ``y``) and the rotations its buttons offer (``rot:k``, in button order);
- choosing a figure (``hg.prompt.figure``): for each ``fig:<kind>:<index>`` option, the
  piece of the tile just laid that it puts the figure on, numbered like its button:
  the option's 1-based position in the prompt. The presenter lays the buttons out in
  option order (a page holds 16, "back" options come last, and a figure prompt is never
  longer than a page), ``/move N`` takes option N, and the engine's option label
  carries the same number (``n``), which the button text shows.

Anything else (no prompt, another step, another game's prompt, a prompt that does not
agree with the view, odd keys) gives no marks, and the picture is drawn as without one.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from bot.games.hunters_gatherers.picture.style import Pt
from bot.games.hunters_gatherers.picture.tile_geometry import TileLayout
from bot.games.hunters_gatherers.picture.view_reading import placed_now
from engine.core.keys import parse_number
from engine.core.prompts import Prompt
from engine.hunters_gatherers.board import FEATURE_OF
from engine.hunters_gatherers.decisions import parse_spot
from engine.hunters_gatherers.tiles import all_tiles, oriented
from engine.hunters_gatherers.view import HuntersGatherersView

Pos = tuple[int, int]

SPOT_PROMPT = "hg.prompt.spot"
ROTATION_PROMPT = "hg.prompt.rotation"
FIGURE_PROMPT = "hg.prompt.figure"
MARK_SPACING = 0.2  # marks closer than this (in tile widths) are moved apart
# The feature each kind of figure stands on, looked up by any key text.
_FEATURE_OF: dict[str, str] = {str(kind): str(feature) for kind, feature in FEATURE_OF.items()}


@dataclass(frozen=True, slots=True)
class FigureMark:
    """A numbered candidate piece of the tile just laid.

    ``number`` is the button's number (the option's 1-based position in the prompt);
    ``feature`` and ``index`` name the piece (``index`` into the oriented tile's list).
    """

    number: int
    kind: str
    feature: str
    index: int


@dataclass(frozen=True, slots=True)
class Focus:
    """The marks a prompt asks for: all empty when there is nothing to mark."""

    # The offered spots with the numbers of their buttons, in the spot step.
    spots: dict[Pos, tuple[int, ...]] = field(default_factory=dict)
    spot: Pos | None = None  # the spot being turned, in the rotation step
    rotations: tuple[int, ...] = ()  # the rotations offered there, in button order
    # The numbers of the buttons of each rotation offered.
    turns: dict[int, tuple[int, ...]] = field(default_factory=dict)
    figures: tuple[FigureMark, ...] = ()  # the numbered pieces, in the figure step

    @property
    def turning(self) -> bool:
        """Whether a rotation is being chosen at a known spot."""
        return self.spot is not None

    @property
    def marking(self) -> bool:
        """Whether pieces of the tile just laid are numbered."""
        return bool(self.figures)


NO_FOCUS = Focus()


def _pos(args: Mapping[str, Any]) -> Pos | None:
    x, y = args.get("x"), args.get("y")
    if isinstance(x, int) and isinstance(y, int) and not isinstance(x, bool) \
            and not isinstance(y, bool):
        return (x, y)
    return None


def _turns(prompt: Prompt) -> dict[int, tuple[int, ...]]:
    """The rotations the prompt offers, in button order, with their buttons' numbers."""
    out: dict[int, tuple[int, ...]] = {}
    for number, option in enumerate(prompt.options, start=1):
        key = option.key if isinstance(option.key, str) else ""
        k = parse_number(key[4:]) if key.startswith("rot:") else None
        if k is not None and k < 4:
            out[k] = (*out.get(k, ()), number)
    return out


def _spots(prompt: Prompt, view: HuntersGatherersView) -> dict[Pos, tuple[int, ...]]:
    """The spots of the view the prompt offers, with their buttons' numbers."""
    listed = {(s.x, s.y) for s in view.spots}
    out: dict[Pos, tuple[int, ...]] = {}
    for number, option in enumerate(prompt.options, start=1):
        pos = parse_spot(option.key) if isinstance(option.key, str) else None
        if pos is not None and pos in listed:
            out[pos] = (*out.get(pos, ()), number)
    return out


def _figures(prompt: Prompt, tile_id: str, rotation: int) -> tuple[FigureMark, ...]:
    placed = oriented(all_tiles()[tile_id], rotation % 4)
    count = {"forest": len(placed.forests), "river": len(placed.rivers),
             "meadow": len(placed.meadows)}
    out: list[FigureMark] = []
    for number, option in enumerate(prompt.options, start=1):
        parts = option.key.split(":") if isinstance(option.key, str) else []
        if len(parts) != 3 or parts[0] != "fig" or parts[1] not in _FEATURE_OF:
            continue
        kind, feature, index = parts[1], _FEATURE_OF[parts[1]], parse_number(parts[2])
        if index is None or index >= count.get(feature, 0):
            continue
        out.append(FigureMark(number, kind, feature, index))
    return tuple(out)


def read_focus(focus: Prompt | None, view: HuntersGatherersView) -> Focus:
    """The marks ``focus`` asks for on the picture of ``view`` (``NO_FOCUS`` if none)."""
    if not isinstance(focus, Prompt) or not isinstance(focus.label.args, Mapping):
        return NO_FOCUS
    code, args, step = focus.label.code, focus.label.args, view.step
    if code == SPOT_PROMPT and step == "spot":
        return Focus(spots=_spots(focus, view))
    if code == ROTATION_PROMPT and step == "rotation":
        spot = _pos(args)
        listed = {(s.x, s.y) for s in view.spots}
        if spot is None or spot not in listed:
            return NO_FOCUS
        turns = _turns(focus)
        return Focus(spot=spot, rotations=tuple(turns), turns=turns)
    if code == FIGURE_PROMPT and step == "figure":
        laid = placed_now(view)
        if laid is None:
            return NO_FOCUS
        at, tile_id = (laid.x, laid.y), laid.tile
        if _pos(args) not in (None, at) or args.get("tile", tile_id) != tile_id:
            return NO_FOCUS  # the prompt speaks of another tile than the view shows
        return Focus(figures=_figures(focus, tile_id, laid.rotation))
    return NO_FOCUS


_NUDGES: tuple[Pt, ...] = (
    (1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, 1), (1, -1), (-1, -1),
    (2, 0), (-2, 0), (0, 2), (0, -2),
)


def mark_points(layout: TileLayout, marks: tuple[FigureMark, ...]) -> list[Pt]:
    """Where each mark goes on the tile, in unit coordinates: on its piece's anchor,
    moved aside when an earlier mark already stands there (a fisher and a hut on the
    same river piece) or when it would hide a lake's fish count, kept inside the tile."""
    ponds = [(centre, radius * 0.7) for centre, radius, _ in layout.lakes]
    out: list[Pt] = []
    for mark in marks:
        base = layout.anchors.get((mark.feature, mark.index), (0.5, 0.5))
        point = base
        for dx, dy in ((0.0, 0.0), *_NUDGES):
            candidate = (min(0.88, max(0.12, base[0] + dx * MARK_SPACING)),
                         min(0.88, max(0.12, base[1] + dy * MARK_SPACING)))
            if all(math.dist(candidate, q) >= MARK_SPACING * 0.99 for q in out) and all(
                    math.dist(candidate, centre) >= reach for centre, reach in ponds):
                point = candidate
                break
        out.append(point)
    return out
