"""The harvest track: one box per round played, what its harvest is.

A box shows its round number and the harvest: none, a normal harvest, 1 food per dwarf
only, or a harvest where each player skips a phase (the third red marker). A round with
a harvest marker shows the marker's colour once turned, and a grey "?" while it lies
face down; the current round is framed. The counts of face-down markers left (and how
many of them are red) close the line.
"""

from __future__ import annotations

from bot.games.caverna.picture.canvas import Canvas
from bot.games.caverna.picture.names import label
from bot.games.caverna.picture.style import (
    BORDER,
    GAP,
    HARVEST_COLORS,
    INK,
    MARK,
    MARKER_COLORS,
    MIN_TEXT,
    MUTED,
    RGB,
    TITLE_H,
    TRACK_H,
)
from engine.caverna.view_model import CavernaView

BOX_GAP = 2
MARKER_FACE_DOWN: RGB = (150, 146, 140)  # a marker not yet turned


def harvest_height() -> int:
    """The height of the harvest track section."""
    return TITLE_H + TRACK_H + GAP


def draw_harvest(c: Canvas, view: CavernaView, lang: str, left: int, top: int,
                 width: int) -> int:
    """Draw the harvest track from ``(left, top)``; its height."""
    track = view.harvest
    schedule = track.schedule
    now = view.round
    c.section(left, top, label("harvest_track", lang), "harvest")
    face_down = track.face_down
    if face_down:
        reds = track.reds_left
        text = label("markers_left", lang, face_down)
        x = left + width - 14 * 2 - 30
        c.draw.ellipse((x - 8, top + 9, x + 8, top + 25), fill=MARKER_COLORS["red"])
        c.text((x + 12, top + TITLE_H / 2 - 2), str(reds), 20, INK, bold=True, anchor="lm")
        c.text((x - 16, top + TITLE_H / 2 - 2), text, 20, MUTED, anchor="rm")
    count = max(1, len(schedule))
    w = (width - (count - 1) * BOX_GAP) / count
    y0 = top + TITLE_H
    for i, entry in enumerate(schedule):
        x0 = left + i * (w + BOX_GAP)
        box = (round(x0), y0, round(x0 + w), y0 + TRACK_H)
        kind = entry.kind
        c.draw.rounded_rectangle(box, radius=6, fill=HARVEST_COLORS.get(kind, (210, 210, 210)),
                                 outline=MARK if entry.round == now else BORDER,
                                 width=4 if entry.round == now else 1)
        cx = (box[0] + box[2]) / 2
        shift = -7 if entry.has_marker else 0  # room for the marker in the corner
        c.text((cx + shift, y0 + 16), str(entry.round), 22, INK, bold=True, anchor="mm")
        if entry.has_marker:
            r = 8
            color = (MARKER_COLORS.get(entry.marker, MARKER_FACE_DOWN) if entry.marker is not None
                     else MARKER_FACE_DOWN)
            c.draw.ellipse((box[2] - 2 * r - 4, y0 + 4, box[2] - 4, y0 + 4 + 2 * r), fill=color,
                           outline=INK)
        c.wrapped((box[0] + 1, y0 + 34, box[2] - 1, box[3]), label(f"harvest.{kind}", lang),
                  MIN_TEXT, INK if kind != "face_down" else MUTED, max_lines=2)
    return harvest_height()
