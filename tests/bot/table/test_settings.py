"""A table's settings and bookkeeping read from its record: parsed once per record, and
a changed record (a new ``model_copy``) is read afresh."""

from __future__ import annotations

from bot.storage import LogEntry, TableRecord, TableStatus
from bot.table.settings import meta_of, meta_view, options_of, setup_variants
from bot.table.turns import load_state, replay, state_dict
from engine.caverna.caverna_game import CAVERNA
from engine.hunters_gatherers.coords import FIRST
from engine.hunters_gatherers.game import GAME as HUNTERS_GATHERERS


def _record(**fields: object) -> TableRecord:
    values: dict[str, object] = {
        "table_id": "a7k2", "game": "stone_age", "chat_id": "tg:-1", "creator_id": "tg:u1",
        "seats": ("tg:u1", "tg:u2"), "options": {"min_seats": 2, "max_seats": 4},
        "meta": {"names": {"tg:u1": "Ann"}, "opened": {"0": 3}},
    }
    return TableRecord.model_validate(values | fields)


def test_views_follow_the_record_they_read() -> None:
    first = _record()
    assert meta_view(first) == meta_of(first)
    assert meta_view(first) is meta_view(first)  # parsed once
    assert options_of(first).max_seats == 4
    changed = first.model_copy(update={"meta": {"names": {}, "opened": {"1": 5}},
                                       "options": {"min_seats": 2, "max_seats": 3,
                                                   "lang": "en"}})
    assert meta_view(changed).opened == {"1": 5}
    assert (options_of(changed).max_seats, options_of(changed).lang) == (3, "en")
    # The first record reads as it did.
    assert meta_view(first).opened == {"0": 3}
    assert options_of(first).max_seats == 4


def test_meta_of_is_a_private_copy() -> None:
    record = _record()
    view = meta_view(record)
    mine = meta_of(record)
    mine.opened["0"] = 99
    mine.names.clear()
    assert view.opened == {"0": 3} and view.names == {"tg:u1": "Ann"}
    assert meta_view(record).opened == {"0": 3}
    assert meta_of(record).opened == {"0": 3}


def test_a_variant_declared_after_a_table_opened_plays_as_the_game_did_before() -> None:
    """A table records every variant when it opens: one it lacks was declared later,
    and the engine is given what the game played before it (Hunters and Gatherers'
    square names: the first scheme); a recorded choice stands; an old Caverna table
    (furnishings came with the game's default) plays that default."""
    old = _record(game="hunters_gatherers", options={"min_seats": 2, "max_seats": 2})
    assert setup_variants(old, HUNTERS_GATHERERS) == {"names": "n14"}
    new = _record(game="hunters_gatherers",
                  options={"min_seats": 2, "max_seats": 2, "variants": {"names": "cm91"}})
    assert setup_variants(new, HUNTERS_GATHERERS) == {"names": "cm91"}
    cave = _record(game="caverna", options={"min_seats": 1, "max_seats": 7})
    assert setup_variants(cave, CAVERNA) == {"furnishings": "official"}


def test_an_old_hunters_gatherers_table_replays_its_typed_square_names() -> None:
    """A game begun before square names had schemes: its log holds a square typed by
    its old name (``M14``); the replay, which begins with the engine's ``new``, names
    squares by that scheme again and lays the tile where the player meant."""
    played = HUNTERS_GATHERERS.new(2, 9, {"names": "n14"})
    [prompt] = HUNTERS_GATHERERS.pending(played)
    typed = str(prompt.options[0].label.args["at"])  # the square as the player read it
    assert typed[0].isalpha() and typed[-2:].isdigit()
    log = [LogEntry(key=typed, seat=prompt.seat, version=1)]
    HUNTERS_GATHERERS.apply(played, prompt.seat, typed)
    stored = state_dict(played)
    del stored["naming"]  # stored before states recorded their scheme
    record = _record(game="hunters_gatherers", seats=("tg:u1", "tg:u2"), seed=9,
                     status=TableStatus.RUNNING, state=stored,
                     options={"min_seats": 2, "max_seats": 2})
    replayed = replay(HUNTERS_GATHERERS, record, log)
    assert state_dict(replayed) == state_dict(played)
    assert load_state(HUNTERS_GATHERERS, record).naming == FIRST


def test_the_autopilots_old_levels_read_as_ai_levels() -> None:
    """A record written before the AI levels: its autopilot seats, ballots and a vote's
    outcome named ``random``/``greedy``, read as the levels that play alike."""
    record = _record(meta={
        "autopilot": {"0": "random", "1": "greedy"},
        "vote": {"seat": 1, "ballots": {"tg:u1": "greedy", "tg:u3": "wait"}},
        "ended": {"version": 3, "kind": "timeout", "seat": 0, "outcome": "random"},
    })
    meta = meta_view(record)
    assert meta.autopilot == {"0": "easy", "1": "normal"}
    assert meta.vote is not None and meta.vote.ballots == {"tg:u1": "normal", "tg:u3": "wait"}
    assert meta.ended is not None and meta.ended.outcome == "easy"
    assert meta_of(record).model_dump(mode="json")["autopilot"] == {"0": "easy", "1": "normal"}
