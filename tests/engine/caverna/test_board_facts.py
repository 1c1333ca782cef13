"""What a home board derives from its spaces is kept until an edit
(:mod:`engine.caverna.board_facts`), and is never part of the board's value."""

from __future__ import annotations

import copy
import pickle

from engine.caverna.board import START_CAVERN, HomeBoard, new_home_board
from engine.caverna.board_facts import BoardFacts, Signature


def _facts(board: HomeBoard) -> BoardFacts:
    found: BoardFacts = board.__pydantic_private__["_known"]  # type: ignore[index]
    return found


def test_a_derived_answer_is_worked_out_once_until_an_edit() -> None:
    board = new_home_board()
    calls: list[int] = []

    def caverns(b: HomeBoard) -> int:
        calls.append(1)
        return b.count("cavern")

    assert board.derived(caverns) == 2
    assert board.derived(caverns) == 2 and len(calls) == 1
    board.edit((4, 2)).tile = "cavern"
    assert board.derived(caverns) == 3 and len(calls) == 2


def test_every_kept_fact_is_dropped_by_an_edit() -> None:
    board = new_home_board()
    before = (board.signature(), board.furnished(), board.stored(), board.where("cavern"),
              board.count("cavern"), board.positions(), board.furnishings)
    assert board.signature() is before[0]  # kept, not worked out again
    board.edit(START_CAVERN).furnishing = "dwelling"
    board.edit((2, 3)).tile = "meadow"
    assert board.signature() != before[0]
    assert sorted(board.furnished()) == ["dwelling", "entry_level_dwelling"]
    assert board.furnishings == ["dwelling", "entry_level_dwelling"]  # board order
    assert len(board.stored()) == 3 and board.where("meadow") == [(2, 3)]
    assert board.count("cavern") == 2 and board.count("meadow", "cavern") == 3
    assert board.has_furnishing("dwelling")


def test_facts_agree_with_a_board_built_afresh() -> None:
    """A board edited many times answers as one loaded from its JSON (nothing stale)."""
    board = new_home_board()
    for pos, tile in (((2, 3), "meadow"), ((1, 3), "field"), ((3, 1), "tunnel"),
                      ((4, 2), "cavern"), ((2, 2), "meadow")):
        board.signature(), board.stored(), board.furnished()
        board.edit(pos).tile = tile  # type: ignore[assignment]
        fresh = HomeBoard.model_validate_json(board.model_dump_json())
        assert board.signature() == fresh.signature()
        assert hash(board.signature()) == hash(fresh.signature())
        assert board.stored() == fresh.stored() and board.where("meadow") == fresh.where("meadow")
        assert board.furnished() == fresh.furnished()


def test_facts_are_no_part_of_the_board() -> None:
    """Equal boards are equal whatever they worked out; copies, deep copies, pickles and
    the JSON round trip start without facts."""
    board = new_home_board()
    board.signature()
    assert _facts(board).answers
    assert board == new_home_board()
    for twin in (copy.deepcopy(board), pickle.loads(pickle.dumps(board)),
                 HomeBoard.model_validate_json(board.model_dump_json())):
        assert twin == board and not _facts(twin).answers and not _facts(twin).shared
    assert "_known" not in board.model_dump_json()


def test_a_signature_hashes_once_and_compares_by_value() -> None:
    value = (("3,3",), (("cavern", None, False, None, 0, None),))
    a, b = Signature(value), Signature(value)
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != Signature(((), ())) and a != value
    assert {a: 1}[b] == 1
