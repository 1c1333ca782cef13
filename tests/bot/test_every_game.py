"""Every hosted game plays through the app from the lobby to the final message.

Players only press the buttons they are sent, in their private chats and in the group;
the table ends with one final message that tells why it ended, every seat's total with
its score sheet and the winners; the table is archived, its log replays to its state,
and ``/log`` tells its events afterwards. Nothing here names a game.
"""

from __future__ import annotations

import random

import pytest

from bot.games import manifests
from bot.storage import TableNotFound, TableStatus
from bot.table.turns import load_state, replay, state_dict
from bot.ui.message import ToChat, ToUser
from bot.ui.present import winners_number
from tests.bot.helpers import GROUP, PEOPLE, Harness, dm, plain
from tests.tiny_game.hosting import with_test_games

MAX_PRESSES = 20_000


@pytest.mark.parametrize("name", with_test_games(manifests()))
@pytest.mark.usefixtures("hosted_game")
async def test_a_whole_game_through_the_app(h: Harness, name: str) -> None:
    entry = manifests()[name]
    players = min(entry.max_players, max(entry.min_players, 3))
    people = PEOPLE[:players]
    table_id = await h.started(people[0], *people[1:], options=("en", str(players)), game=name)
    rnd = random.Random(name)
    presses = notices = 0
    promised: tuple[int, str] | None = None  # (seat deciding, user told they are next)
    while True:
        record = await h.get(table_id)
        assert record.status == TableStatus.RUNNING
        asked = {p.seat for p in await h.prompts(table_id)}
        if promised is not None and asked != {promised[0]}:
            # The turn passed: the player told "you're next" is the one asked now.
            assert [record.seats[s] for s in asked] == [promised[1]]
            promised = None
        prompt = rnd.choice(await h.prompts(table_id))
        user = h.user_at(record, prompt.seat)
        in_group = presses % 3 == 0 and len(await h.prompts(table_id)) == 1
        message = h.table_message(table_id) if in_group else h.dm_prompt(record, prompt.seat)
        tokens = h.move_tokens(message, prompt)
        assert tokens, plain(message.text)
        reply = await h.press(user, rnd.choice(tokens), GROUP if in_group else dm(user))
        assert not reply.alert, plain(reply.answer)
        told = [o.to.user_id for o in reply.out if isinstance(o.to, ToUser)
                and plain(o.message.text).startswith("👀")]
        told += [o.to.user_id for o in reply.out if isinstance(o.to, ToUser)
                 and "you are next" in plain(o.message.text)
                 and not plain(o.message.text).startswith("👀")]
        if told:
            [who] = told
            deciding = {p.seat for p in await h.prompts(table_id)}
            if len(deciding) == 1:
                promised = (deciding.pop(), who)
                notices += 1
        presses += 1
        assert presses < MAX_PRESSES
        try:
            await h.get(table_id)
        except TableNotFound:
            break

    assert notices > 0  # "you're next" was said, and each time it came true

    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.FINISHED
    game = entry.game
    state = load_state(game, archived)
    result = game.result(state)
    assert result is not None
    log = await h.store.action_log(table_id, archived=True)
    assert state_dict(replay(game, archived, log)) == archived.state

    [end] = [o for o in reply.out if o.to == ToChat(GROUP.id)
             and o.message.slot == f"table:{table_id}"]
    lines = plain(end.message.text).splitlines()
    assert lines[0] == h.t("result.header", game=h.t(entry.title_code), table=table_id)
    reason = h.t(f"{entry.prefix}.result.reason.{result.reason}")
    assert lines.count(reason) == 1
    names = [h.user_at(archived, s).name for s in range(players)]
    for score in result.scores:
        [line] = [i for i, text in enumerate(lines)
                  if text.split(". ", 1)[-1].startswith(f"{names[score.seat]} — {score.total}")]
        sheet = lines[line + 1]
        for key in entry.result.sheet_order(score.breakdown):
            part = h.t(f"{entry.prefix}.score.{key}", points=score.breakdown[key])
            assert part in sheet, (key, sheet)
        tiebreak = "(" in lines[line]
        assert tiebreak == entry.result.tiebreak
    winners = ", ".join(names[s] for s in result.winners)
    assert lines[-1] == h.t(f"result.winners.{winners_number(result)}", names=winners)
    assert "result." not in " ".join(lines) and f"{entry.prefix}." not in " ".join(lines)
    assert end.message.renew  # a new message that notifies, not an edit far up the chat

    # Every player hears their own score, place and the winners privately.
    ranked = sorted(result.scores, key=lambda s: (-s.total, -s.tiebreak, s.seat))
    for place, score in enumerate(ranked, start=1):
        user = h.user_at(archived, score.seat)
        [mine] = [o for o in reply.out if o.to == ToUser(user.id)
                  and o.message.slot == f"dm:{table_id}:{score.seat}"]
        outcome = "ended_won" if score.seat in result.winners else "ended_place"
        code = f"turn.{outcome}.{winners_number(result)}"
        assert plain(mine.message.text) == h.t(
            code, game=h.t(entry.title_code), table=table_id, score=score.total, place=place,
            players=players, winners=winners)
        assert mine.message.renew

    # Pushes (new private messages, which notify) per player: exactly one for each turn
    # they are waited on, and one for their result; "you're next" edits what is there.
    for seat in range(players):
        user = h.user_at(archived, seat)
        dms = [o for o in h.sent if o.to == ToUser(user.id)]
        pushes = [o for o in dms if o.message.renew or o.message.slot is None]
        turns = [o for o in pushes if plain(o.message.text).startswith("🔔")]
        assert turns, seat
        assert len(pushes) == len(turns) + 1  # + the final result

    # The log is still told after the end, and only in the table's own chat.
    told = plain((await h.text(people[0], f"/log {table_id} 5")).answer).splitlines()
    assert told[0] == h.t("log.header", game=h.t(entry.title_code), table=table_id, n=5)
    assert len(told) == 6
