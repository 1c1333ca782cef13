"""A tiny game defined only under ``tests/``: proof that a game is two folders.

``engine/`` is the rules behind the engine protocol (its ``game.py`` defines ``GAME``)
and ``bot/`` the manifest with its texts and rules book, exactly as a shipped game has
them under ``engine/<game>/`` and ``bot/games/<game>/``. Tests host it through the
registries' hooks (``tests.tiny_game.hosting``); nothing outside these folders names it.
"""
