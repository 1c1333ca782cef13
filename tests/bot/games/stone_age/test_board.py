"""What /board says beside the picture: your own civilization cards in full, and for
every other player the scoring bottoms of the cards the table saw them buy, plus how
many they hold face down (drawn blind with the bonus card)."""

from __future__ import annotations

import pytest

from bot.games.stone_age.texts import StoneAgeTexts
from engine.stone_age.game import GAME
from engine.stone_age.state import StoneAgeState
from tests.bot.texts.conftest import RecordingCatalog
from tests.engine.stone_age.helpers import play, scripted, start_actions

EN = ["Anna", "Boris", "Cleo"]
RU = ["Анна", "Борис", "Клео"]


@pytest.fixture(autouse=True)
def _no_missing_texts(catalog: RecordingCatalog) -> object:
    yield
    assert not catalog.missing, sorted(catalog.missing)


def bought_and_drawn() -> StoneAgeState:
    """Anna buys c18 (dice for everyone: 2 farmers) in slot 2, then c09 (bonus card:
    writing) in slot 1 and draws c21 blind (1 farmer): the dice may bring what pays for
    c09, so they come first by themselves. Boris buys c15 (3 points: music)."""
    # Three dice for everyone, then one for Cleo's hunt.
    state = scripted(3, dice=[3, 5, 6, 4], row=["c09", "c18", "c15", "c01"],
                     deck=["c20", "c06", "c07", "c21"])
    state.players[0].goods["wood"] = 3
    state.players[1].goods["clay"] = 3
    start_actions(state, {0: {"card1": 1, "card2": 1}, 1: {"card3": 1}, 2: {"hunt": 1}})
    play(state, 0, "pay:2.0.0.0")
    # Dice for everyone: Anna takes the 3, Boris the 5, and the 6 is left to Cleo.
    play(state, 0, "die:3")
    play(state, 1, "die:5")
    play(state, 0, "pay:1.0.0.0")
    play(state, 1, "pay:0.3.0.0")
    assert state.players[0].cards == ["c18", "c09", "c21"]
    assert state.players[0].blind == ["c21"]
    assert state.players[1].cards == ["c15"]
    assert state.phase == "placement" and state.round == 2  # the game goes on
    return state


def board(texts: StoneAgeTexts, state: StoneAgeState, seat: int, lang: str) -> list[str]:
    names = EN if lang == "en" else RU
    return [str(line) for line in texts.board(lang, GAME.view(state, seat), seat, names)]


def test_your_cards_in_full_and_what_the_others_bought_in_the_open(
    texts: StoneAgeTexts,
) -> None:
    state = bought_and_drawn()
    assert board(texts, state, 1, "en") == [
        "Your civilization cards: ⭐3 | music",
        "<b>Anna</b>'s cards: 2 farmers, writing, 1 card face down",
    ]
    assert board(texts, state, 1, "ru") == [
        "Ваши карты цивилизации: ⭐3 | музыка",
        "Карты игрока <b>Анна</b>: 2 земледельца, письменность, 1 карта в закрытую",
    ]


def test_the_taker_sees_the_card_drawn_blind(texts: StoneAgeTexts) -> None:
    state = bought_and_drawn()
    assert board(texts, state, 0, "en") == [
        "Your civilization cards: 🎲 for all | 2 farmers; 🃏+1 | writing; 🌾+1 | 1 farmer",
        "<b>Boris</b>'s cards: music",
    ]
    assert board(texts, state, 0, "ru")[0] == (
        "Ваши карты цивилизации: 🎲 предметы всем | 2 земледельца; 🃏+1 | письменность; "
        "🌾+1 | 1 земледелец"
    )


def test_players_without_cards_are_left_out(texts: StoneAgeTexts) -> None:
    state = bought_and_drawn()
    lines = board(texts, state, 2, "en")
    assert lines == [
        "Your civilization cards: —",
        "<b>Anna</b>'s cards: 2 farmers, writing, 1 card face down",
        "<b>Boris</b>'s cards: music",
    ]
    assert board(texts, GAME.new(2, seed=1), 0, "ru") == ["Ваши карты цивилизации: —"]


@pytest.mark.parametrize(
    ("hidden", "ru"),
    [(2, "2 карты в закрытую"), (5, "5 карт в закрытую")],
)
def test_hidden_counts_take_the_right_plural(texts: StoneAgeTexts, hidden: int,
                                             ru: str) -> None:
    state = GAME.new(2, seed=1)
    state.players[1].cards = ["c33", "c34", "c35", "c36", "c30"][:hidden]
    state.players[1].blind = list(state.players[1].cards)
    assert board(texts, state, 0, "ru")[1] == f"Карты игрока <b>Борис</b>: {ru}"
    assert board(texts, state, 0, "en")[1] == (
        f"<b>Boris</b>'s cards: {hidden} cards face down"
    )


def test_every_card_shows_once_the_game_is_over(texts: StoneAgeTexts) -> None:
    state = bought_and_drawn()
    state.phase = "over"
    assert board(texts, state, 1, "en")[1] == (
        "<b>Anna</b>'s cards: 2 farmers, writing, 1 farmer"
    )


def test_names_on_the_board_are_escaped(texts: StoneAgeTexts) -> None:
    state = bought_and_drawn()
    lines = texts.board("en", GAME.view(state, 1), 1, ['<i>A&B</i>', "Boris", "Cleo"])
    assert lines[1].startswith("<b>&lt;i&gt;A&amp;B&lt;/i&gt;</b>'s cards:")
