"""Realistic Hunters and Gatherers views for tests, samples and the benchmark.

``sample_view`` grows a map at random with the engine's own ``legal_placements`` (any
size, fast, no game state); ``played_view`` plays a real game with random legal choices
up to a given step and returns the view with the open prompt, for pictures that explain
a prompt's buttons. Run as a module to write sample pictures:

    python -m bot.games.hunters_gatherers.picture.samples [out/samples]
"""

from __future__ import annotations

import random
from collections.abc import Sized
from pathlib import Path
from typing import Any

from bot.render import samples
from bot.render.labels import Lang
from bot.render.samples import (
    BenchViews,
    Sample,
    play_until,
    random_lang,
    write_main,
    write_pictures,
)
from engine.core.prompts import Prompt
from engine.hunters_gatherers.coords import CURRENT
from engine.hunters_gatherers.game import GAME
from engine.hunters_gatherers.geometry import Placement, Pos, legal_placements
from engine.hunters_gatherers.state import FeatureKind, FigureKind, Step
from engine.hunters_gatherers.tiles import start_tile, tiles_of
from engine.hunters_gatherers.view import (
    HuntersGatherersView,
    MapFigure,
    MapTile,
    PlayerView,
    Spot,
    TileInHand,
)

SAMPLE_NAMES = samples.SAMPLE_NAMES[:5]
# Views per set the render bench times by default.
BENCH_SIZE = 30

_FIGURE_FOR: dict[FeatureKind, tuple[FigureKind, ...]] = {
    "forest": ("gatherer",), "river": ("fisher", "hut"), "meadow": ("hunter",),
    "lake": ("fisher", "hut"),
}


def sample_view(players: int, seed: int, placed: int | None, figures: int = 0,
                spots: bool = True, step: Step = "spot") -> HuntersGatherersView:
    """A view as the engine will give it, made by random growth of the map.

    Starting from the start tile at (0, 0), up to ``placed`` land tiles (None: all of
    them) are drawn in a shuffled order and put on a random legal placement (a tile
    that fits nowhere is set aside); ``figures`` random features get a figure of a
    random player. With ``spots`` the next tile (a bonus tile when the deck is used
    up) is offered at every legal position, numbered from 1 in the engine's order.
    """
    rng = random.Random(seed)
    start = start_tile()
    board: dict[Pos, Placement] = {(0, 0): Placement(start, 0)}
    order: list[tuple[Pos, Placement]] = [((0, 0), board[(0, 0)])]
    deck = list(tiles_of("land"))
    rng.shuffle(deck)
    limit = len(deck) if placed is None else placed
    used = 0
    while deck and len(order) - 1 < limit:
        tile = deck.pop()
        used += 1
        options = legal_placements(board, tile)
        if not options:
            continue
        pos, rotation = rng.choice(options)
        board[pos] = Placement(tile, rotation)
        order.append((pos, board[pos]))
    bonus = list(tiles_of("bonus"))
    view_spots: list[Spot] = []
    current: TileInHand | None = None
    if spots:
        candidates = deck[::-1] + [t for t in bonus if t not in deck]
        for tile in candidates:
            options = legal_placements(board, tile)
            if options:
                by_pos: dict[Pos, list[int]] = {}
                for pos, rotation in options:
                    by_pos.setdefault(pos, []).append(rotation)
                view_spots = [Spot(n=n, x=p[0], y=p[1], rotations=tuple(r))
                              for n, (p, r) in enumerate(by_pos.items(), 1)]
                current = TileInHand(tile=tile.id, bonus=tile.kind == "bonus")
                break
    view_tiles = [MapTile(x=p[0], y=p[1], tile=pl.tile.id, rotation=pl.rotation)
                  for p, pl in order]
    if step == "figure" and current is not None and view_spots:
        # As the engine does: the tile in hand lies on its chosen spot, no spots left.
        spot = view_spots[0]
        view_tiles.append(MapTile(x=spot.x, y=spot.y, tile=current.tile,
                                  rotation=spot.rotations[0]))
        view_spots = []
    view_figures: list[MapFigure] = []
    for _ in range(figures):
        pos, placement = rng.choice(order)
        tile = placement.oriented
        pieces: tuple[tuple[FeatureKind, Sized], ...] = (
            ("forest", tile.forests), ("river", tile.rivers), ("meadow", tile.meadows),
            ("lake", tile.lakes))
        kinds = [(k, i) for k, items in pieces for i in range(len(items))]
        feature, index = rng.choice(kinds)
        # The keywords in this order: the random draws must come as they always did.
        view_figures.append(MapFigure(x=pos[0], y=pos[1], kind=rng.choice(_FIGURE_FOR[feature]),
                                      feature=feature, index=index,
                                      seat=rng.randrange(players)))
    return HuntersGatherersView(
        you=0,
        turn=rng.randrange(players),
        step=step if current is not None else "over",
        tiles_left=len(deck),
        bonus_left=len(bonus),
        tiles=tuple(view_tiles),
        current=current,
        spots=tuple(view_spots),
        figures=tuple(view_figures),
        players=tuple(PlayerView(seat=s, score=rng.randrange(0, 12 * (used // 10 + 1)),
                                 members=rng.randrange(0, 6), huts=rng.randrange(0, 4))
                      for s in range(players)),
        end_reason=None if current is not None else "last_tile_placed",
        naming=CURRENT,  # as a game begun now names its squares
    )


def played_view(players: int, seed: int, step: str, *, min_tiles: int = 0,
                min_figures: int = 1, max_actions: int = 2000
                ) -> tuple[HuntersGatherersView, Prompt]:
    """The view (for the seat to play) and the open prompt of a real game, played with
    random legal choices until a prompt of ``step`` ("spot", "rotation" or "figure")
    is open with at least ``min_tiles`` tiles on the map (and, for "figure", at least
    ``min_figures`` figure buttons). Raises ``LookupError`` if the game ends first."""

    def wanted(state: Any, prompt: Prompt) -> bool:
        figures = sum(1 for o in prompt.options if o.key.startswith("fig:"))
        return (state.step == step and len(state.tiles) >= min_tiles
                and (step != "figure" or figures >= min_figures))

    found = play_until(GAME, players, seed, wanted, max_actions)
    if found:
        state, prompt = found
        return GAME.view(state, prompt.seat), prompt
    raise LookupError(f"no {step} prompt in game {seed}")


def write_samples(folder: Path) -> list[Path]:
    """Write start, middle and full maps, a finished game and the spot, rotation and
    figure steps shown with their prompts, in both languages."""
    from bot.games.hunters_gatherers.picture import render_hunters_gatherers

    cases: dict[str, Sample] = {
        "hg_start": (sample_view(2, 1, 0), None),
        "hg_mid": (sample_view(4, 7, 30, figures=14), None),
        "hg_full": (sample_view(5, 3, None, figures=30), None),
        "hg_over": (sample_view(3, 5, None, figures=20, spots=False), None),
        "hg_spot": played_view(3, 8, "spot", min_tiles=15),
        "hg_rotation": played_view(3, 9, "rotation", min_tiles=12),
        "hg_figure": played_view(2, 13, "figure", min_tiles=20, min_figures=4),
    }
    return write_pictures(folder, cases, render_hunters_gatherers, SAMPLE_NAMES)


def _clear_caches() -> None:
    """Forget every drawn tile, so that a render pays for drawing its tiles."""
    from bot.games.hunters_gatherers.picture.tile_drawing import tile_image
    from bot.games.hunters_gatherers.picture.tile_geometry import tile_layout

    tile_image.cache_clear()
    tile_layout.cache_clear()


def bench_views(size: int, seed: int) -> BenchViews:
    """``size`` maps of 20-45 tiles ("mid") and as many with the whole deck placed
    ("full"), of 2-5 players, each in a random language. The picture caches drawn
    tiles: "warm" is the usual case in a running bot, "cold" pays for every tile."""
    pick = random.Random(seed)
    sets: dict[str, list[tuple[Sample, Lang]]] = {"mid": [], "full": []}
    for i in range(size):
        players = pick.choice((2, 3, 4, 5))
        lang = random_lang(pick)
        sets["mid"].append(((sample_view(players, seed + i, pick.randint(20, 45),
                                         figures=pick.randint(5, 20)), None), lang))
        sets["full"].append(((sample_view(players, seed + i, None,
                                          figures=pick.randint(15, 35)), None), lang))
    return BenchViews(sets, clear_caches=_clear_caches)


if __name__ == "__main__":
    write_main(write_samples, "out/samples")
