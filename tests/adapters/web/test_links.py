"""Signed page links (adapters/web/links.py)."""

from __future__ import annotations

import pytest

from adapters.web.links import LinkGrant, LinkSigner, SignedLinks
from bot.ui.tokens import TokenKind, TokenSigner

SECRET = b"0123456789abcdef-deployment"
NOW = 1_800_000_000.0


def test_a_link_lets_its_user_in_at_its_table_until_it_expires() -> None:
    signer = LinkSigner(SECRET)
    token = signer.make("dc:42", "k3f9", NOW + 3600)
    assert signer.check(token, NOW) == LinkGrant("dc:42", "k3f9", NOW + 3600)
    assert signer.check(token, NOW + 3599) is not None
    assert signer.check(token, NOW + 3600) is None  # expired


def test_another_deployment_or_a_changed_byte_is_refused() -> None:
    token = LinkSigner(SECRET).make("con:anna", "k3f9", NOW + 60)
    assert LinkSigner(b"another-secret-of-16+").check(token, NOW) is None
    body, _, mac = token.partition(".")
    forged_body = LinkSigner(b"another-secret-of-16+").make("con:boris", "k3f9", NOW + 60)
    assert LinkSigner(SECRET).check(f"{forged_body.partition('.')[0]}.{mac}", NOW) is None
    flipped = mac[:-1] + ("A" if mac[-1] != "A" else "B")
    assert LinkSigner(SECRET).check(f"{body}.{flipped}", NOW) is None


@pytest.mark.parametrize("garbled", ["", ".", "abc", "abc.def", "ü.x", "x" * 600,
                                     "e30.AAAAAAAAAAAAAAAAAAAAAA"])
def test_garbled_tokens_are_refused(garbled: str) -> None:
    assert LinkSigner(SECRET).check(garbled, NOW) is None


def test_a_button_token_is_no_link_nor_the_other_way_round() -> None:
    """One secret, two purposes: each key is derived for its own."""
    button = TokenSigner(SECRET).make(TokenKind.MOVE, "k3f9", 1, 0, "ab12cd34", 2)
    assert LinkSigner(SECRET).check(button, NOW) is None
    link = LinkSigner(SECRET).make("tg:1", "k3f9", NOW + 60)
    assert TokenSigner(SECRET).parse(link) is None


def test_a_short_secret_is_refused() -> None:
    with pytest.raises(ValueError):
        LinkSigner(b"short")


def test_the_cores_links_are_signed_for_their_user_and_table_and_expire() -> None:
    now = [NOW]
    links = SignedLinks(LinkSigner(SECRET), "https://play.example.org/", 2.0, lambda: now[0])
    url = links.link("tg:7", "Tess", "k3f9")
    base, _, token = url.partition("?k=")
    assert base == "https://play.example.org/t/k3f9"
    assert LinkSigner(SECRET).check(token, NOW) == LinkGrant("tg:7", "k3f9", NOW + 2 * 86400,
                                                             "Tess")
    assert LinkSigner(SECRET).check(token, NOW + 2 * 86400) is None
