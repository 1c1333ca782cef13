"""Redis key layout, in one place so that Python and the Lua scripts agree.

With prefix ``p`` (default ``campfire:``)::

    p table:<id>            hash  snapshot: version, status, chat, users, score, record, commit_id
    p table:<id>:log        list  action log, one LogEntry JSON per commit, oldest first
    p archive:<id>          hash  same as the snapshot, with a TTL (retention)
    p archive:<id>:log      list  same as the log, with the same TTL
    p chat:<chat>:tables    zset  active table ids of a chat, scored by creation time
    p user:<user>:tables    zset  active table ids of a user (creator or seat), same score
    p seq:table             int   counter behind the short table ids
    p jobs:queue            zset  due jobs by due time (claimed ones by lease expiry)
    p job:<id>              hash  one job: payload, due, owner, attempts
    p owed                  zset  tables whose latest write's follow-ups are not yet
                                  confirmed delivered, by when to repair them
    p result:<id>           str   a finished table's KeptResult JSON, kept for good
    p results               zset  kept results' table ids, scored by their number
    p seq:result            int   counter behind those numbers
    p user:<user>:results   zset  the kept results a user played in, same score
    p rating:<game>:<scope> hash  player -> KeptRating JSON (scope: all, chat:<chat>)
    p rating:<game>:history:<player>
                            list  RatingStep JSON after each rated game, oldest first
    p ratings:cursor        int   the number of the last result the ratings include
    p ratings:keys          set   every rating and history key (what a rebuild replaces)

The Lua scripts build the ``chat:``/``user:``/``job:`` keys from the prefix themselves
(``LUA_*`` below mirror the Python builders), because the set of users to unindex is
only known inside the script. That is fine on a single Redis or Sentinel; Redis
Cluster would need hash tags and is not supported.
"""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_PREFIX = "campfire:"


@dataclass(frozen=True)
class Keys:
    """Builds every key the store uses under one prefix."""

    prefix: str = DEFAULT_PREFIX

    def table(self, table_id: str, *, archived: bool = False) -> str:
        """Snapshot hash of an active table, or of an ``archived`` one."""
        return f"{self.prefix}{'archive' if archived else 'table'}:{table_id}"

    def log(self, table_id: str, *, archived: bool = False) -> str:
        """Action log list of an active table, or of an ``archived`` one (its snapshot's
        key and ``:log``)."""
        return self.table(table_id, archived=archived) + ":log"

    def chat_index(self, chat_id: str) -> str:
        """Sorted set of the active tables of a chat (mirrored in Lua)."""
        return f"{self.prefix}chat:{chat_id}:tables"

    def user_index(self, user_id: str) -> str:
        """Sorted set of the active tables of a user (mirrored in Lua)."""
        return f"{self.prefix}user:{user_id}:tables"

    def table_seq(self) -> str:
        """Counter from which table ids are derived."""
        return f"{self.prefix}seq:table"

    def job_queue(self) -> str:
        """Sorted set of scheduled and leased jobs."""
        return f"{self.prefix}jobs:queue"

    def owed(self) -> str:
        """Sorted set of tables that owe follow-ups, by when a worker should repair them."""
        return f"{self.prefix}owed"

    def live(self, table_id: str) -> str:
        """Pub/sub channel on which every commit of a table announces its new version
        (mirrored in Lua): what a live page listens to."""
        return f"{self.prefix}live:{table_id}"

    def job(self, job_id: str) -> str:
        """Hash of one scheduled job (mirrored in Lua)."""
        return f"{self.prefix}job:{job_id}"

    def result(self, table_id: str) -> str:
        """A kept result (mirrored in Lua)."""
        return f"{self.prefix}result:{table_id}"

    def results(self) -> str:
        """Sorted set of kept results by number (mirrored in Lua)."""
        return f"{self.prefix}results"

    def result_seq(self) -> str:
        """Counter behind the kept results' numbers (mirrored in Lua)."""
        return f"{self.prefix}seq:result"

    def user_results(self, user_id: str) -> str:
        """Sorted set of the kept results a user played in (mirrored in Lua)."""
        return f"{self.prefix}user:{user_id}:results"

    def rating(self, game: str, scope: str) -> str:
        """Hash of the ratings of ``game`` in ``scope``."""
        return f"{self.prefix}rating:{game}:{scope}"

    def rating_history(self, game: str, player: str) -> str:
        """List of a player's rating steps in ``game``."""
        return f"{self.prefix}rating:{game}:history:{player}"

    def ratings_cursor(self) -> str:
        """The number of the last kept result the ratings include."""
        return f"{self.prefix}ratings:cursor"

    def rating_keys(self) -> str:
        """Set of every rating and history key."""
        return f"{self.prefix}ratings:keys"
