"""The parts of the Hunters and Gatherers picture around the map: the header (title,
tiles left, whose turn or how the game ended), the players (colour, name, score,
figures and huts left, whose turn) and the legend of the icons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from bot.games.hunters_gatherers.picture.icons import (
    animal_icon,
    figure_icon,
    fire_icon,
    gold_icon,
    lake_icon,
    mushroom_icon,
    shrine_icon,
    spring_icon,
)
from bot.games.hunters_gatherers.picture.style import (
    ACCENT,
    BORDER,
    FIGURE_KINDS,
    HEADER_BG,
    HEADER_H,
    HEADER_INK,
    INK,
    LEGEND_ROW_H,
    MARGIN,
    MUTED,
    PANEL,
    PLAYER_ROW_H,
    TURN_BG,
    Box,
    Draw,
    draw_text,
    label,
    outline_for,
    player_color,
)
from bot.games.hunters_gatherers.picture.view_reading import seat_name
from bot.render.text import fit_text, font
from engine.hunters_gatherers.view import HuntersGatherersView


def draw_header(d: Draw, view: HuntersGatherersView, names: Sequence[str], lang: str,
                width: int) -> None:
    """The title bar: the game, whose turn (or how the game ended) and the tiles left."""
    d.rectangle((0, 0, width, HEADER_H), fill=HEADER_BG)
    y = HEADER_H / 2
    bold, regular = font(26, True), font(22)
    x = MARGIN + 4.0
    x += draw_text(d, (x, y), label("title", lang), bold, HEADER_INK, "lm") + 24
    left = label("tiles_left", lang, view.tiles_left)
    if view.bonus_left:
        left += " · " + label("bonus_left", lang, view.bonus_left)
    right = width - MARGIN - 4
    left_w = regular.getlength(left)
    draw_text(d, (right - left_w, y), left, regular, HEADER_INK, "lm")
    room = right - left_w - 24 - x
    if view.step == "over":
        text = label("over", lang)
        if view.end_reason:
            text += ": " + label(f"end.{view.end_reason}", lang)
        draw_text(d, (x, y), fit_text(text, bold, room), bold, ACCENT, "lm")
        return
    turn = view.turn
    tag_w = draw_text(d, (x, y), label("turn", lang), regular, HEADER_INK, "lm")
    color = player_color(turn)
    d.ellipse((x + tag_w + 10, y - 12, x + tag_w + 34, y + 12), fill=color,
              outline=outline_for(color), width=2)
    name = fit_text(seat_name(names, turn, lang), bold, max(20.0, room - tag_w - 46))
    draw_text(d, (x + tag_w + 44, y), name, bold, HEADER_INK, "lm")


def draw_players(d: Draw, view: HuntersGatherersView, names: Sequence[str], lang: str,
                 box: Box) -> None:
    """One row per player in ``box``: colour, name, score, figures and huts left."""
    players = view.players
    d.rounded_rectangle(box, radius=10, fill=PANEL, outline=BORDER, width=2)
    x0, y0, x1, _ = box
    over = view.step == "over"
    turn = None if over else view.turn
    best = max((p.score for p in players), default=0)
    name_font, num_font, small = font(22, True), font(22, True), font(18)
    y = y0 + 10
    for p in players:
        seat = p.seat
        cy = y + PLAYER_ROW_H / 2
        if seat == turn:
            d.rounded_rectangle((x0 + 6, y, x1 - 6, y + PLAYER_ROW_H - 2), radius=8,
                                fill=TURN_BG)
            d.polygon([(x0 + 12, cy - 9), (x0 + 24, cy), (x0 + 12, cy + 9)], fill=INK)
        color = player_color(seat)
        figure_icon(d, "gatherer", x0 + 44, cy, 30, color)
        # Right side, from the right edge: huts, figures, score.
        rx = x1 - 16.0
        supply = ((p.huts, "hut"), (p.members, "gatherer"))
        for value, kind in supply:
            rx -= draw_text(d, (rx, cy), str(value), num_font, INK, "rm") + 4
            figure_icon(d, kind, rx - 12, cy, 22, MUTED)
            rx -= 40
        score_text = f"{p.score} {label('points', lang)}"
        if over and p.score == best:
            score_text = "★ " + score_text
        rx -= draw_text(d, (rx, cy), score_text, num_font, INK, "rm") + 16
        name = seat_name(names, seat, lang)
        suffix = f" ({label('you', lang)})" if view.you == seat else ""
        suffix_w = small.getlength(suffix)
        nx = x0 + 68
        room = rx - nx - suffix_w
        shown = fit_text(name, name_font, max(20.0, room))
        nw = draw_text(d, (nx, cy), shown, name_font, INK, "lm")
        if suffix:
            draw_text(d, (nx + nw, cy), suffix, small, MUTED, "lm")
        y += PLAYER_ROW_H


def _legend_items(d: Draw, lang: str) -> list[tuple[str, Callable[[float, float], None]]]:
    def animal(kind: str) -> Callable[[float, float], None]:
        return lambda x, y: animal_icon(d, kind, x, y, 11, lang)

    def figure(kind: str) -> Callable[[float, float], None]:
        return lambda x, y: figure_icon(d, kind, x, y, 24, MUTED)

    items: list[tuple[str, Callable[[float, float], None]]] = [
        (label(f"animal.{kind}", lang), animal(kind))
        for kind in ("deer", "mammoth", "aurochs", "tiger")
    ]
    items += [
        (label("gold", lang), lambda x, y: gold_icon(d, x, y, 10)),
        (label("mushrooms", lang), lambda x, y: mushroom_icon(d, x, y, 11)),
        (label("lake", lang), lambda x, y: lake_icon(d, x, y, 13, 2)),
        (label("spring", lang), lambda x, y: spring_icon(d, x, y, 7)),
        (label("fire", lang), lambda x, y: fire_icon(d, x, y, 11)),
        (label("shrine", lang), lambda x, y: shrine_icon(d, x, y, 11)),
    ]
    items += [(label(f"figure.{kind}", lang), figure(kind)) for kind in FIGURE_KINDS]
    return items


def legend_layout(lang: str, width: int) -> list[list[tuple[int, str]]]:
    """Items (index, text) per line, wrapped to ``width``."""
    fnt = font(18)
    lines: list[list[tuple[int, str]]] = [[]]
    x = 0.0
    texts = [text for text, _ in _legend_items(ImageDraw.Draw(Image.new("1", (1, 1))), lang)]
    for i, text in enumerate(texts):
        w = 30 + fnt.getlength(text) + 18
        if x + w > width and lines[-1]:
            lines.append([])
            x = 0.0
        lines[-1].append((i, text))
        x += w
    return lines


def draw_legend(d: Draw, lang: str, left: int, top: int, width: int) -> None:
    """The icons and what they mean, in lines ``width`` pixels wide."""
    fnt = font(18)
    items = _legend_items(d, lang)
    for row, line in enumerate(legend_layout(lang, width)):
        cy = top + row * LEGEND_ROW_H + LEGEND_ROW_H / 2
        x = float(left)
        for i, text in line:
            items[i][1](x + 13, cy)
            x += 30 + draw_text(d, (x + 30, cy), text, fnt, MUTED, "lm") + 18

