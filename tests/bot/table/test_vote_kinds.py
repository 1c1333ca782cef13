"""The kinds of vote as data: a time-out is decided by a majority of the others, a
request to take back by everyone asked agreeing (one refusal is enough to end it);
any move ends a request to take back, only the late seat's own ends a time-out."""

from __future__ import annotations

from bot.input.command_schema import spec_of
from bot.table.settings import TableMeta, Vote
from bot.table.vote_kinds import CHOICES, decided, end_vote, ends_with_move, voter_seats


def ballots(*choices: str) -> dict[str, str]:
    return {f"u{i}": c for i, c in enumerate(choices)}


def test_a_time_out_is_decided_by_a_majority_of_the_voters() -> None:
    assert decided(Vote(seat=0, ballots=ballots("wait")), 2) is None
    assert decided(Vote(seat=0, ballots=ballots("wait", "abort")), 2) is None
    assert decided(Vote(seat=0, ballots=ballots("wait", "wait")), 2) == "wait"
    assert decided(Vote(seat=0, ballots=ballots("easy", "abort", "easy")), 3) == "easy"
    assert decided(Vote(seat=0, ballots=ballots("strong")), 1) == "strong"
    # A stored ballot of the autopilot's old levels counts for the level that plays alike.
    assert decided(Vote(seat=0, ballots=ballots("random", "abort", "easy")), 3) == "easy"
    assert decided(Vote(seat=0, ballots=ballots("greedy", "normal")), 3) == "normal"


def test_taking_back_needs_every_voter_and_one_refusal_ends_it() -> None:
    undo = {"kind": "undo", "seat": 0, "voters": [1, 2, 3]}
    assert decided(Vote(**undo, ballots=ballots("agree", "agree")), 3) is None
    assert decided(Vote(**undo, ballots=ballots("agree", "agree", "agree")), 3) == "agree"
    assert decided(Vote(**undo, ballots=ballots("refuse")), 3) == "refuse"
    assert decided(Vote(**undo, ballots=ballots("agree", "refuse")), 3) == "refuse"


def test_the_seats_asked() -> None:
    assert voter_seats(Vote(seat=1), 4) == [0, 2, 3]  # a time-out: everyone else
    assert voter_seats(Vote(kind="undo", seat=1, voters=[3]), 4) == [3]


def test_which_moves_end_a_vote() -> None:
    timeout, undo = Vote(seat=1), Vote(kind="undo", seat=1, voters=[2])
    assert ends_with_move(timeout, 1) and not ends_with_move(timeout, 2)
    assert ends_with_move(undo, 1) and ends_with_move(undo, 2)


def test_ending_a_vote_notes_how() -> None:
    meta = TableMeta(vote=Vote(kind="undo", seat=1, opened=7, voters=[0]))
    end_vote(meta, "refuse", 9, by=0)
    assert meta.vote is None
    assert meta.ended is not None and meta.ended.model_dump() == {
        "version": 9, "kind": "undo", "seat": 1, "outcome": "refuse", "by": 0}


def test_the_typed_vote_offers_every_answer_of_every_kind() -> None:
    spec = spec_of("vote")
    assert spec is not None
    [choice] = [a for a in spec.args if a.name == "choice"]
    assert tuple(v.key for v in choice.values) == CHOICES
