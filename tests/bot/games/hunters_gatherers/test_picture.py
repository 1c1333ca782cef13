"""The Hunters and Gatherers picture: valid, deterministic, legible, robust to any input.

The engine's view is not final yet, so views are built by random growth of the map
(``sample_view``, which uses the engine's own ``legal_placements``).
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.games.hunters_gatherers.picture import (
    GAP,
    HEADER_H,
    MIN_CELL,
    SPOT_BG,
    map_frame,
    render_hunters_gatherers,
    sample_view,
    tile_layout,
    write_samples,
)
from bot.games.hunters_gatherers.picture_labels import LABELS, label
from engine.hunters_gatherers.geometry import Placement, legal_placements, mismatches
from engine.hunters_gatherers.tiles import all_tiles, oriented, tiles_of

NAMES = ["Анна", "Bob", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥", "Ёж"]


def _png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    im = Image.open(io.BytesIO(data))
    im.load()  # decodes the whole file: a truncated PNG fails here
    return im


@pytest.fixture(scope="module")
def start() -> dict[str, Any]:
    return sample_view(2, 1, 0)


@pytest.fixture(scope="module")
def mid() -> dict[str, Any]:
    return sample_view(4, 7, 30, figures=14)


@pytest.fixture(scope="module")
def full() -> dict[str, Any]:
    return sample_view(5, 3, None, figures=30)


# ------------------------------------------------------------------ the sample views


def test_sample_views_are_legal_maps(full: dict[str, Any]) -> None:
    board = {(t["x"], t["y"]): Placement(all_tiles()[t["tile"]], t["rotation"])
             for t in full["tiles"]}
    assert len(board) == len(full["tiles"])
    assert not mismatches(board)
    # Every land tile was drawn; only the ones that fit nowhere were set aside.
    assert full["tiles_left"] == 0
    assert len(board) >= 70
    # The spots are exactly the legal placements of the offered tile.
    tile = all_tiles()[full["current"]["tile"]]
    legal = {pos for pos, _ in legal_placements(board, tile)}
    assert {(s["x"], s["y"]) for s in full["spots"]} == legal
    assert [s["n"] for s in full["spots"]] == list(range(1, len(legal) + 1))


# ---------------------------------------------------------------------- rendering


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("stage", ["start", "mid", "full"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_renders_a_valid_png(players: int, stage: str, lang: str) -> None:
    placed = {"start": 0, "mid": 25, "full": None}[stage]
    view = sample_view(players, 40 + players, placed, figures=0 if placed == 0 else 12)
    im = _png(render_hunters_gatherers(view, NAMES[:players], lang))
    assert 900 <= im.width <= 1700
    assert 600 <= im.height <= 2000


@pytest.mark.parametrize("seed", [3, 11, 42])
def test_a_full_map_keeps_cells_legible_and_the_picture_bounded(seed: int) -> None:
    view = sample_view(4, seed, None, figures=20)
    cells = [(t["x"], t["y"]) for t in view["tiles"]] + [(s["x"], s["y"]) for s in view["spots"]]
    frame = map_frame(cells)
    assert frame.cell >= MIN_CELL
    im = _png(render_hunters_gatherers(view, NAMES))
    assert im.width <= max(1400, frame.width + 40)


def test_same_view_gives_the_same_bytes(mid: dict[str, Any]) -> None:
    first = render_hunters_gatherers(mid, NAMES)
    assert render_hunters_gatherers(copy.deepcopy(mid), list(NAMES)) == first


def test_a_view_after_a_json_round_trip_draws_the_same(full: dict[str, Any]) -> None:
    again = json.loads(json.dumps(full))
    assert render_hunters_gatherers(again, NAMES) == render_hunters_gatherers(full, NAMES)


def test_spots_are_drawn_and_numbered(mid: dict[str, Any]) -> None:
    with_spots = render_hunters_gatherers(mid, NAMES)
    without = copy.deepcopy(mid)
    without["spots"] = []
    assert render_hunters_gatherers(without, NAMES) != with_spots
    renumbered = copy.deepcopy(mid)
    renumbered["spots"][0]["n"] = 99
    assert render_hunters_gatherers(renumbered, NAMES) != with_spots
    # The spot's cell is painted as a spot (cream card, not paper or tile).
    im = _png(with_spots).convert("RGB")
    cells = [(t["x"], t["y"]) for t in mid["tiles"]] + [(s["x"], s["y"]) for s in mid["spots"]]
    frame = map_frame(cells)
    left = (im.width - frame.width) // 2
    top = HEADER_H + GAP
    spot = mid["spots"][0]
    x = left + (spot["x"] - frame.min_x) * frame.cell + frame.cell // 5
    y = top + (spot["y"] - frame.min_y) * frame.cell + frame.cell // 5
    pixel = im.getpixel((x, y))
    assert isinstance(pixel, tuple)
    assert all(abs(a - b) <= 4 for a, b in zip(pixel, SPOT_BG, strict=True))


def test_figures_turn_and_scores_show(mid: dict[str, Any]) -> None:
    base = render_hunters_gatherers(mid, NAMES)
    no_figures = copy.deepcopy(mid)
    no_figures["figures"] = []
    assert render_hunters_gatherers(no_figures, NAMES) != base
    other_turn = copy.deepcopy(mid)
    other_turn["turn"] = (mid["turn"] + 1) % 4
    assert render_hunters_gatherers(other_turn, NAMES) != base
    richer = copy.deepcopy(mid)
    richer["players"][1]["score"] += 5
    assert render_hunters_gatherers(richer, NAMES) != base


def test_both_languages(mid: dict[str, Any]) -> None:
    ru = render_hunters_gatherers(mid, NAMES, "ru")
    en = render_hunters_gatherers(mid, NAMES, "en")
    assert ru != en
    # An unknown language falls back to Russian rather than failing.
    assert render_hunters_gatherers(mid, NAMES, "xx") == ru


def test_the_finished_game_and_the_rotation_step_draw() -> None:
    over = sample_view(3, 5, None, figures=10, spots=False)
    assert over["step"] == "over" and over["current"] is None
    _png(render_hunters_gatherers(over, NAMES, "en"))
    # The rotation step: one spot, where only some rotations fit; the others fade.
    rotation = sample_view(3, 9, 12, step="rotation")
    rotation["spots"] = [min(rotation["spots"], key=lambda spot: len(spot["rotations"]))]
    assert len(rotation["spots"][0]["rotations"]) < 4
    full_choice = copy.deepcopy(rotation)
    full_choice["spots"][0]["rotations"] = [0, 1, 2, 3]
    assert render_hunters_gatherers(rotation, NAMES) != render_hunters_gatherers(
        full_choice, NAMES)


def test_the_figure_step_frames_the_tile_just_laid() -> None:
    view = sample_view(2, 13, 20, figures=6, step="figure")
    assert view["spots"] == [] and view["tiles"][-1]["tile"] == view["current"]["tile"]
    spot_step = copy.deepcopy(view)
    spot_step["step"] = "spot"
    assert render_hunters_gatherers(view, NAMES) != render_hunters_gatherers(spot_step, NAMES)


def test_the_engine_view_draws() -> None:
    game = pytest.importorskip("engine.hunters_gatherers.game")
    import random

    state = game.GAME.new(3, 5)
    agent = random.Random(5)
    for step in range(120):
        prompts = game.GAME.pending(state)
        if not prompts:
            break
        prompt = agent.choice(prompts)
        game.GAME.apply(state, prompt.seat, agent.choice(prompt.options).key)
        if step % 30 == 0:
            _png(render_hunters_gatherers(game.GAME.view(state, 0), NAMES))


HOSTILE = [
    "",
    " \t\n ",
    "\u202eevil\u202c" * 50,
    "\x00\x01\x1b[31m",
    "😀" * 30,
    "W" * 5000,
    "مرحبا بالعالم",
    "<b>&amp;</b>{n}%s",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_names_do_not_crash(start: dict[str, Any], name: str) -> None:
    _png(render_hunters_gatherers(start, [name, name]))


def test_missing_names_and_odd_views_do_not_crash(mid: dict[str, Any]) -> None:
    _png(render_hunters_gatherers(mid, []))
    odd = copy.deepcopy(mid)
    odd["tiles"].append({"x": 50, "y": 50, "tile": "NOPE", "rotation": 1})
    odd["figures"].append({"x": 0, "y": 0, "kind": "wizard", "feature": "sky", "index": 9,
                           "seat": 7})
    odd["figures"].append({"x": 99, "y": 99, "kind": "hut", "feature": "lake", "index": 0,
                           "seat": 0})
    odd["current"] = {"tile": "NOPE", "bonus": False}
    odd["spots"].append({"n": "x", "x": None, "y": "2"})
    _png(render_hunters_gatherers(odd, NAMES))
    _png(render_hunters_gatherers({"game": "hunters_gatherers"}, NAMES))
    _png(render_hunters_gatherers({"tiles": None, "spots": "no", "players": [1, None]}, NAMES))


# --------------------------------------------------------------------- tile geometry


@pytest.mark.parametrize("tile_id", sorted(all_tiles()))
def test_every_feature_of_every_tile_has_an_anchor_inside_the_tile(tile_id: str) -> None:
    for rotation in range(4):
        tile = oriented(all_tiles()[tile_id], rotation)
        layout = tile_layout(tile_id, rotation)
        for kind, items in (("forest", tile.forests), ("river", tile.rivers),
                            ("meadow", tile.meadows), ("lake", tile.lakes)):
            for i in range(len(items)):
                x, y = layout.anchors[(kind, i)]
                assert 0.1 <= x <= 0.9 and 0.1 <= y <= 0.9
        assert len(layout.rivers) == len(tile.rivers)
        assert len(layout.lakes) == len(tile.lakes)
        animals = sum(n for m in tile.meadows for _, n in m.animals)
        assert sum(1 for k, _ in layout.icons if k in ("deer", "mammoth", "aurochs", "tiger")) \
            == animals


def test_rivers_leave_through_the_middle_of_their_sides() -> None:
    for tile in tiles_of("land"):
        layout = tile_layout(tile.id, 1)
        ends = {p for path in layout.rivers for p in (path[0], path[-1])}
        mids = {"N": (0.5, 0.0), "E": (1.0, 0.5), "S": (0.5, 1.0), "W": (0.0, 0.5)}
        for side, edge in zip("NESW", oriented(tile, 1).edges, strict=True):
            assert (mids[side] in ends) == (edge == "R"), (tile.id, side)


def test_labels_have_both_languages() -> None:
    for key, entry in LABELS.items():
        assert entry["ru"] and entry["en"], key
    assert label("no.such.key", "en") == "no.such.key"


def test_write_samples(tmp_path: Path) -> None:
    written = write_samples(tmp_path)
    assert len(written) == 12
    for path in written:
        assert path.name.startswith("hg_")
        _png(path.read_bytes())
