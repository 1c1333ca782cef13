"""Every code the Stone Age engine can produce has a text in Russian and English.

Random games collect the prompts, options and events that really occur (with their
real arguments), and probe illegal keys for real refusals; the engine source is
scanned for every refusal, event and label code so that a new code without a text
fails here even if no random game meets it.
"""

from __future__ import annotations

import ast
import copy
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

import engine.core
import engine.stone_age
from bot.games.stone_age.texts import SILENT, StoneAgeTexts
from bot.i18n.catalog import Lang, Markup
from bot.texts import texts_for
from engine.stone_age.game import GAME
from tests.bot.texts.conftest import RecordingCatalog, shipped_catalog
from tests.bot.texts.seen import (
    LANG_PAIR,
    Said,
    Seen,
    asked,
    assert_events_render,
    assert_options_render_short,
    assert_refusals_render,
    check_pair,
    check_text,
    collect,
    probed,
)
from tests.bot.texts.source_scan import (
    engine_trees,
    first_arg_strings,
    has_code_or_variants,
    string_patterns,
)

GAMES = 30
NAMES = ["Anna", "Boris", "Cleo", "Dmitri"]
# A code that leaked into a text instead of its sentence.
RAW_CODE = re.compile(r"\b(?:sa|opt|reason)\.[a-z_]")
# Keys tried at random in every decision, to meet real refusals with real arguments.
PROBES = [
    "place:forest:9", "place:hunt:0", "place:hut:1", "place:card9:1", "place:moon:1",
    "place:field:1", "place:toolmaker:1", "place:river:3", "place:card1:1", "place:bld1:1",
    "place:forest:x", "at:moon", "do:moon", "do:hunt", "tool:0", "tool:2", "once:0",
    "die:6", "die:1", "add:food", "add:gold", "pay:9.9.9.9", "pay:1.0.0.0", "confirm",
    "undo", "boon", "n:9", "n:x", "gain:2.0.0.0", "nonsense",
]


def _play(seed: int) -> Iterator[Said]:
    rng = random.Random(seed)
    state = GAME.new(2 + seed % 3, seed)
    while prompts := GAME.pending(state):
        prompt = rng.choice(prompts)
        yield from asked(prompt)
        tries = ((rng.randrange(state.n), probe) for probe in rng.sample(PROBES, 3))
        if not (yield from probed(GAME, state, tries)):
            for event in GAME.apply(state, prompt.seat, rng.choice(prompt.options).key):
                yield "event", copy.deepcopy(event)


@pytest.fixture(scope="module")
def seen() -> Seen:
    return collect(_play(seed) for seed in range(GAMES))


def _check_text(text: str, what: str) -> None:
    check_text(text, what, RAW_CODE)


def _check_pair(texts: dict[Lang, str], what: str) -> None:
    # Texts made only of icons and numbers (a building's cost) read the same in both.
    check_pair(texts, what, RAW_CODE)


def _no_missing(catalog: RecordingCatalog) -> None:
    assert not catalog.missing, f"codes without text: {sorted(catalog.missing)[:20]}"


def test_random_games_cover_the_engine(seen: Seen) -> None:
    """The games are varied enough to be worth checking (guards the test itself)."""
    codes = {e.code for e in seen.events.values()}
    assert {"placed", "gathered", "card_bought", "building_built", "fed", "game_over",
            "dice_for_all", "round_started"} <= codes
    # Every prompt but "how many people" (reached only by an old log's at:<site> now,
    # its words tested in tests/bot/games/stone_age/test_texts.py).
    assert len({label.code for label, _ in seen.prompts.values()}) >= 8
    assert len({label.code for label in seen.options.values()}) >= 16
    assert len({code for code, _ in seen.refusals.values()}) >= 10


def test_every_prompt_renders(seen: Seen) -> None:
    catalog = shipped_catalog()
    texts = StoneAgeTexts(catalog)
    for label, seat in seen.prompts.values():
        out = {lang: texts.prompt(lang, label, NAMES, seat) for lang in LANG_PAIR}
        for text in out.values():
            assert isinstance(text, Markup)
            assert text.startswith(f"<b>{NAMES[seat]}</b>, "), f"not addressed: {text!r}"
        _check_pair(dict(out), f"prompt {label}")
        alone = {lang: texts.prompt(lang, label, NAMES) for lang in LANG_PAIR}
        for text in alone.values():
            assert text[:1].isupper() and NAMES[seat] not in text, text
        _check_pair(dict(alone), f"prompt {label} without a seat")
    _no_missing(catalog)


def test_every_option_renders_short(seen: Seen) -> None:
    catalog = shipped_catalog()
    assert_options_render_short(seen, StoneAgeTexts(catalog), _check_pair)
    _no_missing(catalog)


def test_every_event_renders(seen: Seen) -> None:
    catalog = shipped_catalog()
    assert_events_render(seen, StoneAgeTexts(catalog), NAMES, SILENT, _check_pair)
    _no_missing(catalog)


def test_every_refusal_met_in_play_renders(seen: Seen) -> None:
    catalog = shipped_catalog()
    assert_refusals_render(seen, StoneAgeTexts(catalog), _check_pair)
    _no_missing(catalog)


# --- the engine source ---------------------------------------------------------------

PACKAGES = (engine.core, engine.stone_age)










def reason_codes() -> set[str]:
    """Codes of every ``IllegalMove(...)`` and every string the placement checks return."""
    codes = first_arg_strings(PACKAGES, "IllegalMove")
    for path, tree in engine_trees(*PACKAGES):
        if path.name != "placement.py":
            continue
        for func in ast.walk(tree):
            if isinstance(func, ast.FunctionDef) and func.name.endswith("_error"):
                for node in ast.walk(func):
                    if isinstance(node, ast.Return) and node.value is not None:
                        codes |= string_patterns(node.value)
    assert all(re.escape(c) == c for c in codes), f"reason codes must be literal: {codes}"
    return codes


SAMPLE_ARGS: dict[str, Any] = {
    "loc": "forest", "count": 3, "key": "nonsense", "slot": 1, "face": 4,
    "paid": {"wood": 1}, "resource": "wood", "players": 5,
}


def test_reason_scan_finds_the_known_codes() -> None:
    """The scan itself works: it sees codes from decisions.py and placement.py."""
    codes = reason_codes()
    assert {"hut_needs_two", "village_limit", "food_is_not_a_resource", "no_such_die",
            "not_your_turn", "unknown_option", "location_full", "bad_player_count"} <= codes
    assert len(codes) >= 24


@pytest.mark.parametrize("code", sorted(reason_codes()))
def test_every_reason_in_the_engine_has_a_text(code: str) -> None:
    catalog = shipped_catalog()
    texts = StoneAgeTexts(catalog)
    out: dict[Lang, str] = {}
    for lang in LANG_PAIR:
        assert catalog.has(lang, f"sa.reason.{code}") or catalog.has(lang, f"reason.{code}"), (
            f"no text for refusal {code!r} in {lang}"
        )
        out[lang] = texts.reason(lang, code, dict(SAMPLE_ARGS))
    _check_pair(out, f"refusal {code}")
    _no_missing(catalog)




def test_every_event_code_in_the_engine_has_a_text() -> None:
    catalog = shipped_catalog()
    patterns = first_arg_strings(PACKAGES, "Event")
    assert {"placed", "gathered", "pile_empty", "extra_card_none", "people_maxed",
            "[a-z_]+_declined"} <= patterns
    for pattern in sorted(patterns - SILENT):
        assert has_code_or_variants(catalog, "sa\\.event\\." + pattern), (
            f"no text for event {pattern}"
        )


def test_every_label_code_in_the_engine_has_a_text() -> None:
    catalog = shipped_catalog()
    patterns = first_arg_strings(PACKAGES, "Label")
    assert {"sa\\.prompt\\.place", "sa\\.opt\\.at", "opt\\.back",
            "sa\\.opt\\.decline_[a-z_]+"} <= patterns
    for pattern in sorted(patterns):
        assert has_code_or_variants(catalog, pattern), f"no text for label {pattern}"


def test_registry_gives_stone_age() -> None:
    assert isinstance(texts_for("stone_age"), StoneAgeTexts)
    with pytest.raises(KeyError, match="stone_age"):
        texts_for("chess")


def test_board_notes_render_for_every_seat_through_random_games() -> None:
    """/board's notes in both languages, for every seat, as cards are bought in the open
    and drawn blind: no raw code, no unfilled placeholder, one line per other player
    holding cards, and a face-down count exactly for those who drew a card blind."""
    catalog = shipped_catalog()
    texts = StoneAgeTexts(catalog)
    blind_met = False
    for seed in range(6):
        rng = random.Random(seed)
        state = GAME.new(2 + seed % 3, seed)
        step = 0
        while prompts := GAME.pending(state):
            if step % 25 == 0:
                for seat in range(state.n):
                    view = GAME.view(state, seat)
                    holders = [s for s, p in enumerate(state.players) if s != seat and p.cards]
                    out: dict[Lang, list[Markup]] = {
                        lang: texts.board(lang, view, seat, NAMES) for lang in LANG_PAIR
                    }
                    for lang, lines in out.items():
                        assert len(lines) == 1 + len(holders), (lang, lines)
                        for line in lines:
                            _check_text(line, f"board note [{lang}]")
                    for s in holders:
                        blind = state.players[s].blind
                        blind_met |= bool(blind)
                        hidden_word = {"en": "face down", "ru": "в закрытую"}
                        for lang in LANG_PAIR:
                            note = next(x for x in out[lang] if f"<b>{NAMES[s]}</b>" in x)
                            assert (hidden_word[lang] in note) == bool(blind), note
            prompt = rng.choice(prompts)
            GAME.apply(state, prompt.seat, rng.choice(prompt.options).key)
            step += 1
    assert blind_met, "no random game drew a card blind: the test tests too little"
    _no_missing(catalog)
