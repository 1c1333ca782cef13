"""Button tokens: short, signed, and carrying just enough to be checked against state.

A token is ``kind.table.f1.f2….mac`` where ``mac`` is a truncated HMAC-SHA256 over the
rest with the deployment's secret, so a forged or altered token is recognised before
anything is loaded. Kinds:

- ``m`` a move: table, version, seat, prompt fingerprint, option index
- ``p`` a page of a long option list: table, version, seat, fingerprint, page. Only
  the first four are signed (``make_pager``): the page is appended by whichever adapter
  lays the list out (``bot.ui.choices.page_token``), since only it knows its page size; any
  page number is harmless (it only chooses what is shown)
- ``l`` a lobby action: table, verb (join, leave, start, cancel; the creator's
  ``aieasy``, ``ainormal``, ``aistrong`` seat an AI player, ``aidrop`` takes one away)
- ``a`` confirm an abort: table, version
- ``v`` a vote after a time-out: table, version, choice

Everything stays well inside Telegram's 64-byte limit for callback data.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from enum import StrEnum

MAC_CHARS = 10


class TokenKind(StrEnum):
    """What a token's button does; the value is its one-letter mark in the token."""

    MOVE = "m"
    PAGE = "p"
    LOBBY = "l"
    ABORT = "a"
    VOTE = "v"
    WEB = "w"

_NUMBER = r"0|[1-9][0-9]{0,8}"
_WORD = r"[a-z]{1,12}"
_DIGEST = r"[0-9a-f]{8}"
# The shape of each kind's fields: a signed token whose fields do not fit (a bug, an old
# or future layout) is refused like a forged one, never half-read.
SHAPES: dict[TokenKind, tuple[str, ...]] = {
    TokenKind.MOVE: (_NUMBER, _NUMBER, _DIGEST, _NUMBER),
    TokenKind.PAGE: (_NUMBER, _NUMBER, _DIGEST, _NUMBER),
    TokenKind.LOBBY: (_WORD,),
    TokenKind.ABORT: (_NUMBER,),
    TokenKind.VOTE: (_NUMBER, _WORD),
    TokenKind.WEB: (),
}
KINDS: dict[str, int] = {kind.value: len(shape) + 1 for kind, shape in SHAPES.items()}
# Kinds whose last field follows the mac, unsigned (see ``p`` above).
UNSIGNED_LAST = frozenset({TokenKind.PAGE})
_TABLE = re.compile(r"[0-9a-z]{1,16}")


def kind_of(token: str) -> str:
    """The kind a token says it is, unchecked (``parse`` checks it)."""
    return token.split(".", 1)[0]


@dataclass(frozen=True, slots=True)
class Token:
    """A parsed, authentic token."""

    kind: TokenKind
    table: str
    fields: tuple[str, ...]

    def int_field(self, i: int) -> int:
        """Field ``i`` as a number (tokens are only built with numbers where expected)."""
        return int(self.fields[i])


class TokenSigner:
    """Makes and checks tokens with one secret."""

    def __init__(self, secret: bytes) -> None:
        """``secret`` must be shared by every worker of one deployment."""
        if len(secret) < 16:
            raise ValueError("token secret too short")
        self._secret = secret

    def _mac(self, body: str) -> str:
        digest = hmac.new(self._secret, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:MAC_CHARS]

    def make(self, kind: TokenKind, table: str, *fields: object) -> str:
        """A signed token."""
        body = ".".join([kind, table, *(str(f) for f in fields)])
        return f"{body}.{self._mac(body)}"

    def make_pager(self, table: str, *fields: object) -> str:
        """A signed page-token prefix (kind ``p`` without its page)."""
        return self.make(TokenKind.PAGE, table, *fields)

    def parse(self, token: str) -> Token | None:
        """The token's content, or None if it is malformed or not ours."""
        if not token or len(token) > 64 or not token.isascii():
            return None
        extra: tuple[str, ...] = ()
        if kind_of(token) in UNSIGNED_LAST:
            token, _, last = token.rpartition(".")
            extra = (last,)
        body, _, mac = token.rpartition(".")
        parts = body.split(".")
        if (len(parts) < 2 or parts[0] not in KINDS
                or len(parts) + len(extra) != KINDS[parts[0]] + 1):
            return None
        if not hmac.compare_digest(mac.encode(), self._mac(body).encode()):
            return None
        fields = (*parts[2:], *extra)
        kind = TokenKind(parts[0])
        shape = SHAPES[kind]
        if not _TABLE.fullmatch(parts[1]) or not all(
                re.fullmatch(p, f) for p, f in zip(shape, fields, strict=True)):
            return None
        return Token(kind=kind, table=parts[1], fields=fields)
