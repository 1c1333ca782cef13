"""Caverna: The Cave Farmers at the table: texts, rules book, pictures and the manifest.

The manifest is built in ``bot.games.caverna.manifest``; being this package's
``MANIFEST`` is what makes the bot host the game.
"""

from bot.games.caverna.manifest import CAVERNA_MANIFEST as MANIFEST

__all__ = ["MANIFEST"]
