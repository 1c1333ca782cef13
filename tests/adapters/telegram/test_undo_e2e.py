"""Taking back a move on Telegram, through the fake Bot API over real HTTP: after a
move and ``/undo`` the messages that showed the move are edited back (the table's
message, the mover's private prompt with its buttons, the private prompt the move had
sent the next player), and the buttons from before are refused as out of date; after
another player decided too, ``/undo`` asks them in the group and their "yes" button
takes both decisions back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.adapters.telegram.e2e_helpers import (
    GroupTable,
    StartBot,
    en,
    move_buttons,
    progress_button,
    token_field,
    two_player_table,
)
from tests.adapters.telegram.fake_api import FakeMessage, FakeTelegram, FakeUser


def labels(message: FakeMessage) -> list[str]:
    """The move buttons' labels."""
    return [label for label, _ in move_buttons(message)]


@dataclass
class LastStep:
    """What the table showed before the press that passed the turn on."""

    prompt: FakeMessage  # the mover's private prompt (the message pressed)
    prompt_text: str
    prompt_labels: list[str]
    data: list[str]  # its move buttons' callback data
    table_text: str
    table_labels: list[str]
    state: dict[str, Any]


async def play_until_turn_passes(table: GroupTable, user: FakeUser) -> LastStep:
    """``user`` presses the first button that moves on in their private prompt until
    their turn passes to the other player."""
    other = next(u for u in table.seats if u is not user)
    for _ in range(10):
        prompt = table.dm_prompt(user)
        assert prompt is not None
        step = LastStep(prompt, prompt.text or "", labels(prompt),
                        [d for _, d in move_buttons(prompt)],
                        table.table_message.text or "", labels(table.table_message),
                        (await table.record()).state)
        choice = progress_button(prompt)
        assert choice is not None
        query = await table.press(user, prompt, choice[1])
        assert query.answer is not None and not query.answer.show_alert
        if table.dm_prompt(other) is not None:
            return step
    raise AssertionError("the turn never passed")


async def test_an_undone_move_is_edited_back_everywhere(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, started=True) as table:
        tid = table.table_id
        first, second = table.seats
        last = await play_until_turn_passes(table, first)
        moved = set((table.table_message.text or "").splitlines()) - set(
            last.table_text.splitlines())
        assert moved  # the move's line and the next player's turn
        their_prompt = table.dm_prompt(second)
        assert their_prompt is not None
        their_data = [d for _, d in move_buttons(their_prompt)]

        await table.say(first, "/undo")
        record = await table.record()
        assert record.state == last.state
        # The table's own message, edited in place: the move is gone, the undo told,
        # and the first player's buttons are back (for the new version).
        shown = (table.table_message.text or "").splitlines()
        undone = en("undo.event", name=first.first_name)
        assert undone in shown and not moved & set(shown)
        assert [line for line in shown if line != undone] == last.table_text.splitlines()
        assert labels(table.table_message) == last.table_labels
        assert {token_field(d, 2) for _, d in move_buttons(table.table_message)} == \
            {str(record.version)}
        # The mover's private prompt, edited in place, asks again with its buttons.
        again = tg.message(first, last.prompt.message_id)
        # Its question and buttons as they were; the heading is a turn going on (the
        # first prompt of a turn was headed "your turn!", an edit does not ring again).
        heading, *question = (again.text or "").splitlines()
        assert question == last.prompt_text.splitlines()[1:] and heading.startswith("Stone Age")
        assert labels(again) == last.prompt_labels
        assert {token_field(d, 2) for _, d in move_buttons(again)} == {str(record.version)}
        # The next player's prompt says the turn is not theirs after all, buttons gone.
        theirs = tg.message(second, their_prompt.message_id)
        assert theirs.text == en("turn.taken_back", game="Stone Age", table=tid)
        assert theirs.buttons == []
        # Every button from before the undo is out of date.
        for user, message, data in ((first, again, last.data[0]), (first, again, last.data[-1]),
                                    (second, theirs, their_data[0])):
            query = await table.press(user, message, data, strict=False)
            assert query.answer is not None and query.answer.show_alert
            assert query.answer.text == en("press.stale"), query.answer.text
        assert (await table.record()).version == record.version


async def test_the_others_agree_by_button_in_the_group(
    tg: FakeTelegram, start_bot: StartBot
) -> None:
    async with two_player_table(tg, start_bot, started=True) as table:
        first, second = table.seats
        last = await play_until_turn_passes(table, first)
        theirs = table.dm_prompt(second)
        assert theirs is not None
        choice = progress_button(theirs)
        assert choice is not None
        query = await table.press(second, theirs, choice[1])
        assert query.answer is not None and not query.answer.show_alert
        await table.say(first, "/undo")
        asked = tg.last_message(table.group)
        assert asked.text == en("vote.undo", name=first.first_name, table=table.table_id,
                                voters=second.first_name)
        buttons = FakeTelegram.keyboard(asked)
        assert [label for label, _ in buttons] == ["Yes, take it back", "No, it stands"]
        # The one who asked cannot answer for the other.
        query = await table.press(first, asked, buttons[0][1])
        assert query.answer is not None and query.answer.show_alert
        assert query.answer.text == en("vote.not_a_voter")
        query = await table.press(second, asked, buttons[0][1])
        assert query.answer is not None and query.answer.text == en("vote.decided.agree")
        told = tg.last_message(table.group)
        assert told.text == en("vote.ended.undo.agree", name=first.first_name,
                               table=table.table_id)
        assert tg.message(table.group, asked.message_id).buttons == []
        # Both decisions are taken back: the table is as it was before the first one,
        # and asks the first player again.
        assert (await table.record()).state == last.state
        shown = (table.table_message.text or "").splitlines()
        undone = en("undo.event_many", name=first.first_name)
        assert [line for line in shown if line != undone] == last.table_text.splitlines()
        assert labels(table.table_message) == last.table_labels
        again = table.dm_prompt(first)
        assert again is not None and labels(again) == last.prompt_labels
