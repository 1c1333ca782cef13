"""The turn clock as players see it: time left in the prompt, on the table and under the
picture; fractional hours and units; and /resume never comes back to an empty bank."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.table.clock import duration_words
from bot.table.settings import meta_of, options_of
from tests.bot.conftest import AppFactory
from tests.bot.helpers import ANNA, BORIS, CLARA, GROUP, Clock, Harness, plain

HOUR = 3600.0


@pytest.mark.parametrize(("arg", "hours"), [
    ("clock=0.5/0.25/2", (0.5, 0.25, 2.0)),
    ("clock=30m/10m/2h", (0.5, 1 / 6, 2.0)),
    ("clock=1,5/0/1d", (1.5, 0.0, 24.0)),
])
async def test_fractional_and_unit_clocks_are_accepted(h: Harness, arg: str,
                                                       hours: tuple[float, ...]) -> None:
    table_id = await h.new_table(ANNA, "en", arg)
    options = options_of(await h.get(table_id))
    assert options.clock
    assert (options.clock_initial_h, options.clock_bonus_h, options.clock_max_h) == \
        pytest.approx(hours)


def test_durations_read_in_two_units_rounded_down(h: Harness) -> None:
    cat = h.sv.catalog
    assert duration_words(cat, "en", 2 * 86400 + 5 * 3600 + 59) == "2 d 5 h"
    assert duration_words(cat, "en", 3 * 3600 + 10 * 60 + 59) == "3 h 10 min"
    assert duration_words(cat, "en", 45 * 60) == "45 min"
    assert duration_words(cat, "ru", 20.9) == "20 с"
    assert duration_words(cat, "en", 0) == "0 s"


async def test_time_left_shows_in_the_prompt_and_on_the_table(h: Harness, clock: Clock) -> None:
    table_id = await h.started(ANNA, BORIS, options=("en", "clock=30m/10m/2h"))
    record = await h.get(table_id)
    first = h.user_at(record, 0)
    prompt = plain(h.dm_prompt(record, 0).text)
    assert prompt.endswith("⏳ 30 min left on your clock.")
    assert "⏳ 30 min" in plain(h.table_message(table_id).text)
    clock.advance(11 * 60)
    await h.text(first, "/turn")
    assert plain(h.dm_prompt(record, 0).text).endswith("⏳ 19 min left on your clock.")


async def test_no_clock_no_note(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    record = await h.get(table_id)
    assert "⏳" not in plain(h.dm_prompt(record, 0).text)
    assert "⏳" not in plain(h.table_message(table_id).text)


async def test_the_picture_carries_every_clock(make_app: AppFactory, clock: Clock) -> None:
    h = Harness(await make_app(pictures=True), clock)
    plain_table = await h.started(ANNA, BORIS)
    timed = await h.started(ANNA, BORIS, options=("en", "clock=1/1/2"))
    sizes = []
    for table_id in (plain_table, timed):
        picture = h.table_message(table_id).picture
        assert picture is not None
        sizes.append(Image.open(BytesIO(picture.png)).size)
    assert sizes[1][0] == sizes[0][0] and sizes[1][1] > sizes[0][1]


async def test_resume_with_an_empty_bank_gets_a_turn_of_time(h: Harness, clock: Clock) -> None:
    # No increment per move: the autopilot's moves leave the bank empty.
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "clock=1/0/2", "remind=20"))
    record = await h.get(table_id)
    late = h.user_at(record, 0)
    clock.advance(HOUR + 5)
    [vote] = await h.due()
    token = next(b.token for b in vote.message.all_buttons() if b.token.split(".")[3] == "easy")
    for seat in (1, 2):
        await h.press(h.user_at(record, seat), token, GROUP)
    meta = meta_of(await h.get(table_id))
    assert "0" in meta.autopilot and meta.bank["0"] <= 0
    reply = await h.text(late, "/resume")
    assert plain(reply.answer) == h.t("cmd.resumed")
    meta = meta_of(await h.get(table_id))
    assert "0" not in meta.autopilot
    assert meta.bank["0"] == HOUR  # the starting hour, as there is no increment
    clock.advance(HOUR / 2)
    assert all(plain(o.message.text).find("ran out") < 0 for o in await h.due())


async def test_resume_by_someone_without_a_seat_says_so(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS)
    reply = await h.text(CLARA, f"/resume {table_id}")
    assert plain(reply.answer) == h.t("cmd.no_seat", table=table_id)
