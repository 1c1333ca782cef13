"""Stone Age texts over the shipped catalog, noting codes that have no text."""

from __future__ import annotations

import pytest

from bot.games.stone_age.texts import StoneAgeTexts
from tests.bot.texts.conftest import RecordingCatalog, shipped_catalog


@pytest.fixture
def catalog() -> RecordingCatalog:
    return shipped_catalog()


@pytest.fixture
def texts(catalog: RecordingCatalog) -> StoneAgeTexts:
    return StoneAgeTexts(catalog)
