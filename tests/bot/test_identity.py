"""Every user and chat is cleaned where the core receives them (``bot.identity``), so
that no platform has to: a lone surrogate, control characters and a 200-character name
open and join a table, and are stored and shown cleaned."""

from __future__ import annotations

import json

from bot.identity import NAME_LIMIT, Chat, User, ai_id, ai_parts, arrived, clean_text, is_ai
from bot.table.settings import meta_of
from tests.bot.conftest import AppFactory
from tests.bot.helpers import plain

RAW = {"Ann\ud800a": "Ann\ufffda", "Bo\x07ris\n\u202eK": "Bo ris K",
       "L" * 200: "L" * (NAME_LIMIT - 1) + "…"}


def test_arrived_cleans_names_and_titles_and_keeps_the_rest() -> None:
    chat, user = arrived(Chat("x:1", title="Game\x00 night\ud800"),
                         User("x:2", "\x07\u2066 ", lang="en", is_admin=True))
    assert chat == Chat("x:1", title="Game night\ufffd")
    assert user == User("x:2", "#2", lang="en", is_admin=True)
    clean = Chat("x:1", title="Night"), User("x:2", "Anna")
    assert all(a is b for a, b in zip(arrived(*clean), clean, strict=True))


def test_texts_keep_their_lines_and_lose_other_controls() -> None:
    assert clean_text("/rules a\x00b\ud800\nc\td") == "/rules ab\ufffd\nc\td"
    assert clean_text("/help") == "/help"


async def test_raw_names_open_and_join_a_table(make_app: AppFactory) -> None:
    app = await make_app()
    group = Chat("x:group", title="Game\x1b night")
    users = [User(f"x:{i}", raw, lang="en") for i, raw in enumerate(RAW)]
    opened = await app.on_text(group, users[0], "/new stone_age 3-3 en")
    await app.acknowledge(opened)
    (table,) = await app.sv.store.tables_in_chat(group.id)
    table_id = table.table_id
    for user in users[1:]:
        joined = await app.on_text(group, user, "/join")
        assert not joined.alert, plain(joined.answer)
        await app.acknowledge(joined)
    record = await app.sv.store.get(table_id)
    names = meta_of(record).names
    assert sorted(names.values()) == sorted(RAW.values())
    json.dumps(names, ensure_ascii=False).encode("utf-8")  # storable as it is
    shown = plain((await app.on_text(group, users[0], "/status")).out[0].message.text)
    assert all(name in shown for name in RAW.values()), shown


def test_an_ai_players_id_is_its_own_kind() -> None:
    assert ai_id("strong", 2) == "ai:strong:2" and ai_parts("ai:strong:2") == ("strong", 2)
    assert is_ai(ai_id("easy", 1))
    # No platform's id is an AI's, whatever its user calls themselves.
    for person in ("tg:42", "dc:42", "con:ai", "con:ai:strong:1"):
        assert not is_ai(person)
