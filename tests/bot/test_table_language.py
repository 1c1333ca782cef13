"""A table speaks its own language about itself, whatever its players' clients say:
replies and refusals in its chat, ``/board``, ``/log``, pages of its prompts."""

from __future__ import annotations

import re

from bot.identity import User
from tests.bot.helpers import GROUP, Harness, plain

CYRILLIC = re.compile(r"[А-Яа-яЁё]")
# Russian clients at an English table.
ANYA = User(id="con:anya", name="Anya", lang="ru")
BORYA = User(id="con:borya", name="Borya", lang="ru")


def english(text: str) -> bool:
    """No Cyrillic but in the players' names (here: none)."""
    return CYRILLIC.search(text) is None


async def test_russian_clients_at_an_english_table_hear_english(h: Harness) -> None:
    table_id = await h.started(ANYA, BORYA, options=("en",))
    said = [await h.text(user, command) for user, command in (
        (ANYA, "/board"), (BORYA, "/log"), (ANYA, "/status"), (ANYA, "/move 99"),
        (BORYA, "/vote abc"), (ANYA, f"/log #{table_id} x"))]
    for reply in said:
        shown = [plain(reply.answer)] if reply.answer else []
        if reply.private is not None:
            shown.append(plain(reply.private.message.text))
            if reply.private.note is not None:
                shown.append(plain(reply.private.note))
        shown += [plain(o.message.text) for o in reply.out]
        assert shown and all(english(t) for t in shown), shown
    # A press of another's button, in the group: refused in the table's language.
    record = await h.get(table_id)
    prompt = (await h.prompts(table_id))[0]
    other = BORYA if record.seats[prompt.seat] == ANYA.id else ANYA
    token = h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)[0]
    refused = await h.press(other, token, GROUP)
    assert refused.alert and english(plain(refused.answer)), plain(refused.answer)


async def test_a_russian_table_answers_an_english_client_in_russian(h: Harness) -> None:
    anna, boris = (User(id=f"con:{n}", name=n, lang="en") for n in ("ann", "bob"))
    table_id = await h.started(anna, boris, options=("ru",))
    reply = await h.text(anna, "/log")
    assert CYRILLIC.search(plain(reply.answer)), plain(reply.answer)
    reply = await h.text(boris, f"/log #{table_id} x")
    assert reply.alert and CYRILLIC.search(plain(reply.answer)), plain(reply.answer)
