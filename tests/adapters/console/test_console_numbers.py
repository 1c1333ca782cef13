"""The console's button numbers: stable across restarts, and the same as the pictures'.

A message with buttons gets a number of its own from Redis (``#12``) and its buttons the
numbers the picture and ``/move`` give their options; ``12.3`` presses button 3 of
message 12 whichever console process types it, and ``3`` the newest message's.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from console_harness import Players, Session, answers, parse

from adapters.console.chat import ConsoleChat, button_numbers, console_user
from adapters.runtime import running_core
from adapters.store import StoreSettings
from bot.games.caverna.picture import draw_page
from bot.i18n.catalog import default_catalog
from bot.texts import texts_for
from bot.ui.choices import Choice
from bot.ui.present import seat_names
from engine.caverna.view_model import CavernaView
from engine.registry import get_game

CATALOG = default_catalog()
CAVERNA = get_game("caverna")


def test_marks_number_the_options_and_other_buttons_count_on() -> None:
    marked = [Choice("a", "t1", mark=2), Choice("b", "t2", mark=1),
              Choice("back", "t3", "back", mark=3)]
    assert button_numbers(marked) == [2, 1, 3]
    lobby = [Choice("join", "l1", "action"), Choice("start", "l2", "action")]
    assert button_numbers(lobby) == [1, 2]
    assert button_numbers([Choice("x", "m1", mark=4), Choice("vote", "v1", "action")]) \
        == [4, 5]


async def test_after_a_restart_an_old_number_never_presses_a_new_button(
    tmp_path: Path,
) -> None:
    settings = StoreSettings(data_dir=tmp_path / "data")
    players = Players(seed=2)
    # First run: a table, its first prompt printed; one of its buttons is pressed.
    async with running_core(settings, pictures=False, seed=3) as core:
        out = io.StringIO()
        first = ConsoleChat.on(core, out, tmp_path / "pictures", lang="en")
        for line in ("anna: /new stone_age 2 en", "boris: /join", "anna: /start"):
            await first.handle_line(line)
        players.feed(out.getvalue())
        (who,) = players.waiting()
        prompt = players.prompts[who]
        old_long, old_label = prompt[-1]
        old_short = old_long.rsplit(".", 1)[1]
        user = console_user(who, "en")
        before = await first.pressable(user, old_long)
        assert before is not None
        assert await first.pressable(user, old_short) == before  # the newest message's
        seen = len(out.getvalue())
        await first.handle_line(f"{who}: {prompt[0][0]}")  # the game moves on
        printed = parse(out.getvalue()[seen:])
        assert not [a for a in answers(printed) if a.alert]
        numbers_before = {m.number for m in parse(out.getvalue()) if m.number}
        tid = (await core.app.sv.store.tables_in_chat("con:group"))[0].table_id
        version = (await core.app.sv.store.get(tid)).version

    # Second run on the same Redis: nothing is newest yet, so a short number is refused;
    # the long one still names the very button it was printed with.
    async with running_core(settings, pictures=False, seed=3) as core:
        out = io.StringIO()
        second = ConsoleChat.on(core, out, tmp_path / "pictures", lang="en")
        assert await second.pressable(user, old_short) is None
        await second.handle_line(f"{who}: {old_short}")
        assert out.getvalue() == f"? There is no button [{old_short}].\n"
        assert await second.pressable(user, old_long) == before
        seen = len(out.getvalue())
        await second.handle_line(f"{who}: {old_long}")  # an out-of-date prompt's button
        refused = answers(parse(out.getvalue()[seen:]), who)
        assert [(a.alert, a.text) for a in refused] == [
            (True, CATALOG.plain("en", "press.stale"))]
        assert (await core.app.sv.store.get(tid)).version == version  # nothing pressed
        # Messages printed now get new numbers, above every number printed before.
        await second.handle_line(f"{who}: /status")
        fresh = [m.number for m in parse(out.getvalue()) if m.number]
        assert fresh and min(fresh) > max(numbers_before)
        assert old_label  # the button had a label: it was a real one


def _points_at(key: str, mark: str) -> bool:
    """Whether an option ``key`` means the place of picture mark ``mark``
    (``space:<id>:<n>``, ``tile:<id>:<n>`` or ``n<n>`` for a home-board square)."""
    head, _, rest = key.partition(":")
    if mark.startswith("space:"):
        return head in ("go", "copy", "keep") and rest == mark.split(":")[1]
    if mark.startswith("tile:"):
        return head == "tile" and rest == mark.split(":")[1]
    return head in ("at", "small", "stable", "lay", "large")


async def test_caverna_picture_marks_are_the_console_numbers(en_session: Session) -> None:
    """Over a solo Caverna game's table messages: every number the picture draws is the
    console's number of the button that chooses what the mark points at."""
    s = en_session
    players = Players(seed=5)
    await s.say("anna: /new caverna 1 en")
    players.feed(await s.say("anna: /start"))
    tid = await s.table_id()
    rnd = random.Random(5)
    checked: set[str] = set()
    user = console_user("anna", "en")
    for _ in range(60):
        record = await s.app.sv.store.get(tid)
        prompts = s.app.sv.prompts(record)
        table = players.table
        if len(prompts) != 1 or table is None or not table.buttons:
            break
        (prompt,) = prompts
        view = CAVERNA.view(s.app.sv.view_state(record), None)
        assert isinstance(view, CavernaView)
        _, drawn = draw_page(view, seat_names(record), "en", prompt)
        printed = dict(table.buttons)
        for mark, n in drawn.marks.items():
            option = prompt.options[n - 1]
            assert _points_at(str(option.key), mark), (mark, option.key)
            typed = f"{table.number}.{n}"
            pressable = await s.chat.pressable(user, typed)
            assert pressable is not None, (mark, typed)
            token = s.app.sv.signer.parse(pressable.token)
            assert token is not None and token.int_field(3) == n - 1
            # Printed under that number, with that option's label.
            assert printed[typed] == texts_for("caverna").option("en", option.label)
            checked.add(mark.split(":")[0] if ":" in mark else "square")
        playable = [n for n, label in table.playable()]
        players.feed(await s.say(f"anna: {rnd.choice(playable)}"))
    assert {"space", "square"} <= checked, checked
