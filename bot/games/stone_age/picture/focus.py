"""What the buttons of the open prompt point at on the Stone Age picture.

The bot draws the picture for the prompt it is shown with (``focus``). Each option
whose key names a place of the board gets that place numbered like its button — the
option's 1-based position in the prompt (buttons are laid out in option order,
``/move N`` takes option N):

- placing people (``sa.prompt.place``): ``place:<site>:<people>`` for a gathering site,
  one option per number of people, all numbered on the one site; ``at:<place>`` for a
  village place, a civilization card slot (``card1``..) or a building pile (``bld1``..);
- choosing the place to resolve next (``sa.prompt.act``): ``do:<place>``.

Anything else (no prompt, other keys, places the view does not have) is not marked,
and the picture is drawn as without a prompt.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.core.prompts import Prompt
from engine.stone_age.view_model import StoneAgeView

# The key heads that name a place, and where in the key the place is: ``place:<loc>:<n>``,
# ``at:<loc>``, ``do:<loc>``.
PLACE_HEADS = frozenset({"place", "at", "do"})


@dataclass(frozen=True, slots=True)
class Focus:
    """The places a prompt offers, each with the numbers of its buttons (empty when
    the prompt offers no place)."""

    places: Mapping[str, tuple[int, ...]] = field(
        default_factory=lambda: MappingProxyType({}))

    @property
    def empty(self) -> bool:
        """Whether the prompt offers no place the picture shows."""
        return not self.places


NO_FOCUS = Focus()


def board_places(view: StoneAgeView) -> frozenset[str]:
    """Every place of ``view``'s board: the gathering and village places, the card
    slots and the building piles."""
    return frozenset({*view.sites, *(slot.loc for slot in view.row),
                      *(pile.loc for pile in view.piles)})


def place_of(key: str) -> str | None:
    """The place an option key names (``place:forest:3`` → ``forest``), or None."""
    head, _, rest = key.partition(":")
    if head not in PLACE_HEADS or not rest:
        return None
    return rest.partition(":")[0] if head == "place" else rest


def read_focus(focus: Prompt | None, view: StoneAgeView) -> Focus:
    """The places ``focus`` offers on the picture of ``view`` (``NO_FOCUS`` if none)."""
    if not isinstance(focus, Prompt):
        return NO_FOCUS
    known = board_places(view)
    places: dict[str, tuple[int, ...]] = {}
    for number, option in enumerate(focus.options, start=1):
        loc = place_of(option.key) if isinstance(option.key, str) and not option.back \
            else None
        if loc in known:
            places[loc] = (*places.get(loc, ()), number)
    return Focus(MappingProxyType(places)) if places else NO_FOCUS
