"""``campfire ratings rebuild``: every rating rebuilt from the kept results.

It first brings the ratings up to every kept result as the bot would, then rebuilds
them from nothing, writes the rebuild in their place in one step, and reports whether
the two agreed (they always should: a difference means a rating was written by
something other than ``bot.stats``)."""

from __future__ import annotations

import asyncio
import json

from adapters.store import StoreSettings, open_storage
from bot.stats.keeping import rebuild_all


async def rebuild(settings: StoreSettings | None = None) -> dict[str, object]:
    """Rebuild the ratings of the store ``settings`` name; a JSON-ready report."""
    async with open_storage(settings or StoreSettings.from_env()) as storage:
        before, after = await rebuild_all(storage.stats)
    differ = sorted(":".join(k) for k in set(before.ratings) | set(after.ratings)
                    if before.ratings.get(k) != after.ratings.get(k))
    return {"results": after.cursor, "ratings": len(after.ratings),
            "players_with_history": len(after.history), "differed": differ}


def rebuild_main() -> int:
    """Run ``rebuild`` and print its report; exit code 1 when anything differed."""
    report = asyncio.run(rebuild())
    print(json.dumps(report, ensure_ascii=False))
    return 1 if report["differed"] else 0
