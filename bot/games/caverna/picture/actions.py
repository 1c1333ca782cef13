"""The action board: every action space of this player count and the round cards.

Spaces stand in the table's order (the printed boards, then the round cards as they
were turned, each with its round), then one grey slot per round card still face down.
A space shows its name, the goods lying on it with their counts, an Imitation space's
food cost, and the dwarf standing there: a disc in its seat's colour with the weapon's
strength, and the whole space framed in that colour. Spaces the open prompt offers
carry the button's number in their corner.
"""

from __future__ import annotations

from bot.games.caverna.picture.canvas import Canvas, grid_boxes
from bot.games.caverna.picture.focus import Focus
from bot.games.caverna.picture.icons import KNOWN, draw_amounts
from bot.games.caverna.picture.names import label, space_name
from bot.games.caverna.picture.style import (
    BORDER,
    GAP,
    INK,
    MARK,
    MARK_BG,
    MIN_TEXT,
    MUTED,
    PANEL,
    RGB,
    SPACE_COLUMNS,
    SPACE_H,
    TITLE_H,
    Box,
    ink_on,
    player_color,
)
from bot.render.targets import Target, numbers_text, target
from engine.caverna.view_model import ActionSpaceView, CavernaView

STAGE_TINTS: dict[int, RGB] = {
    1: (236, 226, 196), 2: (230, 216, 180), 3: (222, 204, 166), 4: (214, 192, 152),
}
FACE_DOWN: RGB = (200, 192, 180)
CELL_GAP = 8
NAME_LINES = 3  # a space's name above its bottom line (SPACE_H leaves room for three)
NAME_PAD = 6  # between a space's edge and its name


def name_width(width: int) -> float:
    """How wide a space's name may be on an action board ``width`` pixels wide."""
    x0, _, x1, _ = grid_boxes(1, SPACE_COLUMNS, 0, 0, width, SPACE_H, CELL_GAP)[0]
    return x1 - x0 - 2 * NAME_PAD


def _slots(view: CavernaView) -> int:
    return len(view.spaces) + len(view.cards.upcoming)


def actions_height(view: CavernaView, width: int) -> int:
    """The height of the action board section, its title included."""
    rows = -(-_slots(view) // SPACE_COLUMNS)
    return TITLE_H + rows * (SPACE_H + CELL_GAP)


def _space(c: Canvas, view: CavernaView, space: ActionSpaceView, box: Box, lang: str,
           focus: Focus) -> Target | None:
    """Draw one action space in ``box``; its target if ``focus`` numbers it."""
    x0, y0, x1, y1 = box
    space_id = space.id
    card_round = space.card_round
    occupant = space.occupant
    seat = occupant.seat if occupant is not None else -1
    fill = (STAGE_TINTS.get(space.stage or 0, PANEL) if card_round is not None
            else PANEL)
    c.draw.rounded_rectangle(box, radius=8, fill=fill,
                             outline=player_color(seat) if seat >= 0 else BORDER,
                             width=5 if seat >= 0 else 1)
    c.drawn.spaces.add(space_id)
    c.wrapped((x0 + NAME_PAD, y0 + 6, x1 - NAME_PAD, y1), space_name(space_id, lang), MIN_TEXT, INK,
              bold=True, max_lines=NAME_LINES)
    cy = y1 - 20
    # The bottom line: goods on the left; the round a card was turned in, and the dwarf
    # standing there (or the button's number) on the right.
    numbers = focus.spaces.get(space_id, ())
    mark_w = max(c.font(22, True).getlength(numbers_text(numbers)) + 14, 34) if numbers else 0
    right = x1 - (44 if seat >= 0 else 4) - (mark_w + 4 if numbers else 0)
    if card_round is not None:
        badge = label("round_short", lang, card_round)
        right -= 6 + c.text((right, cy), badge, MIN_TEXT, MUTED, bold=True, anchor="rm")
    goods = [(k, n) for k, n in space.goods.items() if n > 0 and k in KNOWN]
    if space.imitation:
        goods = [("food", -space.imitation), *goods]
    draw_amounts(c, x0 + 6, cy, goods, 22, 20, right=right)
    if occupant is not None:
        # Players stand in seat order and dwarfs in the order they joined (their index).
        weapon = view.players[seat].dwarfs[occupant.dwarf].weapon
        cx, r = x1 - 22, 17
        c.draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=player_color(seat), outline=INK,
                       width=2)
        if weapon:
            c.text((cx, cy), str(weapon), 20, ink_on(player_color(seat)), bold=True,
                   anchor="mm")
    if numbers:
        text, w = numbers_text(numbers), mark_w
        c.draw.rounded_rectangle(box, radius=8, outline=MARK, width=3)
        c.draw.rounded_rectangle((x1 - w - 4, cy - 15, x1 - 4, cy + 15), radius=15,
                                 fill=MARK_BG, outline=MARK, width=3)
        c.text((x1 - 4 - w / 2, cy), text, 22, MARK, bold=True, anchor="mm")
        for n in numbers:
            c.drawn.marks[f"space:{space_id}:{n}"] = n
        return target(numbers, box)
    return None


def draw_actions(c: Canvas, view: CavernaView, lang: str, left: int, top: int,
                 width: int, focus: Focus) -> tuple[int, list[Target]]:
    """Draw the action board from ``(left, top)``; its height, and the targets of the
    spaces ``focus`` numbers (each the whole space)."""
    targets: list[Target] = []
    c.section(left, top, label("actions", lang), "actions")
    items: list[ActionSpaceView | None] = [*view.spaces]
    upcoming = view.cards.upcoming
    items += [None] * len(upcoming)
    boxes = grid_boxes(len(items), SPACE_COLUMNS, left, top, width, SPACE_H, CELL_GAP)
    for i, (space, box) in enumerate(zip(items, boxes, strict=True)):
        if space is not None:
            marked = _space(c, view, space, box, lang, focus)
            if marked is not None:
                targets.append(marked)
        else:
            y0 = box[1]
            card = upcoming[i - (len(items) - len(upcoming))]
            c.draw.rounded_rectangle(box, radius=8, fill=FACE_DOWN, outline=BORDER)
            c.text(((box[0] + box[2]) / 2, y0 + 28),
                   label("round_card", lang, card.round), 20, INK, bold=True,
                   anchor="mm")
            c.text(((box[0] + box[2]) / 2, y0 + 60), label("face_down", lang), MIN_TEXT, MUTED,
                   anchor="mm")
    return actions_height(view, width) + GAP - CELL_GAP, targets
