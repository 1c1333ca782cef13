"""Opening, joining, leaving, starting and cancelling tables, by buttons and commands;
seating AI players (the creator's buttons and ``/new … ai=``)."""

from __future__ import annotations

import random

import pytest

from bot.storage import ActionKind, TableNotFound, TableStatus
from bot.table.log import load_any
from bot.table.settings import meta_of, options_of
from bot.ui.message import ToUser
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    EVA,
    GROUP,
    Clock,
    Harness,
    buttons_of,
    dm,
    plain,
    texts_in,
)


async def test_new_table_with_options_shows_lobby_with_buttons(h: Harness) -> None:
    reply = await h.text(ANNA, "/new stone_age 3-4 en remind=2h repeat=5 clock=24/12/72")
    assert reply.answer is None and not reply.alert
    [item] = reply.out
    assert item.to.chat_id == GROUP.id  # type: ignore[union-attr]
    table_id = item.message.slot.removeprefix("table:")  # type: ignore[union-attr]
    text = plain(item.message.text)
    assert f"table #{table_id} is open" in text
    assert "Players (1, 3–4): Anna" in text
    labels = [b.label for b in buttons_of(item.message)]
    # The creator's buttons for AI players too, while seats are free.
    assert labels == ["Join", "Leave", "Start", "Cancel",
                      "🤖 + easy AI", "🤖 + normal AI", "🤖 + strong AI"]
    record = await h.get(table_id)
    assert record.status == TableStatus.LOBBY
    assert record.seats == (ANNA.id,)
    assert record.creator_id == ANNA.id
    assert record.chat_id == GROUP.id
    assert record.version == 0
    options = options_of(record)
    assert (options.min_seats, options.max_seats, options.lang) == (3, 4, "en")
    assert options.reminder_h == 2.0 and options.reminder_repeats == 5
    assert options.clock and (options.clock_initial_h, options.clock_bonus_h,
                              options.clock_max_h) == (24.0, 12.0, 72.0)


@pytest.mark.parametrize(("arg", "hours"), [("remind=30m", 0.5), ("remind=90s", 0.025),
                                            ("remind=2d", 48.0), ("remind=3", 3.0)])
async def test_reminder_delay_units(h: Harness, arg: str, hours: float) -> None:
    table_id = await h.new_table(ANNA, arg)
    assert options_of(await h.get(table_id)).reminder_h == pytest.approx(hours)


async def test_defaults_follow_the_chat_language_and_game_limits(h: Harness) -> None:
    table_id = await h.new_table(ANNA)
    options = options_of(await h.get(table_id))
    assert (options.min_seats, options.max_seats, options.lang) == (2, 4, "en")
    assert not options.clock


async def test_join_and_leave_by_buttons_and_commands(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    reply = await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)
    assert not reply.alert
    assert plain(reply.answer) == f"Boris joined table #{table_id}."
    assert "Players (2, 2–4): Anna, Boris" in plain(h.table_message(table_id).text)

    reply = await h.text(CLARA, "/join")
    assert plain(reply.answer) == f"Clara joined table #{table_id}."
    assert (await h.get(table_id)).seats == (ANNA.id, BORIS.id, CLARA.id)

    reply = await h.press(BORIS, h.lobby_token(table_id, "leave"), GROUP)
    assert plain(reply.answer) == f"Boris left table #{table_id}."
    reply = await h.text(CLARA, f"/leave {table_id}")
    assert plain(reply.answer) == f"Clara left table #{table_id}."
    record = await h.get(table_id)
    assert record.seats == (ANNA.id,)
    assert "Players (1, 2–4): Anna" in plain(h.table_message(table_id).text)
    log = await h.store.action_log(table_id)
    assert [(e.key, e.user_id, e.kind) for e in log] == [
        ("join", BORIS.id, ActionKind.LOBBY), ("join", CLARA.id, ActionKind.LOBBY),
        ("leave", BORIS.id, ActionKind.LOBBY), ("leave", CLARA.id, ActionKind.LOBBY),
    ]
    assert record.version == 4


async def _refused(h: Harness, table_id: str, reply_coro: object, code: str) -> None:
    before = await h.snapshot(table_id)
    reply = await reply_coro  # type: ignore[misc]
    assert reply.alert
    assert plain(reply.answer) == h.t(code)
    assert reply.out == []
    await h.assert_unchanged(table_id, before)


async def test_lobby_refusals_change_nothing(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "2-2", "en")
    join = h.lobby_token(table_id, "join")
    start = h.lobby_token(table_id, "start")
    cancel = h.lobby_token(table_id, "cancel")
    leave = h.lobby_token(table_id, "leave")

    await _refused(h, table_id, h.press(ANNA, start, GROUP), "lobby.too_few")
    await _refused(h, table_id, h.text(ANNA, "/start"), "lobby.too_few")
    await _refused(h, table_id, h.press(ANNA, join, GROUP), "lobby.already_joined")
    await _refused(h, table_id, h.press(ANNA, leave, GROUP), "lobby.creator_cannot_leave")
    await _refused(h, table_id, h.text(ANNA, "/leave"), "lobby.creator_cannot_leave")
    await _refused(h, table_id, h.press(BORIS, leave, GROUP), "lobby.not_joined")

    assert not (await h.press(BORIS, join, GROUP)).alert
    await _refused(h, table_id, h.press(BORIS, join, GROUP), "lobby.already_joined")
    await _refused(h, table_id, h.text(BORIS, "/join"), "lobby.already_joined")
    await _refused(h, table_id, h.press(CLARA, join, GROUP), "lobby.full")
    await _refused(h, table_id, h.text(CLARA, "/join"), "lobby.full")
    await _refused(h, table_id, h.press(BORIS, start, GROUP), "lobby.only_creator")
    await _refused(h, table_id, h.text(BORIS, "/start"), "lobby.only_creator")
    await _refused(h, table_id, h.press(BORIS, cancel, GROUP), "lobby.only_creator")
    await _refused(h, table_id, h.text(BORIS, "/cancel"), "lobby.only_creator")
    assert (await h.get(table_id)).seats == (ANNA.id, BORIS.id)


async def test_min_seats_option_is_enforced_at_start(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "3-4", "en")
    await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)
    await _refused(h, table_id, h.press(ANNA, h.lobby_token(table_id, "start"), GROUP),
                   "lobby.too_few")
    await h.text(CLARA, "/join")
    assert not (await h.text(ANNA, "/start")).alert
    assert (await h.get(table_id)).status == TableStatus.RUNNING


async def test_start_announces_the_seat_order_and_asks_the_first_player(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    for user in (BORIS, CLARA, DAN):
        await h.press(user, h.lobby_token(table_id, "join"), GROUP)
    reply = await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)
    assert not reply.alert
    record = await h.get(table_id)
    assert record.status == TableStatus.RUNNING
    assert record.seed is not None and record.state
    assert sorted(record.seats) == sorted(u.id for u in (ANNA, BORIS, CLARA, DAN))
    names = {u.id: u.name for u in (ANNA, BORIS, CLARA, DAN)}
    order = "\n".join(f"{i}. {names[uid]}" for i, uid in enumerate(record.seats, start=1))
    announce = texts_in(reply.out)[0]
    assert announce == (f"🎲 Table #{table_id} has started! Seat order (seat 1 plays first):\n"
                        f"{order}")
    first = h.user_at(record, 0)
    dms = [o for o in reply.out if getattr(o.to, "user_id", None) == first.id]
    assert any(plain(o.message.text).startswith(f"🔔 Stone Age #{table_id}: your turn!")
               and o.message.choices for o in dms)
    # The table's message now shows the game and the first decision.
    table_text = plain(h.table_message(table_id).text)
    assert f"#{table_id} · round 1" in table_text
    assert f"{first.name}, place your people" in table_text


async def test_lobby_buttons_of_a_running_table_are_refused(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    join, start, cancel = (h.lobby_token(table_id, v) for v in ("join", "start", "cancel"))
    await h.press(BORIS, join, GROUP)
    await h.press(ANNA, start, GROUP)
    await _refused(h, table_id, h.press(CLARA, join, GROUP), "lobby.not_open")
    await _refused(h, table_id, h.press(ANNA, start, GROUP), "lobby.not_open")
    await _refused(h, table_id, h.press(ANNA, cancel, GROUP), "lobby.not_open")
    await _refused(h, table_id, h.text(CLARA, f"/join {table_id}"), "lobby.not_open")


async def test_cancel_by_button_closes_and_archives(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)
    join = h.lobby_token(table_id, "join")
    reply = await h.press(ANNA, h.lobby_token(table_id, "cancel"), GROUP)
    assert not reply.alert
    assert plain(reply.answer) == f"Table #{table_id} was cancelled."
    with pytest.raises(TableNotFound):
        await h.get(table_id)
    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.ABORTED
    assert plain((await h.text(ANNA, "/games")).answer) == h.t("cmd.no_tables")
    reply = await h.press(EVA, join, GROUP)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")


@pytest.mark.parametrize("how", ["cancel", "abort", "vote"])
async def test_closed_table_message_says_closed_without_buttons(
    h: Harness, clock: Clock, how: str
) -> None:
    if how == "cancel":
        table_id = await h.new_table(ANNA, "en")
        reply = await h.press(ANNA, h.lobby_token(table_id, "cancel"), GROUP)
    elif how == "abort":
        table_id = await h.started(ANNA, BORIS)
        reply = await h.text(ANNA, "/abort yes")
    else:
        table_id = await h.started(ANNA, BORIS, options=("en", "clock=1/1/2"))
        clock.advance(3601)
        [vote] = await h.due()
        abort = next(b.token for b in vote.message.all_buttons() if "abort" in b.token)
        voter = BORIS if (await h.get(table_id)).seats[0] == ANNA.id else ANNA
        reply = await h.press(voter, abort, GROUP)
    assert (await h.store.get_archived(table_id)).status == TableStatus.ABORTED
    [item] = [o for o in reply.out if o.message.slot == f"table:{table_id}"]
    assert plain(item.message.text) == f"Stone Age · table #{table_id} was closed."
    assert item.message.choices is None


async def test_cancel_by_command(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    reply = await h.text(ANNA, "/cancel")
    assert plain(reply.answer) == f"Table #{table_id} was cancelled."
    assert (await h.store.get_archived(table_id)).status == TableStatus.ABORTED


async def test_several_tables_in_one_chat(h: Harness) -> None:
    first = await h.new_table(ANNA, "en")
    second = await h.new_table(BORIS, "en")
    assert first != second
    reply = await h.text(CLARA, "/join")
    assert not reply.out
    assert plain(reply.answer) == f"Which table? Add its id: #{first}, #{second}"
    reply = await h.text(CLARA, f"/join {second}")
    assert plain(reply.answer) == f"Clara joined table #{second}."
    reply = await h.text(DAN, f"/join #{first}")
    assert plain(reply.answer) == f"Dan joined table #{first}."
    assert (await h.get(first)).seats == (ANNA.id, DAN.id)
    assert (await h.get(second)).seats == (BORIS.id, CLARA.id)
    # Each table's own buttons act on that table only.
    await h.press(EVA, h.lobby_token(second, "join"), GROUP)
    assert (await h.get(first)).seats == (ANNA.id, DAN.id)
    assert (await h.get(second)).seats == (BORIS.id, CLARA.id, EVA.id)
    reply = await h.text(ANNA, f"/start {first}")
    assert not reply.alert
    assert (await h.get(first)).status == TableStatus.RUNNING
    assert (await h.get(second)).status == TableStatus.LOBBY


async def test_new_is_refused_in_a_private_chat(h: Harness) -> None:
    reply = await h.text(ANNA, "/new stone_age", dm(ANNA))
    assert plain(reply.answer) == h.t("cmd.new_in_group")
    assert reply.out == []
    assert await h.store.tables_of_user(ANNA.id) == []


async def test_a_table_with_the_beginner_tiles_says_so_in_its_lobby_and_start(
        h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en", "beginner", game="caverna")
    said = h.t("lobby.variants", rules=h.t("cav.variant.furnishings.beginner"))
    assert said in plain(h.table_message(table_id).text)
    await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)
    started = await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)
    assert said in plain(started.out[0].message.text)
    plain_table = await h.new_table(CLARA, "en", game="caverna")
    assert "Played with" not in plain(h.table_message(plain_table).text)


# --- AI players ------------------------------------------------------------------------


def _lobby_labels(h: Harness, table_id: str) -> list[str]:
    return [b.label for b in buttons_of(h.table_message(table_id))]


async def test_the_creator_seats_ai_players_by_buttons_and_takes_them_away(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "3", "en")
    reply = await h.press(ANNA, h.lobby_token(table_id, "aistrong"), GROUP)
    assert not reply.alert and plain(reply.answer) == f"🤖 AI 1 (strong) joined table #{table_id}."
    reply = await h.press(ANNA, h.lobby_token(table_id, "aieasy"), GROUP)
    assert plain(reply.answer) == f"🤖 AI 2 (easy) joined table #{table_id}."
    record = await h.get(table_id)
    assert record.seats == (ANNA.id, "ai:strong:1", "ai:easy:2")
    assert "Players (3, 3–3): Anna, 🤖 AI 1 (strong), 🤖 AI 2 (easy)" in plain(
        h.table_message(table_id).text)
    # The table is full: no more AI buttons, and the one that takes an AI away.
    assert _lobby_labels(h, table_id) == ["Join", "Leave", "Start", "Cancel", "🤖 − remove AI"]
    reply = await h.press(ANNA, h.lobby_token(table_id, "aidrop"), GROUP)
    assert plain(reply.answer) == f"🤖 AI 2 (easy) left table #{table_id}."
    record = await h.get(table_id)
    assert record.seats == (ANNA.id, "ai:strong:1")
    assert "ai:easy:2" not in meta_of(record).names
    assert _lobby_labels(h, table_id)[4:] == [
        "🤖 + easy AI", "🤖 + normal AI", "🤖 + strong AI", "🤖 − remove AI"]
    # A person may still take the free seat; an AI is never in anyone's list of tables.
    assert not (await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)).alert
    assert [t.table_id for t in await h.store.tables_of_user("ai:strong:1")] == []
    log = await h.store.action_log(table_id)
    assert [(e.key, e.user_id) for e in log] == [
        ("aistrong", ANNA.id), ("aieasy", ANNA.id), ("aidrop", ANNA.id), ("join", BORIS.id)]


async def test_only_the_creator_seats_or_removes_ai_and_only_while_seats_are_free(
    h: Harness
) -> None:
    table_id = await h.new_table(ANNA, "2", "en")
    await h.press(BORIS, h.lobby_token(table_id, "join"), GROUP)
    assert _lobby_labels(h, table_id) == ["Join", "Leave", "Start", "Cancel"]
    await _refused(h, table_id, h.press(ANNA, h.sv.signer.make("l", table_id, "ainormal"),
                                        GROUP), "lobby.full")
    await h.press(BORIS, h.lobby_token(table_id, "leave"), GROUP)
    add = h.lobby_token(table_id, "ainormal")
    await _refused(h, table_id, h.press(BORIS, add, GROUP), "lobby.only_creator")
    await _refused(h, table_id, h.press(ANNA, h.sv.signer.make("l", table_id, "aidrop"),
                                        GROUP), "lobby.no_ai")
    assert not (await h.press(ANNA, add, GROUP)).alert
    drop = h.lobby_token(table_id, "aidrop")
    await _refused(h, table_id, h.press(BORIS, drop, GROUP), "lobby.only_creator")
    # An AI's seat is nobody's to leave or take: a person cannot act as it.
    await _refused(h, table_id, h.press(ANNA, add, GROUP), "lobby.full")


async def test_a_table_all_ai_but_the_creator_plays_to_its_end(h: Harness) -> None:
    """``/new … ai=3``: the creator starts at once; the AI players' seats are the
    autopilot's from the start, so the creator is asked only for their own decisions,
    and the AI's results are told in the table's chat, never to an AI."""
    reply = await h.text(ANNA, "/new stone_age 4 en ai=3 level=strong")
    table_id = reply.out[0].message.slot.removeprefix("table:")  # type: ignore[union-attr]
    record = await h.get(table_id)
    assert record.seats == (ANNA.id, "ai:strong:1", "ai:strong:2", "ai:strong:3")
    assert not (await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)).alert
    record = await h.get(table_id)
    assert meta_of(record).autopilot == {str(s): "strong" for s, user_id in
                                         enumerate(record.seats) if user_id != ANNA.id}
    rnd = random.Random(3)
    for _ in range(2000):
        try:
            record = await h.get(table_id)
        except TableNotFound:
            break
        prompts = await h.prompts(table_id)
        assert {record.seats[p.seat] for p in prompts} == {ANNA.id}
        await h.play_one(table_id, rnd)
    else:
        raise AssertionError("the game did not end")
    record, log = await load_any(h.store, table_id)
    assert record.status == TableStatus.FINISHED
    moves = [e for e in log if e.seat is not None]
    assert {e.user_id for e in moves} == {ANNA.id, "autopilot"}
    assert {record.seats[e.seat] for e in moves if e.user_id == "autopilot"} == {
        "ai:strong:1", "ai:strong:2", "ai:strong:3"}
    result = plain(h.inbox[(GROUP.id, f"table:{table_id}")].text)
    assert all(f"🤖 AI {n} (strong)" in result for n in (1, 2, 3))
    assert not [o for o in h.sent if isinstance(o.to, ToUser) and o.to.user_id.startswith("ai:")]


async def test_ai_players_are_named_in_the_tables_language(h: Harness) -> None:
    reply = await h.text(ANNA, "/new каверна 3 рус ии=2 уровень=лёгкий")
    assert not reply.alert, plain(reply.answer)
    table_id = reply.out[0].message.slot.removeprefix("table:")  # type: ignore[union-attr]
    text = plain(h.table_message(table_id).text)
    assert "Anna, 🤖 ИИ 1 (лёгкий), 🤖 ИИ 2 (лёгкий)" in text
    assert [b.label for b in buttons_of(h.table_message(table_id))] == [
        "Войти", "Выйти", "Начать", "Отменить", "🤖 − убрать ИИ"]
