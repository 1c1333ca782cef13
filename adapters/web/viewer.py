"""Who is looking at a table's page, from what the request carries.

Two proofs are accepted, each naming one user:

- Telegram's Mini App init data (header ``X-Telegram-Init-Data`` or query ``tg``), signed with the
  bot's token and checked by the platform that signs it (the registry names its check:
  ``Edge.mini_apps``);
- a signed link's token (query ``k`` or header ``X-Campfire-Link``), made for one user
  at one table until it expires (``adapters.web.links``).

A request with neither is a spectator's. A request with a proof that fails (forged,
expired, another table's link) is refused outright rather than shown as a spectator:
the person meant to be someone, and should hear that their link no longer works.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from adapters.web.links import LinkSigner

INIT_DATA_HEADER = "X-Telegram-Init-Data"
# An event stream cannot send headers: there the proof rides in the query.
INIT_DATA_QUERY = "tg"
LINK_HEADER = "X-Campfire-Link"
LINK_QUERY = "k"


class Refused(StrEnum):
    """Why a proof was refused (the page says it in words)."""

    BAD_LINK = "web.err.link"
    BAD_INIT_DATA = "web.err.init_data"
    OTHER_TABLE = "web.err.other_table"


@dataclass(frozen=True, slots=True)
class Viewer:
    """The person a request proves (``user_id`` None: a spectator)."""

    user_id: str | None
    name: str = ""
    lang: str | None = None
    # The table a Mini App's direct link opened (its start parameter), if any.
    opened: str | None = None


SPECTATOR = Viewer(user_id=None)


class MiniAppProof(Protocol):
    """Who a Mini App's init data proves: the user and the table they opened."""

    @property
    def user_id(self) -> str:
        """The Campfire id of the user."""
        ...

    @property
    def name(self) -> str:
        """Their name."""
        ...

    @property
    def lang(self) -> str | None:
        """Their client's language."""
        ...

    @property
    def start_param(self) -> str | None:
        """A direct link's parameter: the table's id."""
        ...


#: A Mini App's init data at a time -> who it proves, or None when it proves nothing.
CheckInitData = Callable[[str, float], MiniAppProof | None]


@dataclass(frozen=True, slots=True)
class Proofs:
    """What checks a proof: the deployment's link signer and, when a platform with Mini
    Apps is served, its check of their init data."""

    links: LinkSigner
    mini_app: CheckInitData | None = None


def viewer_of(headers: Mapping[str, str], query: Mapping[str, str], table_id: str | None,
              proofs: Proofs, now: float) -> Viewer | Refused:
    """The viewer a request proves at ``table_id`` (None: the page that learns its table
    from the Mini App's start parameter), or why its proof is refused."""
    init_data = headers.get(INIT_DATA_HEADER) or query.get(INIT_DATA_QUERY)
    if init_data:
        if proofs.mini_app is None:
            return Refused.BAD_INIT_DATA
        seen = proofs.mini_app(init_data, now)
        if seen is None:
            return Refused.BAD_INIT_DATA
        return Viewer(seen.user_id, seen.name, seen.lang, seen.start_param)
    token = headers.get(LINK_HEADER) or query.get(LINK_QUERY)
    if token:
        grant = proofs.links.check(token, now)
        if grant is None:
            return Refused.BAD_LINK
        if table_id is not None and grant.table_id != table_id:
            return Refused.OTHER_TABLE
        return Viewer(grant.user_id, grant.name, opened=grant.table_id)
    return SPECTATOR
