"""The Caverna picture: golden-free checks over views of real games with 1–7 players.

Views come from games played with random legal choices (``samples``), taken
every few moves from the first round to the end. The drawing functions record what
they drew (``Record``), so the checks read that record and a few pixels instead of
comparing with stored pictures.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from PIL import Image

from bot.games.caverna.picture import draw_page, render_caverna
from bot.games.caverna.picture.canvas import Record
from bot.games.caverna.picture.focus import read_focus
from bot.games.caverna.picture.samples import SAMPLE_NAMES, Sample, board_prompt, played_views
from bot.games.caverna.picture.style import MARK, MIN_TEXT, WIDTH
from engine.caverna.board import TILES
from engine.caverna.components import ANIMALS
from engine.caverna.view_model import CavernaView
from engine.core.prompts import Label, Option, Prompt
from tests.bot.games.pictures import decoded

PHONE = 600  # a phone preview's width in pixels
SMALLEST_LETTERS = 11  # pixels, once the picture is shrunk to the preview's width
MAX_HEIGHT = 3600  # under Telegram's photo limits (width + height < 10000, ratio < 20)


@pytest.fixture(scope="module")
def samples() -> list[tuple[int, Sample]]:
    out: list[tuple[int, Sample]] = []
    for players in range(1, 8):
        # Seeds whose random games between them build every tile kind and keep every
        # animal (random play rarely fences a large pasture or keeps cattle).
        out += [(players, s) for s in played_views(players, seed=50 + players, every=40)]
    return out


@pytest.fixture(scope="module")
def drawn(samples: list[tuple[int, Sample]]) -> list[tuple[int, Image.Image, Record]]:
    out = []
    for i, (players, (view, focus)) in enumerate(samples):
        image, record = draw_page(view, SAMPLE_NAMES, ("ru", "en")[i % 2], focus)
        out.append((players, image, record))
    return out


def test_samples_cover_every_player_count_and_the_whole_game(
        samples: list[tuple[int, Sample]]) -> None:
    counts = {players for players, _ in samples}
    assert counts == set(range(1, 8))
    phases = {view.phase for _, (view, _) in samples}
    assert "over" in phases and "work" in phases
    assert min(view.round for _, (view, _) in samples) <= 1


def test_every_sample_draws_at_phone_width_within_height(
        drawn: list[tuple[int, Image.Image, Record]]) -> None:
    for players, image, _ in drawn:
        assert image.width == WIDTH <= 1000
        assert 1000 < image.height <= MAX_HEIGHT, (players, image.height)


def test_letters_stay_readable_in_a_phone_preview(
        drawn: list[tuple[int, Image.Image, Record]]) -> None:
    for _, image, record in drawn:
        assert record.min_text >= MIN_TEXT
        assert record.min_text * PHONE / image.width >= SMALLEST_LETTERS


def test_no_name_is_cut(drawn: list[tuple[int, Image.Image, Record]]) -> None:
    for _, _, record in drawn:
        assert record.cut == []


def test_every_tile_kind_and_animal_is_drawn_on_some_home_board(
        drawn: list[tuple[int, Image.Image, Record]]) -> None:
    tiles: set[str] = set()
    housed: set[str] = set()
    for _, _, record in drawn:
        tiles |= record.tiles
        housed |= record.housed
    assert tiles == set(TILES)
    assert housed == set(ANIMALS)


def test_every_seat_has_a_board_and_every_space_and_tile_is_shown(
        samples: list[tuple[int, Sample]], drawn: list[tuple[int, Image.Image, Record]]) -> None:
    for (players, (view, _)), (_, _, record) in zip(samples, drawn, strict=True):
        assert len(record.boards) == 1  # one large board...
        # ...and every other seat (every seat from 5 players on) on a small one.
        expected = players if players >= 5 else players - 1
        assert len(record.mini_boards) == expected
        assert set(record.boards + record.mini_boards) == set(range(players))
        assert record.spaces == {s.id for s in view.spaces}
        assert record.supply == {t.id for t in view.furnishings.tiles}
        built = {f for p in view.players for s in p.board.spaces
                 if (f := s.furnishing)}
        big = record.boards[0]
        own = {s.furnishing for s in view.players[big].board.spaces
               if s.furnishing}
        assert own <= record.furnishings <= built
        assert {"harvest", "actions", "supply"} <= set(record.sections)


def test_the_png_is_deterministic_and_survives_a_json_round_trip(
        samples: list[tuple[int, Sample]]) -> None:
    _, (view, focus) = samples[len(samples) // 2]
    first = render_caverna(view, SAMPLE_NAMES, "ru", focus)
    again = render_caverna(json.loads(view.model_dump_json()), SAMPLE_NAMES, "ru", focus)
    assert first == again
    assert decoded(first).size[0] == WIDTH
    assert render_caverna(view, SAMPLE_NAMES, "en", focus) != first


def test_a_home_board_prompt_numbers_its_squares_like_its_buttons() -> None:
    view, prompt = board_prompt(2, 0, ("furnish",), min_round=3)
    assert prompt is not None
    focus = read_focus(prompt, view)
    image, record = draw_page(view, SAMPLE_NAMES, "ru", prompt)
    offered = {n for n, o in enumerate(prompt.options, 1) if o.key.startswith("at:")}
    assert offered and set(record.marks.values()) == offered
    assert focus.seat == prompt.seat and record.boards == [prompt.seat]
    # The frame colour is on the page only because of the marks.
    plain, _ = draw_page(view, SAMPLE_NAMES, "ru", None)
    assert _count(image, MARK) > _count(plain, MARK) + 500


def test_a_twin_tile_prompt_numbers_pairs_of_squares() -> None:
    view, prompt = board_prompt(4, 5, ("twin",), min_round=4)
    assert prompt is not None
    focus = read_focus(prompt, view)
    _, record = draw_page(view, SAMPLE_NAMES, "en", prompt)
    lay = [n for n, o in enumerate(prompt.options, 1) if o.key.split(":")[0] in ("lay", "at")]
    assert set(record.marks.values()) == set(lay)
    numbered = [n for numbers in (*focus.pairs.values(), *focus.squares.values())
                for n in numbers]
    assert sorted(numbered) == sorted(lay)


def test_a_work_prompt_numbers_the_action_spaces_offered(
        samples: list[tuple[int, Sample]]) -> None:
    view, prompt = next(s for _, s in samples
                        if s[1] is not None and any(o.key.startswith("go:")
                                                    for o in s[1].options))
    assert prompt is not None
    _, record = draw_page(view, SAMPLE_NAMES, "ru", prompt)
    go = {n: o.key[3:] for n, o in enumerate(prompt.options, 1) if o.key.startswith("go:")}
    assert {k for k in record.marks if k.startswith("space:")} == {
        f"space:{space}:{n}" for n, space in go.items()}


def test_prompts_naming_nothing_known_leave_the_picture_alone(
        samples: list[tuple[int, Sample]]) -> None:
    _, (view, _) = samples[3]
    odd = Prompt(seat=0, label=Label("cav.prompt.board"), options=(
        Option("at:9,9x", Label("x")), Option("go:no_such_space", Label("x")),
        Option("tile:no_such_tile", Label("x")), Option("sow:1:0", Label("x"))))
    assert read_focus(odd, view).empty
    assert render_caverna(view, SAMPLE_NAMES, "ru", odd) == render_caverna(
        view, SAMPLE_NAMES, "ru", None)


@pytest.mark.parametrize("names", [[], ["", "\u0000", "🔥🔥"], ["x" * 500] * 7])
def test_odd_names_and_languages_never_fail(samples: list[tuple[int, Sample]],
                                            names: list[str]) -> None:
    _, (view, focus) = samples[-1]
    for lang in ("ru", "en", "de"):
        assert decoded(render_caverna(view, names, lang, focus)).width == WIDTH


@pytest.mark.parametrize("damage", ["empty", "no_players", "strings", "bad_board"])
def test_malformed_views_still_draw(samples: list[tuple[int, Sample]], damage: str) -> None:
    _, (view, _) = samples[5]
    broken: dict[str, Any] = view.model_dump(mode="json")  # the view as JSON data
    if damage == "empty":
        broken = {}
    elif damage == "no_players":
        broken["players"] = None
    elif damage == "strings":
        broken["round"] = "x"
        broken["spaces"] = ["x", {"id": 5, "goods": "lots", "occupant": {"seat": "a"}}]
    else:
        broken["players"][0]["board"]["spaces"] = [{"x": "a"}, {"x": 2, "y": 2, "tile": "lava"}]
        broken["players"][0]["housing"] = {"held": {"zz": {"sheep": 2}, "1,1": "many"}}
    assert decoded(render_caverna(broken, SAMPLE_NAMES, "ru", None)).width == WIDTH


def test_a_view_read_back_from_json_draws_the_same_picture(
        samples: list[tuple[int, Sample]]) -> None:
    """A view that went through JSON (a log, a web page) is the same view, so it draws
    the same bytes and the same record."""
    for _, (view, focus) in samples[::7]:
        again = CavernaView.model_validate_json(view.model_dump_json())
        assert again == view
        assert render_caverna(again, SAMPLE_NAMES, "en", focus) == render_caverna(
            view, SAMPLE_NAMES, "en", focus)
        assert draw_page(again, SAMPLE_NAMES, "ru", focus)[1] == draw_page(
            view, SAMPLE_NAMES, "ru", focus)[1]


def test_a_table_without_players_draws_the_blank_picture(
        samples: list[tuple[int, Sample]]) -> None:
    _, (view, _) = samples[5]
    image, record = draw_page(view.model_copy(update={"players": []}), SAMPLE_NAMES, "en")
    assert image.width == WIDTH and record.sections == ["empty"]
    assert record.boards == [] and record.spaces == set()


def _count(image: Image.Image, color: tuple[int, int, int]) -> int:
    found = image.convert("RGB").getcolors(maxcolors=1 << 24) or []
    return sum(n for n, pixel in found if pixel == color)


def test_a_twin_tile_square_then_its_direction_are_both_marked() -> None:
    """The square step frames each offered square (or the pair of a square with one way
    to lay the tile); the direction step frames only the pairs from the chosen square,
    numbered like their buttons, and the back button marks nothing."""
    import random

    from engine.caverna.caverna_game import CAVERNA
    from engine.caverna.view import view as view_of

    state = CAVERNA.new(4, 5)
    agent = random.Random(5)
    for _ in range(4000):
        prompt = CAVERNA.pending(state)[0]
        if any(o.key.startswith("at:") for o in prompt.options) and \
                prompt.label.args.get("what") == "twin":
            break
        CAVERNA.apply(state, prompt.seat,
                            agent.choice([o for o in prompt.options if not o.back]).key)
    else:
        raise AssertionError("no twin tile with a choice of direction")
    spot_focus = read_focus(prompt, view_of(state, prompt.seat))
    spots = {n: o.key for n, o in enumerate(prompt.options, 1) if o.key.startswith("at:")}
    assert {n for numbers in spot_focus.squares.values() for n in numbers} == set(spots)
    number, key = next(iter(spots.items()))
    assert spot_focus.squares[tuple(int(c) for c in key[3:].split(","))] == (number,)
    CAVERNA.apply(state, prompt.seat, key)
    second = CAVERNA.pending(state)[0]
    focus = read_focus(second, view_of(state, second.seat))
    lays = {n for n, o in enumerate(second.options, 1) if o.key.startswith("lay:")}
    assert not focus.squares and lays == {n for ns in focus.pairs.values() for n in ns}
    assert all(key[3:] in (f"{a[0]},{a[1]}", f"{b[0]},{b[1]}") for a, b in focus.pairs)
    assert second.options[-1].back
