"""The Stone Age picture: the board and every player's board as one PNG.

Drawn from the engine's per-player view (a ``StoneAgeView``) with plain
shapes and text: no publisher art. The picture is meant to be read in a chat at
phone preview size (about 600 px wide, half the canvas), so text is never smaller
than about 18 px on the 1280 px canvas and numbers carry the information, with
coloured shapes as icons:

- top: round, phase, whose turn, deck size;
- the eight places of the board with the workers on them and how full they are;
- the four civilization cards (cost 4, 3, 2, 1 from left to right, as printed on
  the board) and the building piles;
- one strip per player: goods, people, agriculture, tools, cards and buildings;
- a legend naming the icons.

Shown with a prompt that offers places (placing people, choosing the place to resolve
next), the picture numbers each offered place like its buttons in a band under it and
reports the place as their tap target (``focus``, ``marks``).

The function is pure and deterministic: the same view, names, language and prompt
give the same bytes (Pillow's BASIC text layout, no clock, no randomness).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw

from bot.games.stone_age.picture.focus import Focus, read_focus
from bot.games.stone_age.picture.marks import MARK_BAND, mark_place
from bot.games.stone_age.picture.style import (
    ACCENT,
    BG,
    BLOCKED,
    BLOCKED_INK,
    BORDER,
    CULTURE_BG,
    FIGURE_BG,
    GOOD_COLORS,
    HEADER_BG,
    HEADER_INK,
    INK,
    MUTED,
    ONCE_BG,
    PANEL,
    TOOL_BG,
    TOOL_USED,
    WHITE,
    player_color,
)
from bot.render.labels import PictureWords
from bot.render.palette import RGB, Box, Draw, tint
from bot.render.targets import Drawn, Target, finished
from bot.render.text import Font, fit_text, fitting_font, font, safe_text
from engine.core.prompts import Prompt
from engine.stone_age.components import GATHERING, VILLAGE, components
from engine.stone_age.scoring import culture_points
from engine.stone_age.view_model import (
    CardView,
    FixedBuildingView,
    KindsBuildingView,
    PileView,
    PlayerView,
    RowSlotView,
    StoneAgeView,
)

# The picture's words: ``sa.picture.*`` in the game's texts.<lang>.yaml.
WORDS = PictureWords("sa")
label = WORDS.label


# Canvas. The height follows the number of players.
WIDTH = 1280
MARGIN = 16
GAP = 10
HEADER_H = 60
LOC_H = 160
SECTION_LABEL_H = 30
CARD_H = 196
STRIP_H = 116
LEGEND_H = 44

RESOURCE_KINDS = ("wood", "clay", "stone", "gold")


# --------------------------------------------------------------------------- helpers


def _seat_counts(by_seat: dict[int, int]) -> list[tuple[int, int]]:
    """``by_seat`` as (seat, count) pairs in seat order, the order the discs are drawn."""
    return sorted(by_seat.items())


def _name(names: Sequence[str], seat: int, lang: str) -> str:
    """The seat's display name; a placeholder when missing or nothing drawable."""
    raw = names[seat] if seat < len(names) and isinstance(names[seat], str) else ""
    return raw if safe_text(raw) else label("player", lang, seat + 1)


def _text(d: Draw, xy: tuple[float, float], text: str, fnt: Font, fill: RGB,
          anchor: str = "la") -> float:
    """Draw ``text``; returns its width so that callers can place the next item."""
    d.text(xy, text, font=fnt, fill=fill, anchor=anchor)
    return fnt.getlength(text)


def _label_lines(d: Draw, text: str, cx: float, cy: float, width: float, size: int,
                 fill: RGB, one_line_min: int, two_line_size: int) -> None:
    """A label centred at (cx, cy): on one line while it fits at ``one_line_min`` or
    more, else split at the space nearest its middle into two smaller lines (official
    names such as «Мастерская ремесленника» are long for a narrow box)."""
    fnt = fitting_font(text, width, size, True, one_line_min)
    words = text.split(" ")
    if fnt.getlength(text) <= width or len(words) < 2:
        d.text((cx, cy), text, font=fitting_font(text, width, size, True, 12), fill=fill,
               anchor="mm")
        return
    cut = min(range(1, len(words)),
              key=lambda k: abs(len(" ".join(words[:k])) - len(" ".join(words[k:]))))
    lines = [" ".join(words[:cut]), " ".join(words[cut:])]
    small = min((fitting_font(line, width, two_line_size, True, 12) for line in lines),
                key=lambda f: f.size)
    step = small.size * 0.55
    for k, line in enumerate(lines):
        d.text((cx, cy + (k - 0.5) * 2 * step), line, font=small, fill=fill, anchor="mm")


def _panel(d: Draw, box: Box, fill: RGB = PANEL, outline: RGB = BORDER,
           width: int = 2, radius: int = 10) -> None:
    d.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)


# ----------------------------------------------------------------------------- icons


def good_icon(d: Draw, kind: str, cx: float, cy: float, size: float) -> None:
    """One good as a coloured shape; the shapes differ too, for colour-blind players.

    food: circle; wood: log (wide rectangle); clay: brick (square); stone: hexagon;
    gold: diamond.
    """
    color = GOOD_COLORS.get(kind, MUTED)
    dark = tuple(max(0, c - 70) for c in color)
    h = size / 2
    if kind == "food":
        d.ellipse((cx - h, cy - h, cx + h, cy + h), fill=color, outline=dark, width=2)
        d.ellipse((cx - h * 0.35, cy - h * 0.35, cx + h * 0.35, cy + h * 0.35),
                  fill=tint(color, 0.45))
    elif kind == "wood":
        d.rounded_rectangle((cx - h, cy - h * 0.6, cx + h, cy + h * 0.6), radius=h * 0.5,
                            fill=color, outline=dark, width=2)
        d.ellipse((cx + h * 0.25, cy - h * 0.4, cx + h * 0.85, cy + h * 0.4),
                  fill=tint(color, 0.35), outline=dark, width=1)
    elif kind == "clay":
        d.rectangle((cx - h * 0.9, cy - h * 0.9, cx + h * 0.9, cy + h * 0.9),
                    fill=color, outline=dark, width=2)
        d.line((cx - h * 0.9, cy, cx + h * 0.9, cy), fill=dark, width=2)
    elif kind == "stone":
        pts = [(cx - h, cy), (cx - h / 2, cy - h * 0.87), (cx + h / 2, cy - h * 0.87),
               (cx + h, cy), (cx + h / 2, cy + h * 0.87), (cx - h / 2, cy + h * 0.87)]
        d.polygon(pts, fill=color, outline=dark, width=2)
    elif kind == "gold":
        pts = [(cx, cy - h), (cx + h * 0.85, cy), (cx, cy + h), (cx - h * 0.85, cy)]
        d.polygon(pts, fill=color, outline=dark, width=2)
    else:
        d.rectangle((cx - h, cy - h, cx + h, cy + h), fill=color)


def any_resource_icon(d: Draw, cx: float, cy: float, size: float) -> None:
    """"Any resource": a square split into the four resource colours."""
    h = size / 2
    quads = ((-1, -1, "wood"), (0, -1, "clay"), (-1, 0, "stone"), (0, 0, "gold"))
    for qx, qy, kind in quads:
        x0, y0 = cx + qx * h, cy + qy * h
        d.rectangle((x0, y0, x0 + h, y0 + h), fill=GOOD_COLORS[kind])
    d.rectangle((cx - h, cy - h, cx + h, cy + h), outline=INK, width=1)


def person_icon(d: Draw, cx: float, cy: float, size: float, color: RGB = INK) -> None:
    """A worker figure: head and body."""
    h = size / 2
    d.ellipse((cx - h * 0.36, cy - h, cx + h * 0.36, cy - h * 0.28), fill=color)
    d.polygon([(cx - h * 0.7, cy + h), (cx - h * 0.45, cy - h * 0.15),
               (cx + h * 0.45, cy - h * 0.15), (cx + h * 0.7, cy + h)], fill=color)


def field_icon(d: Draw, cx: float, cy: float, size: float) -> None:
    """Agriculture: a green field with furrows."""
    h = size / 2
    d.rounded_rectangle((cx - h, cy - h * 0.8, cx + h, cy + h * 0.8), radius=4,
                        fill=(120, 176, 70), outline=(60, 110, 40), width=2)
    for i in (-1, 0, 1):
        y = cy + i * h * 0.4
        d.line((cx - h * 0.7, y, cx + h * 0.7, y), fill=(230, 210, 120), width=2)


def hut_icon(d: Draw, cx: float, cy: float, size: float, color: RGB = INK) -> None:
    """A building: a house outline."""
    h = size / 2
    d.polygon([(cx - h, cy), (cx, cy - h), (cx + h, cy), (cx + h * 0.75, cy),
               (cx + h * 0.75, cy + h), (cx - h * 0.75, cy + h), (cx - h * 0.75, cy)],
              fill=color)
    d.rectangle((cx - h * 0.2, cy + h * 0.3, cx + h * 0.2, cy + h), fill=PANEL)


def card_icon(d: Draw, cx: float, cy: float, size: float) -> None:
    """A civilization card: an upright card with a green and a sand half."""
    w, h = size * 0.36, size / 2
    d.rounded_rectangle((cx - w, cy - h, cx + w, cy + h), radius=3, fill=FIGURE_BG,
                        outline=INK, width=2)
    d.rectangle((cx - w + 2, cy + 1, cx + w - 2, cy + h - 2), fill=CULTURE_BG)


def tool_tile(d: Draw, box: Box, value: int, used: bool, size: int = 26) -> None:
    """A tool tile with its value; a used one is greyed and struck through, as the
    real tile is turned over; an empty slot is a faint outline."""
    if value <= 0:
        d.rounded_rectangle(box, radius=6, outline=BLOCKED, width=2)
        return
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if used:
        # Used this round: grey, with a dark folded corner; the value stays readable
        # because it still counts for the toolmaker figures.
        d.rounded_rectangle(box, radius=6, fill=TOOL_USED, outline=MUTED, width=2)
        fold = (x1 - x0) * 0.42
        d.polygon([(x1 - fold, y0), (x1, y0), (x1, y0 + fold)], fill=INK)
        d.text((cx, cy), str(value), font=font(size, True), fill=(70, 64, 58), anchor="mm")
        return
    d.rounded_rectangle(box, radius=6, fill=TOOL_BG, outline=INK, width=2)
    d.text((cx, cy), str(value), font=font(size, True), fill=INK, anchor="mm")


def die_icon(d: Draw, cx: float, cy: float, size: float) -> None:
    """A die showing five pips."""
    h = size / 2
    d.rounded_rectangle((cx - h, cy - h, cx + h, cy + h), radius=size * 0.2, fill=WHITE,
                        outline=INK, width=2)
    r = max(2.0, size * 0.08)
    for px, py in ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)):
        x, y = cx + px * h * 0.5, cy + py * h * 0.5
        d.ellipse((x - r, y - r, x + r, y + r), fill=INK)


def worker_disc(d: Draw, cx: float, cy: float, seat: int, count: int,
                radius: int = 18) -> None:
    """A player's workers on a place: a disc in the player's colour with the count."""
    d.ellipse((cx - radius, cy - radius, cx + radius, cy + radius),
              fill=player_color(seat), outline=WHITE, width=2)
    d.text((cx, cy), str(count), font=font(radius + 4, True), fill=WHITE, anchor="mm")


# ---------------------------------------------------------------------------- header


def _header(d: Draw, view: StoneAgeView, names: Sequence[str], lang: str) -> None:
    d.rectangle((0, 0, WIDTH, HEADER_H), fill=HEADER_BG)
    y = HEADER_H / 2
    bold, regular = font(28, True), font(24)
    x = MARGIN + 4.0
    x += _text(d, (x, y), label("title", lang), bold, HEADER_INK, "lm") + 24
    x += _text(d, (x, y), label("round", lang, view.round), bold, ACCENT, "lm") + 16
    phase = view.phase
    phase_text = label(f"phase.{phase}", lang)
    reason = view.end_reason
    if phase == "over" and reason:
        phase_text += ": " + label(f"end.{reason}", lang)
    x += _text(d, (x, y), "· " + phase_text, regular, HEADER_INK, "lm") + 20
    deck = label("deck", lang, view.deck_size)
    deck_w = regular.getlength(deck)
    right = WIDTH - MARGIN - 4
    _text(d, (right - deck_w, y), deck, regular, HEADER_INK, "lm")
    if phase in ("placement", "actions"):
        # Whose turn: a disc in their colour and the (shortened) name. Feeding is
        # decided by everyone at once, so no single name is shown then.
        turn = view.turn
        room = right - deck_w - 24 - x
        tag = label("turn", lang)
        tag_w = _text(d, (x, y), tag, regular, HEADER_INK, "lm")
        d.ellipse((x + tag_w + 10, y - 11, x + tag_w + 32, y + 11),
                  fill=player_color(turn), outline=WHITE, width=2)
        name = fit_text(_name(names, turn, lang), bold, room - tag_w - 44)
        _text(d, (x + tag_w + 40, y), name, bold, HEADER_INK, "lm")


# ------------------------------------------------------------------------- locations


def _site_state(view: StoneAgeView, loc: str) -> tuple[str, bool]:
    """Capacity text ("4/7", "2/2", "6") and whether no more workers may go there.

    The limits come from the component tables: the view says who stands where but
    not the rules of the 2- and 3-player game.
    """
    comp = components()
    n = len(view.players) or 4
    rules = comp.by_players.get(n, comp.by_players[max(comp.by_players)])
    site = view.sites[loc]
    workers = site.workers
    sharing = len(site.by_seat)
    if loc in GATHERING:
        capacity = comp.sites[loc].capacity
        if capacity is None:
            return str(workers), False
        full = workers >= capacity or sharing >= rules.players_per_site
        return f"{workers}/{capacity}", full
    need = comp.village_people[loc]
    village_taken = sum(1 for v in VILLAGE if view.sites[v].workers)
    blocked = workers > 0 or village_taken >= rules.village_places_open
    return f"{workers}/{need}", blocked


def _location_icon(d: Draw, loc: str, cx: float, cy: float) -> str:
    """Draw what the place gives; returns the text to show beside it."""
    comp = components()
    if loc in GATHERING:
        site = comp.sites[loc]
        good_icon(d, site.yields, cx, cy, 26)
        return f"÷{site.divisor}"
    if loc == "toolmaker":
        tool_tile(d, (int(cx - 13), int(cy - 13), int(cx + 13), int(cy + 13)), 1, False, 18)
        return "+1"
    if loc == "hut":
        person_icon(d, cx, cy, 28)
        return "+1"
    field_icon(d, cx, cy, 28)
    return "+1"


def _locations(d: Draw, view: StoneAgeView, lang: str, top: int, focus: Focus
               ) -> list[Target]:
    """The eight places of the board, each with what it gives, how full it is and the
    workers standing there; the targets of those ``focus`` offers, marked under them."""
    targets: list[Target] = []
    locs = (*GATHERING, *VILLAGE)
    w = (WIDTH - 2 * MARGIN - (len(locs) - 1) * GAP) // len(locs)
    for i, loc in enumerate(locs):
        x0 = MARGIN + i * (w + GAP) + (8 if i >= len(GATHERING) else 0)
        box = (x0, top, x0 + w - (8 if i >= len(GATHERING) else 0), top + LOC_H)
        cap_text, blocked = _site_state(view, loc)
        # Grey means "closed to further workers", which only matters while placing.
        blocked = blocked and view.phase == "placement"
        _panel(d, box, fill=BLOCKED if blocked else PANEL)
        cx = (box[0] + box[2]) / 2
        _label_lines(d, label(f"loc.{loc}", lang), cx, top + 19, box[2] - box[0] - 10, 24,
                     BLOCKED_INK if blocked else INK, 17, 18)
        # Second line: what the place gives (left) and how full it is (right).
        gain = _location_icon(d, loc, box[0] + 24, top + 54)
        d.text((box[0] + 42, top + 54), gain, font=font(21, True), fill=MUTED, anchor="lm")
        d.text((box[2] - 10, top + 54), cap_text, font=font(26, True),
               fill=BLOCKED_INK if blocked else INK, anchor="rm")
        # Worker discs: up to three in a row, two rows of two for four players.
        counts = _seat_counts(view.sites[loc].by_seat)
        per_row = 3 if len(counts) <= 3 else 2
        rows = (len(counts) + per_row - 1) // per_row
        step = 42
        first_y = top + 74 + (86 - rows * step) / 2 + step / 2
        for k, (seat, count) in enumerate(counts):
            row, col = divmod(k, per_row)
            in_row = min(per_row, len(counts) - row * per_row)
            start = cx - (in_row - 1) * step / 2
            worker_disc(d, start + col * step, first_y + row * step, seat, count, 20)
        if loc in focus.places:
            targets.append(mark_place(d, box, focus.places[loc]))
    return targets


# ----------------------------------------------------------------------------- cards


def _card_top(d: Draw, card: CardView, lang: str, cx: float, cy: float,
              width: float) -> None:
    """The card's immediate effect as an icon and a short text, centred at (cx, cy)."""
    effect = card.top
    big = font(30, True)
    small = font(20, True)

    def pair(text: str, draw_icon: Any, icon_w: float = 34, fnt: Font = big) -> None:
        tw = fnt.getlength(text)
        total = tw + 8 + icon_w
        x = cx - total / 2
        d.text((x, cy), text, font=fnt, fill=INK, anchor="lm")
        draw_icon(x + tw + 8 + icon_w / 2, cy)

    if effect == "food":
        pair(f"+{card.amount}", lambda x, y: good_icon(d, "food", x, y, 30))
    elif effect == "resource":
        kind = card.resource or ""
        pair(f"+{card.amount}", lambda x, y: good_icon(d, kind, x, y, 30))
    elif effect == "points":
        pair(f"+{card.amount}",
             lambda x, y: d.text((x, y), label("points_short", lang), font=small, fill=INK,
                                 anchor="mm"),
             icon_w=small.getlength(label("points_short", lang)))
    elif effect == "tool":
        pair("+1", lambda x, y: tool_tile(d, (int(x - 15), int(y - 15), int(x + 15),
                                              int(y + 15)), 1, False, 20))
    elif effect == "agriculture":
        pair("+1", lambda x, y: field_icon(d, x, y, 30))
    elif effect == "extra_card":
        pair("+1", lambda x, y: card_icon(d, x, y, 34))
    elif effect == "one_use_tool":
        # Two lines, like "two resources": the value on its tile, the word below.
        # A card's value is left out when it is 0.
        value = card.value or 0
        d.rounded_rectangle((cx - 18, cy - 30, cx + 18, cy + 6), radius=6, fill=ONCE_BG,
                            outline=INK, width=2)
        d.text((cx, cy - 12), str(value), font=font(24, True), fill=INK, anchor="mm")
        word = label("once", lang)
        d.text((cx, cy + 22), word, font=fitting_font(word, width - 12, 20, True, 13),
               fill=INK, anchor="mm")
    elif effect == "dice_for_all":
        die_icon(d, cx - 40, cy, 30)
        d.text((cx - 18, cy), label("for_all", lang), font=fitting_font(
            label("for_all", lang), width / 2 + 24, 22, True, 14), fill=INK, anchor="lm")
    elif effect == "resource_dice":
        kind = card.resource or ""
        die_icon(d, cx - 38, cy - 4, 24)
        die_icon(d, cx - 30, cy + 6, 24)
        d.text((cx, cy), "→", font=big, fill=INK, anchor="mm")
        good_icon(d, kind, cx + 36, cy, 30)
    elif effect == "two_resources":
        # Two lines: the word would be too small squeezed beside the icon.
        d.text((cx - 4, cy - 12), "2", font=big, fill=INK, anchor="rm")
        any_resource_icon(d, cx + 18, cy - 12, 28)
        d.text((cx, cy + 22), label("any", lang), font=font(20, True), fill=INK,
               anchor="mm")
    else:
        d.text((cx, cy), str(effect), font=small, fill=INK, anchor="mm")


def _card(d: Draw, slot: RowSlotView, lang: str, box: Box) -> None:
    """One place of the card row: the card (or "empty"), its cost and the worker on it."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    card = slot.card
    cost = slot.cost
    if card is None:
        d.rounded_rectangle(box, radius=10, outline=BORDER, width=2)
        d.text((cx, (y0 + y1) / 2), label("empty", lang), font=font(20), fill=MUTED,
               anchor="mm")
    else:
        culture = card.culture
        bottom_bg = CULTURE_BG if culture else FIGURE_BG
        _panel(d, box, fill=PANEL)
        split = y1 - 52
        d.rounded_rectangle((x0 + 2, split, x1 - 2, y1 - 2), radius=8, fill=bottom_bg)
        d.line((x0 + 2, split, x1 - 2, split), fill=BORDER, width=2)
        _card_top(d, card, lang, cx, y0 + 86, x1 - x0)
        if culture:
            text = label(f"culture.{culture}", lang)
        else:
            text = label(f"mult.{card.multiplier}", lang)
            # The number of figures sits in a dark pill on the dividing line, so the
            # name keeps the band's full width.
            pill = f"×{card.figures}"
            pf = font(20, True)
            pw = pf.getlength(pill) + 14
            d.rounded_rectangle((x1 - 10 - pw, split - 13, x1 - 10, split + 13), radius=12,
                                fill=INK)
            d.text((x1 - 10 - pw / 2, split), pill, font=pf, fill=WHITE, anchor="mm")
        tf = fitting_font(text, x1 - x0 - 10, 20, True, 14)
        d.text((cx, (split + y1) / 2 + 4), text, font=tf, fill=INK, anchor="mm")
    # Cost badge, top left: the number of resources, any kinds.
    any_resource_icon(d, x0 + 22, y0 + 24, 22)
    d.text((x0 + 38, y0 + 24), str(cost), font=font(26, True), fill=INK, anchor="lm")
    if slot.taken_by is not None:
        worker_disc(d, x1 - 24, y0 + 24, slot.taken_by, 1)


# ------------------------------------------------------------------------- buildings


def _pile(d: Draw, pile: PileView, lang: str, box: Box) -> None:
    """One building pile: its face-up tile (or "empty"), its size and the worker on it."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    size = pile.size
    top = pile.top
    if top is None or size <= 0:
        d.rounded_rectangle(box, radius=10, outline=BORDER, width=2)
        d.text((cx, (y0 + y1) / 2), label("empty", lang), font=font(20), fill=MUTED,
               anchor="mm")
        return
    # A shadow tile behind hints that this is a stack.
    if size > 1:
        d.rounded_rectangle((x0 + 5, y0 + 5, x1, y1), radius=10, fill=BORDER)
    face = (x0, y0, x1 - 5, y1 - 5)
    _panel(d, face, fill=(236, 226, 206))
    fcx = (face[0] + face[2]) / 2
    if isinstance(top, FixedBuildingView):
        step = 34
        start = fcx - (len(top.cost) - 1) * step / 2
        for k, kind in enumerate(top.cost):
            good_icon(d, kind, start + k * step, y0 + 66, 28)
        d.text((fcx, y0 + 118), str(top.points), font=font(36, True), fill=INK,
               anchor="mm")
        d.text((fcx, y0 + 148), label("points_short", lang), font=font(18), fill=MUTED,
               anchor="mm")
    else:
        if isinstance(top, KindsBuildingView):
            big = str(top.count)
            sub = label(f"kinds_{top.kinds}", lang)
        else:
            big = f"{top.count_min}–{top.count_max}"
            sub = label("any", lang)
        any_resource_icon(d, fcx, y0 + 62, 30)
        d.text((fcx, y0 + 106), big, font=font(34, True), fill=INK, anchor="mm")
        _label_lines(d, sub, fcx, y0 + 142, face[2] - face[0] - 10, 20, INK, 15, 17)
    # Pile size, top left, as "×7": how many tiles are left in it.
    d.text((face[0] + 10, y0 + 22), f"×{size}", font=font(22, True), fill=MUTED,
           anchor="lm")
    if pile.taken_by is not None:
        worker_disc(d, face[2] - 22, y0 + 22, pile.taken_by, 1)


def _market(d: Draw, view: StoneAgeView, lang: str, top: int, focus: Focus) -> list[Target]:
    """The card row (cost 4..1 from the left) and the building piles, with titles; the
    targets of the card slots and piles ``focus`` offers, marked under them."""
    targets: list[Target] = []
    row = view.row
    piles = view.piles
    card_w = 156
    cards_w = 4 * card_w + 3 * GAP
    section = font(22, True)
    d.text((MARGIN + 4, top + SECTION_LABEL_H / 2), label("cards", lang), font=section,
           fill=MUTED, anchor="lm")
    pile_x0 = MARGIN + cards_w + 26
    d.text((pile_x0 + 4, top + SECTION_LABEL_H / 2), label("buildings", lang), font=section,
           fill=MUTED, anchor="lm")
    y0 = top + SECTION_LABEL_H
    # Row index 0 is slot 1, the rightmost and cheapest: draw from the right.
    for i, slot in enumerate(row):
        x1 = MARGIN + cards_w - i * (card_w + GAP)
        box = (x1 - card_w, y0, x1, y0 + CARD_H)
        _card(d, slot, lang, box)
        if slot.loc in focus.places:
            targets.append(mark_place(d, box, focus.places[slot.loc]))
    room = WIDTH - MARGIN - pile_x0
    count = max(1, len(piles))
    pile_w = min(132, (room - (count - 1) * GAP) // count)
    for i, pile in enumerate(piles):
        x0 = pile_x0 + i * (pile_w + GAP)
        box = (x0, y0, x0 + pile_w, y0 + CARD_H)
        _pile(d, pile, lang, box)
        if pile.loc in focus.places:
            targets.append(mark_place(d, box, focus.places[pile.loc]))
    return targets


# --------------------------------------------------------------------------- players


def final_score(player: PlayerView) -> int | None:
    """The end-of-game total, when all the player's cards are visible (None otherwise:
    a card drawn blind by someone else hides its bottom).

    Mirrors ``engine.stone_age.scoring.breakdown`` from the view's public data; a
    test compares the two on finished games so that they cannot drift apart.
    """
    if player.hidden_cards:
        return None
    cards = player.cards
    basis = {
        "farmer": player.agriculture,
        "toolmaker": player.tool_total,
        "hut_builder": len(player.buildings),
        "shaman": player.people,
    }
    total = player.score
    total += culture_points([c.culture for c in cards if c.culture])
    # A card without a culture symbol scores its figures times its multiplier's basis.
    total += sum((c.figures or 0) * basis.get(c.multiplier or "", 0)
                 for c in cards if not c.culture)
    total += sum(player.goods[r] for r in RESOURCE_KINDS)
    total += 2 * player.boons
    return total


def _icon_number(d: Draw, x: float, cy: float, value: int | str, draw_icon: Any,
                 icon_w: float = 30, size: int = 28, room: float = 200) -> float:
    """An icon followed by a number, shrunk to fit ``room``; returns the x after it."""
    draw_icon(x + icon_w / 2, cy)
    x += icon_w + 6
    text = str(value)
    fnt = fitting_font(text, room - icon_w - 6, size, True, 16)
    return x + _text(d, (x, cy), text, fnt, INK, "lm")


def _player_strip(d: Draw, view: StoneAgeView, player: PlayerView,
                  names: Sequence[str], lang: str, box: Box, winner: bool) -> None:
    """One player's strip: name, score and markers; goods, people, agriculture,
    buildings and cards; tools, one-use tools and "two resources" cards."""
    x0, y0, _x1, y1 = box
    seat = player.seat
    color = player_color(seat)
    phase = view.phase
    active = phase in ("placement", "actions") and view.turn == seat
    _panel(d, box, fill=tint(color, 0.82) if active else PANEL,
           outline=color if active else BORDER, width=5 if active else 2)
    d.rounded_rectangle((x0, y0, x0 + 14, y1), radius=6, fill=color)
    line1, line2 = y0 + 32, y0 + 84

    # Column 1: name, score, markers.
    nx = x0 + 28
    name_font = font(28, True)
    tags = []
    if view.you == seat:
        tags.append(label("you", lang))
    tag_text = f" ({', '.join(tags)})" if tags else ""
    name = fit_text(_name(names, seat, lang), name_font, 300 - name_font.getlength(tag_text))
    w = _text(d, (nx, line1), name, name_font, INK, "lm")
    if tag_text:
        _text(d, (nx + w, line1), tag_text, font(22), MUTED, "lm")
    x: float = nx
    if active:
        d.polygon([(x, line2 - 12), (x + 16, line2), (x, line2 + 12)], fill=color)
        x += 24
    x += _text(d, (x, line2), str(player.score), font(34, True), INK, "lm") + 6
    x += _text(d, (x, line2 + 3), label("points_short", lang), font(20), MUTED, "lm") + 14
    final = final_score(player) if phase == "over" else None
    if final is not None:
        x += _text(d, (x, line2), label("final", lang, final), font(24, True), INK, "lm")
        x += 12
    if winner:
        x += _text(d, (x, line2), "★", font(30, True), ACCENT, "lm") + 4
    if view.first == seat and phase != "over":
        # The first-player marker: an orange token with "1st".
        d.rounded_rectangle((x, line2 - 15, x + 52, line2 + 15), radius=14, fill=ACCENT)
        d.text((x + 26, line2), label("first", lang), font=font(18, True), fill=WHITE,
               anchor="mm")

    # Column 2: goods on the first line; people, agriculture, buildings, cards below,
    # on the same grid so that the numbers line up from player to player.
    gx, cell = x0 + 336, 112
    for k, kind in enumerate(("food", *RESOURCE_KINDS)):
        _icon_number(d, gx + k * cell, line1, player.goods[kind],
                     lambda cx, cy, kind=kind: good_icon(d, kind, cx, cy, 34), 34, 32,
                     cell - 18)
    people = player.people
    x = _icon_number(d, gx, line2, people, lambda cx, cy: person_icon(d, cx, cy, 34), 34, 32,
                     cell - 18)
    if phase == "placement":
        # People not yet placed this round: what the player can still do.
        home = people - sum(player.placed.values())
        _text(d, (x + 8, line2 + 2), label("home", lang, home), font(20), MUTED, "lm")
    _icon_number(d, gx + 2 * cell, line2, player.agriculture,
                 lambda cx, cy: field_icon(d, cx, cy, 34), 34, 32, cell - 18)
    _icon_number(d, gx + 3 * cell, line2, len(player.buildings),
                 lambda cx, cy: hut_icon(d, cx, cy, 32), 34, 32, cell - 18)
    _icon_number(d, gx + 4 * cell, line2, player.card_count,
                 lambda cx, cy: card_icon(d, cx, cy, 34), 34, 32, cell - 18)

    # Column 3: the three tools, then one-use tools and "two resources" cards.
    tx = gx + 5 * cell + 12
    for k, (value, is_used) in enumerate(zip(player.tools, player.tools_used, strict=True)):
        bx = tx + k * 58
        tool_tile(d, (bx, int(line1 - 25), bx + 50, int(line1 + 25)), value, is_used, 28)
    _text(d, (tx + 180, line1), f"= {player.tool_total}", font(26, True), MUTED, "lm")
    x = float(tx)
    for value in player.one_use_tools:
        d.rounded_rectangle((x, line2 - 21, x + 42, line2 + 21), radius=6, fill=ONCE_BG,
                            outline=INK, width=2)
        d.text((x + 21, line2), str(value), font=font(26, True), fill=INK, anchor="mm")
        x += 50
    if player.one_use_tools:
        x += _text(d, (x, line2), label("once_tools", lang), font(20), MUTED, "lm") + 16
    boons = player.boons
    if boons:
        any_resource_icon(d, x + 15, line2, 30)
        _text(d, (x + 36, line2), f"×{boons}", font(28, True), INK, "lm")


def _players(d: Draw, view: StoneAgeView, names: Sequence[str], lang: str,
             top: int) -> int:
    """Every player's strip, the winners starred once the game is over; returns the y
    below the last strip."""
    players = view.players
    winners: set[int] = set()
    if view.phase == "over" and players:
        totals = {p.seat: final_score(p) for p in players}
        if all(t is not None for t in totals.values()):
            best = max(t for t in totals.values() if t is not None)
            # Ties are broken by development in the engine; the picture marks all
            # seats on the best total and leaves the verdict to the result message.
            winners = {s for s, t in totals.items() if t == best}
    y = top
    for p in players:
        _player_strip(d, view, p, names, lang,
                      (MARGIN, y, WIDTH - MARGIN, y + STRIP_H), p.seat in winners)
        y += STRIP_H + GAP
    return y


# ---------------------------------------------------------------------------- legend


def _legend(d: Draw, lang: str, top: int) -> None:
    """Icons with their names, so that a newcomer can read the strips."""
    x = MARGIN + 6.0
    cy = top + LEGEND_H / 2
    items: list[tuple[str, Any]] = [
        (label(f"res.{k}", lang), lambda cx, cy, k=k: good_icon(d, k, cx, cy, 22))
        for k in ("food", *RESOURCE_KINDS)
    ]
    items += [
        (label("people", lang), lambda cx, cy: person_icon(d, cx, cy, 22)),
        (label("agriculture", lang), lambda cx, cy: field_icon(d, cx, cy, 22)),
        (label("bld_count", lang), lambda cx, cy: hut_icon(d, cx, cy, 20)),
        (label("card_count", lang), lambda cx, cy: card_icon(d, cx, cy, 22)),
        (label("tools", lang), lambda cx, cy: tool_tile(
            d, (int(cx - 11), int(cy - 11), int(cx + 11), int(cy + 11)), 2, False, 14)),
    ]
    words = "".join(text for text, _ in items)
    # As large as fits in one line: the legend is read at preview size too.
    small = fitting_font(words, WIDTH - 2 * MARGIN - 12 - len(items) * 40, 21, False, 14)
    for text, draw_icon in items:
        draw_icon(x + 11, cy)
        x += 26 + _text(d, (x + 26, cy), text, small, MUTED, "lm") + 14


# ------------------------------------------------------------------------------ main


def canvas_height(players: int, band: int = 0) -> int:
    """The picture's height for ``players`` seats, with a ``band`` under the places and
    under the cards and piles (for the marks of a prompt that offers places)."""
    board = HEADER_H + GAP + LOC_H + band + GAP + SECTION_LABEL_H + CARD_H + band + GAP * 2
    return board + players * (STRIP_H + GAP) + LEGEND_H


def render_stone_age(
    view: StoneAgeView, names: list[str], lang: str = "ru", focus: Prompt | None = None,
) -> Drawn:
    """The Stone Age board and every player's board, as seen in ``view``, as a PNG.

    ``view`` is ``GAME.view(state, seat_or_None)``, or such a view read back from its
    JSON with ``StoneAgeView.model_validate_json``; ``names[seat]`` is each seat's
    display name (any text: missing, empty or undrawable names become "Player N");
    ``lang`` is "ru" or "en"; ``focus`` is the open prompt the picture is shown with:
    the places it offers are numbered like its buttons, each the tap target of its
    options (None, or a prompt offering no place, changes nothing).
    """
    marks = read_focus(focus, view)
    band = 0 if marks.empty else MARK_BAND
    players = len(view.players)
    height = canvas_height(players, band)
    im = Image.new("RGB", (WIDTH, height), BG)
    d = ImageDraw.Draw(im)
    _header(d, view, names, lang)
    y = HEADER_H + GAP
    targets = _locations(d, view, lang, y, marks)
    y += LOC_H + band + GAP
    targets += _market(d, view, lang, y, marks)
    y += SECTION_LABEL_H + CARD_H + band + GAP * 2
    y = _players(d, view, names, lang, y)
    _legend(d, lang, y - GAP)
    return finished(im, sorted(targets, key=lambda t: t.numbers))
