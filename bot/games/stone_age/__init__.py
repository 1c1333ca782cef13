"""Stone Age at the table: the manifest the bot reads (texts, picture, rules, wording)."""

from __future__ import annotations

from importlib import resources

from bot.games.manifest import GameManifest, ResultWording
from bot.games.stone_age.picture import render_stone_age
from bot.games.stone_age.texts import StoneAgeTexts
from engine.stone_age.game import GAME
from engine.stone_age.scoring import BREAKDOWN_KEYS

MANIFEST = GameManifest(
    game=GAME,
    prefix="sa",
    aliases=(
        "stone age", "stoneage", "stone", "sa", "каменный век", "каменный_век", "каменный",
        "кв", "ст",
    ),
    texts=StoneAgeTexts,
    folder=resources.files(__name__),
    # Ties are broken by development: agriculture + tools + people (rulebook, scoring).
    result=ResultWording(tiebreak=True, score_sheet=BREAKDOWN_KEYS),
    picture=render_stone_age,
)
