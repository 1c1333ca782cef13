"""Carcassonne: Hunters and Gatherers at the table: the manifest the bot reads."""

from __future__ import annotations

from importlib import resources

from bot.games.hunters_gatherers.picture import render_hunters_gatherers
from bot.games.hunters_gatherers.texts import HuntersGatherersTexts
from bot.games.manifest import GameManifest, ResultWording, Variant
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.state import SOURCES

# The engine declares the variant (how squares are named, see
# engine.hunters_gatherers.coords); players need no words for it.
[DECLARED] = GAME.variants
SQUARE_NAMES = Variant(DECLARED.name, DECLARED.values, DECLARED.default)

MANIFEST = GameManifest(
    game=GAME,
    prefix="hg",
    aliases=(
        "hunters and gatherers", "hunters & gatherers", "hunters gatherers", "hunters",
        "hunter gatherers", "hunter-gatherers", "h&g", "hg", "carcassonne hunters and gatherers",
        "carcassonne: hunters and gatherers", "carcassonne hunters", "carcassonne",
        "охотники и собиратели", "каркассон. охотники и собиратели", "охотники-собиратели",
        "охотники собиратели", "охотники", "каркассон охотники и собиратели",
        "каркассон охотники", "каркассон",
    ),
    texts=HuntersGatherersTexts,
    folder=resources.files(__name__),
    # The rulebook names no tie-break: tied players share the win (as on Board Game Arena).
    result=ResultWording(tiebreak=False, score_sheet=SOURCES),
    picture=render_hunters_gatherers,
    variants=(SQUARE_NAMES,),
)
