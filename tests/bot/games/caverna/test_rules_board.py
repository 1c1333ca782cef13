"""Caverna's rules look-up and text board through the app.

``/rules caverna <tile name>`` finds a furnishing tile by its English or Russian name,
misspelt too, and answers in the chat's language; ``/board`` at a Caverna table with
pictures off sends the board as text: the round, the action spaces, the player's own
home board square by square and the others in short.
"""

from __future__ import annotations

import pytest

from bot.rules import Lang, RulesLibrary
from tests.bot.helpers import ANNA, BORIS, CLARA, Harness, dm, plain

RULES = RulesLibrary()


def _title(topic: str, lang: Lang) -> str:
    """A Caverna topic's title in ``lang`` (the rules book is the truth)."""
    [hit] = [h for h in RULES.index("caverna").topic_list(lang) if h.topic_id == topic]
    return hit.title


async def _first_topic(h: Harness, query: str) -> tuple[str, str]:
    """The first topic's title and body of ``/rules <query>``'s answer."""
    text = plain((await h.text(ANNA, f"/rules {query}")).answer)
    title, body = text.split("\n", 2)[:2]
    return title, body


@pytest.mark.parametrize(("query", "topic", "says"), [
    ("caverna blacksmith", "tile_blacksmith", "2 ore"),
    ("caverna blaksmith", "tile_blacksmith", "2 ore"),  # a letter missing
    ("caverna weaving parlour", "tile_weaving_parlor", "sheep"),  # British spelling
    ("caverna writting chamber", "tile_writing_chamber", "7 negative points"),
    ("caverna beer parlor", "tile_beer_parlor", "2 grain"),
    ("каверна кузнец", "tile_blacksmith", "2 ore"),  # a Russian name, English answer
    ("caverna ткацкое помешение", "tile_weaving_parlor", "sheep"),  # misspelt Russian
])
async def test_rules_finds_a_furnishing_in_english(
    h: Harness, query: str, topic: str, says: str,
) -> None:
    title, body = await _first_topic(h, query)
    assert title == _title(topic, "en")
    assert says in body


@pytest.mark.parametrize(("query", "topic", "says"), [
    ("каверна кузнец", "tile_blacksmith", "2 руды"),
    ("каверна кузнeц", "tile_blacksmith", "2 руды"),  # a Latin e among Cyrillic letters
    ("каверна ткацкое помешение", "tile_weaving_parlor", "овц"),
    ("каверна каменный склад", "tile_stone_storage", "камень"),
    ("caverna blacksmith", "tile_blacksmith", "2 руды"),  # an English name, Russian answer
    ("caverna writing chambre", "tile_writing_chamber", "7"),
])
async def test_rules_finds_a_furnishing_in_russian(
    h: Harness, query: str, topic: str, says: str,
) -> None:
    await h.text(ANNA, "/language ru")
    title, body = await _first_topic(h, query)
    assert title == _title(topic, "ru")
    assert says in body


async def test_rules_for_nonsense_and_the_topic_list(h: Harness) -> None:
    text = plain((await h.text(ANNA, "/rules caverna xyzzy qwerty")).answer)
    assert text == h.t("rules.nothing", query="xyzzy qwerty")
    listing = plain((await h.text(ANNA, "/rules caverna")).answer).splitlines()
    assert listing[0] == h.t("rules.topics", game=h.t("cav.title"), topics="x").splitlines()[0]
    # The 48 tiles (and the spaces, cards, loot) are one line each as a family, so the
    # whole list fits a chat message (Discord's 2000 characters); every topic is reachable.
    assert f"• {_title('tile_blacksmith', 'en')}" not in listing
    assert "• Furnishing tiles (48): /rules caverna Furnishing tiles lists them" in listing
    assert f"• {_title('setup', 'en')}" in listing
    assert len("\n".join(listing)) < 2000
    for query in ("caverna furnishing tiles", "каверна обустройства"):
        members = plain((await h.text(ANNA, f"/rules {query}")).answer).splitlines()
        assert f"• {_title('tile_blacksmith', 'en')}" in members, query
        assert sum(line.startswith("• ") for line in members) == 48
    listed = set()
    for family in ("", "Furnishing tiles", "Action spaces", "Round cards", "Expedition loot"):
        listed |= set(plain((await h.text(ANNA, f"/rules caverna {family}")).answer)
                      .splitlines())
    every = {f"• {t.title}" for t in RULES.index("caverna").topic_list("en")}
    assert every <= listed


async def test_board_without_pictures_is_text(h: Harness) -> None:
    """Three players; each ``/board`` is a private text message of the asker's board."""
    assert not h.sv.pictures
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "3"), game="caverna")
    record = await h.get(table_id)
    reply = await h.text(BORIS, "/board")
    assert reply.answer is None and reply.out == [] and reply.private is not None
    assert plain(reply.private.note) == h.t("cmd.board_sent")
    board = reply.private.message
    assert board.picture is None
    lines = plain(board.text).splitlines()
    assert h.t("cav.board.spaces_title") in lines
    # Boris's own home board row by row (squares A1–F4), the others in a line each.
    rows = [line for line in lines if line.startswith(("Row ", "Ряд "))]
    assert len(rows) == 4
    for n, row in enumerate(rows, start=1):
        assert all(f"{col}{n} " in row for col in "ABCDEF"), row
    assert "Entry-level dwelling" in rows[3]
    others = [u.name for u in (ANNA, CLARA)]
    assert all(any(line.startswith(f"{name} — ") for line in lines) for name in others)
    assert any(line.startswith(f"{BORIS.name} — ") for line in lines)
    # In the private chat it answers there, without the "sent privately" note.
    reply = await h.text(ANNA, f"/board {table_id}", dm(ANNA))
    assert reply.private is not None and reply.private.note is None and reply.out == []
    assert reply.private.message.picture is None
    assert "Row 1:" in plain(reply.private.message.text)
    assert record.game == "caverna"


async def test_the_turn_marker_sits_on_the_question_not_on_the_words_before_it(
    h: Harness,
) -> None:
    """Caverna describes some choices in words before its question (squares, ways):
    the table's ➡️ line must be the question, with the description above it."""
    table_id = await h.started(ANNA, BORIS, game="caverna")
    for _ in range(300):
        record = await h.get(table_id)
        [prompt] = await h.prompts(table_id)
        said = plain(h.sv.presenter.prompt_line(record, prompt, "en"))
        if "\n" in said:
            break
        user = h.user_at(record, prompt.seat)
        await h.press(user, h.move_tokens(h.dm_prompt(record, prompt.seat), prompt)[0], dm(user))
    else:
        pytest.fail("no prompt with words before its question in 300 presses")
    lines = plain(h.table_message(table_id).text).splitlines()
    marked = [line for line in lines if line.startswith("➡️")]
    details, _, question = said.rpartition("\n")
    assert marked == [f"➡️ {question}"]
    assert lines.index(marked[0]) == lines.index(details.splitlines()[-1]) + 1
