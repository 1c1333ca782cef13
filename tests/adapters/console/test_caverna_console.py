"""Caverna through the console chat: whole 4- and 7-player games and a solo game.

Each game is played in-process through ``ConsoleChat`` the way a person at the terminal
would: the lobby by commands and buttons, then every decision by pressing a printed
button (``name: <number>``) of the player's private prompt, or by a typed ``/move``.
Seats play by one of three seeded policies: a random printed button, the button of the
option the engine's greedy heuristic prefers (so families grow, furnishings get built
and the score sheet fills), or a random option number typed as ``/move <table> <n>``.

The end is read from the transcript and checked against the store: the group's final
message names the end, ranks every seat with every score-sheet category and names the
winners; each player is told their own score and place privately; the table is
archived and its log replays to its final state.
"""

from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from console_harness import Players, Session, Shown, answers, parse

from adapters.console.chat import console_user
from adapters.store import TableNotFound, TableStatus
from bot.games import manifests
from bot.i18n.catalog import Lang, default_catalog
from bot.storage import TableRecord
from bot.table.autopilot import choose
from bot.table.turns import load_state, replay, state_dict
from bot.ui.present import winners_number
from engine.caverna.state import CavernaState
from engine.core.protocol import Result
from engine.registry import get_game

CATALOG = default_catalog()
ENTRY = manifests()["caverna"]
GAME = get_game("caverna")
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NAMES = ("anna", "boris", "vera", "gleb", "dina", "egor", "fima")
RANKED = re.compile(r"^(?P<place>\d)\. (?P<name>\S+) — (?P<total>-?\d+)$")
MAX_PRESSES = 4000
#: A picture costs ~0.1 s per press at four players; they are drawn for the opening
#: presses and for the last round only, so a game stays well under a minute.
PICTURE_OPENING = 12
#: Wall-clock budget of one whole game through the console (the 7-player game takes
#: ~15 s on the development machine; a far slower run means something regressed).
BUDGET_SECONDS = 60.0


@dataclass
class Played:
    """What a whole game left behind."""

    table_id: str
    presses: int
    typed: int
    greedy: int
    last: list[Shown]
    table_messages: list[Shown] = field(default_factory=list)
    seconds: float = 0.0


async def open_table(s: Session, players: int, lang: Lang) -> tuple[str, list[Shown]]:
    """``/new caverna N`` by the first player, the others join (buttons, then /join),
    the creator starts with the Start button. Returns the table id and the start."""
    names = NAMES[:players]
    opened = parse(await s.say(f"{names[0]}: /new caverna {players}"))
    tid = await s.table_id()
    lobby = [m for m in opened if m.is_table][-1]
    title = CATALOG.plain(lang, "cav.title")
    assert title in lobby.text
    for i, name in enumerate(names[1:]):
        if i % 2 == 0:
            join = _button(lobby, CATALOG.plain(lang, "lobby.btn.join"))
            said = parse(await s.say(f"{name}: {join}"))
        else:
            said = parse(await s.say(f"{name}: /join"))
        assert [a.text for a in answers(said, name)] == [
            CATALOG.plain(lang, "lobby.done.join", table=tid, name=name)]
        lobby = [m for m in said if m.is_table][-1]
    start = _button(lobby, CATALOG.plain(lang, "lobby.btn.start"))
    started = parse(await s.say(f"{names[0]}: {start}"))
    assert not [a for a in answers(started) if a.alert]
    record = await s.app.sv.store.get(tid)
    assert record.status == TableStatus.RUNNING and len(record.seats) == players
    return tid, started


def _button(message: Shown, label: str) -> str:
    """What is typed to press the button of ``message`` labelled ``label``."""
    [number] = [n for n, text in message.buttons if text == label]
    return number


async def _option_of(s: Session, name: str, number: str) -> int | None:
    """The prompt option a printed button plays (None for any other button)."""
    pressable = await s.chat.pressable(console_user(name, None), number)
    assert pressable is not None
    token = s.app.sv.signer.parse(pressable.token)
    assert token is not None
    return token.int_field(3) if token.kind == "m" else None


async def _near_end(s: Session, tid: str) -> bool:
    """The table is in its last round."""
    state = load_state(GAME, await s.app.sv.store.get(tid))
    assert isinstance(state, CavernaState)
    return state.round == state.rounds[-1]


async def play_to_the_end(s: Session, tid: str, started: list[Shown], policies: str,
                          seed: int, *, pictures: bool) -> Played:
    """Play until nobody is asked. ``policies[seat]`` is ``r`` (a random printed
    button), ``g`` (the greedy heuristic's option, pressed) or ``t`` (a random option
    number typed as ``/move``). Nothing a player does may be refused."""
    players = Players(seed=seed)
    players.feed("\n".join(_lines(started)))
    rnd = random.Random(seed)
    record = await s.app.sv.store.get(tid)
    names = _names(record)
    played = Played(tid, 0, 0, 0, [])
    s.app.sv.pictures = pictures
    began = time.perf_counter()
    while (choice := players.next_press()) is not None:
        assert played.presses < MAX_PRESSES, "the game did not end"
        if played.presses == PICTURE_OPENING:
            s.app.sv.pictures = False
        if pictures and not s.app.sv.pictures and await _near_end(s, tid):
            s.app.sv.pictures = True
        name, number = choice
        record = await s.app.sv.store.get(tid)
        seat = names.index(name)
        [prompt] = [p for p in GAME.pending(load_state(GAME, record)) if p.seat == seat]
        policy = policies[seat]
        line = f"{name}: {number}"
        if policy == "g":
            key = choose(GAME, load_state(GAME, record), prompt, "greedy", rnd)
            wanted = prompt.keys().index(key)
            pressed = [n for n, _ in players.prompts[name]
                       if await _option_of(s, name, n) == wanted]
            assert pressed, (key, players.prompts[name])
            line = f"{name}: {pressed[0]}"
            played.greedy += 1
        elif policy == "t":
            line = f"{name}: /move {tid} {rnd.randint(1, len(prompt.options))}"
            if prompt.options[int(line.rsplit(' ', 1)[1]) - 1].back:
                line = f"{name}: {number}"  # back steps stall the game: press instead
            else:
                played.typed += 1
        played.last = players.feed(await s.say(line))
        played.presses += 1
        refused = [a.text for a in answers(played.last, name) if a.alert]
        assert not refused, (line, refused)
        played.table_messages += [m for m in played.last if m.is_table]
        # A typed move leaves the player's printed prompt as it was: they are asked
        # again (a new prompt is printed) or no longer, which the store tells.
        if line.split(": ", 1)[1].startswith("/move") and not [
                p for p in GAME.pending(load_state(GAME, await _record(s, tid)))
                if p.seat == seat]:
            players.prompts.pop(name, None)
    played.seconds = time.perf_counter() - began
    return played


async def _record(s: Session, tid: str) -> TableRecord:
    try:
        record: TableRecord = await s.app.sv.store.get(tid)
    except TableNotFound:
        record = await s.app.sv.store.get_archived(tid)
    return record


def _lines(items: list[Shown]) -> list[str]:
    """Printed items back as transcript lines (enough for ``Players.feed``)."""
    out = []
    for item in items:
        if item.kind != "message":
            continue
        slot = f" ({item.slot})" if item.slot else ""
        number = f" #{item.number}" if item.number else ""
        out.append(f"── [{item.where}]{slot}{number}")
        out += [f"   {line}" for line in item.lines]
        out += [f"   [{n.rsplit('.', 1)[1]}] {label}" for n, label in item.buttons]
    return out


def _names(record: TableRecord) -> list[str]:
    names = record.meta["names"]
    assert isinstance(names, dict)
    return [str(names[uid]) for uid in record.seats]


async def check_the_end(s: Session, played: Played, lang: Lang) -> Result:
    """The final message, the private results and the archive agree with the engine."""
    store = s.app.sv.store
    tid = played.table_id
    with pytest.raises(TableNotFound):
        await store.get(tid)
    record = await store.get_archived(tid)
    assert record.status == TableStatus.FINISHED
    result = GAME.result(load_state(GAME, record))
    assert result is not None
    log = await store.action_log(tid, archived=True)
    assert sum(1 for e in log if e.kind == "move") == played.presses
    assert state_dict(replay(GAME, record, log)) == record.state
    names = _names(record)
    players = len(names)

    # The group's last table message: header, reason, every seat with its sheet, winners.
    [final] = [m for m in played.last if m.is_table]
    lines = final.lines
    title = CATALOG.plain(lang, "cav.title")
    assert lines[0] == CATALOG.plain(lang, "result.header", game=title, table=tid)
    assert CATALOG.plain(lang, f"cav.result.reason.{result.reason}") in lines
    ranked = {m["name"]: (int(m["place"]), int(m["total"]), i)
              for i, line in enumerate(lines) if (m := RANKED.match(line))}
    assert set(ranked) == set(names)
    for score in result.scores:
        place, total, at = ranked[names[score.seat]]
        assert total == score.total
        sheet = lines[at + 1]
        keys = ENTRY.result.sheet_order(score.breakdown)
        assert keys == list(ENTRY.result.score_sheet)  # every category, in order
        for key in keys:
            part = CATALOG.plain(lang, f"cav.score.{key}", points=score.breakdown[key])
            assert part in sheet, (key, sheet)
        assert sum(score.breakdown.values()) == score.total
    winners = ", ".join(names[w] for w in result.winners)
    winners_line = CATALOG.plain(lang, f"result.winners.{winners_number(result)}",
                                 names=winners)
    if players > 1:
        assert lines[-1] == winners_line
    else:  # a solo game has a score, not a winner
        assert winners_line not in lines
    assert "cav." not in final.text and "result." not in final.text

    # Every player hears privately their own score and place.
    order = sorted(result.scores, key=lambda sc: (-sc.total, sc.seat))
    for place, score in enumerate(order, start=1):
        name = names[score.seat]
        [mine] = [m for m in played.last if m.dm_to == name and m.slot == f"dm:{tid}:{score.seat}"]
        if players == 1:
            expected = CATALOG.plain(lang, "turn.ended_solo", game=title, table=tid,
                                     score=score.total)
        elif score.seat in result.winners:
            expected = CATALOG.plain(lang, f"turn.ended_won.{winners_number(result)}",
                                     game=title, table=tid, score=score.total,
                                     winners=winners)
        else:
            expected = CATALOG.plain(lang, f"turn.ended_place.{winners_number(result)}",
                                     game=title, table=tid, score=score.total, place=place,
                                     players=players, winners=winners)
        assert mine.text == expected
    return result


async def test_four_players_play_caverna_to_the_end(ru_session: Session) -> None:
    """Four players in Russian: two follow the heuristic, one presses random buttons,
    one types moves; pictures for the opening and the last round."""
    s = ru_session
    tid, started = await open_table(s, 4, "ru")
    played = await play_to_the_end(s, tid, started, "grgt", seed=4, pictures=True)
    assert played.seconds < BUDGET_SECONDS, played.seconds
    assert played.greedy > 100 and played.typed > 20
    result = await check_the_end(s, played, "ru")

    # The heuristic's seats played a real game: more dwarfs and furnishings than at start.
    record = await s.app.sv.store.get_archived(tid)
    state = load_state(GAME, record)
    assert isinstance(state, CavernaState)
    greedy_seats = [0, 2]
    assert any(len(state.players[seat].dwarfs) > 2 for seat in greedy_seats)
    assert any(result.scores[seat].breakdown["furnishings"] > 0 for seat in greedy_seats)

    # Pictures: drawn for the opening and the end; the final message carries one.
    [final] = [m for m in played.last if m.is_table]
    assert final.pictures, "the results message carries the final board"
    drawn = [Path(p) for m in played.table_messages for p in m.pictures]
    assert len(drawn) > PICTURE_OPENING // 2
    for path in drawn:
        assert path.parent == s.pictures_dir and path.name.startswith(f"{tid}-")
        assert path.read_bytes()[:8] == PNG_MAGIC


async def test_seven_players_play_caverna_to_the_end(en_session: Session) -> None:
    """Seven players in English, without pictures: random buttons, typed moves and one
    seat on the heuristic."""
    s = en_session
    tid, started = await open_table(s, 7, "en")
    played = await play_to_the_end(s, tid, started, "rtrgrtr", seed=7, pictures=False)
    assert played.seconds < BUDGET_SECONDS, played.seconds
    assert played.typed > 20 and played.greedy > 50
    await check_the_end(s, played, "en")
    assert not played.last[-1].pictures


async def test_solo_caverna_reports_the_score(en_session: Session) -> None:
    """``/new caverna 1`` starts at once with one seat, plays to the end and reports the
    score in the group and privately."""
    s = en_session
    opened = parse(await s.say("anna: /new caverna 1"))
    tid = await s.table_id()
    lobby = [m for m in opened if m.is_table][-1]
    start = _button(lobby, CATALOG.plain("en", "lobby.btn.start"))
    started = parse(await s.say(f"anna: {start}"))
    played = await play_to_the_end(s, tid, started, "g", seed=1, pictures=False)
    record = await s.app.sv.store.get_archived(tid)
    assert GAME.pending(load_state(GAME, record)) == []
    state = load_state(GAME, record)
    assert isinstance(state, CavernaState)
    assert state.round == state.rounds[-1] == 12
    result = await check_the_end(s, played, "en")
    assert result.winners == [0]
