"""Charm Nim at the table: the manifest the bot reads (texts, rules, result wording)."""

from __future__ import annotations

from importlib import resources

from bot.games.manifest import GameManifest, ResultWording
from tests.tiny_game.bot.texts import CharmNimTexts
from tests.tiny_game.engine.game import BREAKDOWN_KEYS, GAME

MANIFEST = GameManifest(
    game=GAME,
    prefix="cn",
    aliases=("charm nim", "nim", "charms", "ним", "ним с оберегами", "обереги"),
    texts=CharmNimTexts,
    folder=resources.files(__name__),
    result=ResultWording(tiebreak=False, score_sheet=BREAKDOWN_KEYS),
)
