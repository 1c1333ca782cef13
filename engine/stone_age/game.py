"""Stone Age behind the engine protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.core.base_game import BaseGame
from engine.core.errors import IllegalMove
from engine.core.prompts import Event
from engine.core.protocol import Result, Summary
from engine.core.rng import SeededRandom
from engine.stone_age.components import components
from engine.stone_age.decisions import MACHINE, seats_to_ask
from engine.stone_age.flow import advance
from engine.stone_age.heuristic import position_value
from engine.stone_age.invariants import problems
from engine.stone_age.redraw import redeal
from engine.stone_age.scoring import final_result
from engine.stone_age.state import Player, StoneAgeState, copy_state, start_goods
from engine.stone_age.turn_order import next_turn
from engine.stone_age.view import view
from engine.stone_age.view_model import StoneAgeView


def setup(players: int, seed: int) -> StoneAgeState:
    """A new game: shuffled deck with four cards face up, one building pile per player."""
    comp = components()
    if players not in comp.by_players:
        raise IllegalMove("bad_player_count", players=players)
    rng = SeededRandom(seed=seed)
    deck = list(comp.cards)
    rng.shuffle(deck)
    row: list[str | None] = [deck.pop() for _ in range(comp.row_slots)]
    tiles = list(comp.buildings)
    rng.shuffle(tiles)
    size = comp.pile_size
    piles = [tiles[i * size:(i + 1) * size] for i in range(players)]
    return StoneAgeState(
        players=[
            Player(goods=start_goods(comp.start_food), people=comp.start_people)
            for _ in range(players)
        ],
        row=row,
        deck=deck,
        piles=piles,
        box=tiles[players * size:],
        rng=rng,
    )


class StoneAge(BaseGame[StoneAgeState]):
    """The Stone Age rules for 2 to 4 players."""

    name = "stone_age"
    min_players = 2
    max_players = 4
    state_type = StoneAgeState
    machine = MACHINE
    # The heuristic prices the rounds left, which every move bringing the end nearer
    # takes from every seat: a search judges a seat against its rivals' gains, so that
    # what all share cancels out (``engine.ai.rewards``).
    rivalry = 1.0
    # Searched as its own, a rival steered by its gain over its best rival's learns to
    # spoil the searching seat's game, and the search grew more timid the longer it ran
    # (four players: 1 win in 8 against greedy players at 2 s a decision, 3 in 8 at
    # 0.25 s); answered greedily, the search looks further into its own plans and wins
    # more (``engine.ai.search``).
    greedy_rivals = True
    # A seat against its rivals' mean gain, not the top one's. Four players, 16 games
    # against greedy players, greedy rivals, 60 iterations a decision: 10 wins with it
    # (mean score 165 to the others' 142), 7.5 without (152 to 138); neither, at 100
    # iterations: 4 wins (155 to 144).
    rival_mean = True

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> StoneAgeState:
        """Set up a game; seat 0 holds the first-player marker."""
        state = setup(players, seed)
        advance(state, [])
        return state

    def carry_on(self, state: StoneAgeState, events: list[Event]) -> None:
        """Everything automatic up to the next decision."""
        advance(state, events)

    def copy(self, state: StoneAgeState) -> StoneAgeState:
        """An independent copy, field by field (no JSON round trip)."""
        return copy_state(state)

    def view(self, state: StoneAgeState, seat: int | None) -> StoneAgeView:
        """What ``seat`` may see, as the typed view model."""
        return view(state, seat)

    def summary(self, state: StoneAgeState) -> Summary:
        """Round, phase, who decides and the score track."""
        return Summary(
            round=state.round, phase=state.phase,
            # Every seat asked has a prompt (``prompt_for``): the seats alone say who
            # decides, without building each prompt's options.
            deciding=tuple(sorted(set(seats_to_ask(state)))),
            scores=tuple(p.score for p in state.players),
        )

    def next_turn(self, state: StoneAgeState, seat: int) -> int | None:
        """Who places or acts after ``seat``, when nothing can change it."""
        return next_turn(state, seat)

    def secrets(self, state: StoneAgeState, seat: int | None) -> list[Any]:
        """The deck's order, the buildings under the face-up ones and in the box, the
        random source, and each card another seat drew blind (until the game is over,
        when every hand is shown)."""
        # Empty lists hide nothing (and would match any empty list of a view).
        hidden: list[Any] = [state.rng.model_dump()]
        hidden += [list(items) for items in (state.deck, state.box) if items]
        hidden += [pile[:-1] for pile in state.piles if len(pile) > 1]
        if state.phase != "over":
            for s, player in enumerate(state.players):
                if s != seat:
                    hidden += player.blind
        return hidden

    def redraw(self, state: StoneAgeState, seat: int, seed: int) -> StoneAgeState:
        """A state ``seat`` cannot tell from ``state``, its hidden part drawn again from
        ``seed`` (see ``engine.stone_age.redraw``)."""
        return redeal(self.copy(state), seat, seed)

    def final_result(self, state: StoneAgeState) -> Result:
        """The scores of the finished game."""
        return final_result(state)

    def heuristic(self, state: StoneAgeState, seat: int) -> float:
        """The final score ``seat`` can expect (``engine.stone_age.heuristic``)."""
        return position_value(state, seat)

    def invariants(self, state: StoneAgeState) -> list[str]:
        """Broken invariants of ``state`` (empty when all is well)."""
        return problems(state)


GAME = StoneAge()
