"""What the generic benches know about particular games: defaults, bars and probes.

``bench.playouts`` and ``bench.render`` work for any registered game; this table only
adds what differs by game: how many games or views make a useful run, the bars a game's
engine and picture are held to (from the issues that set them), and the few
measurements that only make sense for one game. A game missing here is still measured,
with the generic defaults and no bar.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any


def spot_search_cost(sizes: tuple[int, ...] = (1, 10, 20, 40, 60, 79),
                     repeats: int = 200) -> list[dict[str, float]]:
    """Hunters and Gatherers: microseconds to list every legal (spot, rotation) of a
    random tile, by map size (finding spots is the cost that grows with the map)."""
    from engine.hunters_gatherers.geometry import Placement, legal_placements
    from engine.hunters_gatherers.tiles import tile, tiles_of

    rnd = random.Random(7)
    land = [t.id for t in tiles_of("land")]
    start = next(t.id for t in tiles_of("start"))
    board = {(0, 0): Placement(tile(start), 0)}
    pile = land[:]
    rnd.shuffle(pile)
    out = []
    for size in sizes:
        while len(board) < size and pile:
            candidate = tile(pile.pop())
            found = legal_placements(board, candidate)
            if found:
                pos, rotation = rnd.choice(found)
                board[pos] = Placement(candidate, rotation)
        probes = [tile(t) for t in rnd.sample(land, 20)]
        started = time.perf_counter()
        for i in range(repeats):
            legal_placements(board, probes[i % len(probes)])
        micros = (time.perf_counter() - started) / repeats * 1e6
        out.append({"tiles_on_map": len(board), "us_per_search": round(micros, 1)})
    return out


@dataclass(frozen=True, slots=True)
class Playouts:
    """One game's playout bench: default counts, bars, and extras.

    ``player_means`` are attributes of the state's players averaged over the greedy
    games (reported as ``mean_<name>``); ``probes`` are extra measurements by the key
    they are reported under.
    """

    games: int = 20
    greedy: int = 0
    games_per_sec_min: float | None = None
    state_bytes_max: int | None = None
    player_means: tuple[str, ...] = ()
    probes: Mapping[str, Callable[[], Any]] = field(
        default_factory=lambda: MappingProxyType({}))


PLAYOUTS: Mapping[str, Playouts] = MappingProxyType({
    "stone_age": Playouts(games=100, games_per_sec_min=20, state_bytes_max=8192),
    "hunters_gatherers": Playouts(games=50, games_per_sec_min=10,
                                  probes=MappingProxyType({"spot_search": spot_search_cost})),
    # Issue 11: at least 5 four-player games per second unchecked, state at most 16 KB.
    "caverna": Playouts(games=20, greedy=2, games_per_sec_min=5,
                        state_bytes_max=16 * 1024, player_means=("begging",)),
})

# The slowest median render (ms) each game's picture is held to.
RENDER_MS_P50_MAX: Mapping[str, float] = MappingProxyType({
    "stone_age": 150,
    "hunters_gatherers": 300,
    "caverna": 300,
})
