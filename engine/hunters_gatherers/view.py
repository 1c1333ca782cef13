"""What a player, or an onlooker, may see: everything on the table, nothing face down.

Hidden: the order of the land and bonus piles (only their sizes show) and the random
source. The view is a typed model (``HuntersGatherersView``) that the bot's picture
and texts read; ``view.model_dump(mode="json")`` is the same JSON the engine has always
sent, key for key, and ``naming``: the scheme that names its squares.
"""

from __future__ import annotations

from typing import Literal

from engine.core.views import View
from engine.hunters_gatherers.board_cache import BoardCache
from engine.hunters_gatherers.coords import FIRST, Naming, naming
from engine.hunters_gatherers.state import Figure, HuntersGatherersState, Step


class MapTile(View):
    """A tile lying on the map at ``(x, y)``, turned ``rotation`` quarter turns clockwise."""

    x: int
    y: int
    tile: str
    rotation: int


class TileInHand(View):
    """The tile the seat to play holds; ``bonus`` when it is a bonus tile (which earns
    no further bonus turn)."""

    tile: str
    bonus: bool


class Spot(View):
    """Where the tile in hand fits: the square ``(x, y)``, its number ``n`` in the spot
    prompt (from 1, in the prompt's order) and the rotations that fit there."""

    n: int
    x: int
    y: int
    rotations: tuple[int, ...]


class MapFigure(Figure, View):
    """A tribe member or hut of ``seat`` on a feature piece of a placed tile: the
    state's ``Figure`` (all of it is public), frozen like any view."""


class PlayerView(View):
    """One seat as everyone sees it: the score and the figures still in the supply."""

    seat: int
    score: int
    members: int
    huts: int


class HuntersGatherersView(View):
    """The whole open table for ``you`` (``None``: an onlooker).

    ``tiles`` are in the order they were laid; ``naming`` is the scheme that names
    squares (``names``: ``view.names.square_name((x, y))``). While the figure is being
    chosen (``step == "figure"``), the tile in hand already lies last in ``tiles`` at its
    chosen spot and rotation, and ``spots`` is empty; ``spots`` is filled only while a spot or
    a rotation is chosen. ``current`` is None once the game is over, and ``end_reason``
    then says why it ended.
    """

    game: Literal["hunters_gatherers"] = "hunters_gatherers"
    you: int | None
    turn: int
    step: Step
    tiles_left: int
    bonus_left: int
    tiles: tuple[MapTile, ...]
    current: TileInHand | None
    spots: tuple[Spot, ...]
    figures: tuple[MapFigure, ...]
    players: tuple[PlayerView, ...]
    end_reason: str | None
    naming: int = FIRST  # how squares are named (``coords``): the game's scheme

    @property
    def names(self) -> Naming:
        """How this game names its squares."""
        return naming(self.naming)

    @property
    def laid_now(self) -> MapTile | None:
        """The tile laid this turn, while its figure is chosen (the engine lists it last
        in ``tiles``); None in every other step."""
        if self.step != "figure" or not self.tiles:
            return None
        return self.tiles[-1]


def view(state: HuntersGatherersState, cache: BoardCache, seat: int | None
         ) -> HuntersGatherersView:
    """The public picture of the game for ``seat`` (``None`` for an onlooker).

    ``cache`` is the game's ``BoardCache``, asked for the legal spots, so that a view
    costs no search of the map the prompts have not already paid for.
    """
    tiles = [MapTile(x=t.x, y=t.y, tile=t.tile, rotation=t.rotation) for t in state.tiles]
    listed: list[Spot] = []
    if state.step == "figure" and state.current and state.spot and state.rotation is not None:
        tiles.append(MapTile(x=state.spot[0], y=state.spot[1], tile=state.current,
                             rotation=state.rotation))
    elif state.step in ("spot", "rotation"):
        listed = [Spot(n=n, x=pos[0], y=pos[1], rotations=tuple(rots))
                  for n, (pos, rots) in enumerate(cache.spots(state), start=1)]
    return HuntersGatherersView(
        you=seat,
        turn=state.turn,
        step=state.step,
        tiles_left=len(state.draw),
        bonus_left=len(state.bonus),
        tiles=tuple(tiles),
        current=None if state.current is None
        else TileInHand(tile=state.current, bonus=state.current_bonus),
        spots=tuple(listed),
        figures=tuple(MapFigure(x=f.x, y=f.y, kind=f.kind, feature=f.feature, index=f.index,
                                seat=f.seat) for f in state.figures),
        players=tuple(PlayerView(seat=s, score=p.score, members=p.members, huts=p.huts)
                      for s, p in enumerate(state.players)),
        end_reason=state.end_reason,
        naming=state.naming,
    )
