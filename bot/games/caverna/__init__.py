"""Caverna: The Cave Farmers at the table: texts, rules book, pictures and the manifest.

The manifest is ``bot.games.caverna.manifest.CAVERNA_MANIFEST``; it becomes this
package's ``MANIFEST`` when the game is registered (together with
``engine/caverna/game.py``), so until then the bot does not host Caverna.
"""
