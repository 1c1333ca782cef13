"""The Mini App's init data, checked on the server (adapters/telegram/mini_app.py)."""

from __future__ import annotations

import hashlib
import hmac
import json
from urllib.parse import urlencode

import pytest

from adapters.telegram.mini_app import MAX_AGE_S, mini_app_viewer

TOKEN = "123456:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"
NOW = 1_800_000_000.0


def signed(fields: dict[str, str], token: str = TOKEN) -> str:
    """Init data as Telegram makes it, written out here from the Bot API's description
    (not through the module under test): key = HMAC-SHA256(key "WebAppData", token),
    hash = hex HMAC-SHA256(key, sorted "k=v" lines of every other field)."""
    key = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    text = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    return urlencode({**fields, "hash": hmac.new(key, text.encode(), hashlib.sha256).hexdigest()})


def fields(**extra: str) -> dict[str, str]:
    user = {"id": 279058397, "first_name": "Анна", "last_name": "К.", "language_code": "ru"}
    return {"query_id": "AAHdF6IQAAAAAN0XohDhrOrc", "auth_date": str(int(NOW) - 30),
            "user": json.dumps(user, ensure_ascii=False, separators=(",", ":")), **extra}


def test_genuine_init_data_names_the_user_and_the_table() -> None:
    viewer = mini_app_viewer(signed(fields(start_param="k3f9")), TOKEN, NOW)
    assert viewer is not None
    assert (viewer.user_id, viewer.name, viewer.lang, viewer.start_param) == (
        "tg:279058397", "Анна К.", "ru", "k3f9")


def test_another_bots_token_or_a_changed_field_is_refused() -> None:
    assert mini_app_viewer(signed(fields()), "654321:other", NOW) is None
    genuine = signed(fields(start_param="k3f9"))
    assert mini_app_viewer(genuine.replace("k3f9", "zzzz"), TOKEN, NOW) is None
    other_user = genuine.replace("279058397", "279058398")
    assert mini_app_viewer(other_user, TOKEN, NOW) is None


def test_old_or_future_init_data_is_refused() -> None:
    old = fields()
    old["auth_date"] = str(int(NOW - MAX_AGE_S) - 1)
    assert mini_app_viewer(signed(old), TOKEN, NOW) is None
    assert mini_app_viewer(signed(old), TOKEN, NOW, max_age_s=MAX_AGE_S + 10) is not None
    future = fields()
    future["auth_date"] = str(int(NOW) + 3600)
    assert mini_app_viewer(signed(future), TOKEN, NOW) is None


@pytest.mark.parametrize("garbled", ["", "hash=", "user=%7B%7D&hash=00", "x" * 9000,
                                     "auth_date=1&auth_date=2&hash=ab"])
def test_garbled_init_data_is_refused(garbled: str) -> None:
    assert mini_app_viewer(garbled, TOKEN, NOW) is None


def test_a_field_given_twice_is_refused_even_if_one_copy_is_signed() -> None:
    genuine = signed(fields())
    assert mini_app_viewer(genuine + "&user=%7B%22id%22%3A1%7D", TOKEN, NOW) is None


def test_signed_data_without_a_user_is_refused() -> None:
    no_user = fields()
    del no_user["user"]
    assert mini_app_viewer(signed(no_user), TOKEN, NOW) is None
