"""Console pictures: every picture saved gets a file of its own, and its printed path
points at it; nothing saved earlier is overwritten, not even after a restart."""

from __future__ import annotations

from pathlib import Path

from console_harness import Shown, parse
from console_typist import Typist

from adapters.console.chat import file_part, file_recipient

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def pictures(items: list[Shown]) -> list[tuple[Shown, Path]]:
    """Every (message, picture path) printed."""
    return [(m, Path(p)) for m in items for p in m.pictures]


async def start_game(t: Typist) -> list[tuple[Shown, Path]]:
    """anna opens a 3-player table, boris and vera join, anna starts; the pictures printed."""
    await t.say("anna: /new stone_age 3-3")
    await t.say("boris: /join")
    await t.say("vera: /join")
    return pictures(parse(await t.say("anna: /start")))


async def test_board_does_not_overwrite_the_table_picture(typist: Typist) -> None:
    t = typist
    opening = await start_game(t)
    (table_path,) = [p for m, p in opening if m.is_table]
    table_png = table_path.read_bytes()
    assert table_png.startswith(PNG_MAGIC)

    # /board at the same table version, in the group and in each private chat.
    shown: list[tuple[Shown, Path]] = []
    for line in ("anna: /board", "boris dm: /board", "vera dm: /board", "vera dm: /board"):
        got = pictures(parse(await t.say(line)))
        assert got, f"{line} printed no picture"
        shown += got
    paths = [table_path] + [p for _, p in shown]
    assert len(set(paths)) == len(paths), paths
    assert table_path.read_bytes() == table_png, "the table's picture was overwritten"
    tid = table_path.name.split("-", 1)[0]
    assert table_path.parent == t.pictures_dir
    assert table_path.name.startswith(f"{tid}-") and "-group-" in table_path.name
    for message, path in shown:
        assert path.is_file() and path.read_bytes().startswith(PNG_MAGIC)
        if message.dm_to is not None:
            assert f"-dm-{message.dm_to}-" in path.name, path
    # The private boards are the players' own views: different pictures in different files.
    boris = next(p for m, p in shown if m.dm_to == "boris")
    vera = next(p for m, p in shown if m.dm_to == "vera")
    assert boris.read_bytes() != vera.read_bytes()


async def test_an_updated_table_message_shows_a_new_picture_only_when_it_changed(
    typist: Typist,
) -> None:
    t = typist
    await start_game(t)
    # /status reprints the table as a new message: a new picture of its own.
    first = [p for m, p in pictures(parse(await t.say("anna: /status"))) if m.where == "group"]
    second = [p for m, p in pictures(parse(await t.say("anna: /status"))) if m.where == "group"]
    assert len(first) == len(second) == 1 and first != second
    assert first[0].read_bytes() == second[0].read_bytes()


async def test_a_restarted_console_never_overwrites_earlier_pictures(typist: Typist) -> None:
    t = typist
    before = [p for _, p in await start_game(t)]
    before += [p for _, p in pictures(parse(await t.say("anna dm: /board")))]
    saved = {p: p.read_bytes() for p in before}
    # A restarted console counts its pictures from 1 again; the names it would pick
    # first are taken, so it moves on instead of writing over them.
    again = t.restarted()
    after = [p for _, p in pictures(parse(await again.say("anna dm: /board")))]
    after += [p for _, p in pictures(parse(await again.say("anna: /status")))]
    assert after and not set(after) & set(saved)
    assert {p: p.read_bytes() for p in saved} == saved
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in after)


def test_file_name_parts_are_safe() -> None:
    assert file_part("7dw5-12") == "7dw5-12"
    assert file_part("Zoë") == "Zoë"
    assert file_part("../../etc/passwd") == "etc_passwd"
    assert file_part("a/b c") == "a_b_c"
    fox = file_part("🦊")
    assert fox.startswith("u") and len(fox) == 9 and fox != file_part("🐺")
    assert file_recipient("con:group") == "group"
    assert file_recipient("con:dm:vera") == "dm-vera"
    assert "/" not in file_recipient("con:dm:a/b")
