"""``/new``'s arguments: the AI players a table opens with (``ai=2 level=strong``, in
either language); the other settings are tested with the commands
(``tests/bot/input/test_handlers.py``) and the games' manifests."""

from __future__ import annotations

import pytest

from bot.games import manifests
from bot.input.new_table_args import BadArgument, read_new_args
from tests.bot.helpers import ANNA, GROUP, Harness, plain

STONE_AGE = manifests()["stone_age"]


@pytest.mark.parametrize(("args", "ai", "level"), [
    ((), 0, "normal"),
    (("ai=2",), 2, "normal"),
    (("4", "ai=3", "level=strong"), 3, "strong"),
    (("level=easy", "ai=1"), 1, "easy"),
    (("ии=2", "уровень=сильный"), 2, "strong"),
    (("ИИ=1", "УРОВЕНЬ=Лёгкий"), 1, "easy"),
    (("ии=1", "уровень=легкий"), 1, "easy"),
    (("ai=1", "level=обычный"), 1, "normal"),
])
def test_ai_players_and_their_level_are_read_in_either_language(
    args: tuple[str, ...], ai: int, level: str
) -> None:
    asked = read_new_args(STONE_AGE, "en", args)
    assert (asked.ai, asked.level) == (ai, level)


@pytest.mark.parametrize(("args", "code", "setting"), [
    (("ai=4",), "cmd.bad_ai", "ai"),  # four AI and the creator: five seats at most four
    (("2", "ai=2"), "cmd.bad_ai", "ai"),
    (("ai=two",), "cmd.bad_setting", "ai"),
    (("ai",), "cmd.bad_setting", "ai"),
    (("level=genius",), "cmd.bad_setting", "level"),
    (("уровень=wait",), "cmd.bad_setting", "level"),  # a vote's word, but not a level
])
def test_ai_arguments_that_do_not_fit_are_named(
    args: tuple[str, ...], code: str, setting: str
) -> None:
    with pytest.raises(BadArgument) as refused:
        read_new_args(STONE_AGE, "ru", args)
    assert (refused.value.code, refused.value.setting) == (code, setting)


async def test_too_many_ai_players_are_refused_with_the_seats_there_are(h: Harness) -> None:
    reply = await h.text(ANNA, "/new stone_age 3 ai=3")
    expected = h.t("new.expect", form=h.t("new.setting.ai.form"),
                   about=h.t("new.setting.ai.about"))
    assert plain(reply.answer) == h.t("cmd.bad_ai", option="ai=3", max=2, expected=expected)
    assert await h.store.tables_in_chat(GROUP.id) == []
    # /new explains both settings among the others.
    lines = plain((await h.text(ANNA, "/new")).answer).splitlines()
    assert "; ai=2 (how many seats AI players take from the start" in lines[-2]
    assert "; level=strong (those AI players' level: easy, normal (the default) or strong)" \
        in lines[-2]


@pytest.mark.parametrize(("args", "spectators"), [
    ((), True), (("private",), False), (("закрытый",), False), (("3", "Закрыто"), False),
])
def test_a_table_may_keep_its_page_to_its_players(args: tuple[str, ...],
                                                  spectators: bool) -> None:
    assert read_new_args(STONE_AGE, "en", args).options.spectators is spectators


def test_private_takes_no_value() -> None:
    with pytest.raises(BadArgument) as refused:
        read_new_args(STONE_AGE, "en", ("private=yes",))
    assert refused.value.setting == "private"
