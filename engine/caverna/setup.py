"""A new game: home boards, food by seat, the action spaces for the player count, the
round cards laid face down by stage and the harvest markers.

Seat 0 holds the first-player token. Food by turn order from there: 1, 1, 2, then 3
for every later seat (2 in solo). Round cards are shuffled within their stage: stage 1
on rounds 1–3, the fixed round-4 card (Wish for children, front side up) on round 4 and
the other two of stage 2 on rounds 5–6, stage 3 on 7–9, stage 4 on 10–12. With 1 or 2
players the Exploration card is not used and round 9 is not played. Solo lays the cards
in a fixed order instead of shuffling.
"""

from __future__ import annotations

from engine.caverna.components import components
from engine.caverna.harvest import deal_markers
from engine.caverna.state import ActionSpace, CavernaState, Player
from engine.core.errors import IllegalMove
from engine.core.rng import RandomSource, SeededRandom

MIN_PLAYERS = 1
MAX_PLAYERS = 7


def start_food(players: int, seat: int) -> int:
    """Food for ``seat`` (0 = the first player) at the start."""
    setup = components().tables.setup
    if players == 1:
        return setup.food_solo
    return setup.food_by_seat[seat + 1]


def deal_round_cards(players: int, rng: RandomSource) -> dict[int, str]:
    """The face-down round cards by round."""
    comp = components()
    rounds = comp.tables.rounds
    played = set(rounds.numbers(players))
    if players == 1:
        return {
            r: card for r, card in enumerate(comp.solo_card_order, start=1)
            if card is not None and r in played
        }
    fixed = comp.fixed_round_cards()
    cards: dict[int, str] = dict(fixed)
    by_stage = comp.cards_by_stage(players)
    for stage, stage_rounds in sorted(rounds.stages.items()):
        pile = [c for c in by_stage.get(stage, []) if c not in fixed.values()]
        rng.shuffle(pile)
        free = [r for r in stage_rounds if r in played and r not in fixed]
        assert len(free) == len(pile), f"stage {stage}: {pile} for rounds {free}"
        cards.update(zip(free, pile, strict=True))
    return dict(sorted(cards.items()))


def setup(players: int, seed: int, rng: RandomSource | None = None) -> CavernaState:
    """A game about to start its first round (``rng``: a scripted source for tests)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalMove("bad_player_count", players=players)
    comp = components()
    source: RandomSource = rng if rng is not None else SeededRandom(seed=seed)
    seats = []
    for seat in range(players):
        player = Player()
        player.goods["food"] = start_food(players, seat)
        seats.append(player)
    return CavernaState(
        players=seats,
        rounds=comp.tables.rounds.numbers(players),
        spaces=[ActionSpace(id=s) for s in comp.spaces_for(players)],
        cards=deal_round_cards(players, source),
        markers=deal_markers(players, source),
        rng=source,
    )
