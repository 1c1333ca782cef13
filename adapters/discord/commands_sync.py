"""Syncing the slash commands once per deploy, not on every start.

Discord rate-limits command syncs, and a fleet of workers restarting would each sync.
The tree's full payload (names, options, every translation) is hashed; the hash of the
last sync is kept in Redis, and only a worker that sees a different hash syncs (one at a
time, under a short lock).
"""

from __future__ import annotations

import hashlib
import json
import logging
from typing import Any

import discord
from discord import app_commands
from redis.asyncio import Redis

log = logging.getLogger(__name__)
LOCK_S = 60


async def tree_payload(tree: app_commands.CommandTree[Any]) -> list[dict[str, Any]]:
    """What ``sync`` would send for the global commands, translations included."""
    translator = tree.translator
    commands = tree.get_commands()
    if translator is None:
        return [c.to_dict(tree) for c in commands]
    return [await c.get_translated_payload(tree, translator) for c in commands]


def tree_hash(payload: list[dict[str, Any]]) -> str:
    """A stable digest of a command payload."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


async def sync_once(tree: app_commands.CommandTree[Any], redis: Redis, prefix: str) -> bool:
    """Sync when the tree changed since the last sync; True when this call synced.

    Best effort: a failed sync is one warning (the commands Discord has keep working),
    and the next start tries again.
    """
    digest = tree_hash(await tree_payload(tree))
    key = prefix + "dc:commands:hash"
    if await redis.get(key) == digest:
        return False
    if not await redis.set(key + ":lock", "1", nx=True, ex=LOCK_S):
        return False  # another worker is syncing this very deploy
    try:
        await tree.sync()
    except discord.HTTPException as exc:
        log.warning("syncing slash commands failed (HTTP %s, code %s); serving with the "
                    "commands Discord has", exc.status, exc.code)
        return False
    finally:
        await redis.delete(key + ":lock")
    await redis.set(key, digest)
    log.info("slash commands synced (%s)", digest[:12])
    return True
