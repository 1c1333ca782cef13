"""Every hosted game has words for everything its engine can say, in both languages.

Random games of each manifest's engine produce real prompts, options, events, refusals
and results; each is rendered through the game's texts over a catalog that records
codes without a text. The engine's source is scanned too, so a new code without a text
fails even if no random game meets it. Nothing here names a game: a new manifest is
checked by being there.
"""

from __future__ import annotations

import importlib
import random
import re
from types import ModuleType

import pytest

from bot.games import GameManifest, manifests
from bot.i18n.catalog import LANGS, Markup
from engine.core.conformance import GARBLED_KEYS
from engine.core.errors import IllegalMove
from tests.bot.texts.conftest import RecordingCatalog, shipped_catalog
from tests.bot.texts.source_scan import first_arg_strings, has_code_or_variants
from tests.tiny_game.hosting import with_test_games

NAMES = ["Anna", "Boris", "Cleo", "Dmitri", "Eva", "Fjodor", "Gala"]
GAMES_PER_COUNT = 2
MAX_BUTTON = 64  # characters: long labels get cut by every platform


def _package(entry: GameManifest) -> ModuleType:
    return importlib.import_module(type(entry.game).__module__.rsplit(".", 1)[0])


def _raw_code(entry: GameManifest) -> re.Pattern[str]:
    return re.compile(rf"\b(?:{entry.prefix}|opt|reason)\.[a-z_]+\.?[a-z_]*")


def _check(entry: GameManifest, text: str | None, what: str) -> None:
    assert text is not None and text.strip(), f"no text for {what}"
    assert "{" not in text and "}" not in text, f"unfilled placeholder in {what}: {text!r}"
    assert not _raw_code(entry).search(text), f"raw code in {what}: {text!r}"


def _played(entry: GameManifest, catalog: RecordingCatalog) -> dict[str, int]:
    """Render everything random games produce; count what was rendered, by kind."""
    game, texts = entry.game, entry.texts(catalog)
    counts = {"prompt": 0, "option": 0, "event": 0, "refusal": 0, "result": 0}
    for players in range(game.min_players, game.max_players + 1):
        for seed in range(GAMES_PER_COUNT):
            rnd = random.Random(seed)
            names = NAMES[:players]
            state = game.new(players, 100 + seed, entry.variant_defaults())
            while prompts := game.pending(state):
                prompt = rnd.choice(prompts)
                for lang in LANGS:
                    _check(entry, texts.prompt(lang, prompt.label, names, seat=prompt.seat),
                           f"prompt {prompt.label.code}")
                    for option in prompt.options:
                        label = texts.option(lang, option.label)
                        _check(entry, label, f"option {option.label.code}")
                        assert len(label) <= MAX_BUTTON, label
                counts["prompt"] += 1
                counts["option"] += len(prompt.options)
                key = rnd.choice((*GARBLED_KEYS, "back", "none", "confirm"))
                try:
                    game.apply(game.load(game.dump(state)), prompt.seat, key)
                except IllegalMove as err:
                    for lang in LANGS:
                        _check(entry, texts.reason(lang, err.code, dict(err.args_map)),
                               f"refusal {err.code}")
                    counts["refusal"] += 1
                for event in game.apply(state, prompt.seat, rnd.choice(prompt.options).key):
                    for lang in LANGS:
                        line = texts.event(lang, event, names)
                        if line is not None:
                            _check(entry, line, f"event {event.code}")
                    counts["event"] += 1
            result = game.result(state)
            assert result is not None
            for lang in LANGS:
                _check(entry, catalog.t(lang, f"{entry.prefix}.result.reason.{result.reason}"),
                       f"end reason {result.reason}")
                if entry.result.tiebreak:
                    _check(entry, catalog.t(lang, f"{entry.prefix}.result.tiebreak",
                                            tiebreak=3), "tie-break")
                for score in result.scores:
                    for key in entry.result.sheet_order(score.breakdown):
                        _check(entry, texts.score_part(lang, key, score.breakdown[key]),
                               f"score part {key}")
                for seat in range(players):
                    for line in texts.board(lang, game.view(state, seat), seat, names):
                        _check(entry, Markup(line), "board")
            counts["result"] += 1
    return counts


def check_everything_said(entry: GameManifest) -> None:
    """Random games of ``entry``'s engine: everything they say has words in both
    languages (importable, so a game not yet registered can be checked by its tests)."""
    catalog = shipped_catalog()
    counts = _played(entry, catalog)
    assert all(counts.values()), counts
    for lang in LANGS:
        assert catalog.has(lang, entry.title_code), (lang, entry.title_code)
    assert not catalog.missing, sorted(catalog.missing)[:20]


@pytest.mark.parametrize("name", with_test_games(manifests()))
@pytest.mark.usefixtures("hosted_game")
def test_everything_a_game_says_has_words_in_both_languages(name: str) -> None:
    check_everything_said(manifests()[name])


def check_engine_source(entry: GameManifest) -> None:
    """Every refusal and label code in ``entry``'s engine source has words."""
    catalog = shipped_catalog()
    package = _package(entry)
    import engine.core

    packages: tuple[ModuleType, ...] = (package, engine.core)
    missing = []
    for pattern in first_arg_strings(packages, "IllegalMove"):
        if not (has_code_or_variants(catalog, f"{re.escape(entry.prefix)}\\.reason\\.{pattern}")
                or has_code_or_variants(catalog, f"reason\\.{pattern}")):
            missing.append(f"reason {pattern}")
    for pattern in first_arg_strings((package,), "Label"):
        if not has_code_or_variants(catalog, pattern):
            missing.append(f"label {pattern}")
    assert not missing, missing


@pytest.mark.parametrize("name", with_test_games(manifests()))
@pytest.mark.usefixtures("hosted_game")
def test_every_code_in_the_engine_source_has_words(name: str) -> None:
    check_engine_source(manifests()[name])


def test_the_text_check_can_fail() -> None:
    entry = next(iter(manifests().values()))
    with pytest.raises(AssertionError):
        _check(entry, f"{entry.prefix}.event.something", "a raw code")
    with pytest.raises(AssertionError):
        _check(entry, "Hello {name}", "a placeholder")
    catalog = shipped_catalog()
    catalog.t("en", "no.such.code")
    assert catalog.missing == {("en", "no.such.code")}
