"""Small hand-made tiles for map and feature tests."""

from __future__ import annotations

from typing import Any

from engine.hunters_gatherers.geometry import Placement
from engine.hunters_gatherers.tiles import Tile, parse_tile


def make(tile_id: str, **raw: Any) -> Tile:
    """A tile from data in the ``tiles.yaml`` format (kind defaults to land)."""
    raw.setdefault("kind", "land")
    return parse_tile(tile_id, raw)


# Forest on N only; the rest one meadow.
FOREST_END = make("T_FE", edges="FMMM", forests=[[["N"]]], meadows=[[["E", "S", "W"]]])
# Forest N and S joined, with a nugget; meadows E and W.
FOREST_PIPE = make(
    "T_FP", edges="FMFM", forests=[[["N", "S"], {"gold": 1}]], meadows=[[["E"]], [["W"]]]
)
# River from a spring to E; the meadow wraps round the spring.
SPRING_E = make(
    "T_SP", edges="MRMM", rivers=[["E", "spring"]], meadows=[[["N", "E1", "E2", "S", "W"]]]
)
# River from W into a 2-fish lake.
LAKE_W = make(
    "T_LK", edges="MMMR", rivers=[["W", "lake:A"]], lakes={"A": 2},
    meadows=[[["N", "E", "S", "W1", "W2"], {"deer": 1, "tiger": 1}]],
)
# River bend E-S; inner meadow E2+S1, outer meadow N+E1+S2+W.
BEND = make(
    "T_BD", edges="MRRM", rivers=[["E", "S"]],
    meadows=[[["N", "E1", "S2", "W"], {"mammoth": 1}], [["E2", "S1"]]],
)
# Straight river W-E: meadow N side is W2+N+E1, S side is E2+S+W1.
STRAIGHT = make(
    "T_ST", edges="MRMR", rivers=[["E", "W"]],
    meadows=[[["W2", "N", "E1"], {"deer": 1}], [["E2", "S", "W1"]]],
)
ALL_MEADOW = make("T_MM", edges="MMMM", meadows=[[["N", "E", "S", "W"]]])


def at(tile: Tile, rotation: int = 0) -> Placement:
    """A placement of ``tile`` turned ``rotation`` quarter turns clockwise."""
    return Placement(tile=tile, rotation=rotation)
