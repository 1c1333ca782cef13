"""Keeping a table's result when it is archived, and bringing the ratings up to it.

The result is written by the very step that archives the table (``archive``'s
``result``), which is owed by the table's last change like its messages: a crash before
it leaves the change owed, and its repair archives the table then. So every table that
is over is kept exactly once. The ratings follow the kept results in their order by
a cursor (``catch_up``): whichever worker comes first rates what is new, in one write
with the cursor, so a crash between keeping and rating delays the ratings, and the next
table to end (or the next ``/stats``) brings them up to date.
"""

from __future__ import annotations

import logging

from bot.services import Services
from bot.stats.ratings import involved, rebuild
from bot.stats.results import kept_result
from bot.storage import StatsPort, TableRecord
from bot.storage.results import Ratings

log = logging.getLogger(__name__)

# Results rated in one write: a few dozen tables' worth of keys at most.
BATCH = 50
# Writes lost to another worker before giving up until the next call (each loss means
# the other worker rated those results: it is progress, not a fault).
MOST_RACES = 20


async def keep_and_archive(sv: Services, record: TableRecord) -> None:
    """Archive ``record`` (a table that is over), keeping its result in the same step,
    then rate it."""
    result = kept_result(record, sv.view_state(record), record.updated_at)
    sv.fault("before_archive")
    await sv.store.archive(record.table_id, result=result)
    if result is not None and result.rated:
        sv.fault("before_rating")
        await catch_up(sv.stats)


async def catch_up(stats: StatsPort) -> int:
    """Rate every kept result the ratings do not include yet, in the order kept; the
    number of the last one rated."""
    races = 0
    while True:
        cursor = await stats.rating_cursor()
        batch = await stats.results_after(cursor, limit=BATCH)
        if not batch:
            return cursor
        keys = {key for _, result in batch for key in involved(result)}
        done = rebuild(batch, start=await stats.ratings_at(keys))
        if await stats.add_ratings(cursor, done, keys):
            races = 0
            continue
        races += 1
        if races >= MOST_RACES:
            log.warning("ratings: another worker kept moving the cursor; left at %d", cursor)
            return cursor


async def rebuild_all(stats: StatsPort) -> tuple[Ratings, Ratings]:
    """Every rating rebuilt from every kept result and written in place of the old
    ones; the ratings before (as they stood, brought up to date first) and after."""
    cursor = await catch_up(stats)
    results = []
    seq = 0
    while batch := await stats.results_after(seq, limit=500):
        results += batch
        seq = batch[-1][0]
    fresh = rebuild(results)
    keys = set(fresh.ratings)
    old = Ratings(ratings=await stats.ratings_at(keys), cursor=cursor)
    await stats.replace_ratings(fresh)
    return old, fresh
