"""Syncing the slash commands once per deploy, not on every start.

Discord rate-limits command syncs, and a fleet of workers restarting would each sync.
The full payload (``commands.payload``: names, options, every translation) is hashed;
the hash of the last sync is kept in Redis, and only a worker that sees a different hash
syncs (one at a time, under a short lock).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord.http import HTTPClient
from redis.asyncio import Redis

from adapters.discord.commands import payload

log = logging.getLogger(__name__)
LOCK_S = 60


def tree_hash(payload: list[dict[str, Any]]) -> str:
    """A stable digest of a command payload."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_once(http: HTTPClient, application_id: int, redis: Redis, prefix: str) -> bool:
    """Sync when the commands changed since the last sync; True when this call synced.

    Best effort: a failed sync is one warning (the commands Discord has keep working),
    and the next start tries again.
    """
    commands = list(payload())
    digest = tree_hash(commands)
    key = prefix + "dc:commands:hash"
    if await redis.get(key) == digest:
        return False
    if not await redis.set(key + ":lock", "1", nx=True, ex=LOCK_S):
        return False  # another worker is syncing this very deploy
    try:
        await http.bulk_upsert_global_commands(application_id, commands)
    except discord.HTTPException as exc:
        log.warning("syncing slash commands failed (HTTP %s, code %s); serving with the "
                    "commands Discord has", exc.status, exc.code)
        return False
    finally:
        await redis.delete(key + ":lock")
    await redis.set(key, digest)
    log.info("slash commands synced (%s)", digest[:12])
    return True
