"""Hunters and Gatherers is playable in text alone: a whole game through the app with
pictures off, every choice made from the words of the private messages.

Each player reads their private prompt: the spots listed by square (``• M13, N13: …``),
the rotations described one per line (``↻ 90°: …``), the figure buttons with their
arrows. Spots are chosen by the name of their square: half the time typed
(``/move <table> M13``), half the time by pressing the button that says ``📍 M13``
(turning pages when it is not on the first). The engine is asked only to check what the
words claim: that the squares listed are exactly where the tile fits.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable

from bot.identity import User
from bot.storage import TableNotFound, TableRecord, TableStatus
from bot.ui.message import Message
from engine.hunters_gatherers.coords import CURRENT, naming
from engine.hunters_gatherers.decisions import parse_spot
from tests.bot.helpers import ANNA, BORIS, CLARA, Harness, buttons_of, dm, plain

GROUP_LINE = re.compile(r"^• (?P<squares>[^:]+): (?P<touch>.+) — (?P<turns>.+)$")
TURN_LINE = re.compile(r"^↻ (?P<deg>\d+)°: (?P<sides>.+)\.$")
MAX_MOVES = 2_000


def _spots(text: str) -> list[str]:
    """The squares a spot prompt lists, in its order."""
    found: list[str] = []
    for line in text.splitlines():
        if (match := GROUP_LINE.match(line)) is not None:
            found += match["squares"].split(", ")
    return found


async def _button(h: Harness, user: User, message_of: Callable[[], Message],
                  label: str) -> str:
    """The token of the button reading ``label`` in ``user``'s private prompt, turning
    its pages ("›") until it shows."""
    for _ in range(10):
        by_label = {b.label: b.token for b in buttons_of(message_of())}
        if label in by_label:
            return by_label[label]
        assert "›" in by_label, f"no button {label!r}: {sorted(by_label)}"
        reply = await h.press(user, by_label["›"], dm(user))
        assert not reply.alert, plain(reply.answer)
    raise AssertionError(f"no button {label!r} on any page")


async def test_a_whole_game_in_text_alone_choosing_spots_by_their_squares(h: Harness) -> None:
    table_id = await h.started(ANNA, BORIS, CLARA, options=("en", "3"),
                               game="hunters_gatherers")
    rnd = random.Random(2024)
    typed = pressed = turned = figures = 0
    laid: list[tuple[str, str]] = []  # (player, square) of every spot chosen
    for _ in range(MAX_MOVES):
        try:
            record = await h.get(table_id)
        except TableNotFound:
            break
        assert record.status == TableStatus.RUNNING
        [prompt] = await h.prompts(table_id)
        user = h.user_at(record, prompt.seat)

        def message_of(record: TableRecord = record, seat: int = prompt.seat) -> Message:
            return h.dm_prompt(record, seat)

        message = message_of()
        assert message.picture is None
        text = plain(message.text)
        spots = _spots(text)
        turns = [m["deg"] for line in text.splitlines() if (m := TURN_LINE.match(line))]
        lines = text.splitlines()
        if "Free squares and what lies next to them:" in lines:
            # The words list exactly the squares where the tile fits, each once.
            names = naming(CURRENT)  # a table opened now names squares by the current scheme
            fits = [names.square_name(pos) for o in prompt.options
                    if (pos := parse_spot(o.key))]
            assert sorted(spots) == sorted(fits) and len(set(spots)) == len(spots)
            assert lines[1].startswith("The tile as drawn (↻ 0°): ")  # after the heading
            assert re.fullmatch(rf"{user.name}, (where does the tile|bonus turn! Where does "
                                rf"the bonus tile)( with [a-z ,]+)? go\?", lines[-1]), lines[-1]
            square = rnd.choice(spots)
            laid.append((user.name, square))
            if rnd.random() < 0.5:
                reply = await h.text(user, f"/move {table_id} {square}", dm(user))
                typed += 1
            else:
                reply = await h.press(user, await _button(h, user, message_of, f"📍 {square}"),
                                      dm(user))
                pressed += 1
        elif turns:
            # Every rotation offered is described, and has its button.
            labels = [b.label for b in buttons_of(message)]
            assert [f"↻ {deg}°" for deg in turns] == [la for la in labels if la.startswith("↻")]
            assert lines[-1] == f"{user.name}, which way should the tile face on {laid[-1][1]}?"
            deg = rnd.choice(turns)
            reply = await h.press(user, await _button(h, user, message_of, f"↻ {deg}°"), dm(user))
            turned += 1
        else:
            assert lines[-1].endswith(f"on the tile just laid on {laid[-1][1]}?")
            assert f"The tile on {laid[-1][1]} (↻ " in text
            choices = [b for b in buttons_of(message) if b.label != "« Back"]
            assert any(b.label == "No figure" for b in choices)
            button = rnd.choice(choices)
            figures += button.label != "No figure"
            reply = await h.press(user, button.token, dm(user))
        assert not reply.alert, plain(reply.answer)
    else:
        raise AssertionError("the game did not end")

    archived = await h.store.get_archived(table_id)
    assert archived.status == TableStatus.FINISHED
    assert typed > 10 and pressed > 10 and turned > 5 and figures > 5
    # No picture went out, and the chat log said where every tile went, by its square
    # (but the last: the final message tells the scores, not the last events).
    assert all(item.message.picture is None for item in h.sent)
    told = "\n".join(plain(item.message.text) for item in h.sent)
    for name, square in laid[:-1]:
        assert f"{name} lays a tile on {square}" in told or (
            f"{name} lays a bonus tile on {square}" in told), (name, square)
