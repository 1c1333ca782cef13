"""Signed links to a table's page, for platforms without a Mini App (Discord, the
console): whoever holds the link is the user it was made for, at that table, until it
expires.

A link's token is ``<body>.<mac>``: the body is the URL-safe base64 of a small JSON
object (user id, table id, expiry in unix seconds), the MAC an HMAC-SHA256 of the body
under a key derived from the deployment's secret for this purpose alone, so that a
button token can never pass for a link nor a link for a button token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Callable
from dataclasses import dataclass

# What the link key is derived for: the deployment's one secret serves several purposes.
PURPOSE = b"campfire web link v1"
MAC_BYTES = 16  # 128 bits: far beyond guessing, and a short enough link
MAX_TOKEN_CHARS = 512


@dataclass(frozen=True, slots=True)
class LinkGrant:
    """Who a valid link lets in, where, and until when."""

    user_id: str
    table_id: str
    expires: float
    name: str = ""  # the user's name when the link was made (a page may seat them)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class LinkSigner:
    """Makes and checks page links with a key derived from the deployment's secret."""

    def __init__(self, secret: bytes) -> None:
        """``secret``: the secret every worker of one deployment shares."""
        if len(secret) < 16:
            raise ValueError("link secret too short")
        self._key = hmac.new(secret, PURPOSE, hashlib.sha256).digest()

    def _mac(self, body: str) -> str:
        return _b64(hmac.new(self._key, body.encode(), hashlib.sha256).digest()[:MAC_BYTES])

    def make(self, user_id: str, table_id: str, expires: float, name: str = "") -> str:
        """The token of a link for ``user_id`` (called ``name``) at ``table_id`` until
        ``expires``."""
        fields: dict[str, str | int] = {"u": user_id, "t": table_id, "e": int(expires)}
        if name:
            fields["n"] = name
        body = _b64(json.dumps(fields, separators=(",", ":"), ensure_ascii=False).encode())
        return f"{body}.{self._mac(body)}"

    def check(self, token: str, now: float) -> LinkGrant | None:
        """What ``token`` grants at ``now``; None when it is malformed, not signed by
        this deployment, or expired."""
        if not token or len(token) > MAX_TOKEN_CHARS or not token.isascii():
            return None
        body, dot, mac = token.partition(".")
        if not dot or not hmac.compare_digest(mac.encode(), self._mac(body).encode()):
            return None
        try:
            fields = json.loads(_unb64(body))
        except (binascii.Error, ValueError):
            return None
        if not isinstance(fields, dict):
            return None
        user, table, expires = fields.get("u"), fields.get("t"), fields.get("e")
        name = fields.get("n", "")
        if not (isinstance(user, str) and isinstance(table, str) and isinstance(expires, int)
                and isinstance(name, str)):
            return None
        if expires <= now:
            return None
        return LinkGrant(user, table, float(expires), name)


@dataclass(frozen=True, slots=True)
class SignedLinks:
    """The core's ``PageLinks``: a user's own link to a table's page at ``base_url``,
    valid for ``days`` from when it is made."""

    signer: LinkSigner
    base_url: str
    days: float
    now: Callable[[], float]

    def link(self, user_id: str, name: str, table_id: str) -> str:
        """``<base>/t/<table>?k=<token>``."""
        token = self.signer.make(user_id, table_id, self.now() + self.days * 24 * 3600, name)
        return f"{self.base_url.rstrip('/')}/t/{table_id}?k={token}"
