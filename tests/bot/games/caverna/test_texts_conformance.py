"""Caverna's texts pass the same checks as every hosted game's, before it is registered:
random games of 1-7 players rendered in both languages, and every code in the engine's
source worded (tests/bot/games/test_texts_conformance.py)."""

from __future__ import annotations

from bot.games.caverna.manifest import CAVERNA_MANIFEST
from tests.bot.games.test_texts_conformance import check_engine_source, check_everything_said


def test_everything_caverna_says_has_words_in_both_languages() -> None:
    check_everything_said(CAVERNA_MANIFEST)


def test_every_code_in_the_caverna_engine_source_has_words() -> None:
    check_engine_source(CAVERNA_MANIFEST)
