"""No two options of one prompt read the same, in either language, over random whole
games of every game: a player never has to guess which of two twin buttons to press."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from bot.texts import texts_for
from engine.registry import get_game

GAMES = ("stone_age", "hunters_gatherers", "caverna")
SEEDS = range(8)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", GAMES)
def test_every_prompt_offers_distinct_labels(name: str, seed: int) -> None:
    game, texts = get_game(name), texts_for(name)
    rnd = random.Random(seed)
    state = game.new(2 + seed % 3, seed, {})
    twins: list[tuple[str, str, str]] = []
    while prompts := game.pending(state):
        for prompt in prompts:
            for lang in ("ru", "en"):
                labels = Counter(texts.option(lang, o.label) for o in prompt.options)
                twins += [(lang, prompt.label.code, label)
                          for label, count in labels.items() if count > 1]
        prompt = rnd.choice(prompts)
        game.apply(state, prompt.seat, rnd.choice(prompt.keys()))
    assert twins == []
