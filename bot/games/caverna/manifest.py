"""Caverna's manifest, ready to register.

Registration (done by the coordinator, together with ``engine/caverna/game.py``) is:
``from bot.games.caverna.manifest import CAVERNA_MANIFEST as MANIFEST`` in
``bot/games/caverna/__init__.py`` and Caverna taken out
of ``bot/games/upcoming.yaml``.
"""

from __future__ import annotations

from importlib import resources
from types import MappingProxyType

from bot.games.caverna.picture import render_caverna
from bot.games.caverna.texts import CavernaTexts
from bot.games.manifest import GameManifest, Renderer, ResultWording, Variant
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.scoring import SCORE_SHEET
from engine.caverna.variants import BEGINNER, FURNISHINGS, OFFICIAL, OPTIONS

# The table's picture (bot/games/caverna/picture.py, written beside this module).
PICTURE: Renderer = render_caverna

FURNISHING_SET = Variant(
    FURNISHINGS,
    OPTIONS[FURNISHINGS],
    OFFICIAL,
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
    picture=PICTURE,
    variants=(FURNISHING_SET,),
)
