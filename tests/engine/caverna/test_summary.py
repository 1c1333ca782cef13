"""The table header: who decides, running scores and each seat's supply."""

from __future__ import annotations

import json
import random

from engine.caverna.caverna_game import CAVERNA, new_game
from engine.caverna.results import sheet
from engine.caverna.summary import summary


def test_a_new_game_header() -> None:
    state = new_game(4, 1)
    head = summary(state)
    json.dumps(head.sections)
    assert head.round == 1 and head.phase == "work" and head.deciding == (0,)
    players = head.sections["players"]
    assert [p["goods"] for p in players] == [{"food": 1}, {"food": 1}, {"food": 2}, {"food": 3}]
    assert all(p["dwarfs"] == 2 and p["home"] == 2 and p["weapons"] == [0, 0] for p in players)
    assert all(p["furnishings"] == [] and p["room"] == 2 for p in players)
    assert head.sections["first"] == 0 and head.sections["last_round"] == 12
    assert head.sections["harvest"] == "none"


def test_scores_follow_the_score_sheet_as_the_game_goes() -> None:
    state = new_game(3, 5)
    rnd = random.Random(5)
    for _ in range(150):
        prompts = CAVERNA.pending(state)
        if not prompts:
            break
        prompt = rnd.choice(prompts)
        CAVERNA.apply(state, prompt.seat, rnd.choice(prompt.options).key)
        head = summary(state)
        assert head.scores == tuple(sum(sheet(state, s).values()) for s in range(3))
        assert tuple(p["score"] for p in head.sections["players"]) == head.scores
        assert set(head.deciding) == {p.seat for p in CAVERNA.pending(state)}
    placed = [p["dwarfs"] - p["home"] for p in summary(state).sections["players"]]
    assert all(n >= 0 for n in placed)


def test_two_player_games_skip_round_nine() -> None:
    state = new_game(2, 1)
    assert 9 not in state.rounds and len(state.rounds) == 11
    assert summary(state).sections["last_round"] == 12
