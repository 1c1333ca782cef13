"""Console names: kept as typed, one person per distinct name, across restarts; bad
input and over-long names get a hint instead of a crash."""

from __future__ import annotations

import asyncio
import subprocess
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from console_harness import (
    TURN,
    ConsoleProcess,
    answers,
    campfire_command,
    console_env,
    kill_leftover_redis,
    parse,
)
from console_typist import Typist

from adapters.console.chat import MAX_NAME, RefusedName, clean_line, console_user
from adapters.store import StoreSettings, open_storage

ZOE_NFC = "Zo\u00eb"  # Zoë with a precomposed ë
ZOE_NFD = "Zoe\u0308"  # Zoë with e + combining diaeresis
ZOE_ACUTE = "Zo\u00e9"  # Zoé
FOX = "🦊"
TOO_LONG = "? That name is too long"


def test_distinct_typed_names_are_distinct_people() -> None:
    users = [console_user(n, "ru") for n in (ZOE_NFC, ZOE_ACUTE, FOX, "zoë", "Zoe", "Zoë Smith")]
    assert len({u.id for u in users}) == len(users)
    assert [u.name for u in users] == [ZOE_NFC, ZOE_ACUTE, FOX, "zoë", "Zoe", "Zoë Smith"]
    assert all(u.id.startswith("con:") for u in users)


def test_the_same_name_typed_differently_is_one_person() -> None:
    nfd = console_user(ZOE_NFD, "ru")
    assert nfd.id == console_user(ZOE_NFC, "ru").id == f"con:{ZOE_NFC}"
    assert nfd.name == ZOE_NFD  # shown exactly as typed
    assert console_user("  anna   smith ", "ru").id == console_user("anna smith", "ru").id
    # Ids of plain lowercase names are what they always were: old games keep their players.
    assert console_user("anna", "ru").id == "con:anna"


def test_spaces_braces_and_percent_signs_make_valid_distinct_ids() -> None:
    names = ("anna smith", "anna_smith", "anna%20smith", "{anna}", "%7Banna%7D")
    ids = [console_user(n, "ru").id for n in names]
    assert len(set(ids)) == len(names)
    assert all(not any(ch.isspace() or ch in "{}" for ch in i) for i in ids), ids
    assert [console_user(n, "ru").name for n in names] == list(names)


async def test_a_name_with_a_space_opens_joins_and_starts_a_table(typist: Typist) -> None:
    t = typist
    opened = parse(await t.say("anna smith: /new stone_age 2-2"))
    assert any("anna smith" in m.text for m in opened if m.is_table), opened
    joined = answers(parse(await t.say("{bob}: /join")))
    assert joined and not any(a.alert for a in joined), joined
    started = parse(await t.say("anna smith: /start"))
    seats = [line.split(". ", 1)[1] for m in started if m.where == "group" and m.slot is None
             for line in m.lines[1:]]
    assert sorted(seats) == sorted(["anna smith", "{bob}"])


def test_names_are_sanitised_at_the_edge() -> None:
    assert console_user("an\x1b[31mna", "ru").name == "an[31mna"
    assert console_user("\u202eanna", "ru").name == "anna"  # no right-to-left override
    assert console_user("\udcffbob", "ru").name == "\ufffdbob"  # an undecodable byte
    assert console_user("a\ud83e\udd8a", "ru").name == "a🦊"  # a split surrogate pair joined
    for empty in ("\x00", "\x07\x08", "\u202e", "\u200b", " "):
        with pytest.raises(RefusedName, match="Write lines as"):
            console_user(empty, "ru")
    assert clean_line("a\tb\u2028c\x00\udc80\n") == "a b c\ufffd"
    for name in (console_user(n, "ru").name for n in ("\udcffbob", "x\x00y\x85")):
        name.encode("utf-8")  # storable and printable
        assert not any(unicodedata.category(ch) in ("Cc", "Cs") for ch in name)


def test_name_length_limit() -> None:
    assert console_user("a" * MAX_NAME, "ru").name == "a" * MAX_NAME
    assert console_user(FOX * MAX_NAME, "ru").name == FOX * MAX_NAME  # characters, not bytes
    assert console_user(ZOE_NFD * (MAX_NAME // 3), "ru")  # counted once normalised
    with pytest.raises(RefusedName) as refused:
        console_user("a" * (MAX_NAME + 1), "ru")
    assert str(refused.value).startswith(TOO_LONG)
    assert f"at most {MAX_NAME}" in str(refused.value)
    assert f"({MAX_NAME + 1} characters)" in str(refused.value)


async def test_three_lookalike_names_play_as_three_people(typist: Typist) -> None:
    t = typist
    await t.say(f"{ZOE_NFC}: /new stone_age 3-3")
    for name in (ZOE_ACUTE, FOX):
        joined = answers(parse(await t.say(f"{name}: /join")), name)
        assert joined and not any(a.alert for a in joined), joined
    # The same Zoë typed with a combining diaeresis is already seated.
    again = answers(parse(await t.say(f"{ZOE_NFD}: /join")))
    assert [a.alert for a in again] == [True]
    started = parse(await t.say(f"{ZOE_NFC}: /start"))
    seats = [line.split(". ", 1)[1] for m in started if m.where == "group" and m.slot is None
             for line in m.lines[1:]]
    assert sorted(seats) == sorted([ZOE_NFC, ZOE_ACUTE, FOX])
    tables = await t.app.sv.store.tables_in_chat("con:group")
    record = await t.app.sv.store.get(tables[0].table_id)
    assert record.meta["names"] == {  # type: ignore[index]
        f"con:{ZOE_NFC}": ZOE_NFC, f"con:{ZOE_ACUTE}": ZOE_ACUTE, f"con:{FOX}": FOX}


async def test_too_long_name_and_garbage_lines_get_a_hint(typist: Typist) -> None:
    t = typist
    long_name = "x" * (MAX_NAME + 8)
    said = await t.say(f"{long_name}: /help")
    assert said == (f"? That name is too long ({MAX_NAME + 8} characters); "
                    f"a name has at most {MAX_NAME}. Example: anna: /help\n")
    assert (await t.say(f"{long_name} dm: /mygames")).startswith(TOO_LONG)
    assert (await t.say("\x00\x01: /help")).startswith("? Write lines as")
    for line in ("\udcff\udcfe: /new stone_age 3-3", "bob: /rules \udc80\x1b", "\u202e: hi"):
        said = await t.say(line)  # no exception, and what is printed is plain UTF-8
        said.encode("utf-8")
        assert "\x1b" not in said
    assert not (await t.say("a" * MAX_NAME + ": /help")).startswith("?")


# --- real processes ---------------------------------------------------------------------


@pytest.fixture
def data_dir(tmp_path: Path) -> Iterator[Path]:
    """The data dir of the processes of one test; a redis-server left behind is killed."""
    path = tmp_path / "data"
    yield path
    kill_leftover_redis(path)


async def _names_of(data_dir: Path, tid: str) -> object:
    async with open_storage(StoreSettings(data_dir=data_dir)) as storage:
        return (await storage.games.get(tid)).meta["names"]


def test_names_survive_a_restart_of_the_console(tmp_path: Path, data_dir: Path) -> None:
    env = console_env(CAMPFIRE_DATA_DIR=str(data_dir))
    first = ConsoleProcess(tmp_path, env, name="first")
    try:
        opened = parse(first.step(f"{ZOE_NFC}: /new stone_age 3-3"))
        tid = next(m for m in opened if m.is_table).slot.removeprefix("table:")  # type: ignore[union-attr]
        first.step(f"{ZOE_ACUTE}: /join")
        first.step(f"{FOX}: /join")
        first.step(f"{ZOE_NFC}: /start")
    finally:
        assert first.close() == 0, first.stderr()

    second = ConsoleProcess(tmp_path, env, name="second")
    try:
        # Everyone still has their seat: each finds the table among their games.
        for name in (ZOE_NFD, ZOE_ACUTE, FOX):
            assert f"#{tid}" in second.step(f"{name} dm: /mygames"), name
        assert f"#{tid}" not in second.step("Zoe dm: /mygames")
        status = [m for m in parse(second.step(f"{FOX}: /status")) if m.where == "group"]
        (table,) = status
        text = table.text
        assert all(name in text for name in (ZOE_NFC, ZOE_ACUTE, FOX)), text
        # Whoever is to decide still can: their press is theirs, not someone else's.
        who = next(m["name"].strip() for line in table.lines if (m := TURN.match(line)))
        number = table.playable()[0][0]
        pressed = answers(parse(second.step(f"{who}: {number}")))
        assert not any(a.alert for a in pressed), pressed
    finally:
        assert second.close() == 0, second.stderr()
    assert "Traceback" not in first.stderr() + second.stderr()
    assert asyncio.run(_names_of(data_dir, tid)) == {
        f"con:{ZOE_NFC}": ZOE_NFC, f"con:{ZOE_ACUTE}": ZOE_ACUTE, f"con:{FOX}": FOX}


def test_undecodable_and_control_bytes_on_stdin(tmp_path: Path, data_dir: Path) -> None:
    """Raw bytes piped in, without UTF-8 mode: hints or answers, never a traceback."""
    script = b"".join([
        b"\xff\xfe: /help\n",
        b"an\x1b[2Jna\x07: /games\n",
        b"anna: /rules \xc3\x28\n",
        b"\xe2\x80\xae\x00: hi\n",
        f"{FOX}: /games\n".encode(),  # and valid UTF-8 still reads as typed
    ])
    env = console_env(CAMPFIRE_DATA_DIR=str(data_dir))
    del env["PYTHONUTF8"]
    proc = subprocess.run([*campfire_command(), "console"], input=script, cwd=tmp_path,
                          env=env, capture_output=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert b"Traceback" not in proc.stderr
    out = proc.stdout.decode("utf-8")  # valid UTF-8 throughout
    assert "\x1b" not in out and "\x07" not in out
    assert [a.where for a in answers(parse(out))][-1] == FOX


async def test_odd_names_open_and_join_a_table_under_their_cleaned_names(
        typist: Typist) -> None:
    """A lone surrogate and control characters in a name: the table opens and is joined
    under the cleaned names; a 200-character name is the console's to refuse (its names
    are ids: ``MAX_NAME``), with a hint and no crash."""
    t = typist
    opened = parse(await t.say("Ann\ud800a: /new stone_age 2-2"))
    joined = answers(parse(await t.say("Bo\x07ris\u202eK: /join")))
    assert joined and not any(a.alert for a in joined), joined
    assert (await t.say("L" * 200 + ": /join")).startswith(TOO_LONG)
    tables = await t.app.sv.store.tables_in_chat("con:group")
    record = await t.app.sv.store.get(tables[0].table_id)
    names = record.meta["names"]
    assert isinstance(names, dict)
    assert sorted(names.values()) == ["Ann\ufffda", "BorisK"]
    assert any("Ann\ufffda" in m.text for m in opened if m.is_table), opened
