"""What would give a table's secrets away in the bytes a page receives.

The engine's ``secrets`` say what an onlooker must not learn; ``give_aways`` (the
conformance suite's) splits each into orders and single values. A page gets them in
other clothes than a view: JSON however it is spaced, text in HTML, a card by its words
rather than its id. So a secret is looked for in every shape it could take:

- an order, as any two of its items side by side in JSON (compact or spaced): a page
  that lets slip only the next two cards of a deck has let slip part of its order;
- a single value (another seat's blind card, a seed), as itself between characters that
  are not letters, digits or ``_``: ``c28`` is found in ``"c28"`` and ``c28,`` but not in
  ``c281``;
- at one step of the story, every card or tile then lying hidden, by its id and by the
  words the game's texts name it with (``Family life``, ``🍖7 | pottery``). The page
  never names a face-down item: naming one is how its place in the order would be
  told in words (the next round card, the top of the deck).
"""

from __future__ import annotations

import html
import json
import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from pydantic import BaseModel

from bot.games.caverna.texts import CavernaTexts
from bot.games.stone_age.texts import StoneAgeTexts
from bot.i18n import Lang
from bot.storage import LogEntry, TableRecord
from bot.table.turns import new_game, replay_steps
from engine.caverna.components import components as caverna_parts
from engine.core.conformance import give_aways, json_values
from engine.core.protocol import Game
from engine.hunters_gatherers.tiles import all_tiles
from engine.registry import get_game
from engine.stone_age.components import components as stone_age_parts
from engine.stone_age.view import building_info, card_info

# Neither side of a found secret may touch a letter, a digit or an underscore.
_BEFORE, _AFTER = rb"(?<!\w)", rb"(?!\w)"


@dataclass(frozen=True)
class Mark:
    """One way a secret shows: what kind of give-away, the secret as a reader would
    recognise it, and the pattern that finds it in bytes."""

    kind: str  # "order", "value", "id" or "words"
    shown: str
    pattern: re.Pattern[bytes]

    def __repr__(self) -> str:
        return f"{self.kind}:{self.shown}"


def bounded(text: str) -> re.Pattern[bytes]:
    """``text`` found only where no letter, digit or ``_`` touches it."""
    return re.compile(_BEFORE + re.escape(text.encode()) + _AFTER)


def _json_item(item: Any) -> bytes:
    """The pattern of ``item`` as a JSON value, with or without spaces inside."""
    compact = json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode()
    return re.escape(compact).replace(b",", rb"\s*,\s*").replace(b":", rb"\s*:\s*")


def order_marks(order: list[Any]) -> list[Mark]:
    """Each two neighbours of a hidden order, as they would stand in a JSON list."""
    return [Mark("order", f"{a} {b}", re.compile(
        _BEFORE + _json_item(a) + rb"\s*,\s*" + _json_item(b) + _AFTER))
        for a, b in pairwise(order)]


def secret_marks(secrets: Iterable[Any]) -> list[Mark]:
    """The give-aways of ``secrets`` (one state's), to be looked for in every byte."""
    marks: list[Mark] = []
    for secret in secrets:
        for part in give_aways(secret):
            marks += (order_marks(part) if isinstance(part, list)
                      else [Mark("value", str(part), bounded(str(part)))])
    return marks


def hidden_items(secrets: Iterable[Any]) -> list[Any]:
    """Everything ``secrets`` hides one by one: each item of an order, each value."""
    parts = [part for secret in secrets for part in give_aways(secret)]
    return [item for part in parts for item in (part if isinstance(part, list) else [part])]


def item_marks(secrets: Iterable[Any], named: dict[str, str]) -> list[Mark]:
    """The cards and tiles ``secrets`` hide at one step, by id and by words (``named``:
    see ``told_apart``; colours and numbers are no ids and are left out)."""
    marks = []
    for item in hidden_items(secrets):
        if isinstance(item, str) and item in named:
            marks.append(Mark("id", item, bounded(item)))
            if named[item]:
                marks.append(Mark("words", named[item], bounded(named[item])))
    return marks


def told_apart(words: dict[str, str]) -> dict[str, str]:
    """Every id of ``words`` with its words where they tell it from every other id
    (no other's words are the same or hold them: ``Blacksmithing`` is kept out, as a
    page may well speak of the ``Blacksmithing parlor``), else with ``""``."""
    kept = {}
    for item, text in words.items():
        found = bounded(text) if text else None
        alone = found is not None and not any(
            other != item and found.search(other_text.encode())
            for other, other_text in words.items())
        kept[item] = text if alone else ""
    return kept


def _stone_age_words(lang: Lang) -> dict[str, str]:
    texts, parts = StoneAgeTexts(), stone_age_parts()
    return {**{c: texts.card(lang, card_info(c)) for c in parts.cards},
            **{b: texts.building(lang, building_info(b)) for b in parts.buildings}}


def _caverna_words(lang: Lang) -> dict[str, str]:
    texts, parts = CavernaTexts(), caverna_parts()
    # Spaces and furnishings are never hidden; they are here so that a round card's
    # name is kept only when no name a page may show holds it.
    return {**{s: texts.space_name(lang, s) for s in (*parts.spaces, *parts.round_cards)},
            **{f: texts.tile_name(lang, f) for f in parts.furnishings}}


def _hunters_gatherers_words(lang: Lang) -> dict[str, str]:
    del lang  # a tile is drawn, or described by its sides: no words are its alone
    return dict.fromkeys(all_tiles(), "")


# Each game's ids of what may lie hidden (and what a page shows beside them), with the
# words its texts name them by.
WORDS: dict[str, Callable[[Lang], dict[str, str]]] = {
    "stone_age": _stone_age_words,
    "caverna": _caverna_words,
    "hunters_gatherers": _hunters_gatherers_words,
}


def page_words(data: Any) -> bytes:
    """The words a reader sees in a page's JSON: its strings, HTML entities read."""
    return "\n".join(html.unescape(v) for v in json_values(data)
                     if isinstance(v, str)).encode()


@dataclass
class Story:
    """The secrets of a table at every step of its story (step 0: as dealt), with the
    table version each step produced."""

    versions: list[int]
    secrets: list[list[Any]]  # ``secrets(state, None)`` of each step
    anywhere: list[Mark]  # every step's orders and values
    at_step: list[list[Mark]]  # the ids and words hidden at each step

    @classmethod
    def of(cls, game: Game[Any], lang: Lang, steps: list[tuple[int, BaseModel]]) -> Story:
        """The story of ``steps``: (version, state) from the deal on."""
        # A game without words of its own for its items (a test's tiny game): ids alone.
        words = WORDS.get(game.name)
        named = told_apart(words(lang)) if words is not None else {}
        secrets = [game.secrets(state, None) for _, state in steps]
        anywhere = {m.pattern.pattern: m for s in secrets for m in secret_marks(s)}
        return cls([v for v, _ in steps], secrets, list(anywhere.values()),
                   [item_marks(s, named) for s in secrets])

    def step_of(self, data: Any) -> int | None:
        """The step a page's JSON shows: a replay's own, else the last the table's
        version had reached; None for JSON of no step."""
        if not isinstance(data, dict):
            return None
        if isinstance(data.get("step"), int):
            return int(data["step"])
        if isinstance(data.get("version"), int) and "table" in data:
            return max(bisect_right(self.versions, data["version"]) - 1, 0)
        return None

    def leaked(self, bodies: list[bytes]) -> list[Mark]:
        """Every give-away found in ``bodies``: each step's orders and values in every
        byte; in a body showing a step, what lay hidden at that step, by id or words."""
        found = [m for body in bodies for m in self.anywhere if m.pattern.search(body)]
        for body in bodies:
            try:
                data = json.loads(body) if body.startswith(b"{") else None
            except ValueError:
                continue
            step = self.step_of(data)
            if step is not None:
                text = page_words(data)
                found += [m for m in self.at_step[step]
                          if m.pattern.search(body) or m.pattern.search(text)]
        return found


def story_of(record: TableRecord, log: list[LogEntry], lang: Lang) -> Story:
    """The secrets of ``record``'s table at every step of its story, from its seed and
    ``log`` (active or archived)."""
    game = get_game(record.game)
    steps = [(entry.version, game.copy(state))
             for entry, state, _ in replay_steps(game, record, log)]
    # The deal is stamped, as a replay stamps it, with the first move's parent version.
    dealt = steps[0][0] - 1 if steps else record.version
    return Story.of(game, lang, [(dealt, new_game(game, record)), *steps])
