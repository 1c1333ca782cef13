"""The kinds of vote a table holds, as data: the answers each offers, how many ballots
an answer needs to decide it, and whether any move ends it.

A table holds one vote at a time (``TableMeta.vote``). Counting the ballots and ending a
vote is the same for every kind; only what a decided answer does differs (``bot.table
.votes``), and what the players read (``vote.<kind>``, ``vote.ended.<kind>.<outcome>``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from bot.table.settings import AI_LEVELS, TableMeta, Vote, VoteEnd, VoteKindName

AGREE = "agree"
REFUSE = "refuse"
# How a vote ends when no answer decided it: its time ran out, or the table moved on
# so that its question no longer stands.
LAPSED = "lapsed"
MOVED_ON = "moved_on"


@dataclass(frozen=True, slots=True)
class VoteKind:
    """What a kind of vote asks."""

    choices: tuple[str, ...]
    # The ballots an answer needs among this many voters to decide the vote.
    needs: Callable[[str, int], int]
    # Any player's move ends it (its question was about the table as it stood); without
    # this, only a move of the seat it is about does.
    any_move_ends: bool


def _majority(choice: str, voters: int) -> int:
    return voters // 2 + 1


def _consent(choice: str, voters: int) -> int:
    # Taking back others' decisions needs every one of them; one refusal is enough.
    return voters if choice == AGREE else 1


KINDS: dict[VoteKindName, VoteKind] = {
    # After a time-out: wait for the player, hand the seat to the AI at a level, or abort.
    "timeout": VoteKind(("wait", *AI_LEVELS, "abort"), _majority, any_move_ends=False),
    "undo": VoteKind((AGREE, REFUSE), _consent, any_move_ends=True),
}
# Every answer a ballot may give (a token or a typed ``/vote`` naming another is forged).
CHOICES: tuple[str, ...] = tuple(dict.fromkeys(c for k in KINDS.values() for c in k.choices))


def voter_seats(vote: Vote, seats: int) -> list[int]:
    """The seats a vote asks: those it lists, or every seat but the one it is about (a
    vote opened before AI players had seats; it lists its voters since)."""
    return vote.voters or [s for s in range(seats) if s != vote.seat]


def decided(vote: Vote, voters: int) -> str | None:
    """The answer the ballots so far decide among ``voters`` voters, if any."""
    kind = KINDS[vote.kind]
    tally = Counter(vote.ballots.values())
    return next((c for c in kind.choices if tally[c] >= kind.needs(c, voters)), None)


def ends_with_move(vote: Vote, seat: int) -> bool:
    """Does a move by ``seat`` end ``vote``?"""
    return KINDS[vote.kind].any_move_ends or vote.seat == seat


def end_vote(meta: TableMeta, outcome: str, version: int, by: int | None = None) -> None:
    """Close the open vote of ``meta`` with ``outcome`` at ``version``, noting how it
    ended for that version's messages."""
    vote = meta.vote
    if vote is None:
        return
    meta.ended = VoteEnd(version=version, kind=vote.kind, seat=vote.seat, outcome=outcome,
                         by=by)
    meta.vote = None
