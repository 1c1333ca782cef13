"""The presenter's result lines: the winners are named in a sentence that agrees with
their number ("Winner: anna", "Winners: anna, boris"), in both languages. The table
message's scores line says what a running score means when the game's texts say it
(Caverna counts the game as if it ended now)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.i18n.catalog import Lang, default_catalog, to_plain
from bot.identity import User
from bot.storage import TableRecord, TableStatus
from bot.ui.present import Presenter, winners_number
from bot.ui.tokens import TokenSigner
from engine.core.protocol import Result, SeatScore
from tests.bot.helpers import Harness, plain

PRESENTER = Presenter(default_catalog(), TokenSigner(b"present-test-secret-0123456789abc"))
NAMES = {"u0": "anna", "u1": "boris", "u2": "cleo"}


class _Ended:
    """A game that is over with the given winners (only ``result`` is asked)."""

    def __init__(self, winners: list[int]) -> None:
        totals = [10 if seat in winners else 5 for seat in range(3)]
        self._result = Result([SeatScore(s, t, {}) for s, t in enumerate(totals)], winners,
                              "cards_exhausted")

    def result(self, state: Any) -> Result:
        return self._result


def _record() -> TableRecord:
    return TableRecord(table_id="t1", game="stone_age", chat_id="c", creator_id="u0",
                       seats=("u0", "u1", "u2"), status=TableStatus.FINISHED,
                       meta={"names": NAMES})


CASES = [
    ("en", [0], "🏆 Winner: anna", "Winner: anna."),
    ("en", [0, 1], "🏆 Winners: anna, boris", "Winners: anna, boris."),
    ("ru", [0], "🏆 Победитель: anna", "Победитель: anna."),
    ("ru", [0, 1], "🏆 Победители: anna, boris", "Победители: anna, boris."),
]


@pytest.mark.parametrize(("lang", "winners", "line", "private"), CASES)
def test_the_winners_line_agrees_with_their_number(
    lang: Lang, winners: list[int], line: str, private: str
) -> None:
    game: Any = _Ended(winners)
    final = to_plain(PRESENTER.finished(_record(), game, None, lang).text).splitlines()
    assert final[-1] == line
    # The loser's own line names the winners the same way; a single winner's own line
    # needs no list of winners, a shared win names them all.
    loser = to_plain(PRESENTER.personal_result(_record(), game, None, 2, lang))
    assert loser.endswith(private), loser
    winner = to_plain(PRESENTER.personal_result(_record(), game, None, 0, lang))
    assert ("boris" in winner) == (len(winners) > 1), winner


def test_winners_number() -> None:
    assert winners_number(Result([], [1], "x")) == "one"
    assert winners_number(Result([], [0, 2], "x")) == "many"


ANNA = User(id="con:anna", name="Anna", lang="en")
BORIS = User(id="con:boris", name="Boris", lang="en")


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_caverna_says_its_running_score_counts_the_game_as_if_it_ended_now(
        h: Harness, lang: str) -> None:
    table_id = await h.started(ANNA, options=("1", lang), game="caverna")
    lines = plain(h.table_message(table_id).text).splitlines()
    scores = plain(h.sv.presenter.t(lang, "table.score_part", name="Anna", score=-28))
    assert lines[1] == h.t("cav.scores_now", lang, scores=scores)
    assert "(" in lines[1] and lines[1].startswith(scores)


async def test_a_game_without_such_words_shows_the_scores_alone(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, options=("en",))
    lines = plain(h.table_message(table_id).text).splitlines()
    assert "(" not in lines[1] and "Anna" in lines[1] and "Boris" in lines[1]
