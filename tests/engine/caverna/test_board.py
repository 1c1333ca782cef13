"""The home board model: layout, geometry and JSON round trip."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.caverna.board import (
    BONUS_SPACES,
    ENTRANCE,
    ENTRY_DWELLING,
    SPACE_FIELDS,
    START_CAVERN,
    HomeBoard,
    Space,
    key,
    new_home_board,
    pos_of,
    touching,
)


def test_new_board_has_the_printed_caverns() -> None:
    board = new_home_board()
    assert board.at(ENTRANCE) == Space(tile="cavern", furnishing=ENTRY_DWELLING)
    assert board.at(START_CAVERN) == Space(tile="cavern")
    assert board.empty_caverns() == [START_CAVERN]
    assert board.unused_spaces() == 22
    assert len(board.positions()) == 24


def test_round_trip_is_lossless_and_compact() -> None:
    board = new_home_board()
    board.edit((2, 3)).tile = "meadow"
    board.edit((2, 3)).stable = True
    board.edit((1, 3)).tile = "field"
    board.edit((1, 3)).crop = "grain"
    board.edit((1, 3)).crop_count = 3
    text = board.model_dump_json()
    assert '"stable":false' not in text and "null" not in text
    again = HomeBoard.model_validate_json(text)
    assert again == board
    assert again.sown("grain") == 3


def test_cliff_between_the_halves() -> None:
    assert touching((2, 3), (3, 3))
    assert not touching((2, 2), (3, 2))
    assert touching((3, 2), (3, 3))
    assert not touching((0, 0), (1, 1))


def test_keys() -> None:
    assert key((-1, 2)) == "-1,2"
    assert pos_of("-1,2") == (-1, 2)
    for bad in ("1", "01,2", "a,b", "1,2,3", "-0,1", "+1,2", " 1,2"):
        assert pos_of(bad) is None


def test_bonus_spaces() -> None:
    assert BONUS_SPACES[(2, 0)] == {"wild_boar": 1}
    assert BONUS_SPACES[(1, 3)] == {"food": 1}


@pytest.mark.parametrize(
    "spaces",
    [
        {"9,9": {"tile": "meadow"}},
        {"0,0": {"tile": "cavern"}},
        {"4,0": {"stable": True}},
        {"-1,0": {"stable": True}},
        {"0,0": {"tile": "large_pasture", "partner": "1,0"}},
    ],
)
def test_invalid_boards_are_refused(spaces: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        HomeBoard.model_validate({"spaces": spaces})


def test_a_signature_tells_boards_apart_by_everything_they_hold() -> None:
    """Answers about a board are memoised by its signature: equal boards share it, and
    any change made in place to any field of a space gives a new one."""
    board = new_home_board()
    assert board.signature() == new_home_board().signature()
    assert hash(board.signature()) == hash(new_home_board().signature())
    seen = {board.signature()}
    changes: list[tuple[tuple[int, int], str, object]] = [
        ((2, 3), "tile", "field"),
        ((2, 3), "crop", "grain"),
        ((2, 3), "crop_count", 3),
        ((2, 3), "crop_count", 2),
        ((0, 0), "stable", True),
        (START_CAVERN, "furnishing", "dwelling"),
        ((2, 2), "partner", "2,3"),
    ]
    for pos, name, value in changes:
        setattr(board.edit(pos), name, value)
        assert board.signature() not in seen
        seen.add(board.signature())


def test_a_signature_reads_every_field_of_a_space() -> None:
    """A field added to a space but not read into the signature would let two boards
    that differ there share their memoised answers."""
    assert set(SPACE_FIELDS) == set(Space.model_fields)
