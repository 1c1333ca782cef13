"""What the buttons of the open prompt point at on the Caverna picture.

The bot draws the picture for the prompt it is shown with (``focus``). Each option whose
key names a place gets a mark numbered like its button — the option's 1-based position
in the prompt (buttons are laid out in option order, ``/move N`` takes option N):

- home-board squares (``at:x,y``, ``lay:<tile>:x,y``, ``small:x,y``, ``stable:x,y``) are
  framed on the prompt seat's board with the number inside;
- two-square choices (``lay:<tile>:x,y+x,y`` for a twin tile, ``large:x,y+x,y``) are
  framed together and numbered on the edge between the two squares;
- action spaces (``go:<space>``, ``copy:<space>``, the solo ``keep:<space>``) are
  numbered on the action board;
- furnishing tiles (``tile:<id>``) are numbered in the supply.

Anything else (no prompt, other keys, places the view does not have, squares off any
home board) is not marked.
Whose home board is drawn large follows the prompt too (``focus_player``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.caverna.describe import parse_square
from engine.caverna.board import Pos, is_overhang, on_board
from engine.caverna.view_model import CavernaView, PlayerView
from engine.core.prompts import Prompt

SQUARE_KEYS = frozenset({"at", "small", "stable", "lay", "large"})
SPACE_KEYS = frozenset({"go", "copy", "keep"})


@dataclass(frozen=True, slots=True)
class Focus:
    """The marks a prompt asks for (all empty when there is nothing to mark)."""

    seat: int | None = None
    squares: dict[Pos, tuple[int, ...]] = field(default_factory=dict)
    pairs: dict[tuple[Pos, Pos], tuple[int, ...]] = field(default_factory=dict)
    spaces: dict[str, tuple[int, ...]] = field(default_factory=dict)
    tiles: dict[str, tuple[int, ...]] = field(default_factory=dict)

    @property
    def on_board(self) -> bool:
        """Whether the prompt offers squares of a home board."""
        return bool(self.squares or self.pairs)

    @property
    def empty(self) -> bool:
        """Whether the prompt offers nothing the picture shows."""
        return not (self.squares or self.pairs or self.spaces or self.tiles)

    @property
    def offered(self) -> tuple[Pos, ...]:
        """Every home-board square the prompt offers, alone or in a pair (an overhang
        square among them widens the board drawn, so that its mark is on it)."""
        return (*self.squares, *(pos for pair in self.pairs for pos in pair))


NO_FOCUS = Focus()


def _add(table: dict[Any, tuple[int, ...]], where: Any, number: int) -> None:
    table[where] = (*table.get(where, ()), number)


def _squares(text: str) -> list[Pos] | None:
    """The one or two squares ``x,y`` or ``x,y+x,y`` names, if each is a square of a
    home board: a printed one, or one of the ring a twin tile may overhang."""
    found = [parse_square(part) for part in text.split("+")]
    squares = [p for p in found if p is not None and (on_board(p) or is_overhang(p))]
    if not 1 <= len(found) <= 2 or len(squares) != len(found):
        return None
    return squares


def read_focus(focus: Prompt | None, view: CavernaView) -> Focus:
    """The marks ``focus`` asks for on the picture of ``view`` (``NO_FOCUS`` if none)."""
    if not isinstance(focus, Prompt):
        return NO_FOCUS
    space_ids = {s.id for s in view.spaces}
    tile_ids = {t.id for t in view.furnishings.tiles}
    squares: dict[Pos, tuple[int, ...]] = {}
    pairs: dict[tuple[Pos, Pos], tuple[int, ...]] = {}
    spaces: dict[str, tuple[int, ...]] = {}
    tiles: dict[str, tuple[int, ...]] = {}
    for number, option in enumerate(focus.options, start=1):
        if option.back or not isinstance(option.key, str):
            continue
        head, _, rest = option.key.partition(":")
        if head == "lay":
            rest = rest.partition(":")[2]
        if head in SQUARE_KEYS:
            found = _squares(rest)
            if found is None:
                continue
            if len(found) == 1:
                _add(squares, found[0], number)
            else:
                a, b = sorted(found)
                _add(pairs, (a, b), number)
        elif head in SPACE_KEYS and rest in space_ids:
            _add(spaces, rest, number)
        elif head == "tile" and rest in tile_ids:
            _add(tiles, rest, number)
    if not (squares or pairs or spaces or tiles):
        return NO_FOCUS
    return Focus(seat=focus.seat, squares=squares, pairs=pairs, spaces=spaces, tiles=tiles)


def focus_player(view: CavernaView, prompt_seat: int | None) -> PlayerView:
    """Whose home board is drawn large: the prompt's seat, else the viewer, else the
    seat acting or to place, else the first seat. ``view`` must have players."""
    for candidate in (prompt_seat, view.seat, view.acting, view.turn):
        found = view.player(candidate) if candidate is not None else None
        if found is not None:
            return found
    return view.players[0]
