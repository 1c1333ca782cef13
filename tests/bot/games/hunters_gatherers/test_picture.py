"""The Hunters and Gatherers picture: valid, deterministic, legible, robust to any input,
and, shown with its prompt, explaining that prompt's buttons.

Views are built by random growth of the map (``sample_view``, which uses the engine's
own ``legal_placements``) or by playing real games to a step (``played_view``, which
also gives the open prompt).
"""

from __future__ import annotations

import copy
import json
import math
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw
from pydantic import ValidationError

from bot.games.hunters_gatherers.picture import (
    PageLayout,
    page_layout,
    render_hunters_gatherers,
)
from bot.games.hunters_gatherers.picture.focus import FigureMark, mark_points, read_focus
from bot.games.hunters_gatherers.picture.map_drawing import map_frame, mark_radius
from bot.games.hunters_gatherers.picture.samples import played_view, sample_view, write_samples
from bot.games.hunters_gatherers.picture.style import (
    BG,
    CHOSEN,
    EDGE,
    FOCUS_TILE,
    MARK_BG,
    MARK_EDGE,
    MIN_CELL,
    MUTED,
    PANEL,
    PANEL_TOP,
    SPOT_BG,
    STRIP_TILE,
    WORDS,
    Box,
    label,
)
from bot.games.hunters_gatherers.picture.tile_drawing import tile_image
from bot.games.hunters_gatherers.picture.tile_geometry import tile_layout
from engine.core.prompts import Label, Option, Prompt
from engine.hunters_gatherers.geometry import Placement, legal_placements, mismatches
from engine.hunters_gatherers.tiles import all_tiles, oriented, tiles_of
from engine.hunters_gatherers.view import HuntersGatherersView
from tests.bot.games.pictures import decoded, decoded_png

NAMES = ["Анна", "Bob", "Мария-Антуанетта Длиннофамильная", "Zoë 🔥", "Ёж"]


@pytest.fixture(scope="module")
def start() -> HuntersGatherersView:
    return sample_view(2, 1, 0)


@pytest.fixture(scope="module")
def mid() -> HuntersGatherersView:
    return sample_view(4, 7, 30, figures=14)


@pytest.fixture(scope="module")
def full() -> HuntersGatherersView:
    return sample_view(5, 3, None, figures=30)


# ------------------------------------------------------------------ the sample views


def test_sample_views_are_legal_maps(full: HuntersGatherersView) -> None:
    board = {(t.x, t.y): Placement(all_tiles()[t.tile], t.rotation) for t in full.tiles}
    assert len(board) == len(full.tiles)
    assert not mismatches(board)
    # Every land tile was drawn; only the ones that fit nowhere were set aside.
    assert full.tiles_left == 0
    assert len(board) >= 70
    # The spots are exactly the legal placements of the offered tile.
    assert full.current is not None
    tile = all_tiles()[full.current.tile]
    legal = {pos for pos, _ in legal_placements(board, tile)}
    assert {(s.x, s.y) for s in full.spots} == legal
    assert [s.n for s in full.spots] == list(range(1, len(legal) + 1))


# ---------------------------------------------------------------------- rendering


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("stage", ["start", "mid", "full"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_renders_a_valid_png(players: int, stage: str, lang: str) -> None:
    placed = {"start": 0, "mid": 25, "full": None}[stage]
    view = sample_view(players, 40 + players, placed, figures=0 if placed == 0 else 12)
    im = decoded(render_hunters_gatherers(view, NAMES[:players], lang))
    assert 900 <= im.width <= 1700
    assert 600 <= im.height <= 2000 + 2 * EDGE  # the squares' names take a band each side


@pytest.mark.parametrize("seed", [3, 11, 42])
def test_a_full_map_keeps_cells_legible_and_the_picture_bounded(seed: int) -> None:
    view = sample_view(4, seed, None, figures=20)
    cells = [(t.x, t.y) for t in view.tiles] + [(s.x, s.y) for s in view.spots]
    frame = map_frame(cells)
    assert frame.cell >= MIN_CELL
    im = decoded(render_hunters_gatherers(view, NAMES))
    assert im.width <= max(1400, frame.width + 40 + 2 * EDGE)


def test_same_view_gives_the_same_bytes(mid: HuntersGatherersView) -> None:
    first = render_hunters_gatherers(mid, NAMES)
    assert render_hunters_gatherers(copy.deepcopy(mid), list(NAMES)) == first


def test_a_view_after_a_json_round_trip_draws_the_same(full: HuntersGatherersView) -> None:
    again = HuntersGatherersView.model_validate(
        json.loads(json.dumps(full.model_dump(mode="json"))))
    assert render_hunters_gatherers(again, NAMES) == render_hunters_gatherers(full, NAMES)


def _redrawn(view: HuntersGatherersView, edit: Callable[[dict[str, Any]], None]) -> bytes:
    """The picture of ``view`` changed by ``edit``, which edits the view's JSON (read
    back as a view model, as a web page's edit would be)."""
    changed = view.model_dump(mode="json")
    edit(changed)
    return render_hunters_gatherers(HuntersGatherersView.model_validate(changed), NAMES)


def test_spots_are_drawn_and_named_by_their_square(mid: HuntersGatherersView) -> None:
    with_spots = render_hunters_gatherers(mid, NAMES)
    assert _redrawn(mid, lambda v: v.update(spots=[])) != with_spots
    # A spot shows the name of its square, not its place in the list.
    assert _redrawn(mid, lambda v: v["spots"][0].update(n=99)) == with_spots
    # The spot's cell is painted as a spot (cream card, not paper or tile) and its
    # middle carries ink: the name.
    im = decoded(with_spots).convert("RGB")
    layout = _layout(mid, None)
    spot = mid.spots[0]
    x0, y0, x1, y1 = layout.cell_box(spot.x, spot.y)
    cell = layout.frame.cell
    assert _near(im.getpixel((x0 + cell // 5, y0 + cell // 5)), SPOT_BG, 4)
    assert _ink(im.crop((x0 + cell // 4, y0 + cell // 3, x1 - cell // 4, y1 - cell // 3)))


def _richer(view: dict[str, Any]) -> None:
    view["players"][1]["score"] += 5


@pytest.mark.parametrize("edit", [
    lambda v: v.update(figures=[]),
    lambda v: v.update(turn=(v["turn"] + 1) % 4),
    _richer,
], ids=["no figures", "other turn", "richer"])
def test_figures_turn_and_scores_show(mid: HuntersGatherersView,
                                      edit: Callable[[dict[str, Any]], None]) -> None:
    assert _redrawn(mid, edit) != render_hunters_gatherers(mid, NAMES)


def test_both_languages(mid: HuntersGatherersView) -> None:
    ru = render_hunters_gatherers(mid, NAMES, "ru")
    en = render_hunters_gatherers(mid, NAMES, "en")
    assert ru != en
    # An unknown language falls back to Russian rather than failing.
    assert render_hunters_gatherers(mid, NAMES, "xx") == ru


def test_the_finished_game_and_the_rotation_step_draw() -> None:
    over = sample_view(3, 5, None, figures=10, spots=False)
    assert over.step == "over" and over.current is None
    decoded(render_hunters_gatherers(over, NAMES, "en"))
    # The rotation step: one spot, where only some rotations fit; the others fade.
    rotation = sample_view(3, 9, 12, step="rotation")
    fewest = min(rotation.spots, key=lambda spot: len(spot.rotations))
    rotation = rotation.model_copy(update={"spots": (fewest,)})
    assert len(rotation.spots[0].rotations) < 4
    full_choice = rotation.model_copy(
        update={"spots": (fewest.model_copy(update={"rotations": (0, 1, 2, 3)}),)})
    assert render_hunters_gatherers(rotation, NAMES) != render_hunters_gatherers(
        full_choice, NAMES)


def test_the_figure_step_frames_the_tile_just_laid() -> None:
    view = sample_view(2, 13, 20, figures=6, step="figure")
    assert view.current is not None
    assert view.spots == () and view.tiles[-1].tile == view.current.tile
    spot_step = view.model_copy(update={"step": "spot"})
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
            decoded(render_hunters_gatherers(game.GAME.view(state, 0), NAMES))


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
def test_hostile_names_do_not_crash(start: HuntersGatherersView, name: str) -> None:
    decoded(render_hunters_gatherers(start, [name, name]))


# A view of an empty table: no tiles, spots, figures or players.
EMPTY_TABLE: dict[str, Any] = {
    "you": None, "turn": 0, "step": "spot", "tiles_left": 0, "bonus_left": 0, "tiles": [],
    "current": None, "spots": [], "figures": [], "players": [], "end_reason": None,
}


def _odd(raw: dict[str, Any]) -> HuntersGatherersView:
    """The view model of a hand-made view's JSON, read as the picture would get it:
    whatever ``raw`` leaves out is the empty table's."""
    return HuntersGatherersView.model_validate({**EMPTY_TABLE, **raw})


def test_missing_names_and_odd_views_do_not_crash(mid: HuntersGatherersView) -> None:
    decoded(render_hunters_gatherers(mid, []))
    odd = mid.model_dump(mode="json")
    odd["tiles"].append({"x": 50, "y": 50, "tile": "NOPE", "rotation": 1})
    # A figure with a piece index the tile lacks and a seat nobody sits in.
    odd["figures"].append({"x": 0, "y": 0, "kind": "hunter", "feature": "forest", "index": 9,
                           "seat": 7})
    odd["figures"].append({"x": 99, "y": 99, "kind": "hut", "feature": "lake", "index": 0,
                           "seat": 0})
    odd["current"] = {"tile": "NOPE", "bonus": False}
    decoded(render_hunters_gatherers(_odd(odd), NAMES))
    decoded(render_hunters_gatherers(_odd({"game": "hunters_gatherers"}), NAMES))
    decoded(render_hunters_gatherers(_odd({}), NAMES))
    # What is not a view at all never reaches the picture: the view model refuses it
    # (a figure of no kind on no feature, a spot without a square, fields of the wrong
    # type, a view missing its fields).
    wrong: list[dict[str, Any]] = [
        {**odd, "figures": [*odd["figures"], {"x": 0, "y": 0, "kind": "wizard",
                                              "feature": "sky", "index": 9, "seat": 7}]},
        {**odd, "spots": [*odd["spots"], {"n": "x", "x": None, "y": "2"}]},
        {**EMPTY_TABLE, "tiles": None, "spots": "no", "players": [1, None]},
        {"game": "hunters_gatherers"},
    ]
    for raw in wrong:
        with pytest.raises(ValidationError):
            HuntersGatherersView.model_validate(raw)


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
    for key, entry in WORDS.labels.items():
        assert entry["ru"] and entry["en"], key
    assert label("no.such.key", "en") == "no.such.key"


def test_write_samples(tmp_path: Path) -> None:
    written = write_samples(tmp_path)
    assert len(written) == 14
    for path in written:
        assert path.name.startswith("hg_")
        decoded_png(path.read_bytes())


# ------------------------------------------------- the focus: what the buttons mean


def _near(pixel: Any, color: tuple[int, int, int], tolerance: int = 24) -> bool:
    return isinstance(pixel, tuple) and all(
        abs(a - b) <= tolerance for a, b in zip(pixel, color, strict=True))


def _layout(view: HuntersGatherersView, focus: Prompt | None, lang: str = "ru") -> PageLayout:
    return page_layout(view, lang, read_focus(focus, view))


def _ink(im: Image.Image) -> set[tuple[int, int]]:
    """The dark pixels of ``im`` (text and outlines on the light paper), by position."""
    grey = im.convert("L")
    return {(x, y) for y in range(grey.height) for x in range(grey.width)
            if int(grey.getpixel((x, y))) < 170}  # type: ignore[arg-type]


def _written(text: str, box: Box, size: int) -> set[tuple[int, int]]:
    """The ink of ``text`` written in the middle of ``box`` as the map's edges write it."""
    from bot.render.text import fitting_font

    width, height = box[2] - box[0], box[3] - box[1]
    im = Image.new("RGB", (width, height), BG)
    room = width - 4 if height == EDGE else EDGE - 6
    fnt = fitting_font(text, room, size, True, 8)
    ImageDraw.Draw(im).text((width / 2, height / 2), text, font=fnt, fill=MUTED, anchor="mm")
    return _ink(im)


def _overlap(a: set[tuple[int, int]], b: set[tuple[int, int]]) -> float:
    return len(a & b) / max(1, len(a | b))


@pytest.fixture(scope="module")
def turning() -> tuple[HuntersGatherersView, Prompt]:
    """A real rotation prompt where only some rotations fit."""
    for seed in range(40):
        view, prompt = played_view(3, seed, "rotation", min_tiles=8)
        if len(prompt.options) < 5:  # fewer than four turns, and "back"
            return view, prompt
    raise AssertionError("no rotation prompt with fewer than four turns")


@pytest.fixture(scope="module")
def figuring() -> tuple[HuntersGatherersView, Prompt]:
    """A real figure prompt with several figure buttons."""
    return played_view(2, 13, "figure", min_tiles=20, min_figures=4)


def test_the_rotation_step_frames_the_spot_being_turned(
        turning: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = turning
    spot = (prompt.label.args["x"], prompt.label.args["y"])
    plain = decoded(render_hunters_gatherers(view, NAMES)).convert("RGB")
    focused = decoded(render_hunters_gatherers(view, NAMES, "ru", prompt)).convert("RGB")
    assert plain.tobytes() != focused.tobytes()
    layout = _layout(view, prompt)
    assert layout == _layout(view, None)  # the same places: only the marks differ
    x0, y0, _, _ = layout.cell_box(*spot)
    cell = layout.frame.cell
    inset, edge = max(2, cell // 16), max(2, cell // 24)
    # The chosen spot: a thick red frame (the plain picture has an orange one).
    ring = (x0 + cell // 2, y0 + inset + edge // 2)
    assert _near(focused.getpixel(ring), CHOSEN) and not _near(plain.getpixel(ring), CHOSEN)
    assert _near(focused.getpixel((x0 + cell // 5, y0 + cell // 5)), SPOT_BG, 6)
    # Another spot is only an outline now: its inside shows the table, not a spot card.
    other = next((s.x, s.y) for s in view.spots if (s.x, s.y) != spot)
    ox, oy, _, _ = layout.cell_box(*other)
    assert _near(plain.getpixel((ox + cell // 5, oy + cell // 5)), SPOT_BG, 6)
    assert _near(focused.getpixel((ox + cell // 5, oy + cell // 5)), BG, 6)


def test_the_rotation_step_shows_only_the_rotations_offered_there(
        turning: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = turning
    offered = [int(o.key[4:]) for o in prompt.options if o.key.startswith("rot:")]
    assert read_focus(prompt, view).rotations == tuple(offered)
    assert 1 <= len(offered) < 4
    plain = decoded(render_hunters_gatherers(view, NAMES)).convert("RGB")
    focused = decoded(render_hunters_gatherers(view, NAMES, "en", prompt)).convert("RGB")
    panel = _layout(view, prompt, "en").panel
    assert panel is not None
    x0, y0, _, _ = panel
    gap = min(22.0, ((panel[2] - x0) - 4 * STRIP_TILE) / 5)

    def slot_centre(slot: int) -> tuple[int, int]:
        return (round(x0 + gap + slot * (STRIP_TILE + gap)) + STRIP_TILE // 2,
                y0 + PANEL_TOP + STRIP_TILE // 2)

    # The slots after the offered rotations are empty panel; the plain strip has all four.
    for slot in range(len(offered), 4):
        assert _near(focused.getpixel(slot_centre(slot)), PANEL, 6)
        assert not _near(plain.getpixel(slot_centre(slot)), PANEL, 6)
    # The offered ones are drawn in full, in button order, exactly as the tile turned so.
    assert view.current is not None
    tile_id = view.current.tile
    for slot, k in enumerate(offered):
        drawn = tile_image(tile_id, k, STRIP_TILE, "en").convert("RGB")
        cx, cy = slot_centre(slot)
        probe = (STRIP_TILE // 2 + 9, STRIP_TILE // 2 - 7)
        want = drawn.getpixel(probe)
        assert isinstance(want, tuple)
        assert _near(focused.getpixel((cx + 9, cy - 7)), want)


def test_the_figure_step_numbers_each_piece_like_its_button(
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = figuring
    focus = read_focus(prompt, view)
    figures = [(i, o) for i, o in enumerate(prompt.options, start=1) if o.key.startswith("fig:")]
    assert len(focus.figures) == len(figures) >= 4
    for mark, (number, option) in zip(focus.figures, figures, strict=True):
        # The number is the option's place in the prompt and the one the button shows.
        assert mark.number == number == option.label.args["n"]
        assert option.key == f"fig:{mark.kind}:{mark.index}"
    plain = decoded(render_hunters_gatherers(view, NAMES)).convert("RGB")
    focused = decoded(render_hunters_gatherers(view, NAMES, "ru", prompt)).convert("RGB")
    assert plain.tobytes() != focused.tobytes()
    laid = view.tiles[-1]
    layout = _layout(view, prompt)
    cell = layout.frame.cell
    x0, y0, _, _ = layout.cell_box(laid.x, laid.y)
    points = mark_points(tile_layout(laid.tile, laid.rotation), focus.figures)
    r = mark_radius(cell)
    for ux, uy in points:
        cx, cy = x0 + ux * cell, y0 + uy * cell
        # A red ring round each mark; a white disc inside it.
        ring = (round(cx - r + 1), round(cy))
        assert _near(focused.getpixel(ring), MARK_EDGE, 40), ring
        assert not _near(plain.getpixel(ring), MARK_EDGE, 40), ring
        inside = [focused.getpixel((round(cx + dx), round(cy + dy)))
                  for dx in (-r * 0.45, r * 0.45) for dy in (-r * 0.45, r * 0.45)]
        assert any(_near(p, MARK_BG, 30) for p in inside)
    # The large copy of the tile in the panel carries the same marks.
    panel = layout.panel
    assert panel is not None and panel[3] - panel[1] >= PANEL_TOP + FOCUS_TILE
    tx, ty = panel[0] + 14, panel[1] + PANEL_TOP
    big = FOCUS_TILE * 0.075
    for ux, uy in points:
        cx, cy = tx + ux * FOCUS_TILE, ty + uy * FOCUS_TILE
        assert _near(focused.getpixel((round(cx - big + 2), round(cy))), MARK_EDGE, 40)


def test_the_numbers_follow_the_order_of_the_options(
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    view, prompt = figuring
    swapped = Prompt(prompt.seat, prompt.label, tuple(reversed(prompt.options)), prompt.step)
    marks = read_focus(swapped, view).figures
    count = len(prompt.options)
    assert [m.number for m in marks] == sorted(count + 1 - m.number
                                               for m in read_focus(prompt, view).figures)
    assert render_hunters_gatherers(view, NAMES, "ru", swapped) != render_hunters_gatherers(
        view, NAMES, "ru", prompt)


def test_marks_on_one_piece_stand_apart_inside_the_tile() -> None:
    # HG079: four rivers into one lake; a fisher and a hut may both go on river 0.
    marks = (FigureMark(1, "fisher", "river", 0), FigureMark(2, "hut", "river", 0),
             FigureMark(3, "fisher", "river", 1), FigureMark(4, "hunter", "meadow", 0))
    points = mark_points(tile_layout("HG079", 0), marks)
    for i, p in enumerate(points):
        assert 0.1 <= p[0] <= 0.9 and 0.1 <= p[1] <= 0.9
        for q in points[:i]:
            assert math.dist(p, q) >= 0.19
    assert points[0] == tile_layout("HG079", 0).anchors[("river", 0)]
    # None hides the lake's fish count.
    for centre, radius, _ in tile_layout("HG079", 0).lakes:
        assert all(math.dist(p, centre) >= radius * 0.69 for p in points)


def test_without_focus_or_with_a_prompt_it_cannot_read_the_picture_is_plain(
        turning: tuple[HuntersGatherersView, Prompt],
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    rot_view, rot_prompt = turning
    fig_view, fig_prompt = figuring
    spot_view, spot_prompt = played_view(2, 4, "spot", min_tiles=5)
    plain = {id(v): render_hunters_gatherers(v, NAMES, "en")
             for v in (rot_view, fig_view, spot_view)}
    odd_label = Label("hg.prompt.figure", {"x": "one", "y": None, "tile": 7})
    cases = [
        (rot_view, None),
        (spot_view, None),
        (fig_view, rot_prompt),  # a prompt of another step than the view's
        (rot_view, spot_prompt),
        (spot_view, Prompt(0, spot_prompt.label, (Option("at:999,999", Label("x")),
                                                  Option("at:1", Label("x"))))),
        (rot_view, fig_prompt),
        (rot_view, Prompt(0, Label("hg.prompt.rotation", {"x": 999, "y": 999}),
                          rot_prompt.options)),  # a spot the view does not offer
        (rot_view, Prompt(0, Label("hg.prompt.rotation", {"x": True, "y": "2"}), ())),
        (fig_view, Prompt(0, Label("sa.prompt.place", {"x": 1}), fig_prompt.options)),
        (fig_view, Prompt(0, odd_label, fig_prompt.options)),  # another tile than laid
        (fig_view, Prompt(0, fig_prompt.label,
                          (Option("fig:hunter:99", Label("x")), Option("fig:x:y", Label("x")),
                           Option("fig:hut", Label("x")), Option("rot:7", Label("x")),
                           Option("fig:gatherer:01", Label("x"))))),
        (fig_view, Prompt(0, fig_prompt.label, ())),
    ]
    for view, focus in cases:
        assert render_hunters_gatherers(view, NAMES, "en", focus) == plain[id(view)], focus
    # A rotation prompt without rot: keys still frames the spot, with the view's turns.
    bare = Prompt(rot_prompt.seat, rot_prompt.label, ())
    assert read_focus(bare, rot_view).turning
    decoded(render_hunters_gatherers(rot_view, NAMES, "en", bare))
    # Hostile views with a focus do not crash either; what is not a view at all (a
    # tile without its rotation, rotations that are no list) the view model refuses.
    for odd in ({"game": "hunters_gatherers", "step": "figure"},
                {"step": "rotation", "spots": [{"n": 1, "x": 1, "y": 0, "rotations": []}]},
                {"step": "figure", "tiles": [{"x": 0, "y": 0, "tile": "HG001", "rotation": 0}],
                 "current": {"tile": "HG001", "bonus": False}}):
        for focus in (rot_prompt, fig_prompt, spot_prompt):
            decoded(render_hunters_gatherers(_odd(odd), NAMES, "ru", focus))
    for wrong in ({"step": "rotation", "spots": [{"n": 1, "x": 1, "y": 0, "rotations": "no"}]},
                  {"step": "figure", "tiles": [{"x": 0, "y": 0, "tile": "HG001"}],
                   "current": {"tile": "HG001"}}):
        with pytest.raises(ValidationError):
            _odd(wrong)


def test_an_engine_view_read_back_from_its_json_draws_the_same(
        turning: tuple[HuntersGatherersView, Prompt],
        figuring: tuple[HuntersGatherersView, Prompt]) -> None:
    """The picture of a real game's view and of that view read back from its JSON (as a
    web page would send it) are the same bytes, prompt marks included."""
    spotting = played_view(3, 8, "spot", min_tiles=15)
    for view, prompt in (spotting, turning, figuring):
        again = HuntersGatherersView.model_validate_json(view.model_dump_json())
        assert again == view
        for focus in (None, prompt):
            assert render_hunters_gatherers(again, NAMES, "en", focus) == \
                render_hunters_gatherers(view, NAMES, "en", focus)


def test_spot_buttons_are_numbered_as_on_the_map() -> None:
    view, prompt = played_view(3, 8, "spot", min_tiles=15)
    numbers = {(s.x, s.y): s.n for s in view.spots}
    for position, option in enumerate(prompt.options, start=1):
        assert numbers[(option.label.args["x"], option.label.args["y"])] == position
        assert option.label.args["n"] == position


# ------------------------------------------- the squares' names along the map's edges


@pytest.mark.parametrize("stage", ["start", "mid", "full"])
def test_the_edges_name_every_column_and_row_where_it_is(stage: str) -> None:
    """Above and below each column its letters, left and right of each row its number:
    the ink in each band is that name written there, not the name of its neighbour."""
    placed = {"start": 0, "mid": 25, "full": None}[stage]
    view = sample_view(3, 21, placed, figures=6)
    im = decoded(render_hunters_gatherers(view, NAMES, "en")).convert("RGB")
    layout = _layout(view, None, "en")
    frame = layout.frame
    size = max(10, min(20, round(frame.cell * 0.36)))
    columns = range(frame.min_x, frame.min_x + frame.cols)
    rows = range(frame.min_y, frame.min_y + frame.rows)

    def named_here(box: Box, name_of: Callable[[int], str], at: int) -> None:
        here = _ink(im.crop(box))
        right = _overlap(here, _written(name_of(at), box, size))
        assert right > 0.9, (at, box, right)
        for other in (at - 1, at + 1):
            assert _overlap(here, _written(name_of(other), box, size)) < right - 0.05

    for x in columns:
        top, bottom, _, _ = layout.edge_boxes(x, frame.min_y)
        for box in (top, bottom):
            named_here(box, view.names.column_name, x)
    for y in rows:
        _, _, left, right = layout.edge_boxes(frame.min_x, y)
        for box in (left, right):
            named_here(box, view.names.row_name, y)
    # The corners of the bands hold no name: only paper there.
    corner = (layout.map_left - EDGE, layout.map_top - EDGE, layout.map_left, layout.map_top)
    assert not _ink(im.crop(corner))


def test_the_names_stay_with_their_squares_as_the_map_grows() -> None:
    """A column keeps its letters when the map grows westward: the band above the start
    tile's column reads CM in a small map and in a large one."""
    small, large = sample_view(2, 5, 3), sample_view(2, 5, 60)
    assert min(t.x for t in large.tiles) < min(t.x for t in small.tiles)
    for view in (small, large):
        im = decoded(render_hunters_gatherers(view, NAMES, "en")).convert("RGB")
        layout = _layout(view, None, "en")
        size = max(10, min(20, round(layout.frame.cell * 0.36)))
        top = layout.edge_boxes(0, 0)[0]
        assert _overlap(_ink(im.crop(top)), _written("CM", top, size)) > 0.9
        assert view.names.square_name((0, 0)) == "CM91"


def test_spot_buttons_name_the_squares_drawn_on_the_map() -> None:
    """The spot buttons say the names the map shows: a spot's cell carries its own
    name written large (under its button's number), and the buttons of the prompt name
    exactly those squares."""
    from bot.texts import texts_for

    view, prompt = played_view(3, 8, "spot", min_tiles=15)
    texts = texts_for("hunters_gatherers")
    im = decoded(render_hunters_gatherers(view, NAMES, "en", prompt)).convert("RGB")
    layout = _layout(view, prompt, "en")
    cell = layout.frame.cell
    buttons = {texts.option("en", o.label) for o in prompt.options}
    assert buttons == {f"📍 {view.names.square_name((s.x, s.y))}" for s in view.spots}
    names = [view.names.square_name((s.x, s.y)) for s in view.spots]
    for spot, name in zip(view.spots, names, strict=True):
        x0, y0, _, _ = layout.cell_box(spot.x, spot.y)
        here = _ink(im.crop((x0, y0, x0 + cell, y0 + cell)).crop(_under_number(cell)))
        right = _overlap(here, _spot_name(name, cell))
        assert right > 0.9, (name, right)
        for other in names:
            if other != name:
                # (O and Q differ by a tail only: the own name just has to match best)
                assert _overlap(here, _spot_name(other, cell)) < right, (name, other)


def _inner(cell: int) -> Box:
    """The inside of a spot's card, clear of its rounded frame."""
    inset = max(2, cell // 16) + max(2, cell // 24) + 2
    return (inset, inset, cell - inset, cell - inset)


def _under_number(cell: int) -> Box:
    """The inside of a numbered spot's card below its number: where its name is."""
    inset = _inner(cell)[0]
    return (inset, round(cell * 0.47), cell - inset, cell - inset)


def _spot_name(name: str, cell: int) -> set[tuple[int, int]]:
    """The ink of ``name`` written on a numbered spot's card as the map writes it."""
    from bot.render.text import fitting_font

    inset = max(2, cell // 16)
    im = Image.new("RGB", (cell, cell), SPOT_BG)
    fnt = fitting_font(name, cell - 4 * inset, max(14, round(cell * 0.5)), True, 10)
    ImageDraw.Draw(im).text((cell / 2, cell * 0.62), name, font=fnt, fill=(40, 31, 22),
                            anchor="mm")
    return _ink(im.crop(_under_number(cell)))


@pytest.mark.parametrize(("players", "seed", "tiles"), [(2, 3, 40), (4, 9, 60)])
def test_the_spot_buttons_name_the_columns_and_rows_on_the_edges(
        players: int, seed: int, tiles: int) -> None:
    """A grown map of a real game: every spot button's name has no minus sign, and its
    letters stand on the edge above and below the spot's column, its number beside the
    spot's row."""
    from bot.texts import texts_for

    view, prompt = played_view(players, seed, "spot", min_tiles=tiles)
    texts = texts_for("hunters_gatherers")
    im = decoded(render_hunters_gatherers(view, NAMES, "en", prompt)).convert("RGB")
    layout = _layout(view, prompt, "en")
    size = max(10, min(20, round(layout.frame.cell * 0.36)))
    by_key = {f"at:{s.x},{s.y}": s for s in view.spots}
    for option in prompt.options:
        spot = by_key[option.key]
        button = texts.option("en", option.label)
        found = re.fullmatch(r"📍 ([A-Z]+)([1-9][0-9]*)", button)
        assert found, button
        letters, number = found.groups()
        top, bottom, left, right = layout.edge_boxes(spot.x, spot.y)
        for box, name in ((top, letters), (bottom, letters), (left, number),
                          (right, number)):
            assert _overlap(_ink(im.crop(box)), _written(name, box, size)) > 0.9, (button, box)
