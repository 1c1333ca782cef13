"""Hunters and Gatherers choices in words: what the prompts say about the tile in hand,
the spots, the rotations and the tile just laid agrees with the tile data.

Scenarios with scripted piles pin whole prompts, worked out by hand from
``data/tiles.yaml``; a sweep over every tile in every turn checks that each side the
words name holds what they say it holds.
"""

from __future__ import annotations

import random
import re

import pytest

from bot.games.hunters_gatherers.describe import tile_sides
from bot.games.hunters_gatherers.texts import HuntersGatherersTexts
from bot.i18n.catalog import Lang, to_plain
from bot.texts import texts_for
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.tiles import SIDES, all_tiles, oriented
from engine.registry import get_game
from tests.engine.hunters_gatherers.scenario import play, scripted

NAMES = ["Anna", "Boris"]


def _prompt(lang: Lang, state: object) -> list[str]:
    """The open prompt's text, as plain lines."""
    [prompt] = GAME.pending(state)  # type: ignore[arg-type]
    return to_plain(texts_for("hunters_gatherers").prompt(lang, prompt.label, NAMES,
                                                           prompt.seat)).split("\n")


def _buttons(state: object) -> list[str]:
    [prompt] = GAME.pending(state)  # type: ignore[arg-type]
    return [texts_for("hunters_gatherers").option("en", o.label) for o in prompt.options]


@pytest.fixture
def lake_tile() -> object:
    """HG061 in hand (meadow N, meadow E, forest S, a river from W into a lake with 2
    fish), HG028 (meadow N and S, a river W–E) laid west of the start tile (HG001:
    meadow N, forest E and S, river W), which stands on CM91."""
    return scripted(draw=["HG061", "HG002"], laid=[(-1, 0, "HG028", 0)])


def test_the_spot_prompt_describes_the_tile_and_every_spot(lake_tile: object) -> None:
    assert _prompt("en", lake_tile) == [
        "The tile as drawn (↻ 0°): river from the west into a lake; forest to the south; "
        "meadow to the north and east. On it: 2 fish.",
        "Free squares and what lies next to them:",
        # North of HG028 (CL90) and of the start tile (CM90): their meadow sides. HG061
        # (N, E, S, W: M M F R) needs a meadow south: turned 90° it reads R M M F,
        # turned 180° F R M M.
        "• CL90, CM90: meadow to the south — ↻ 90° or 180°",
        # West of HG028: its river; only 180° brings HG061's river to the east.
        "• CK91: river to the east — ↻ 180°",
        # East of the start tile: its forest; only 90° brings HG061's forest west.
        "• CN91: forest to the west — ↻ 90°",
        # South of HG028: its meadow; 0° and 270° keep a meadow north.
        "• CL92: meadow to the north — ↻ 0° or 270°",
        # South of the start tile: its forest; 180° brings the forest north.
        "• CM92: forest to the north — ↻ 180°",
        "Anna, where does the tile go?",
    ]
    assert _prompt("ru", lake_tile) == [
        "Квадрат как нарисован (↻ 0°): река с запада впадает в озеро; лес с юга; "
        "низина с севера и востока. На нём: 2 рыбины.",
        "Свободные клетки и что с ними рядом:",
        "• CL90, CM90: низина с юга — ↻ 90° или 180°",
        "• CK91: река с востока — ↻ 180°",
        "• CN91: лес с запада — ↻ 90°",
        "• CL92: низина с севера — ↻ 0° или 270°",
        "• CM92: лес с севера — ↻ 180°",
        "Anna, куда выложить квадрат?",
    ]
    # The buttons name the same squares, in the same order (rows, then columns).
    assert _buttons(lake_tile) == ["📍 CL90", "📍 CM90", "📍 CK91", "📍 CN91", "📍 CL92", "📍 CM92"]


def test_the_rotation_prompt_describes_each_turn_offered(lake_tile: object) -> None:
    play(lake_tile, 0, "CM90")  # typed as a square's name, as a player would
    assert _prompt("en", lake_tile) == [
        "Next to CM90: meadow to the south.",
        "↻ 90°: river from the north into a lake; forest to the west; "
        "meadow to the east and south.",
        "↻ 180°: river from the east into a lake; forest to the north; "
        "meadow to the south and west.",
        "On it: 2 fish.",
        "Anna, which way should the tile face on CM90?",
    ]
    assert _prompt("ru", lake_tile) == [
        "Рядом с CM90: низина с юга.",
        "↻ 90°: река с севера впадает в озеро; лес с запада; низина с востока и юга.",
        "↻ 180°: река с востока впадает в озеро; лес с севера; низина с юга и запада.",
        "На нём: 2 рыбины.",
        "Anna, как повернуть квадрат на CM90?",
    ]
    assert _buttons(lake_tile) == ["↻ 90°", "↻ 180°", "« Back"]


def test_the_figure_prompt_describes_the_tile_just_laid(lake_tile: object) -> None:
    play(lake_tile, 0, "CM90", "rot:2")
    assert _prompt("en", lake_tile) == [
        "The tile on CM90 (↻ 180°): river from the east into a lake; forest to the north; "
        "meadow to the south and west. On it: 2 fish.",
        "A button's arrows point to the sides its piece reaches; its number is written on "
        "that piece in the picture.",
        "Anna, place a tribe member or a hut on the tile just laid on CM90?",
    ]
    # Each button says which sides its piece reaches: the forest north, the river east,
    # the big meadow south-east to west, the strip of meadow north of the river's mouth.
    assert _buttons(lake_tile) == [
        "1 · 🧺 Gatherer in the forest ↑", "2 · 🎣 Fisher on the river →",
        "3 · 🏹 Hunter in the meadow ↘↓←", "4 · 🏹 Hunter in the meadow ↗",
        "5 · 🛖 Hut →", "No figure", "« Back",
    ]


@pytest.mark.parametrize(("tile", "lang", "line"), [
    # HG079: four rivers into one lake (2 fish) and deer on two banks.
    ("HG079", "en", "The tile as drawn (↻ 0°): rivers from the north, east, south and west "
                    "into a lake. On it: 2 fish, 2 deer."),
    ("HG079", "ru", "Квадрат как нарисован (↻ 0°): реки с севера, востока, юга и запада "
                    "впадают в озеро. На нём: 2 рыбины, 2 оленя."),
    # HG028: a river straight through, a meadow on each bank.
    ("HG028", "en", "The tile as drawn (↻ 0°): river from the east to the west; meadow to "
                    "the north; meadow to the south. On it: 1 mammoth."),
    ("HG028", "ru", "Квадрат как нарисован (↻ 0°): река с востока на запад; низина с "
                    "севера; низина с юга. На нём: 1 мамонт."),
])
def test_rivers_through_and_into_one_lake(tile: str, lang: Lang, line: str) -> None:
    assert _prompt(lang, scripted(draw=[tile, "HG002"]))[0] == line


def test_a_river_from_a_spring_names_its_side() -> None:
    springs = [t for t in all_tiles().values()
               if len(t.rivers) == 1 and t.springs == 1 and t.kind == "land"]
    assert springs
    spring = springs[0]
    [side] = spring.rivers[0].sides
    direction = {"N": "north", "E": "east", "S": "south", "W": "west"}[side]
    state = scripted(draw=[spring.id, "HG002"])
    assert f"river from a spring to the {direction}" in _prompt("en", state)[0]
    direction_ru = {"N": "север", "E": "восток", "S": "юг", "W": "запад"}[side]
    assert f"река от родника на {direction_ru}" in _prompt("ru", state)[0]


_KIND = {"river": "R", "rivers": "R", "forest": "F", "meadow": "M"}
_DIRECTION = {"north": "N", "east": "E", "south": "S", "west": "W"}


@pytest.mark.parametrize("tile_id", sorted(all_tiles()))
def test_every_side_named_holds_what_the_words_say(tile_id: str) -> None:
    """For every tile in every turn: the sides each phrase names are sides of that kind
    (river, forest, meadow), and every side is named by the phrases of its kind."""
    words = HuntersGatherersTexts().words("en")
    tile = all_tiles()[tile_id]
    for k in range(4):
        edges = oriented(tile, k).edges
        named: dict[str, set[str]] = {"R": set(), "F": set(), "M": set()}
        for phrase in tile_sides(words, tile, k).split("; "):
            kind = _KIND[phrase.split(" ")[0]]
            sides = {_DIRECTION[w] for w in re.findall(r"[a-z]+", phrase) if w in _DIRECTION}
            assert sides, phrase
            named[kind] |= sides
        for kind in ("R", "F", "M"):
            assert named[kind] == {s for s, e in zip(SIDES, edges, strict=True) if e == kind}, (
                tile_id, k, kind)


@pytest.mark.parametrize("seed", range(4))
def test_no_two_turns_offered_read_the_same(seed: int) -> None:
    """Over random games: a rotation prompt offers only turns that lay different maps,
    and says what differs between them (where the animals stand, where small meadows
    lie), so no two of its turn lines read the same, in either language."""
    game, texts = get_game("hunters_gatherers"), HuntersGatherersTexts()
    rnd = random.Random(seed)
    state = game.new(3, seed, {})
    asked = 0
    while prompts := game.pending(state):
        prompt = prompts[0]
        if prompt.label.code == "hg.prompt.rotation":
            asked += 1
            for lang in ("en", "ru"):
                text = to_plain(texts.prompt(lang, prompt.label, ["A", "B", "C"]))
                turns = [line.split(":", 1)[1] for line in text.split("\n") if "°:" in line]
                assert len(turns) == len(prompt.keys()) - 1  # every turn but "back"
                assert len(set(turns)) == len(turns), (prompt.keys(), turns)
        game.apply(state, prompt.seat, rnd.choice(prompt.keys()))
    assert asked > 20
