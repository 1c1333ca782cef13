"""Taking back a move on Discord, through simcord: after a move and ``/undo`` the
messages that showed the move are edited back (the table's message in the channel,
the mover's DM prompt with its buttons, the DM prompt the move had sent the next
player), and the buttons from before are refused as out of date; after another player
decided too, ``/undo`` asks them in the channel and their "yes" button takes both
decisions back."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import simcord

from adapters.discord.render import markdown
from adapters.store import StoreSettings
from bot.i18n.catalog import default_catalog
from bot.ui.markup import rich
from tests.adapters.discord.harness import (
    Table,
    buttons,
    choices,
    forged_click,
    progress,
    running_bot,
    token_field,
)
from tests.adapters.discord.test_interactions import started

CATALOG = default_catalog()


def en(code: str, **args: str) -> str:
    """An English catalog text as the bot writes it on Discord."""
    return markdown(rich(CATALOG.t("en", code, **args)))


def moves(message: Any) -> list[tuple[str, str]]:
    """(label, token) of a message's move choices."""
    return [(label, token) for label, token, _ in choices(message) if token.startswith("m.")]


def prompt_of(table: Table, member: simcord.MemberActor) -> Any | None:
    """The member's newest DM with moves of this table."""
    return next((m for m in reversed(table.dm(member))
                 if moves(m) and token_field(moves(m)[0][1], 1) == table.table_id), None)


@dataclass
class LastStep:
    """What the table showed before the choice that passed the turn on."""

    prompt_id: int  # the mover's DM prompt (the message chosen in)
    prompt_text: str
    prompt_moves: list[str]  # its moves' labels
    tokens: list[str]  # its moves' tokens
    table_text: str
    table_moves: list[str]
    state: dict[str, Any]


async def play_until_turn_passes(table: Table, member: simcord.MemberActor) -> LastStep:
    """``member`` takes the first choice that moves on in their DM prompt until their
    turn passes to the other player."""
    other = next(m for m in table.seats if m is not member)
    for _ in range(10):
        prompt = prompt_of(table, member)
        assert prompt is not None
        record = await table.bot.app.sv.store.get(table.table_id)
        step = LastStep(prompt.id, prompt.content, [label for label, _ in moves(prompt)],
                        [token for _, token in moves(prompt)], table.table_message.content,
                        [label for label, _ in moves(table.table_message)], record.state)
        choice = progress(prompt)
        assert choice is not None
        result = await table.choose(member, prompt, choice)
        assert result.acknowledged and not (result.response and result.response.ephemeral)
        if prompt_of(table, other) is not None:
            return step
    raise AssertionError("the turn never passed")


async def test_an_undone_move_is_edited_back_everywhere(store_settings: StoreSettings) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris")
        first, second = table.seats
        last = await play_until_turn_passes(table, first)
        moved = set(table.table_message.content.splitlines()) - set(
            last.table_text.splitlines())
        assert moved  # the move's line and the next player's turn
        theirs = prompt_of(table, second)
        assert theirs is not None
        their_token = moves(theirs)[0][1]

        result = await table.slash(first, "undo")
        assert result.response is not None and result.response.content == en("undo.done")
        record = await bot.app.sv.store.get(table.table_id)
        assert record.state == last.state
        # The table's own message, edited in place: the move is gone, the undo told,
        # and the first player's choices are back (for the new version).
        shown = table.table_message.content.splitlines()
        undone = en("undo.event", name=first.name)
        assert undone in shown and not moved & set(shown)
        assert [line for line in shown if line != undone] == last.table_text.splitlines()
        assert [label for label, _ in moves(table.table_message)] == last.table_moves
        assert {token_field(t, 2) for _, t in moves(table.table_message)} == \
            {str(record.version)}
        # The mover's DM prompt, edited in place, asks again with its buttons.
        again = next(m for m in table.dm(first) if m.id == last.prompt_id)
        # Its question as it was; the heading is a turn going on (the first prompt of a
        # turn was headed "your turn!", an edit does not ring again).
        heading, *question = (again.content or "").splitlines()
        assert question == last.prompt_text.splitlines()[1:] and "Stone Age" in heading
        assert [label for label, _ in moves(again)] == last.prompt_moves
        assert {token_field(t, 2) for _, t in moves(again)} == {str(record.version)}
        # The next player's prompt says the turn is not theirs after all, buttons gone.
        told = next(m for m in table.dm(second) if m.id == theirs.id)
        assert told.content == en("turn.taken_back", game="Stone Age", table=table.table_id)
        assert choices(told) == []
        # Every button from before the undo is out of date.
        for member, message, token in ((first, again, last.tokens[0]),
                                       (first, again, last.tokens[-1]),
                                       (second, told, their_token)):
            actor = member.user  # in a DM the member acts as a user
            stale = await forged_click(actor, message, "cf:" + token)
            assert stale.acknowledged and stale.ephemeral and stale.response is not None
            assert stale.response.content == en("press.stale")
        assert (await bot.app.sv.store.get(table.table_id)).version == record.version


async def test_the_others_agree_by_button_in_the_channel(store_settings: StoreSettings) -> None:
    async with running_bot(store_settings, seed=238) as bot:
        table = await started(bot, "Anna", "Boris")
        first, second = table.seats
        last = await play_until_turn_passes(table, first)
        theirs = prompt_of(table, second)
        assert theirs is not None
        choice = progress(theirs)
        assert choice is not None
        await table.choose(second, theirs, choice)
        before = len(table.history())
        await table.slash(first, "undo")
        [asked] = [m for m in table.history()[before:] if buttons(m)]
        assert asked.content == en("vote.undo", name=first.name, table=table.table_id,
                                   voters=second.name)
        assert [label for label, _ in buttons(asked)] == ["Yes, take it back", "No, it stands"]
        agree = choices(asked)[0]
        # The one who asked cannot answer for the other.
        refused = await table.choose(first, asked, agree)
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == en("vote.not_a_voter")
        before = len(table.history())
        result = await table.choose(second, asked, agree)
        assert result.response is not None and result.response.content == en(
            "vote.decided.agree")
        told = [m.content for m in table.history()[before:]]
        assert en("vote.ended.undo.agree", name=first.name, table=table.table_id) in told
        assert buttons(next(m for m in table.history() if m.id == asked.id)) == []
        # Both decisions are taken back: the table is as it was before the first one,
        # and asks the first player again.
        assert (await bot.app.sv.store.get(table.table_id)).state == last.state
        shown = table.table_message.content.splitlines()
        undone = en("undo.event_many", name=first.name)
        assert [line for line in shown if line != undone] == last.table_text.splitlines()
        assert [label for label, _ in moves(table.table_message)] == last.table_moves
        again = prompt_of(table, first)
        assert again is not None and [label for label, _ in moves(again)] == last.prompt_moves
