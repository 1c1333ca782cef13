"""The turn clock as players read it: how much time a seat has left, in words.

A seat's bank is stored in seconds (``TableMeta.bank``) and only changes when the seat
moves; while its prompt is open, the time since the prompt opened runs off it.
"""

from __future__ import annotations

from bot.i18n import Lang
from bot.i18n.catalog import Catalog
from bot.storage import TableRecord
from bot.table.settings import meta_view, options_of

MINUTE, HOUR, DAY = 60, 3600, 86400


def time_left(record: TableRecord, seat: int, now: float) -> float | None:
    """Seconds left on ``seat``'s clock now (never below zero); None without a clock."""
    options = options_of(record)
    if not options.clock:
        return None
    meta = meta_view(record)
    key = str(seat)
    bank = meta.bank.get(key, options.clock_initial_h * HOUR)
    if key in meta.opened_at:
        bank -= max(0.0, now - meta.opened_at[key])
    return max(0.0, bank)


def duration_words(catalog: Catalog, lang: Lang, seconds: float) -> str:
    """``2 d 5 h``, ``3 h 10 min``, ``45 min``, ``20 s``: the two largest units, rounded
    down so a clock never promises time it does not have."""
    whole = int(seconds)
    days, rest = divmod(whole, DAY)
    hours, rest = divmod(rest, HOUR)
    minutes, secs = divmod(rest, MINUTE)
    parts = [(days, "d"), (hours, "h"), (minutes, "min"), (secs, "s")]
    first = next((i for i, (n, _) in enumerate(parts) if n), len(parts) - 1)
    shown = [parts[first], *(p for p in parts[first + 1:first + 2] if p[0])]
    return " ".join(catalog.plain(lang, f"clock.{unit}", n=n) for n, unit in shown)
