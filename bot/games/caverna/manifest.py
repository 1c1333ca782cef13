"""Caverna's manifest: what the bot reads about the game (texts, picture, rules book,
result wording, the furnishing-set variant).

``bot.games.caverna`` hosts the game by re-exporting it as ``MANIFEST``; it lives in its
own module because the variant's words make it longer than the other games' manifests.
"""

from __future__ import annotations

from importlib import resources
from types import MappingProxyType

from bot.games.caverna.picture import render_caverna
from bot.games.caverna.texts import CavernaTexts
from bot.games.manifest import GameManifest, ResultWording, Variant
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.scoring import SCORE_SHEET
from engine.caverna.variants import BEGINNER, OFFICIAL

# The engine declares the variant (its name, values and default); the bot adds only the
# words a player may type for its values.
[DECLARED] = CAVERNA.variants
FURNISHING_SET = Variant(
    DECLARED.name,
    DECLARED.values,
    DECLARED.default,
    # Words a player may type instead of furnishings=beginner (either language).
    MappingProxyType({
        "beginner": BEGINNER, "beginners": BEGINNER, "новички": BEGINNER,
        "новичков": BEGINNER, "новичок": BEGINNER, "official": OFFICIAL,
        "официальный": OFFICIAL, "официальная": OFFICIAL,
    }),
)

CAVERNA_MANIFEST = GameManifest(
    game=CAVERNA,
    prefix="cav",
    aliases=(
        "каверна", "caverna", "caverna the cave farmers", "caverna: the cave farmers",
        "cave farmers", "the cave farmers", "каверна пещерные фермеры",
        "каверна: пещерные фермеры", "пещерные фермеры", "кав", "cav",
    ),
    texts=CavernaTexts,
    folder=resources.files(__package__ or "bot.games.caverna"),
    # The rulebook names no tie-breaker: equal best totals share the win. The sheet
    # lists the score pad's rows in order (tiles split into furnishings, pastures and
    # mines; gold apart from begging), as engine.caverna.scoring.SCORE_SHEET.
    result=ResultWording(tiebreak=False, score_sheet=SCORE_SHEET),
    picture=render_caverna,
    variants=(FURNISHING_SET,),
)
