"""The Hunters and Gatherers picture: the map, the tile to place and the players.

Drawn from the engine's per-player view with plain shapes, no publisher art: the
header on top, the map (``map_drawing``) with the names of its columns and rows along
its four edges, as on a chess board, then the tile to place (``tile_panel``) with
the players beside or under it (``page_sections``), and the legend. When the picture is
shown with an open prompt (``focus``), it marks what that prompt's buttons mean (the
spots offered, numbered like their buttons; the spot being turned and the rotations
offered there; the pieces of the tile just laid, numbered like the figure buttons), and
reports where each of those places is: its tap target (``bot.render.targets``).

The picture is pure and deterministic: the same view, names, language and prompt give
the same bytes. The parts live in small modules: ``style`` (colours and sizes),
``tile_geometry`` (where things go on a tile), ``icons``, ``tile_drawing``,
``view_reading``, ``focus``, ``map_drawing``, ``tile_panel``, ``page_sections`` and
``samples`` (realistic views for tests, samples and the benchmark).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.games.hunters_gatherers.picture.focus import Focus, read_focus
from bot.games.hunters_gatherers.picture.map_drawing import MapFrame, draw_map, map_cells, map_frame
from bot.games.hunters_gatherers.picture.page_sections import (
    draw_header,
    draw_legend,
    draw_players,
    legend_layout,
)
from bot.games.hunters_gatherers.picture.style import (
    BG,
    EDGE,
    GAP,
    HEADER_H,
    LEGEND_ROW_H,
    MARGIN,
    MIN_PLAYERS_W,
    MIN_WIDTH,
    PLAYER_ROW_H,
    Box,
)
from bot.games.hunters_gatherers.picture.tile_panel import (
    PANEL_WIDTH,
    draw_tile_panel,
    panel_height,
)
from bot.render.targets import Drawn, finished
from engine.core.prompts import Prompt
from engine.hunters_gatherers.view import HuntersGatherersView

__all__ = ["PageLayout", "page_layout", "render_hunters_gatherers"]


@dataclass(frozen=True, slots=True)
class PageLayout:
    """Where each part of the picture goes, in pixels.

    ``map_left``/``map_top`` are the top-left corner of the map's first cell; the
    names of the columns and rows stand in bands ``EDGE`` pixels wide around the map
    (``edge_boxes``); ``panel`` is None when there is no tile in hand.
    """

    width: int
    height: int
    frame: MapFrame
    map_left: int
    map_top: int
    panel: Box | None
    players: Box
    legend_top: int

    def cell_box(self, x: int, y: int) -> Box:
        """The pixels of the map cell at position ``(x, y)``."""
        cell = self.frame.cell
        left = self.map_left + (x - self.frame.min_x) * cell
        top = self.map_top + (y - self.frame.min_y) * cell
        return (left, top, left + cell, top + cell)

    def edge_boxes(self, x: int, y: int) -> tuple[Box, Box, Box, Box]:
        """Where the name of the column at ``x`` stands above and below the map, and the
        name of the row at ``y`` left and right of it: (top, bottom, left, right)."""
        left, top, right, bottom = self.cell_box(x, y)
        map_right = self.map_left + self.frame.width
        map_bottom = self.map_top + self.frame.height
        return ((left, self.map_top - EDGE, right, self.map_top),
                (left, map_bottom, right, map_bottom + EDGE),
                (self.map_left - EDGE, top, self.map_left, bottom),
                (map_right, top, map_right + EDGE, bottom))


def page_layout(view: HuntersGatherersView, lang: str, focus: Focus) -> PageLayout:
    """The layout of the picture of ``view``."""
    frame = map_frame(map_cells(view))
    width = max(MIN_WIDTH, frame.width + 2 * (MARGIN + EDGE))
    map_top = HEADER_H + GAP + EDGE
    current_h = panel_height(view, focus)
    has_current = current_h > 0
    players_h = 20 + max(1, len(view.players)) * PLAYER_ROW_H
    # The players go beside the tile to place when there is room for long names,
    # else under it.
    beside = has_current and width - 2 * MARGIN - PANEL_WIDTH - GAP >= MIN_PLAYERS_W
    bottom_top = map_top + frame.height + EDGE + GAP
    if beside:
        panel = (MARGIN, bottom_top, MARGIN + PANEL_WIDTH, bottom_top + current_h)
        players_top, players_left = bottom_top, MARGIN + PANEL_WIDTH + GAP
        bottom_end = bottom_top + max(current_h, players_h)
    else:
        panel = (MARGIN, bottom_top, width - MARGIN, bottom_top + current_h)
        players_top = bottom_top + (current_h + GAP if has_current else 0)
        players_left = MARGIN
        bottom_end = players_top + players_h
    legend_rows = len(legend_layout(lang, width - 2 * MARGIN))
    return PageLayout(
        width=width,
        height=bottom_end + GAP + legend_rows * LEGEND_ROW_H + GAP,
        frame=frame,
        map_left=(width - frame.width) // 2,
        map_top=map_top,
        panel=panel if has_current else None,
        players=(players_left, players_top, width - MARGIN, players_top + players_h),
        legend_top=bottom_end + GAP,
    )


def render_hunters_gatherers(
    view: HuntersGatherersView, names: list[str], lang: str = "ru", focus: Prompt | None = None,
) -> Drawn:
    """The Hunters and Gatherers map, the tile to place and the players, as a PNG.

    ``view`` is the engine's view model (as given, or read back from its JSON): placed
    tiles, spots for the current tile (each drawn with its square's name), figures,
    players;
    ``names[seat]`` is each seat's display name (any text: missing, empty or undrawable
    names become "Player N"); ``lang`` is "ru" or "en" (anything else falls back to
    Russian);
    ``focus`` is the open prompt the picture is shown with, whose buttons the picture
    then explains, each place it marks a tap target (None, or a prompt it has nothing to
    say about, changes nothing).
    Tile ids the picture has no drawing for are skipped rather than failing.
    """
    marks = read_focus(focus, view)
    layout = page_layout(view, lang, marks)
    im = Image.new("RGB", (layout.width, layout.height), BG)
    d = ImageDraw.Draw(im)
    draw_header(d, view, names, lang, layout.width)
    targets = draw_map(im, d, view, layout.frame, layout.map_left, layout.map_top, lang, marks)
    if layout.panel is not None:
        targets += draw_tile_panel(im, d, view, lang, layout.panel, marks)
    draw_players(d, view, names, lang, layout.players)
    draw_legend(d, lang, MARGIN, layout.legend_top, layout.width - 2 * MARGIN)
    return finished(im, sorted(targets, key=lambda t: t.numbers))
