"""Hunters and Gatherers texts: every engine code has words in both languages, and the
words are the ones we mean.

Random games collect the prompts, options and events that really occur (with their
real arguments) and probe illegal keys for real refusals; the engine source is scanned
for every refusal, event and label code so that a new code without a text fails here
even if no random game meets it. Exact renderings pin the wording and the grammar.
"""

from __future__ import annotations

import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import engine.core
import engine.hunters_gatherers
from bot.games import manifests
from bot.games.hunters_gatherers.texts import FIGURE_KINDS, SILENT, HuntersGatherersTexts
from bot.i18n.catalog import Lang, Markup
from bot.texts import texts_for
from engine.core.prompts import Event, Label
from engine.hunters_gatherers.board import board_of, spots
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.geometry import frontier
from engine.hunters_gatherers.state import SOURCES, HuntersGatherersState
from engine.hunters_gatherers.tiles import SPECIALS
from tests.bot.texts.conftest import RecordingCatalog, shipped_catalog
from tests.bot.texts.seen import (
    LANG_PAIR,
    Said,
    Seen,
    applied,
    asked,
    assert_events_render,
    assert_options_render_short,
    assert_refusals_render,
    check_pair,
    collect,
    probed,
)
from tests.bot.texts.source_scan import (
    first_arg_strings,
    has_code_or_variants,
)

GAMES = 20
MAX_STEPS = 2_000  # a safety net: a game takes about 200 decisions
NAMES = ["Anna", "Boris", "Cleo", "Dmitri", "Eva"]
EN = ["Anna", "Boris", "Cleo"]
RU = ["Анна", "Борис", "Клео"]
EVIL = '<b>Eve & "Bob"</b>'
EVIL_ESCAPED = '&lt;b&gt;Eve &amp; "Bob"&lt;/b&gt;'
# A code that leaked into a text instead of its sentence.
RAW_CODE = re.compile(r"\b(?:hg|opt|reason)\.[a-z_]")
SQUARE = re.compile(r"-?[A-Z]+-?[0-9]+")  # a square's name: N14
# Keys tried at random in every decision, to meet real refusals with real arguments.
PROBES = [
    "at:99,99", "at:0,0", "at:x", "at:1", "at:-0,1", "more", "rot:9", "rot:x", "rot:1",
    "fig:hut:0", "fig:hut:3", "fig:gatherer:0", "fig:gatherer:4", "fig:fisher:0",
    "fig:hunter:1", "fig:wizard:0", "fig:hunter:x", "none", "back", "nonsense",
]

def _misfit(state: HuntersGatherersState) -> str | None:
    """A key naming an empty cell next to the map where the tile in hand does not fit."""
    if state.step != "spot":
        return None
    good = {pos for pos, _ in spots(state)}
    bad = sorted(pos for pos in frontier(board_of(state)) if pos not in good)
    return f"at:{bad[0][0]},{bad[0][1]}" if bad else None


def _play(seed: int) -> Iterator[Said]:
    rng = random.Random(seed)
    state = GAME.new(2 + seed % 4, seed)
    for _ in range(MAX_STEPS):
        prompts = GAME.pending(state)
        if not prompts:
            break
        prompt = rng.choice(prompts)
        yield from asked(prompt)
        probes = rng.sample(PROBES, 3)
        misfit = _misfit(state)
        if misfit is not None:
            probes.insert(0, misfit)
        tries = ((prompt.seat if rng.random() < 0.8 else rng.randrange(state.n), probe)
                 for probe in probes)
        if not (yield from probed(GAME, state, tries)):
            # Figures most of the time, so that supplies run out and features fill up.
            figures = [o for o in prompt.options if o.key.startswith("fig:")]
            pool = figures if figures and rng.random() < 0.7 else list(prompt.options)
            for event in GAME.apply(state, prompt.seat, rng.choice(pool).key):
                yield "event", copy.deepcopy(event)
    result = GAME.result(state)
    assert result is not None, f"game {seed} did not end"
    for score in result.scores:
        yield "breakdown", dict(score.breakdown)
    yield from applied(GAME, state, 0, "none")


@pytest.fixture(scope="module")
def seen() -> Seen:
    return collect(_play(seed) for seed in range(GAMES))


@pytest.fixture
def catalog() -> RecordingCatalog:
    return shipped_catalog()


@pytest.fixture
def hg(catalog: RecordingCatalog) -> Iterator[HuntersGatherersTexts]:
    yield HuntersGatherersTexts(catalog)
    assert not catalog.missing, f"codes without text: {sorted(catalog.missing)[:20]}"


def _check_pair(texts: dict[Lang, str], what: str) -> None:
    # Texts made only of icons, numbers and squares' names (a spot, a rotation) read the
    # same in both.
    check_pair(texts, what, RAW_CODE, SQUARE)


# --- random games ------------------------------------------------------------------


def test_random_games_cover_the_engine(seen: Seen) -> None:
    """The games are varied enough to be worth checking (guards the test itself)."""
    codes = {e.code for e in seen.events.values()}
    assert {"tile_placed", "figure_placed", "forest_scored", "river_scored", "huts_scored",
            "meadow_scored", "bonus_turn", "tile_drawn", "game_over"} <= codes
    assert {label.code for label, _ in seen.prompts.values()} >= {
        "hg.prompt.spot", "hg.prompt.rotation", "hg.prompt.figure"}
    assert {label.code for label in seen.options.values()} >= {
        "hg.opt.at", "hg.opt.rot", "hg.opt.fig", "hg.opt.none", "opt.back"}
    kinds = {label.args.get("kind") for label in seen.options.values()}
    assert kinds >= set(FIGURE_KINDS)
    assert {code for code, _ in seen.refusals.values()} >= {
        "unknown_option", "no_such_spot", "does_not_fit", "wrong_feature", "not_your_turn",
        "feature_occupied", "no_figures_left", "game_over"}


def test_every_prompt_renders(seen: Seen, hg: HuntersGatherersTexts) -> None:
    for label, seat in seen.prompts.values():
        out = {lang: hg.prompt(lang, label, NAMES, seat) for lang in LANG_PAIR}
        for text in out.values():
            assert isinstance(text, Markup)
            # The question is the last line (the words about the choices come first).
            question = text.split("\n")[-1]
            assert question.startswith(f"<b>{NAMES[seat]}</b>, "), f"not addressed: {text!r}"
        _check_pair(dict(out), f"prompt {label}")
        alone = {lang: hg.prompt(lang, label, NAMES) for lang in LANG_PAIR}
        for text in alone.values():
            question = text.split("\n")[-1]
            assert question[:1].isupper() and NAMES[seat] not in text, text
        _check_pair(dict(alone), f"prompt {label} without a seat")


def test_every_option_renders_short(seen: Seen, hg: HuntersGatherersTexts) -> None:
    assert_options_render_short(seen, hg, _check_pair)


def test_options_of_one_prompt_differ(hg: HuntersGatherersTexts) -> None:
    """Two buttons of the same prompt never read the same."""
    for seed in range(3):
        state = GAME.new(3 + seed, seed)
        rng = random.Random(seed)
        while prompts := GAME.pending(state):
            prompt = prompts[0]
            for lang in LANG_PAIR:
                texts = [hg.option(lang, o.label) for o in prompt.options]
                assert len(set(texts)) == len(texts), texts
            moves = [o for o in prompt.options if not o.back]
            GAME.apply(state, prompt.seat, rng.choice(moves).key)


def test_every_event_renders(seen: Seen, hg: HuntersGatherersTexts) -> None:
    assert_events_render(seen, hg, NAMES, SILENT, _check_pair)


def test_every_refusal_met_in_play_renders(seen: Seen, hg: HuntersGatherersTexts) -> None:
    assert_refusals_render(seen, hg, _check_pair)


def test_every_final_score_renders(seen: Seen, hg: HuntersGatherersTexts) -> None:
    assert seen.breakdowns
    for breakdown in seen.breakdowns:
        assert list(breakdown) == list(SOURCES)
        out = {lang: [hg.score_part(lang, k, v) for k, v in breakdown.items()]
               for lang in LANG_PAIR}
        assert len(out["en"]) == len(out["ru"]) == len(SOURCES)
        for en, ru in zip(out["en"], out["ru"], strict=True):
            _check_pair({"en": en, "ru": ru}, f"score line {en}")


# --- the engine source ---------------------------------------------------------------

PACKAGES = (engine.core, engine.hunters_gatherers)








def reason_codes() -> set[str]:
    """Codes of every ``IllegalMove(...)`` in the core and the game."""
    codes = first_arg_strings(PACKAGES, "IllegalMove")
    assert all(re.escape(c) == c for c in codes), f"reason codes must be literal: {codes}"
    return codes




def test_reason_scan_finds_the_known_codes() -> None:
    """The scan itself works: it sees codes from decisions.py and game.py."""
    assert {"no_such_spot", "does_not_fit", "wrong_feature", "no_figures_left",
            "feature_occupied", "not_your_turn", "unknown_option", "game_over",
            "bad_player_count"} <= reason_codes()


@pytest.mark.parametrize("code", sorted(reason_codes()))
def test_every_reason_in_the_engine_has_a_text(code: str, catalog: RecordingCatalog,
                                               hg: HuntersGatherersTexts) -> None:
    assert (has_code_or_variants(catalog, re.escape(f"hg.reason.{code}"))
            or has_code_or_variants(catalog, re.escape(f"reason.{code}"))), (
        f"no text for refusal {code!r}"
    )
    general = hg.reason("en", "surely_no_such_code", {})
    for kind in (*FIGURE_KINDS, None):
        args: dict[str, Any] = {"x": 1, "y": -2, "key": "nonsense", "index": 1, "players": 7,
                                "option": "names", "value": "z1"}
        if kind is not None:
            args["kind"] = kind
        out: dict[Lang, str] = {lang: hg.reason(lang, code, dict(args)) for lang in LANG_PAIR}
        _check_pair(out, f"refusal {code} {args}")
        assert out["en"] != general, code


def test_every_event_code_in_the_engine_has_a_text(catalog: RecordingCatalog) -> None:
    patterns = first_arg_strings(PACKAGES, "Event")
    assert {"tile_placed", "figure_placed", "bonus_turn", "game_over",
            "[a-z_]+_scored"} <= patterns
    for pattern in sorted(patterns - SILENT):
        assert has_code_or_variants(catalog, "hg\\.event\\." + pattern), (
            f"no text for event {pattern}"
        )


def test_every_label_code_in_the_engine_has_a_text(catalog: RecordingCatalog) -> None:
    patterns = first_arg_strings(PACKAGES, "Label")
    assert {"hg\\.prompt\\.spot", "hg\\.opt\\.at", "hg\\.opt\\.fig", "opt\\.back"} <= patterns
    for pattern in sorted(patterns):
        assert has_code_or_variants(catalog, pattern), f"no text for label {pattern}"


def test_every_score_source_and_special_has_a_text(catalog: RecordingCatalog) -> None:
    for lang in LANG_PAIR:
        for source in SOURCES:
            assert catalog.has(lang, f"hg.score.{source}"), source
        for special in SPECIALS:
            if special != "volcano":  # only on the start tile, never in hand
                assert catalog.has(lang, f"hg.special.{special}"), special


def test_registry_gives_hunters_gatherers() -> None:
    assert "hunters_gatherers" in manifests()
    assert isinstance(texts_for("hunters_gatherers"), HuntersGatherersTexts)
    assert texts_for("hunters_gatherers") is texts_for("hunters_gatherers")
    assert isinstance(texts_for("hunters_gatherers", shipped_catalog()), HuntersGatherersTexts)


# --- exact renderings ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("label", "en", "ru"),
    [
        # A spot is named by its square, as on the map's edges (the start tile is N14).
        (Label("hg.opt.at", {"x": 2, "y": -1, "n": 7}), "📍 P13", "📍 P13"),
        (Label("hg.opt.at", {"x": -13, "y": 12, "n": 1}), "📍 A26", "📍 A26"),
        (Label("hg.opt.rot", {"k": 1}), "↻ 90°", "↻ 90°"),
        (Label("hg.opt.rot", {"k": 0}), "↻ 0°", "↻ 0°"),
        (Label("hg.opt.fig", {"kind": "gatherer", "feature": "forest", "index": 0}),
         "🧺 Gatherer in the forest", "🧺 Собиратель в лес"),
        (Label("hg.opt.fig", {"kind": "fisher", "feature": "river", "index": 0}),
         "🎣 Fisher on the river", "🎣 Рыбак на реку"),
        (Label("hg.opt.fig", {"kind": "hunter", "feature": "meadow", "index": 2}),
         "🏹 Hunter in the meadow (3)", "🏹 Охотник в низину (3)"),
        (Label("hg.opt.fig", {"kind": "hut", "feature": "river", "index": 0}),
         "🛖 Hut", "🛖 Хижина"),
        (Label("hg.opt.fig", {"kind": "hunter", "feature": "meadow", "index": 1,
                              "sides": ["N", "E"]}),
         "🏹 Hunter in the meadow ↑→", "🏹 Охотник в низину ↑→"),
        # As the engine sends them: with the button's number, as on the picture.
        (Label("hg.opt.fig", {"kind": "fisher", "feature": "river", "index": 1,
                              "sides": ["W"], "n": 3}),
         "3 · 🎣 Fisher on the river ←", "3 · 🎣 Рыбак на реку ←"),
        (Label("hg.opt.fig", {"kind": "hut", "feature": "river", "index": 0, "sides": [],
                              "n": 11}),
         "11 · 🛖 Hut", "11 · 🛖 Хижина"),
        (Label("hg.opt.none"), "No figure", "Без фигуры"),
        (Label("opt.back"), "« Back", "« Назад"),
    ],
)
def test_options(hg: HuntersGatherersTexts, label: Label, en: str, ru: str) -> None:
    assert hg.option("en", label) == en
    assert hg.option("ru", label) == ru


def test_spot_prompts(hg: HuntersGatherersTexts) -> None:
    # The tile in hand in words (HG002: all meadow, a mammoth), then the question.
    land = Label("hg.prompt.spot", {"tile": "HG002", "bonus": False})
    assert hg.prompt("en", land, EN, 0) == (
        "The tile as drawn (↻ 0°): meadow to the north, east, south and west. "
        "On it: 1 mammoth.\n"
        "<b>Anna</b>, where does the tile go?"
    )
    assert hg.prompt("ru", land, RU, 0) == (
        "Квадрат как нарисован (↻ 0°): низина с севера, востока, юга и запада. "
        "На нём: 1 мамонт.\n"
        "<b>Анна</b>, куда выложить квадрат?"
    )
    # Arguments of prompts asked before the engine stopped paging say nothing more.
    paged = Label("hg.prompt.spot", {"tile": "HG002", "bonus": False, "page": 2, "pages": 3})
    assert hg.prompt("ru", paged, RU) == hg.prompt("ru", land, RU)
    assert hg.prompt("ru", paged, RU).endswith("\nКуда выложить квадрат?")
    fire = Label("hg.prompt.spot", {"tile": "HG088", "bonus": True})
    assert hg.prompt("ru", fire, RU, 1) == (
        "Квадрат как нарисован (↻ 0°): низина с севера, востока, юга и запада. "
        "На нём: 1 тигр, огонь.\n"
        "<b>Борис</b>, бонусный ход! Куда выложить бонусный квадрат с огнём?"
    )
    assert hg.prompt("en", fire, EN).endswith(
        "\nBonus turn! Where does the bonus tile with the fire go?")
    # With the spots the engine lists: one line per kind of spot, in the engine's order.
    spots = Label("hg.prompt.spot", {"tile": "HG002", "bonus": False, "spots": [
        {"x": 0, "y": -1, "touch": "..M.", "rotations": [0, 1, 2, 3]},
        {"x": -2, "y": 0, "touch": ".R..", "rotations": [1]},
        {"x": 3, "y": 0, "touch": "..M.", "rotations": [0, 1, 2, 3]},
        {"x": 1, "y": 1, "touch": "FM.R", "rotations": [0, 2]},
    ]})
    assert hg.prompt("en", spots, EN, 0).split("\n")[1:] == [
        "Free squares and what lies next to them:",
        "• N13, Q14: meadow to the south — ↻ any turn",
        "• L14: river to the east — ↻ 90°",
        "• O15: river to the west, forest to the north, meadow to the east — ↻ 0° or 180°",
        "<b>Anna</b>, where does the tile go?",
    ]
    assert hg.prompt("ru", spots, RU, 0).split("\n")[1:] == [
        "Свободные клетки и что с ними рядом:",
        "• N13, Q14: низина с юга — ↻ любой",
        "• L14: река с востока — ↻ 90°",
        "• O15: река с запада, лес с севера, низина с востока — ↻ 0° или 180°",
        "<b>Анна</b>, куда выложить квадрат?",
    ]


def test_rotation_and_figure_prompts(hg: HuntersGatherersTexts) -> None:
    rotation = Label("hg.prompt.rotation", {"tile": "HG028", "x": 1, "y": 0,
                                            "rotations": [0, 1], "touch": "...R"})
    assert hg.prompt("ru", rotation, RU, 2) == (
        "Рядом с O14: река с запада.\n"
        "↻ 0°: река с востока на запад; низина с севера; низина с юга; 1 мамонт на севере.\n"
        "↻ 90°: река с севера на юг; низина с востока; низина с запада; 1 мамонт на востоке.\n"
        "На нём: 1 мамонт.\n"
        "<b>Клео</b>, как повернуть квадрат на O14?"
    )
    assert hg.prompt("en", rotation, EN, 2) == (
        "Next to O14: river to the west.\n"
        "↻ 0°: river from the east to the west; meadow to the north; meadow to the south; "
        "1 mammoth in the north.\n"
        "↻ 90°: river from the north to the south; meadow to the east; meadow to the west; "
        "1 mammoth in the east.\n"
        "On it: 1 mammoth.\n"
        "<b>Cleo</b>, which way should the tile face on O14?"
    )
    figure = Label("hg.prompt.figure", {"tile": "HG002", "x": 1, "y": 0, "rotation": 1})
    assert hg.prompt("en", figure, EN, 0) == (
        "The tile on O14 (↻ 90°): meadow to the north, east, south and west. "
        "On it: 1 mammoth.\n"
        "A button's arrows point to the sides its piece reaches; its number is written on "
        "that piece in the picture.\n"
        "<b>Anna</b>, place a tribe member or a hut on the tile just laid on O14?"
    )
    assert hg.prompt("ru", figure, RU) == (
        "Квадрат на O14 (↻ 90°): низина с севера, востока, юга и запада. На нём: 1 мамонт.\n"
        "Стрелки на кнопке показывают, к каким сторонам выходит участок; номер кнопки "
        "написан на этом участке на картинке.\n"
        "Выставить соплеменника или хижину на только что выложенный квадрат на O14?"
    )


# Each event's line, in the languages given (None: the event is not told).
EVENT_LINES = [
    pytest.param(
        Event("tile_placed", 1, {"tile": "HG002", "x": 1, "y": 0, "rotation": 0,
                                 "bonus": True}),
        {"en": "<b>Boris</b> lays a bonus tile on O14",
         "ru": "<b>Борис</b> выкладывает бонусный квадрат на O14"},
        id="bonus tile laid"),
    # An event without its square still reads.
    pytest.param(Event("tile_placed", 1, {"tile": "HG002", "bonus": False}),
                 {"en": "<b>Boris</b> lays a tile"}, id="tile laid, no square"),
    pytest.param(
        Event("figure_placed", 0, {"kind": "fisher", "feature": "river", "index": 0,
                                   "x": 1, "y": 0}),
        {"ru": "<b>Анна</b> отправляет рыбака на реку"}, id="fisher"),
    pytest.param(
        Event("figure_placed", 2, {"kind": "hut", "feature": "river", "index": 0,
                                   "x": 1, "y": 0}),
        {"en": "<b>Cleo</b> builds a hut by the river"}, id="hut"),
    pytest.param(Event("tile_drawn", 0, {"tile": "HG002"}), {"ru": None}, id="drawn"),
    pytest.param(
        Event("bonus_turn", 0, {"tile": "HG085"}),
        {"ru": "🪙 <b>Анна</b> получает бонусный ход за освоенный лес с золотым самородком"},
        id="bonus turn"),
    pytest.param(Event("tile_discarded", 1, {"tile": "HG040", "bonus": False}),
                 {"ru": "Квадрат некуда выложить: он уходит в сброс"}, id="discarded"),
    # Scoring lines agree with the numbers. Paid by piece: five forest pieces (on four
    # tiles) are 10 points, plus a mushroom.
    pytest.param(
        Event("forest_scored", None, {"x": 0, "y": 0, "pieces": 5, "tiles": 4,
                                      "mushrooms": 1, "gold": 2, "points": 12,
                                      "winners": [0, 1], "returned": [0, 1]}),
        {"ru": "🌲 Освоен лес: 5 участков, 1 квадрат с грибами, 2 золотых самородка. "
               "<b>Анна</b> и <b>Борис</b> получают по 12 очков.",
         "en": "🌲 Forest completed: 5 pieces, 1 mushroom patch, 2 gold nuggets. "
               "<b>Anna</b> and <b>Boris</b> score 12 points each."},
        id="forest"),
    pytest.param(
        Event("river_scored", None, {"x": 0, "y": 0, "pieces": 3, "tiles": 2, "fish": 1,
                                     "points": 4, "winners": [2], "returned": [2]}),
        {"ru": "🌊 Освоена река: 3 участка, 1 рыбина. <b>Клео</b> получает 4 очка.",
         "en": "🌊 River completed: 3 pieces, 1 fish. <b>Cleo</b> scores 4 points."},
        id="river"),
    # An event stored before pieces were counted names its tiles: read as its pieces.
    pytest.param(
        Event("river_scored", None, {"x": 0, "y": 0, "tiles": 2, "fish": 0, "points": 2,
                                     "winners": [], "returned": []}),
        {"ru": "🌊 Освоена река: 2 участка. Рыбаков на ней не было, очков никто не "
               "получает."},
        id="river without pieces"),
    pytest.param(
        Event("forest_scored", None, {"pieces": 1, "tiles": 1, "points": 2, "winners": [1]}),
        {"ru": "🌲 Освоен лес: 1 участок. <b>Борис</b> получает 2 очка."}, id="one piece"),
    pytest.param(
        Event("huts_scored", None, {"x": 0, "y": 0, "points": 21, "winners": [0, 1, 2]}),
        {"ru": "🛖 Речная система, в озёрах 21 рыбина. "
               "<b>Анна</b>, <b>Борис</b> и <b>Клео</b> получают по 21 очку.",
         "en": "🛖 River system with 21 fish in its lakes. "
               "<b>Anna</b>, <b>Boris</b> and <b>Cleo</b> score 21 points each."},
        id="huts"),
    pytest.param(
        Event("meadow_scored", None, {"x": 0, "y": 0, "points": 8, "winners": [1],
                                      "deer": 2, "tigers": 1, "mammoths": 2,
                                      "aurochs": 1, "fire": False, "shrine": False}),
        {"ru": "🦌 Низина: 2 оленя, 2 мамонта, 1 тур, 1 тигр. <b>Борис</b> получает 8 "
               "очков."},
        id="meadow"),
    pytest.param(
        Event("meadow_scored", None, {"x": 0, "y": 0, "points": 2, "winners": [0],
                                      "deer": 1, "tigers": 2, "mammoths": 0, "aurochs": 0,
                                      "fire": True, "shrine": True}),
        {"en": "🦌 Meadow: 1 deer, 2 tigers; 🔥 the fire drives the tigers off; the hunter "
               "at the shrine takes the whole meadow. <b>Anna</b> scores 2 points."},
        id="meadow with fire and shrine"),
    pytest.param(
        Event("meadow_scored", None, {"x": 0, "y": 0, "points": 0, "winners": [0, 2],
                                      "deer": 0, "tigers": 0, "mammoths": 0, "aurochs": 0,
                                      "fire": False, "shrine": False}),
        {"ru": "🦌 Низина: зверей нет. <b>Анна</b> и <b>Клео</b> ничего не получают.",
         "en": "🦌 Meadow: no animals. <b>Anna</b> and <b>Cleo</b> score nothing."},
        id="bare meadow"),
    pytest.param(
        Event("game_over", None, {"reason": "last_tile_placed", "scores": [3, 5],
                                  "winners": [1]}),
        {"ru": "<b>Игра окончена</b>: выложен последний квадрат земли."}, id="game over"),
    pytest.param(Event("game_over", None, {"reason": "meteor", "scores": [], "winners": []}),
                 {"en": "<b>Game over</b>."}, id="game over, unknown reason"),
]


@pytest.mark.parametrize(("event", "expected"), EVENT_LINES)
def test_event_lines(hg: HuntersGatherersTexts, event: Event,
                     expected: dict[Lang, str | None]) -> None:
    for lang, line in expected.items():
        assert hg.event(lang, event, EN if lang == "en" else RU) == line


@pytest.mark.parametrize(
    ("code", "args", "en", "ru"),
    [
        ("feature_occupied", {"kind": "hunter", "feature": "meadow", "index": 0},
         "This meadow already has a hunter.", "В этой низине уже есть охотник."),
        ("feature_occupied", {"kind": "hut", "feature": "river", "index": 0},
         "This river system already has a hut.", "В этой речной системе уже стоит хижина."),
        ("no_figures_left", {"kind": "hut"}, "You have no huts left.", "У вас не осталось хижин."),
        ("no_figures_left", {"kind": "gatherer"},
         "You have no tribe members left in your supply.",
         "У вас в запасе не осталось соплеменников."),
        ("not_your_turn", {"seat": 1, "turn": 0}, "It is not your turn.", "Сейчас не ваш ход."),
        # A refused spot is named by its square (typed moves name squares too).
        ("no_such_spot", {"x": 0, "y": 0},
         "A tile cannot go on N14: the spot is taken or does not touch the map.",
         "На N14 квадрат выложить нельзя: место занято или не примыкает к карте."),
        ("does_not_fit", {"x": 1, "y": 0, "rotation": 1},
         "The tile does not fit on O14: rivers, forests and meadows must match across "
         "every edge.",
         "Квадрат нельзя выложить на O14 так: реки, леса и низины на стыках должны совпадать."),
        ("brand_new_code", {}, "That move is not allowed.", "Так ходить нельзя."),
    ],
)
def test_reasons(hg: HuntersGatherersTexts, code: str, args: dict[str, Any], en: str,
                 ru: str) -> None:
    assert hg.reason("en", code, dict(args)) == en
    assert hg.reason("ru", code, dict(args)) == ru


def test_score_lines_and_locations(hg: HuntersGatherersTexts) -> None:
    breakdown = dict(zip(SOURCES, [7, 12, 2, 5, 16], strict=True))
    assert [hg.score_part("ru", k, v) for k, v in breakdown.items()] == [
        "🌊 Реки: 7", "🌲 Леса: 12", "🍄 Грибы: 2", "🛖 Хижины: 5", "🦌 Низины: 16",
    ]
    assert hg.score_part("en", "rivers", 7) == "🌊 Rivers: 7"
    assert hg.location("ru", "3,-1") == "Клетка Q13"
    assert hg.location("en", "0,2") == "Square N16"
    assert hg.location("en", "forest") == "forest"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_names_are_escaped(hg: HuntersGatherersTexts, lang: Lang) -> None:
    names = ["Anna", EVIL]
    out = [
        hg.prompt(lang, Label("hg.prompt.figure", {"tile": "HG002"}), names, 1),
        hg.event(lang, Event("tile_placed", 1, {"tile": "HG002", "bonus": False}), names),
        hg.event(lang, Event("river_scored", None, {"tiles": 2, "fish": 1, "points": 3,
                                                    "winners": [1]}), names),
        hg.event(lang, Event("meadow_scored", None, {"points": 4, "winners": [0, 1],
                                                     "deer": 2}), names),
    ]
    for text in out:
        assert text is not None
        assert EVIL_ESCAPED in text
        assert EVIL not in text
        assert "<b>Eve" not in text


def test_unknown_seat_gets_a_neutral_name(hg: HuntersGatherersTexts) -> None:
    label = Label("hg.prompt.figure", {"tile": "HG002"})
    assert hg.prompt("en", label, [], 2).endswith(
        "\n<b>Player 3</b>, place a tribe member or a hut on the tile just laid?"
    )
    assert "\n<b>Игрок 3</b>, " in hg.prompt("ru", label, [], 2)
