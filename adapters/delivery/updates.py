"""Which updates are handled: a short claim while one is, a flag once it was.

A platform delivers an update again when it got no confirmation (Telegram: a worker
killed in the middle, a webhook answer lost), and a load balancer may hand one update
to two workers.
An update is therefore *claimed* before it is handled — ``SET NX`` with a short expiry,
holding the worker's id — or, for a move's press, by the first write its handling makes
(the move's commit, or the queuing of a refusal: ``UpdateLedger.unclaimed``), which
saves a round trip; and it is marked *done* only in the same Redis script that queues
its messages (``Outbox.finish_update``): "processed" means "its effects are queued",
never less. So:

- a redelivery of an update that was done is skipped;
- a redelivery while another worker holds the claim waits for that worker (polling)
  and is then skipped (done) or taken over (the claim ran out: that worker died);
- an update whose handling failed, or whose worker died, is not done: its claim is
  given back (or runs out) and a redelivery is handled afresh. The bot core makes that
  safe: a move is saved once (a repeated press is answered "already saved", with the
  table as it stands), and what a saved move owes is repaired if nobody delivered it.

A worker that stalls past its claim can lose the update to another; whichever of the
two queues first marks it done, and the other's messages are dropped by the same
script (what its commit owed is then repaired by the core), so one update never shows
its answer twice.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta

from redis.asyncio import Redis

from adapters.store.client import unavailable_on_outage
from adapters.store.scripts import CLAIM_UPDATE
from bot.storage.ports import ScriptPart

CLAIM = CLAIM_UPDATE + """
-- KEYS: done flag, claim, done flag of earlier versions (a once-flag)
-- ARGV: token, claim ms
return claim_update(KEYS[1], KEYS[2], KEYS[3], ARGV[1], ARGV[2])
"""

RELEASE = """
-- KEYS: claim; ARGV: token. Gives a claim back, if it is still ours.
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

log = logging.getLogger(__name__)

DONE_TTL = timedelta(days=2)  # longer than a platform redelivers (Telegram: 24 hours)
CLAIM_TTL = timedelta(seconds=20)  # far beyond any update's handling
# While another worker holds an update, look again this often (seconds)...
CLAIM_POLL_S = 0.05
# ...for at most this many claim lifetimes; then leave it (it is being passed around).
CLAIM_WAIT_LIMIT = 2.0

# How a duplicate update waits for the worker handling it (seconds); tests pass a fake.
Pause = Callable[[float], Awaitable[None]]


class ClaimState(enum.Enum):
    """What a claim attempt found."""

    MINE = "mine"
    HELD = "held"  # another worker is handling it now
    DONE = "done"


@dataclass(frozen=True)
class UpdateClaim:
    """A claimed update: the keys and the token that ``Outbox.finish_update`` needs to
    mark it done together with its messages. A claim made by ``UpdateLedger.unclaimed``
    is not taken yet (``taken`` False): the first write of its handling takes it, in
    the same step (``guard``), or finds the update another worker's."""

    update_id: int
    token: str
    done_key: str
    claim_key: str
    done_ttl_ms: int
    legacy_key: str  # the done flag of versions before claims (a once-flag)
    claim_ms: int
    taken: bool

    @property
    def guard(self) -> ScriptPart:
        """The keys and arguments of ``scripts.CLAIM_UPDATE`` that take this claim in
        another script's step (a move's commit: ``GameStore.commit``)."""
        return [self.done_key, self.claim_key, self.legacy_key], [self.token, self.claim_ms]


class UpdateLedger:
    """Claims and done-flags of one platform's updates, under
    ``<prefix><platform>out:upd:`` (beside that platform's outbox)."""

    def __init__(self, redis: Redis, prefix: str = "campfire:", *, platform: str,
                 claim_ttl: timedelta = CLAIM_TTL, done_ttl: timedelta = DONE_TTL) -> None:
        """Use ``redis`` (decode_responses=True) under the store's key ``prefix``, for
        the updates of ``platform`` (its short name, as its outbox's)."""
        self.prefix = prefix
        self.platform = platform
        self.claim_ttl = claim_ttl
        self.done_ttl = done_ttl
        self._claim = redis.register_script(CLAIM)
        self._release = redis.register_script(RELEASE)
        self._r = redis

    def done_key(self, update_id: int) -> str:
        """Where the update's done flag lives."""
        return f"{self.prefix}{self.platform}out:upd:{update_id}"

    def claim_key(self, update_id: int) -> str:
        """Where the update's claim lives."""
        return f"{self.prefix}{self.platform}out:updclaim:{update_id}"

    def _legacy_key(self, update_id: int) -> str:
        # Before claims, an update was marked (as a once-flag) when its handling began:
        # respected so that a rolling upgrade does not handle those again.
        return f"{self.prefix}once:{self.platform}:update:{update_id}"

    async def claim(self, update_id: int, token: str) -> tuple[ClaimState, float, UpdateClaim]:
        """Try to claim the update for ``token``: the state found, the seconds another
        worker's claim still runs (HELD), and the claim to finish or give back (MINE)."""
        claim = self._claim_of(update_id, token)
        keys, args = claim.guard
        with unavailable_on_outage("claim an update"):
            state, left_ms = await self._claim(keys=keys, args=args)
        return ClaimState(state), max(int(left_ms), 0) / 1000, claim

    async def claim_or_wait(self, update_id: int, token: str,
                            pause: Pause) -> UpdateClaim | None:
        """Claim the update for ``token``; None when it is done (here or by another
        worker). A claim another worker holds is waited for, through ``pause``: it ends
        done, or runs out (that worker died) and is taken over."""
        limit = self.claim_ttl.total_seconds() * CLAIM_WAIT_LIMIT
        waited = 0.0
        while True:
            state, left_s, claim = await self.claim(update_id, token)
            if state is ClaimState.DONE:
                return None
            if state is ClaimState.MINE:
                return claim
            if waited >= limit:
                log.warning("update %s stayed claimed by other workers; left to them",
                            update_id)
                return None
            step = min(CLAIM_POLL_S, max(left_s, 0.001))
            await pause(step)
            waited += step

    def unclaimed(self, update_id: int, token: str) -> UpdateClaim:
        """A claim for ``token`` that its handling's first write takes (``guard``),
        instead of a round trip of its own beforehand."""
        return self._claim_of(update_id, token, taken=False)

    def _claim_of(self, update_id: int, token: str, *, taken: bool = True) -> UpdateClaim:
        return UpdateClaim(update_id, token, self.done_key(update_id),
                           self.claim_key(update_id),
                           max(1, int(self.done_ttl.total_seconds() * 1000)),
                           self._legacy_key(update_id),
                           max(1, int(self.claim_ttl.total_seconds() * 1000)), taken)

    async def release(self, claim: UpdateClaim) -> None:
        """Give the claim back (handling failed): a redelivery may be handled at once."""
        with unavailable_on_outage("release an update"):
            await self._release(keys=[claim.claim_key], args=[claim.token])

    async def done(self, update_id: int) -> bool:
        """Was the update handled (its effects queued)?"""
        with unavailable_on_outage("read an update's flag"):
            return bool(await self._r.exists(self.done_key(update_id)))

    async def held(self, update_id: int) -> str | None:
        """The token of whoever holds the update's claim now, if anyone."""
        with unavailable_on_outage("read an update's claim"):
            value = await self._r.get(self.claim_key(update_id))
        return str(value) if value is not None else None
