"""Carcassonne: Hunters and Gatherers behind the engine protocol, for 2 to 5 players.

The game object owns a ``BoardCache``: bounded memos of what a map implies, keyed by
the placed tiles, which it passes to the rules. Answers never depend on what the
cache holds, so one game object can serve any number of games, in any order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.base_game import BaseGame
from engine.core.errors import IllegalMove
from engine.core.prompts import Event
from engine.core.protocol import Result, Summary
from engine.core.rng import RandomSource, SeededRandom
from engine.core.variants import UnknownVariant, read_variants
from engine.hunters_gatherers.board import member_root, owners
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.coords import CURRENT, NAMES_VARIANT, SCHEMES, VARIANTS
from engine.hunters_gatherers.decisions import machine
from engine.hunters_gatherers.flow import next_tile
from engine.hunters_gatherers.invariants import problems
from engine.hunters_gatherers.redraw import redeal
from engine.hunters_gatherers.scoring import (
    final_result,
    forest_points,
    meadow_points,
    river_points,
)
from engine.hunters_gatherers.state import (
    HuntersGatherersState,
    PlacedTile,
    Player,
    copy_state,
)
from engine.hunters_gatherers.tiles import start_tile, tiles_of
from engine.hunters_gatherers.turn_order import next_turn
from engine.hunters_gatherers.view import HuntersGatherersView, view

MIN_PLAYERS = 2
MAX_PLAYERS = 5


def setup(
    players: int,
    seed: int = 0,
    *,
    draw: Sequence[str] | None = None,
    bonus: Sequence[str] | None = None,
    rng: RandomSource | None = None,
    naming: int = CURRENT,
) -> HuntersGatherersState:
    """A new game with the start tile laid and nothing drawn yet.

    ``draw`` and ``bonus`` give the piles in drawing order (first drawn first) for
    scenario tests; by default both are shuffled from ``seed``. Tiles left out of a
    scripted pile are put in the discards so every tile stays accounted for.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalMove("bad_player_count", players=players)
    source: RandomSource = rng if rng is not None else SeededRandom(seed=seed)
    land = [t.id for t in tiles_of("land")]
    extra = [t.id for t in tiles_of("bonus")]
    if draw is None:
        source.shuffle(land)
        pile = land
    else:
        pile = list(reversed(draw))
    if bonus is None:
        source.shuffle(extra)
        bonus_pile = extra
    else:
        bonus_pile = list(reversed(bonus))
    unused = [t for t in land if t not in pile] + [t for t in extra if t not in bonus_pile]
    return HuntersGatherersState(
        players=[Player() for _ in range(players)],
        tiles=(PlacedTile(x=0, y=0, tile=start_tile().id, rotation=0),),
        draw=pile,
        bonus=bonus_pile,
        discards=unused,
        rng=source,
        naming=naming,
    )


def start(state: HuntersGatherersState, cache: BoardCache) -> list[Event]:
    """Draw the first tile for the seat whose turn it is."""
    events: list[Event] = []
    next_tile(state, cache, events, advance=False)
    return events


def position_value(state: HuntersGatherersState, cache: BoardCache, seat: int) -> float:
    """Score so far plus what current majorities would bring, plus spare figures.

    Unfinished forests and rivers count at half value (they may never close);
    meadows and huts count in full since they pay whatever happens.
    """
    value = float(state.players[seat].score)
    if state.step == "over":
        return value
    features = cache.features(state)
    seen: set[Any] = set()
    for f in state.figures:
        if f.kind == "hut":
            continue
        root = member_root(features, f)
        if root in seen:
            continue
        seen.add(root)
        if seat not in owners(features, state.figures, f.kind, root):
            continue
        data = features.feature(root)
        if f.kind == "hunter":
            value += meadow_points(data, fire=False)
        elif f.kind == "gatherer":
            value += sum(forest_points(data)) / 2
        else:
            value += river_points(data) / 2
    player = state.players[seat]
    return value + 0.5 * player.members + 0.5 * player.huts


class HuntersGatherers(BaseGame[HuntersGatherersState]):
    """The Hunters and Gatherers rules for 2 to 5 players.

    Each instance has its own ``cache`` (nothing is shared between instances), and so
    its own machine asking that cache; the states it plays carry everything else. A
    turn's last step lays the tile and draws the next one itself: nothing is left to
    carry on after a choice.
    """

    name = "hunters_gatherers"
    variants = VARIANTS
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    state_type = HuntersGatherersState
    # The heuristic values every seat's features alike (points, shared majorities): a
    # search weighs what its rivals gain against its own (``engine.ai.rewards``).
    rivalry = 1.0

    def __init__(self) -> None:
        self.cache: BoardCache = BoardCache()
        self.machine = machine(self.cache)

    def new(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> HuntersGatherersState:
        """Set up a game; seat 0 plays first. ``options`` may choose the naming scheme
        (``names``: see ``coords``); an unknown option is refused (``bad_option``)."""
        try:
            chosen = read_variants(VARIANTS, options)
        except UnknownVariant as unknown:
            raise IllegalMove("bad_option", option=unknown.name, value=unknown.value) from None
        state = setup(players, seed, naming=SCHEMES[chosen[NAMES_VARIANT]])
        start(state, self.cache)
        return state

    def view(self, state: HuntersGatherersState, seat: int | None) -> HuntersGatherersView:
        """What ``seat`` may see, as the typed view model."""
        return view(state, self.cache, seat)

    def summary(self, state: HuntersGatherersState) -> Summary:
        """Whose turn and the scores (the game has no rounds or phases to show)."""
        return Summary(
            round=None, phase=None,
            deciding=() if state.step == "over" else (state.turn,),
            scores=tuple(p.score for p in state.players),
        )

    def next_turn(self, state: HuntersGatherersState, seat: int) -> int | None:
        """The next player, once ``seat``'s tile lies where no bonus turn follows and the
        next tile surely fits (see ``turn_order``)."""
        return next_turn(state, self.cache, seat)

    def secrets(self, state: HuntersGatherersState, seat: int | None) -> list[Any]:
        """The order of both face-down piles and the seed."""
        return [state.draw, state.bonus, state.rng.model_dump()]

    def redraw(self, state: HuntersGatherersState, seat: int, seed: int
               ) -> HuntersGatherersState:
        """A state no seat can tell from ``state``, both face-down piles drawn again from
        ``seed`` (see ``engine.hunters_gatherers.redraw``)."""
        return redeal(self.copy(state), seed)

    def copy(self, state: HuntersGatherersState) -> HuntersGatherersState:
        """An independent copy, made field by field (``state.copy_state``)."""
        return copy_state(state)

    def final_result(self, state: HuntersGatherersState) -> Result:
        """The scores of the finished game."""
        return final_result(state)

    def heuristic(self, state: HuntersGatherersState, seat: int) -> float:
        """A rough value of ``seat``'s position, for a greedy autopilot."""
        return position_value(state, self.cache, seat)

    def invariants(self, state: HuntersGatherersState) -> list[str]:
        """Broken invariants of ``state`` (empty when all is well)."""
        return problems(state, self.cache)


GAME = HuntersGatherers()
