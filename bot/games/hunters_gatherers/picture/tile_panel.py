"""The panel under the map with the tile to place.

Three ways to draw it, by what the open prompt asks (see ``focus``):

- by default, the tile in hand in its four rotations; rotations that fit none of the
  offered spots (or, once laid, all but the one it lies in) are faded;
- while a rotation is chosen at a spot, only the rotations offered there, each labelled
  like its button (each turned tile, with its label, is its buttons' tap target);
- while a figure is chosen, the tile just laid, large, with the number of each button on
  the piece it means (the piece around its number is the button's tap target), and
  beside it the numbers with the kind of figure each places.
"""

from __future__ import annotations

from PIL import Image

from bot.games.hunters_gatherers.picture.focus import MARK_SPACING, Focus, mark_points
from bot.games.hunters_gatherers.picture.icons import figure_icon, mark_badge
from bot.games.hunters_gatherers.picture.style import (
    BORDER,
    FOCUS_TILE,
    GRID,
    INK,
    MUTED,
    PANEL,
    PANEL_TOP,
    ROTATION_LABELS,
    SPOT_EDGE,
    STRIP_GAP,
    STRIP_TILE,
    Box,
    Draw,
    draw_text,
    label,
    player_color,
)
from bot.games.hunters_gatherers.picture.tile_drawing import tile_image
from bot.games.hunters_gatherers.picture.tile_geometry import tile_layout
from bot.games.hunters_gatherers.picture.view_reading import placed_now, tile_in_hand
from bot.render.targets import Target, target
from bot.render.text import fit_text, font
from engine.hunters_gatherers.view import HuntersGatherersView, MapTile

PANEL_WIDTH = 4 * STRIP_TILE + 5 * STRIP_GAP
KEY_ROW_MAX = 34  # the height of a row of the key beside the large tile, at most
STRIP_LABEL_H = 32  # a turned tile's label under it, down to the panel's edge


def panel_height(view: HuntersGatherersView, focus: Focus) -> int:
    """The panel's height (0 when there is no tile in hand)."""
    if tile_in_hand(view) is None:
        return 0
    if focus.marking and placed_now(view) is not None:
        return PANEL_TOP + FOCUS_TILE + 16
    return PANEL_TOP + STRIP_TILE + 40


def draw_tile_panel(im: Image.Image, d: Draw, view: HuntersGatherersView, lang: str, box: Box,
                    focus: Focus) -> list[Target]:
    """The tile to place (or just laid), in ``box``; the tap targets of the rotations or
    pieces ``focus`` numbers."""
    hand = tile_in_hand(view)
    if hand is None:
        return []
    tile_id = hand.tile
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=BORDER, width=2)
    x0, y0, x1, _ = box
    title = label("current_bonus" if hand.bonus else "current", lang)
    draw_text(d, (x0 + 14, y0 + 10), fit_text(title, font(22, True), x1 - x0 - 28),
              font(22, True), INK)
    laid = placed_now(view)
    marking = focus.marking and laid is not None
    hint_key = {"spot": "pick_spot", "rotation": "pick_rotation",
                "figure": "pick_figure"}.get(view.step)
    if focus.turning:
        hint_key = "pick_rotation_here"
    elif marking:
        hint_key = "pick_figure_numbered"
    if hint_key:
        hint = label(hint_key, lang)
        draw_text(d, (x0 + 14, y0 + 40), fit_text(hint, font(18), x1 - x0 - 28), font(18),
                  MUTED)
    if marking and laid is not None:
        return _draw_marked(im, d, view, lang, laid, box, focus)
    if focus.turning:
        offered = list(focus.rotations) or _rotations_at(view, focus.spot)
        slots = _draw_strip(im, d, tile_id, lang, box, offered, set(offered))
        return [target(focus.turns[k], slot) for k, slot in zip(offered, slots, strict=True)
                if k in focus.turns]
    # Rotations that fit none of the offered spots are faded out.
    allowed = {r % 4 for spot in view.spots for r in spot.rotations}
    if laid is not None and laid.tile == tile_id:
        allowed = {laid.rotation % 4}  # only the rotation it was laid in
    _draw_strip(im, d, tile_id, lang, box, [0, 1, 2, 3], allowed)
    return []


def _rotations_at(view: HuntersGatherersView, spot: tuple[int, int] | None) -> list[int]:
    """The rotations the view offers at ``spot`` (all four if it offers none there)."""
    for entry in view.spots:
        if (entry.x, entry.y) == spot:
            return sorted({r % 4 for r in entry.rotations})
    return [0, 1, 2, 3]


def _draw_strip(im: Image.Image, d: Draw, tile_id: str, lang: str, box: Box,
                shown: list[int], allowed: set[int]) -> list[Box]:
    """The tile in the rotations ``shown``, side by side; those not ``allowed`` faded
    (an empty ``allowed`` fades nothing). The box of each, its label under it included."""
    x0, y0, x1, _ = box
    gap = min(float(STRIP_GAP), ((x1 - x0) - 4 * STRIP_TILE) / 5)
    ty = y0 + PANEL_TOP
    slots: list[Box] = []
    for slot, k in enumerate(shown):
        tx = round(x0 + gap + slot * (STRIP_TILE + gap))
        picture = tile_image(tile_id, k, STRIP_TILE, lang)
        usable = not allowed or k in allowed
        if not usable:
            picture = Image.blend(picture, Image.new("RGB", picture.size, PANEL), 0.65)
        im.paste(picture, (tx, ty))
        d.rectangle((tx, ty, tx + STRIP_TILE - 1, ty + STRIP_TILE - 1),
                    outline=GRID if usable else MUTED, width=2)
        d.text((tx + STRIP_TILE / 2, ty + STRIP_TILE + 16), ROTATION_LABELS[k % 4],
               font=font(22, True), fill=INK if usable else MUTED, anchor="mm")
        slots.append((tx, ty, tx + STRIP_TILE, ty + STRIP_TILE + STRIP_LABEL_H))
    return slots


def _draw_marked(im: Image.Image, d: Draw, view: HuntersGatherersView, lang: str,
                 laid: MapTile, box: Box, focus: Focus) -> list[Target]:
    """The tile just laid, large, its candidate pieces numbered like the buttons, and a
    key: each number with the figure it places. The target of each piece: a square
    around its number as wide as marks stand apart, inside the tile."""
    x0, y0, x1, _ = box
    tile_id, rotation = laid.tile, laid.rotation % 4
    tx, ty = x0 + 14, y0 + PANEL_TOP
    im.paste(tile_image(tile_id, rotation, FOCUS_TILE, lang), (tx, ty))
    d.rectangle((tx, ty, tx + FOCUS_TILE - 1, ty + FOCUS_TILE - 1), outline=SPOT_EDGE,
                width=3)
    r = FOCUS_TILE * 0.075
    layout = tile_layout(tile_id, rotation)
    reach = MARK_SPACING / 2
    targets: list[Target] = []
    for mark, (ux, uy) in zip(focus.figures, mark_points(layout, focus.figures), strict=True):
        mark_badge(d, mark.number, tx + ux * FOCUS_TILE, ty + uy * FOCUS_TILE, r)
        near = (max(0.0, ux - reach), max(0.0, uy - reach), min(1.0, ux + reach),
                min(1.0, uy + reach))
        targets.append(target([mark.number], (
            tx + near[0] * FOCUS_TILE, ty + near[1] * FOCUS_TILE,
            tx + near[2] * FOCUS_TILE, ty + near[3] * FOCUS_TILE)))
    # The key, beside the tile.
    kx = tx + FOCUS_TILE + 20
    row = min(float(KEY_ROW_MAX), FOCUS_TILE / max(1, len(focus.figures)))
    fnt = font(max(12, min(20, round(row * 0.6))))
    color = player_color(view.turn)
    for i, mark in enumerate(focus.figures):
        cy = ty + row * (i + 0.5)
        mark_badge(d, mark.number, kx + row * 0.4, cy, row * 0.4)
        figure_icon(d, mark.kind, kx + row * 1.3, cy, row * 0.7, color)
        text = label(f"figure.{mark.kind}", lang)
        room = x1 - 14 - (kx + row * 1.8)
        draw_text(d, (kx + row * 1.8, cy), fit_text(text, fnt, max(20.0, room)), fnt, INK, "lm")
    return targets
