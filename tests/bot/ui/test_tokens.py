"""Tokens: whatever arrives as callback data, parsing answers or refuses, never crashes."""

from __future__ import annotations

import pytest

from bot.app import Campfire
from bot.ui.choices import page_token
from bot.ui.tokens import TokenSigner, kind_of

SIGNER = TokenSigner(b"tokens-test-secret-0123456789")


def test_a_made_token_parses_back() -> None:
    token = SIGNER.parse(SIGNER.make("m", "7dw5", 12, 1, "0a1b2c3d", 4))
    assert token is not None and token.kind == "m" and token.table == "7dw5"
    assert [token.int_field(0), token.int_field(1), token.int_field(3)] == [12, 1, 4]


@pytest.mark.parametrize("raw", [
    "v.7dw5.1.wait.ы", "m.7dw5.1.0.0a1b2c3d.0.ЖЖЖЖЖЖЖЖЖЖ", "é", "\x00", "." * 10, "",
    "m" * 65, "\udcff",
])
def test_odd_characters_are_refused(raw: str) -> None:
    assert SIGNER.parse(raw) is None


@pytest.mark.parametrize(("kind", "fields"), [
    ("m", ("x", "0", "0a1b2c3d", "0")),  # a version that is no number
    ("m", ("1", "0", "zz", "0")),  # not a fingerprint
    ("m", ("1", "-1", "0a1b2c3d", "0")),
    ("m", ("1", "0", "0a1b2c3d", "99999999999")),  # too long to be an index
    ("l", ("JOIN!",)),
    ("a", ("01",)),  # not the canonical spelling
    ("v", ("1", "")),
])
def test_signed_garbage_fields_are_refused(kind: str, fields: tuple[str, ...]) -> None:
    assert SIGNER.parse(SIGNER.make(kind, "7dw5", *fields)) is None


def test_a_page_token_is_a_signed_pager_with_any_page_appended() -> None:
    pager = SIGNER.make_pager("7dw5", 12, 1, "0a1b2c3d")
    token = SIGNER.parse(page_token(pager, 3))
    assert token is not None and token.kind == "p" and token.int_field(3) == 3
    assert SIGNER.parse(page_token(pager, 41)) is not None
    assert SIGNER.parse(pager) is None  # no page
    assert SIGNER.parse(page_token(pager, "")) is None  # type: ignore[arg-type]
    assert SIGNER.parse(page_token(pager, "x")) is None  # type: ignore[arg-type]
    forged = page_token(pager.replace(".12.", ".13."), 0)
    assert SIGNER.parse(forged) is None  # the pager's own fields are signed


def test_a_future_layout_is_refused_not_misread() -> None:
    assert SIGNER.parse(SIGNER.make("m", "7dw5", 1, 0, "0a1b2c3d", 0, 5)) is None
    assert SIGNER.parse(SIGNER.make("z", "7dw5", 1)) is None
    assert SIGNER.parse(SIGNER.make("m", "7dw5", 1, 0, "0a1b2c3d")) is None


def test_a_table_id_of_another_shape_is_refused() -> None:
    assert SIGNER.parse(SIGNER.make("a", "7DW5", 1)) is None
    assert SIGNER.parse(SIGNER.make("a", "", 1)) is None


@pytest.mark.parametrize(("raw", "move"), [
    (SIGNER.make("m", "7dw5", 12, 1, "0a1b2c3d", 4), True),
    ("m.forged", True),  # said to be a move: its commit refuses it like any forgery
    (SIGNER.make("l", "7dw5", "join"), False),
    (SIGNER.make_pager("7dw5", 12, 1, "0a1b2c3d") + ".2", False),
    (SIGNER.make("v", "7dw5", 3, "wait"), False),
    ("", False), ("garbage", False),
])
def test_only_a_move_token_is_claimed_by_its_commit(raw: str, move: bool) -> None:
    """``Campfire.is_move`` reads the kind a token says it is, unchecked: a forged move
    token writes nothing, so its update is claimed by the queuing of its refusal."""
    assert (kind_of(raw) == "m") is move
    assert Campfire.is_move(raw) is move
