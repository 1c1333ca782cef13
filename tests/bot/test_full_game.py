"""A whole three-player Stone Age game played with buttons only, to the final scores;
then the table is archived, its buttons are dead, and its log replays to its state."""

from __future__ import annotations

import random

from bot.storage import TableNotFound, TableStatus
from bot.table.turns import load_state, replay, state_dict
from bot.ui.message import ToChat
from engine.registry import get_game
from tests.bot.conftest import AppFactory
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    GROUP,
    Clock,
    Harness,
    dm,
    plain,
)


async def test_whole_game_with_buttons_only(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    lobby_join = h.lobby_token(table_id, "join")
    await h.press(BORIS, lobby_join, GROUP)
    await h.press(CLARA, h.lobby_token(table_id, "join"), GROUP)
    await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)
    record = await h.get(table_id)
    starter = h.user_at(record, 0)
    old = [(starter, h.move_tokens(h.dm_prompt(record, 0))[0], dm(starter)),
           (starter, h.move_tokens(h.table_message(table_id))[1], GROUP)]

    rnd = random.Random(11)
    presses = 0
    final = None
    while True:
        record = await h.get(table_id)
        assert record.status == TableStatus.RUNNING
        prompts = await h.prompts(table_id)
        prompt = prompts[0]
        user = h.user_at(record, prompt.seat)
        if len(prompts) == 1 and presses % 2:
            message, chat = h.table_message(table_id), GROUP
        else:
            message, chat = h.dm_prompt(record, prompt.seat), dm(user)
        tokens = h.move_tokens(message, prompt)
        assert tokens, plain(message.text)
        reply = await h.press(user, rnd.choice(tokens), chat)
        assert not reply.alert, plain(reply.answer)
        assert reply.answer is None
        presses += 1
        try:
            assert (await h.get(table_id)).version == record.version + 1
        except TableNotFound:
            final = reply
            break
        assert presses < 5000
    assert presses > 100

    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.FINISHED
    game = get_game("stone_age")
    state = load_state(game, archived)
    result = game.result(state)
    assert result is not None
    [end] = [o for o in final.out if o.to == ToChat(GROUP.id)]
    assert end.message.slot == f"table:{table_id}" and end.message.choices is None
    text = plain(end.message.text)
    assert text.startswith(f"🏁 Stone Age · #{table_id} · final scores")
    names = [h.user_at(archived, s).name for s in range(3)]
    ranked = sorted(result.scores, key=lambda s: (-s.total, -s.tiebreak))
    lines = text.splitlines()
    for place, score in enumerate(ranked, start=1):
        line = f"{place}. {names[score.seat]} — {score.total} (development {score.tiebreak})"
        i = lines.index(line)
        breakdown = lines[i + 1]
        assert "Buildings:" in breakdown and "Hunger:" in breakdown
    winners = ", ".join(names[s] for s in result.winners)
    title = "Winner" if len(result.winners) == 1 else "Winners"  # agrees with their number
    assert lines[-1] == f"🏆 {title}: {winners}"
    assert lines.count(h.t(f"sa.result.reason.{result.reason}")) == 1

    # Archived: gone from the listings, old buttons are dead, nothing changes.
    assert await h.store.tables_in_chat(GROUP.id) == []
    log = await h.store.action_log(table_id, archived=True)
    last = (user, rnd.choice(tokens), chat)  # a button of the very last prompt
    for who, token, where in [*old, last]:
        reply = await h.press(who, token, where)
        assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    reply = await h.press(CLARA, lobby_join, GROUP)
    assert reply.alert and plain(reply.answer) == h.t("press.no_table")
    assert plain((await h.text(ANNA, "/status")).answer) == h.t("cmd.no_tables")
    assert await h.store.get_archived(table_id) == archived
    assert await h.store.action_log(table_id, archived=True) == log

    # The log replays to exactly the final state.
    moves = [e for e in log if e.kind == "move"]
    assert len(moves) == presses
    assert state_dict(replay(game, archived, log)) == archived.state
    assert [e.version for e in log] == list(range(1, archived.version + 1))


async def test_pictures_are_attached_to_the_table_message(
    make_app: AppFactory, clock: Clock
) -> None:
    h = Harness(await make_app(pictures=True), clock)
    table_id = await h.new_table(ANNA, "en")
    assert h.table_message(table_id).picture is None  # the lobby has none
    await h.text(BORIS, "/join")
    reply = await h.text(ANNA, "/start")
    [table] = [o.message for o in reply.out if o.message.slot == f"table:{table_id}"]
    assert table.picture is not None
    assert table.picture.png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(table.picture.png) > 1000
    reply = await h.text(BORIS, "/board")
    assert reply.private is not None and reply.private.message.picture is not None
    assert reply.private.message.picture.png.startswith(b"\x89PNG")
