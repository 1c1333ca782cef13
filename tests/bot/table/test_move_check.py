"""The one move check (``bot.table.moves.check``), as a pure function of a table: every
refusal in its order, and how a button's index and a typed number or key name an option."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.identity import Chat, User
from bot.storage import TableRecord, TableStatus
from bot.table import lobby
from bot.table.moves import (
    STALE,
    ByIndex,
    MoveRequest,
    Typed,
    check,
    prompt_of,
    seat_of,
)
from bot.table.refusals import Refusal
from bot.table.settings import TableOptions, meta_of
from bot.table.turns import fingerprint, load_state, open_first_prompts
from engine.core.prompts import Prompt
from engine.registry import get_game

GAME = get_game("stone_age")
ANNA, BORIS = User("t:anna", "Anna"), User("t:boris", "Boris")


def _prompts(record: TableRecord) -> list[Prompt]:
    return GAME.pending(load_state(GAME, record)) if record.status == TableStatus.RUNNING else []


def _running() -> TableRecord:
    record = lobby.open_table("t1", GAME, Chat("g:1"), ANNA, TableOptions(min_seats=2, max_seats=2))
    record = lobby.join(record, BORIS)
    record = lobby.start(record, ANNA, GAME, random.Random(3))
    return open_first_prompts(GAME, record, 100.0)


def _asked(record: TableRecord) -> tuple[User, Prompt]:
    [prompt] = _prompts(record)
    user = ANNA if record.seats[prompt.seat] == ANNA.id else BORIS
    return user, prompt


def _button(record: TableRecord, user: User, prompt: Prompt, index: int = 0,
            **changes: Any) -> MoveRequest:
    fields: dict[str, Any] = {
        "user_id": user.id, "seen": record.version, "seat": prompt.seat,
        "fingerprint": fingerprint(prompt), "choice": ByIndex(index)}
    fields.update(changes)
    return MoveRequest(**fields)


def test_a_fresh_button_stands_for_its_option() -> None:
    record = _running()
    user, prompt = _asked(record)
    assert check(record, _button(record, user, prompt, 1), _prompts) == (
        prompt.seat, prompt.options[1].key)


def test_a_typed_number_counts_from_one_and_a_key_passes_as_typed() -> None:
    record = _running()
    user, prompt = _asked(record)
    typed = MoveRequest(user_id=user.id, seen=record.version, fingerprint=fingerprint(prompt),
                        choice=Typed("2"))
    assert check(record, typed, _prompts) == (prompt.seat, prompt.options[1].key)
    as_key = MoveRequest(user_id=user.id, seen=record.version, fingerprint=fingerprint(prompt),
                         choice=Typed("no-such-key"))
    # An unknown key is the engine's to refuse, with its own reason.
    assert check(record, as_key, _prompts) == (prompt.seat, "no-such-key")
    out_of_range = MoveRequest(user_id=user.id, seen=record.version,
                               fingerprint=fingerprint(prompt),
                               choice=Typed(str(len(prompt.options) + 1)))
    assert check(record, out_of_range, _prompts) == (prompt.seat, str(len(prompt.options) + 1))


@pytest.mark.parametrize(("status", "code"), [
    (TableStatus.LOBBY, "press.not_started"),
    (TableStatus.FINISHED, "press.game_over"),
    (TableStatus.ABORTED, "press.game_over"),
])
def test_a_table_not_in_play_takes_no_move(status: TableStatus, code: str) -> None:
    record = _running()
    user, prompt = _asked(record)
    stopped = record.model_copy(update={"status": status})
    assert check(stopped, _button(record, user, prompt), _prompts) == Refusal(code)


def test_who_may_press() -> None:
    record = _running()
    user, prompt = _asked(record)
    other = BORIS if user is ANNA else ANNA
    stranger = _button(record, User("t:vera", "Vera"), prompt)
    assert check(record, stranger, _prompts) == Refusal("press.not_a_player")
    # Another player's button names its owner.
    theirs = _button(record, other, prompt)
    assert check(record, theirs, _prompts) == Refusal("press.not_your_button",
                                                      {"name": user.name})
    # A seat asked nothing: a button is stale, a typed move hears whose turn it is not.
    idle = 1 - prompt.seat
    button = _button(record, other, prompt, seat=idle)
    assert check(record, button, _prompts) == Refusal(STALE)
    typed = MoveRequest(user_id=other.id, seen=record.version, fingerprint=None,
                        choice=Typed("1"), unasked="reason.not_your_turn")
    assert check(record, typed, _prompts) == Refusal("reason.not_your_turn")


def test_what_makes_a_button_stale() -> None:
    record = _running()
    user, prompt = _asked(record)
    assert check(record, _button(record, user, prompt, seen=record.version + 1),
                 _prompts) == Refusal(STALE)
    assert check(record, _button(record, user, prompt, fingerprint="00000000"),
                 _prompts) == Refusal(STALE)
    assert check(record, _button(record, user, prompt, len(prompt.options)),
                 _prompts) == Refusal(STALE)
    # The seat acted after the button was issued.
    meta = meta_of(record)
    meta.last_acted[str(prompt.seat)] = record.version + 1
    acted = record.model_copy(update={"meta": meta.model_dump(mode="json")})
    assert check(acted, _button(record, user, prompt), _prompts) == Refusal(STALE)
    # A typed move sent before the seat's last move was saved.
    meta = meta_of(record)
    meta.acted_at[str(prompt.seat)] = 50.0
    sent = record.model_copy(update={"meta": meta.model_dump(mode="json")})
    typed = MoveRequest(user_id=user.id, seen=record.version, fingerprint=fingerprint(prompt),
                        choice=Typed("1"), sent_at=50.0)
    assert check(sent, typed, _prompts) == Refusal(STALE)
    assert check(sent, MoveRequest(user_id=user.id, seen=record.version,
                                   fingerprint=fingerprint(prompt), choice=Typed("1"),
                                   sent_at=51.0), _prompts) == (prompt.seat,
                                                                prompt.options[0].key)


def test_seat_and_prompt_lookups() -> None:
    record = _running()
    user, prompt = _asked(record)
    assert seat_of(record, user.id) == prompt.seat
    assert seat_of(record, "t:nobody") is None
    prompts = _prompts(record)
    assert prompt_of(prompts, prompt.seat) is prompts[0]
    assert prompt_of(prompts, 1 - prompt.seat) is None
