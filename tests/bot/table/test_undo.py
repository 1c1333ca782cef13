"""Taking back one's own decision: over random games of every game, an undo returns
the table to the state before the decision, and making it again gives the same state;
across a roll, a draw or a card turned up it is refused with its reason and changes
nothing; old buttons are out of date afterwards; the log replays to the table as it
stands; the messages that showed the decision are corrected.

After other players decided, ``/undo`` asks them (a vote in the table's chat): once
all agree the table goes back to before the asker's decision, theirs taken back too;
a refusal, a new move or the vote's time running out leaves everything as it was,
and everyone is told; only the players asked may answer."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import pytest

from bot.storage import ActionKind, TableRecord
from bot.table.settings import meta_view
from bot.table.turns import replay, state_dict
from bot.table.undo_trail import standing, undo_count
from engine.registry import get_game
from tests.bot.helpers import (
    ANNA,
    BORIS,
    CLARA,
    DAN,
    GROUP,
    Clock,
    Harness,
    User,
    dm,
    plain,
    texts_to,
)
from tests.bot.table.test_votes import time_out

GAMES = ("stone_age", "hunters_gatherers", "caverna")


def undoable_seat(record: object) -> int | None:
    """The seat whose last decision the trail can take back now, if any."""
    meta = meta_view(record)  # type: ignore[arg-type]
    trail = meta.undo
    if trail is None or not trail.points or trail.points[-1].version != record.version:  # type: ignore[attr-defined]
        return None
    return trail.points[-1].seat


@pytest.mark.parametrize("game", GAMES)
async def test_undo_then_the_same_decision_gives_the_same_state(h: Harness, game: str) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, game=game)
    rnd = random.Random(11)
    undone = 0
    for _ in range(90):
        before = await h.get(table_id)
        if not await h.prompts(table_id):
            break
        await h.play_one(table_id, rnd)
        after = await h.get(table_id)
        seat = undoable_seat(after)
        if seat is None or rnd.random() < 0.4:
            continue
        entry = (await h.store.action_log(table_id))[-1]
        user = h.user_at(after, seat)
        reply = await h.text(user, "/undo")
        assert not reply.alert, plain(reply.answer)
        back = await h.get(table_id)
        assert back.version == after.version + 1
        assert back.state == before.state
        again = await h.text(user, f"/move {entry.key}")
        assert not again.alert, plain(again.answer)
        assert (await h.get(table_id)).state == after.state
        undone += 1
    assert undone >= 3, undone
    record = await h.get(table_id)
    log = await h.store.action_log(table_id)
    assert sum(e.kind == ActionKind.UNDO for e in log) == undone
    assert state_dict(replay(get_game(game), record, log)) == record.state


async def test_a_roll_seals_the_decision_before_it(h: Harness) -> None:
    """Stone Age: resolving a hunt rolls dice; that decision cannot be taken back."""
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(3)
    for _ in range(400):
        await h.play_one(table_id, rnd)
        record = await h.get(table_id)
        meta = meta_view(record)
        if meta.sealed == record.version:
            break
    else:
        raise AssertionError("no roll in 400 moves")
    log = await h.store.action_log(table_id)
    user = h.user_at(record, log[-1].seat or 0)
    reply = await h.text(user, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("undo.sealed")
    assert (await h.get(table_id)).version == record.version


async def test_undo_corrects_the_messages_and_outdates_old_buttons(h: Harness) -> None:
    """Stone Age: Anna's placing ends her turn and opens Boris's; she takes it back."""
    table_id = await h.started(ANNA, BORIS)
    rnd = random.Random(2)
    for _ in range(20):
        record = await h.get(table_id)
        prompt = (await h.prompts(table_id))[0]
        mover = h.user_at(record, prompt.seat)
        old_tokens = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
        await h.press(mover, rnd.choice(old_tokens), dm(mover))
        after = await h.get(table_id)
        if (await h.prompts(table_id))[0].seat != prompt.seat \
                and undoable_seat(after) == prompt.seat:
            break
    else:
        raise AssertionError("no turn passed in 20 moves")
    other = BORIS if mover == ANNA else ANNA
    reply = await h.text(mover, "/undo", GROUP)
    assert not reply.alert
    # The table's message says the decision was taken back, and asks the mover again.
    shown = plain(h.table_message(table_id).text)
    assert h.t("undo.event", name=mover.name) in shown
    assert (await h.prompts(table_id))[0].seat == prompt.seat
    # The other player, whose turn the move had opened, hears it is not theirs after all.
    told = texts_to(reply.out, other)
    assert any("taken back" in t for t in told), told
    # The buttons from before the move are out of date; the new ones work.
    stale = await h.press(mover, old_tokens[0], dm(mover))
    assert stale.alert
    record = await h.get(table_id)
    fresh = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)
    assert not (await h.press(mover, fresh[0], dm(mover))).alert


async def test_nothing_is_taken_back_before_a_game_starts(h: Harness) -> None:
    table_id = await h.new_table(ANNA, "en")
    before = await h.snapshot(table_id)
    reply = await h.text(ANNA, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("press.not_started")
    await h.assert_unchanged(table_id, before)


# --- asking the others ------------------------------------------------------------------


def consent_needed(record: TableRecord) -> dict[int, list[int]]:
    """For each seat whose last decision may still be taken back, the other seats that
    decided after it (whose players an undo must ask)."""
    points = standing(meta_view(record), record.version)
    needed: dict[int, list[int]] = {}
    for i, point in enumerate(points):
        needed[point.seat] = sorted({p.seat for p in points[i + 1:]} - {point.seat})
    return {seat: others for seat, others in needed.items() if others}


@dataclass
class Asked:
    """A table where ``asker`` has asked to take back a decision others built on."""

    table_id: str
    asker: User
    voters: list[User]
    before: dict[str, Any]  # the game state before the asker's decision
    after: dict[str, Any]  # the game state when they asked
    taken: list[tuple[int, str]]  # the decisions (seat, key) the undo would take back


def vote_token(h: Harness, table_id: str, choice: str) -> str:
    """The button for ``choice`` on the vote message the group sees now."""
    message = h.inbox[(GROUP.id, f"vote:{table_id}")]
    return next(b.token for b in message.all_buttons() if h.parse(b.token).fields[1] == choice)


async def ask_after(h: Harness, table_id: str, others: int, rnd: random.Random,
                    states: dict[int, dict[str, Any]] | None = None,
                    lang: str = "en") -> Asked | None:
    """Random moves until some player's decision has ``others`` other players'
    decisions after it; that player asks to take it back (answered in ``lang``, the
    table's). None if no such moment comes within 60 moves."""
    states = {} if states is None else states
    for _ in range(60):
        record = await h.get(table_id)
        states[record.version] = record.state
        found = [seat for seat, seats in consent_needed(record).items() if len(seats) == others]
        if found:
            seat = found[0]
            points = standing(meta_view(record), record.version)
            last = max(i for i, p in enumerate(points) if p.seat == seat)
            asker = h.user_at(record, seat)
            reply = await h.text(asker, "/undo")
            voters = [h.user_at(record, s) for s in consent_needed(record)[seat]]
            assert not reply.alert, plain(reply.answer)
            assert plain(reply.answer) == h.t("undo.asked", lang,
                                              voters=", ".join(v.name for v in voters))
            return Asked(table_id, asker, voters, states[points[last].version - 1],
                         record.state, [(p.seat, p.key) for p in points[last:]])
        if not await h.prompts(table_id):
            return None
        await h.play_one(table_id, rnd)
    return None


async def three_at_stone_age(h: Harness, others: int = 2) -> Asked:
    """Anna, Boris and Clara place in turn at Stone Age; the first of them asks to take
    back their placing after ``others`` of the others placed."""
    table_id = await h.started(ANNA, BORIS, CLARA)
    asked = await ask_after(h, table_id, others, random.Random(4))
    assert asked is not None
    return asked


async def test_after_others_decided_undo_asks_them_in_the_group(h: Harness) -> None:
    a = await three_at_stone_age(h)
    record = await h.get(a.table_id)
    assert record.state == a.after  # nothing is taken back yet
    vote = meta_view(record).vote
    assert vote is not None and vote.kind == "undo" and vote.opened == record.version
    assert [record.seats[s] for s in vote.voters] == [v.id for v in a.voters]
    message = h.inbox[(GROUP.id, f"vote:{a.table_id}")]
    assert plain(message.text) == h.t("vote.undo", name=a.asker.name, table=a.table_id,
                                      voters=", ".join(v.name for v in a.voters))
    assert [b.label for b in message.all_buttons()] == ["Yes, take it back", "No, it stands"]
    last = (await h.store.action_log(a.table_id))[-1]
    assert (last.key, last.kind, last.user_id) == ("undo:ask", ActionKind.SYSTEM, a.asker.id)
    # One question at a time.
    before = await h.snapshot(a.table_id)
    again = await h.text(a.asker, "/undo")
    assert again.alert and plain(again.answer) == h.t("undo.vote_open")
    await h.assert_unchanged(a.table_id, before)


async def test_when_all_agree_every_later_decision_is_taken_back(h: Harness) -> None:
    a = await three_at_stone_age(h)
    first, second = a.voters
    agree = vote_token(h, a.table_id, "agree")
    reply = await h.press(first, agree, GROUP)
    assert plain(reply.answer) == h.t("vote.counted")
    assert (await h.get(a.table_id)).state == a.after  # one of two agreed: nothing yet
    reply = await h.press(second, agree, GROUP)
    assert not reply.alert and plain(reply.answer) == h.t("vote.decided.agree")
    record = await h.get(a.table_id)
    assert record.state == a.before
    meta = meta_view(record)
    assert meta.vote is None and meta.undone == record.version
    log = await h.store.action_log(a.table_id)
    assert (log[-1].kind, log[-1].user_id) == (ActionKind.UNDO, a.asker.id)
    assert undo_count(log[-1].key) == len(a.taken) >= 3
    assert state_dict(replay(get_game("stone_age"), record, log)) == record.state
    # Everyone is told in the group, and the question keeps no buttons.
    told = h.inbox[(GROUP.id, f"vote:{a.table_id}")]
    assert plain(told.text) == h.t("vote.ended.undo.agree", name=a.asker.name,
                                   table=a.table_id)
    assert told.choices is None
    assert h.t("undo.event_many", name=a.asker.name) in plain(h.table_message(a.table_id).text)
    stale = await h.press(first, agree, GROUP)
    assert stale.alert and plain(stale.answer) == h.t("vote.closed")
    # The same decisions made again give the same state.
    for seat, key in a.taken:
        again = await h.text(h.user_at(record, seat), f"/move {key}")
        assert not again.alert, plain(again.answer)
    assert (await h.get(a.table_id)).state == a.after


# Hunters and Gatherers ends every turn by drawing the next tile: no decision is ever
# built on by another player's before a draw seals it (``test_every_hunters_and_
# gatherers_turn_is_sealed_before_the_next_player_decides``).
@pytest.mark.parametrize("game", ["stone_age", "caverna"])
async def test_an_agreed_undo_then_the_same_decisions_give_the_same_state(
    h: Harness, game: str
) -> None:
    """Over random games: each time the players asked agree, the table is the earlier
    version's state, and the decisions taken back, made again, give the same state."""
    table_id = await h.started(ANNA, BORIS, CLARA, game=game)
    rnd = random.Random(17)
    states: dict[int, dict[str, Any]] = {}

    async def noted() -> TableRecord:
        record = await h.get(table_id)
        states[record.version] = record.state
        return record

    undone = 0
    for _ in range(6):
        a = await ask_after(h, table_id, rnd.choice((1, 2)), rnd, states)
        if a is None:
            break
        agree = vote_token(h, table_id, "agree")
        for voter in a.voters:
            reply = await h.press(voter, agree, GROUP)
            assert not reply.alert, plain(reply.answer)
        record = await noted()
        assert record.state == a.before
        for seat, key in a.taken:
            again = await h.text(h.user_at(record, seat), f"/move {key}")
            assert not again.alert, plain(again.answer)
            await noted()
        assert (await h.get(table_id)).state == a.after
        undone += 1
        for _ in range(rnd.randrange(1, 8)):  # the game goes on a little
            if not await h.prompts(table_id):
                break
            await h.play_one(table_id, rnd)
            await noted()
    assert undone >= 2, undone
    record = await h.get(table_id)
    log = await h.store.action_log(table_id)
    assert state_dict(replay(get_game(game), record, log)) == record.state


async def test_every_hunters_and_gatherers_turn_is_sealed_before_the_next_player_decides(
    h: Harness,
) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, game="hunters_gatherers")
    rnd = random.Random(3)
    for _ in range(80):
        await h.play_one(table_id, rnd)
        assert consent_needed(await h.get(table_id)) == {}


async def test_a_refusal_leaves_everything_as_it_was(h: Harness) -> None:
    a = await three_at_stone_age(h)
    first, second = a.voters
    agree, refuse = vote_token(h, a.table_id, "agree"), vote_token(h, a.table_id, "refuse")
    await h.press(first, agree, GROUP)
    reply = await h.press(second, refuse, GROUP)
    assert not reply.alert and plain(reply.answer) == h.t("vote.decided.refuse")
    record = await h.get(a.table_id)
    assert record.state == a.after
    assert meta_view(record).vote is None
    told = h.inbox[(GROUP.id, f"vote:{a.table_id}")]
    assert plain(told.text) == h.t("vote.ended.undo.refuse", by=second.name,
                                   name=a.asker.name, table=a.table_id)
    assert told.choices is None
    late = await h.press(first, refuse, GROUP)
    assert late.alert and plain(late.answer) == h.t("vote.closed")
    # The vote changed nothing an undo restores: the last to decide may still take
    # back their own decision, at once.
    last_seat = a.taken[-1][0]
    mine = await h.text(h.user_at(record, last_seat), "/undo")
    assert not mine.alert and plain(mine.answer) == h.t("undo.done")


async def test_a_move_ends_the_vote(h: Harness) -> None:
    a = await three_at_stone_age(h, others=1)
    agree = vote_token(h, a.table_id, "agree")
    _, reply = await h.play_one(a.table_id, random.Random(8))
    assert not reply.alert
    moved = await h.get(a.table_id)
    assert meta_view(moved).vote is None
    told = h.inbox[(GROUP.id, f"vote:{a.table_id}")]
    assert plain(told.text) == h.t("vote.ended.undo.moved_on", name=a.asker.name,
                                   table=a.table_id)
    assert told.choices is None
    before = await h.snapshot(a.table_id)
    late = await h.press(a.voters[0], agree, GROUP)
    assert late.alert and plain(late.answer) == h.t("vote.closed")
    await h.assert_unchanged(a.table_id, before)


async def test_the_last_to_decide_taking_back_their_own_ends_the_request(h: Harness) -> None:
    a = await three_at_stone_age(h, others=1)
    [voter] = a.voters
    reply = await h.text(voter, "/undo")  # their own decision: no consent needed
    assert not reply.alert and plain(reply.answer) == h.t("undo.done")
    record = await h.get(a.table_id)
    assert meta_view(record).vote is None and undo_count(
        (await h.store.action_log(a.table_id))[-1].key) == 1
    told = h.inbox[(GROUP.id, f"vote:{a.table_id}")]
    assert plain(told.text) == h.t("vote.ended.undo.moved_on", name=a.asker.name,
                                   table=a.table_id)


async def test_an_unanswered_vote_lapses_after_the_reminder_time(
    h: Harness, clock: Clock
) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "remind=2h"))
    a = await ask_after(h, table_id, 1, random.Random(4))
    assert a is not None
    agree = vote_token(h, table_id, "agree")
    clock.advance(2 * 3600 - 5)
    assert meta_view(await h.get(table_id)).vote is not None
    assert not any(f"vote:{table_id}" == o.message.slot for o in await h.due())
    clock.advance(10)
    out = await h.due()
    told = [o.message for o in out if o.message.slot == f"vote:{table_id}"]
    assert [plain(m.text) for m in told] == [
        h.t("vote.ended.undo.lapsed", name=a.asker.name, table=table_id)]
    record = await h.get(table_id)
    assert record.state == a.after and meta_view(record).vote is None
    late = await h.press(a.voters[0], agree, GROUP)
    assert late.alert and plain(late.answer) == h.t("vote.closed")
    clock.advance(3600)
    assert not any(f"vote:{table_id}" == o.message.slot for o in await h.due())


async def test_only_the_players_asked_may_answer(h: Harness) -> None:
    a = await three_at_stone_age(h, others=1)
    [voter] = a.voters
    record = await h.get(a.table_id)
    bystander = next(h.user_at(record, s) for s in range(3)
                     if h.user_at(record, s) not in (a.asker, voter))
    before = await h.snapshot(a.table_id)
    for user in (a.asker, bystander, DAN):  # the asker does not answer for the others
        for choice in ("agree", "refuse"):
            reply = await h.press(user, vote_token(h, a.table_id, choice), GROUP)
            assert reply.alert and plain(reply.answer) == h.t("vote.not_a_voter")
        typed = await h.text(user, "/vote agree")
        assert plain(typed.answer) == h.t("vote.not_a_voter") or user == DAN
    wrong = await h.text(voter, "/vote wait")
    assert wrong.alert and plain(wrong.answer) == h.t("vote.not_a_choice",
                                                      choices="agree, refuse")
    await h.assert_unchanged(a.table_id, before)
    # The one asked answers by typing as well as by the button.
    reply = await h.text(voter, "/vote agree")
    assert plain(reply.answer) == h.t("vote.decided.agree")
    assert (await h.get(a.table_id)).state == a.before


@pytest.mark.parametrize("game", GAMES)
async def test_across_a_roll_a_draw_or_a_reveal_nobody_is_asked(h: Harness, game: str) -> None:
    """A decision sealed by a later move that showed something random or hidden is
    refused with the reason, whoever decided in between: no vote opens."""
    table_id = await h.started(ANNA, BORIS, CLARA, game=game)
    rnd = random.Random(6)
    for _ in range(400):
        await h.play_one(table_id, rnd)
        record = await h.get(table_id)
        meta = meta_view(record)
        log = await h.store.action_log(table_id)
        sealed_by = log[-1].seat
        earlier = [int(s) for s, v in meta.last_acted.items()
                   if 0 < v < meta.sealed == record.version and int(s) != sealed_by]
        if earlier:
            break
    else:
        raise AssertionError("nothing random or hidden after another's decision")
    user = h.user_at(record, earlier[0])
    before = await h.snapshot(table_id)
    reply = await h.text(user, "/undo")
    assert reply.alert and plain(reply.answer) == h.t("undo.sealed")
    await h.assert_unchanged(table_id, before)


async def test_a_seat_on_autopilot_is_not_asked(h: Harness, clock: Clock) -> None:
    """The autopilot has no say: its decisions after the asker's go back with it, and
    it decides again when asked again."""
    t = await time_out(h, clock, BORIS)  # two players: the other hands the seat over
    await h.press(t.voters[0], t.token("easy"), GROUP)
    [player] = t.voters
    rnd = random.Random(1)
    for _ in range(20):
        before = await h.get(t.table_id)
        _, reply = await h.play_one(t.table_id, rnd)  # the player's own steps first
        assert not reply.alert
        log = await h.store.action_log(t.table_id)
        if log[-1].user_id == "autopilot":
            break
    else:
        raise AssertionError("the autopilot never answered")
    auto = [e for e in log if e.version > before.version and e.user_id == "autopilot"]
    reply = await h.text(player, "/undo")
    assert not reply.alert and plain(reply.answer) == h.t("undo.done")
    record = await h.get(t.table_id)
    assert record.state == before.state
    assert undo_count((await h.store.action_log(t.table_id))[-1].key) == 1 + len(auto)


async def test_taking_back_the_late_players_move_asks_their_vote_anew(
    h: Harness, clock: Clock
) -> None:
    """The vote after a time-out comes back with the decision that had ended it, with
    new buttons (the old message said how it ended)."""
    t = await time_out(h, clock)
    record = await h.get(t.table_id)
    await h.press(t.late, h.move_tokens(h.dm_prompt(record, 0))[0])
    assert meta_view(await h.get(t.table_id)).vote is None
    reply = await h.text(t.late, "/undo")
    assert not reply.alert, plain(reply.answer)
    record = await h.get(t.table_id)
    vote = meta_view(record).vote
    assert vote is not None and (vote.kind, vote.seat, vote.opened) == (
        "timeout", 0, record.version)
    message = h.inbox[(GROUP.id, f"vote:{t.table_id}")]
    assert plain(message.text) == plain(t.vote.text) and message.all_buttons()
    stale = await h.press(t.voters[0], t.token("wait"), GROUP)
    assert stale.alert and plain(stale.answer) == h.t("press.stale")
    fresh = next(b.token for b in message.all_buttons() if h.parse(b.token).fields[1] == "wait")
    assert plain((await h.press(t.voters[0], fresh, GROUP)).answer) == h.t("vote.counted")


async def test_an_ai_players_decisions_go_back_with_the_askers_without_a_vote(
    h: Harness
) -> None:
    """An AI player has no say (like the autopilot): taking back a decision it built on
    asks nobody, and it decides again when asked again."""
    reply = await h.text(ANNA, "/new stone_age 2 en ai=1")
    table_id = reply.out[0].message.slot.removeprefix("table:")  # type: ignore[union-attr]
    await h.press(ANNA, h.lobby_token(table_id, "start"), GROUP)
    rnd = random.Random(2)
    for _ in range(20):
        await h.play_one(table_id, rnd)
        record = await h.get(table_id)
        points = standing(meta_view(record), record.version)
        ai_seat = record.seats.index("ai:normal:1")
        if points and points[-1].seat == ai_seat and any(
                p.seat != ai_seat for p in points):
            break
    else:
        raise AssertionError("the AI never decided after Anna")
    mine = max(i for i, p in enumerate(points) if p.seat != ai_seat)
    later = len(points) - mine
    reply = await h.text(ANNA, "/undo")
    assert plain(reply.answer) == h.t("undo.done")
    after = await h.get(table_id)
    assert meta_view(after).vote is None
    log = await h.store.action_log(table_id)
    undo = next(e for e in reversed(log) if e.kind == ActionKind.UNDO)
    assert undo_count(undo.key) == later > 1
    # Anna decides again; the table replays to what it holds.
    assert any(after.seats[p.seat] == ANNA.id for p in await h.prompts(table_id))
    assert state_dict(replay(get_game("stone_age"), after, log)) == after.state
