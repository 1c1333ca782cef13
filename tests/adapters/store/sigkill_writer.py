"""Run by test_store_embedded.py in a child process that the test then SIGKILLs.

Usage: python sigkill_writer.py DATA_DIR PREFIX
Creates a table and commits three moves through the embedded store, prints
"READY <redis-server pid>" and waits to be killed.
"""

from __future__ import annotations

import asyncio
import sys
import time

from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from adapters.store.game_store import GameStore
from bot.storage.records import Action, TableRecord, TableStatus


async def write(url: str, prefix: str) -> None:
    """Create table "k1ll" and commit three moves."""
    client = connect(url)
    store = GameStore(client, prefix=prefix)
    record = await store.create(
        TableRecord(
            table_id="k1ll",
            game="stone_age",
            chat_id="tg:-42",
            creator_id="tg:u1",
            seats=("tg:u1", "tg:u2"),
            status=TableStatus.RUNNING,
        )
    )
    for move in range(1, 4):
        changed = record.model_copy(update={"state": {"moves": move}})
        record = await store.commit("k1ll", record.version, changed, Action(key=f"m{move}"))
    await client.aclose()


def main() -> None:
    """Start the server, write, report, then hang until SIGKILL."""
    data_dir, prefix = sys.argv[1], sys.argv[2]
    server = EmbeddedRedis(data_dir)
    server.start()
    asyncio.run(write(server.url, prefix))
    print(f"READY {server.pid}", flush=True)
    time.sleep(600)


if __name__ == "__main__":
    main()
