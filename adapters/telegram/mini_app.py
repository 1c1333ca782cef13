"""Who opened the Mini App: Telegram's init data, checked on the server.

A Mini App page receives ``initData`` from the Telegram client: a query string with
the user (JSON), the time it was signed (``auth_date``), the ``start_param`` of a
direct link (here: the table's id) and ``hash``, an HMAC-SHA256 that only someone
holding the bot's token can make. The key is the HMAC-SHA256 of the bot token under the
constant ``WebAppData``; the signed text is every field but ``hash``, as ``key=value``
lines sorted by key. Data older than the age limit is refused: a copied init data
string would otherwise open the page for ever.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from urllib.parse import parse_qsl

from adapters.telegram.ids import user_key

# Telegram's constant for the Mini App key (the Bot API's documented scheme).
KEY_LABEL = b"WebAppData"
# How long init data opens a page: a day, as a page left open in the app is used again.
MAX_AGE_S = 24 * 3600.0
MAX_INIT_DATA_CHARS = 8192


@dataclass(frozen=True, slots=True)
class MiniAppViewer:
    """The Telegram user the init data vouches for, and what they opened."""

    user_id: str  # the Campfire id (``tg:<id>``)
    name: str
    lang: str | None
    start_param: str | None  # a direct link's parameter: the table's id
    signed_at: float


def _secret(bot_token: str) -> bytes:
    return hmac.new(KEY_LABEL, bot_token.encode(), hashlib.sha256).digest()


def check_string(fields: dict[str, str]) -> str:
    """The text the hash signs: every field but ``hash``, sorted, as ``key=value`` lines."""
    return "\n".join(f"{k}={v}" for k, v in sorted(fields.items()) if k != "hash")


def sign(fields: dict[str, str], bot_token: str) -> str:
    """The ``hash`` Telegram puts on ``fields`` for the bot with ``bot_token``."""
    return hmac.new(_secret(bot_token), check_string(fields).encode(),
                    hashlib.sha256).hexdigest()


def mini_app_viewer(init_data: str, bot_token: str, now: float,
                    max_age_s: float = MAX_AGE_S) -> MiniAppViewer | None:
    """The viewer ``init_data`` proves at ``now``; None when it is malformed, not signed
    with ``bot_token``, too old (or dated in the future), or names no user."""
    if not init_data or len(init_data) > MAX_INIT_DATA_CHARS:
        return None
    pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=False)
    fields = dict(pairs)
    if len(fields) != len(pairs):
        return None  # a field given twice: which one was signed is unclear
    given = fields.get("hash", "")
    if not given or not hmac.compare_digest(given.encode(), sign(fields, bot_token).encode()):
        return None
    try:
        signed_at = float(int(fields.get("auth_date", "")))
        user = json.loads(fields.get("user", ""))
    except ValueError:
        return None
    if not (now - max_age_s <= signed_at <= now + 60):
        return None
    if not isinstance(user, dict) or not isinstance(user.get("id"), int):
        return None
    name = " ".join(str(user[k]) for k in ("first_name", "last_name") if user.get(k))
    lang = user.get("language_code")
    return MiniAppViewer(user_id=user_key(user["id"]), name=name or f"#{user['id']}",
                         lang=lang if isinstance(lang, str) else None,
                         start_param=fields.get("start_param") or None, signed_at=signed_at)
