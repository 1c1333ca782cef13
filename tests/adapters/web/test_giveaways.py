"""The give-aways a page is checked against find a secret however the page writes it,
and nothing that merely looks like it."""

from __future__ import annotations

import json
from typing import Any

from tests.adapters.web.giveaways import Story, item_marks, secret_marks

# As a game's ``secrets``: a deck (its top last), another seat's blind card, a seed.
SECRETS: list[Any] = [["c31", "c12", "c07"], ["c28"], {"kind": "seeded", "seed": 98765}]
NAMED = {"c31": "", "c12": "", "c07": "Pots & pans", "c28": ""}
STORY = Story([1], [SECRETS], secret_marks(SECRETS), [item_marks(SECRETS, NAMED)])


def found(body: bytes) -> set[str]:
    """What the check finds in ``body``, as ``kind:shown``."""
    return {repr(m) for m in STORY.leaked([body])}


def page(text: str, **more: Any) -> bytes:
    """A page's JSON at version 1 showing ``text``, compact as the server writes it."""
    data = {"table": "t1", "version": 1, "text": text, **more}
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()


def test_an_order_is_found_in_compact_and_spaced_json_but_not_reversed() -> None:
    assert "order:c31 c12" in found(b'{"deck":["c31","c12"]}')
    assert "order:c12 c07" in found(b'{"deck": ["c31", "c12" , "c07"]}')
    assert found(b'["c12","c31"]') == set()  # the same cards, not the order


def test_a_short_id_is_found_between_non_letters_only() -> None:
    for body in (b'{"hand":["c28"]}', b"c28", b"<b>c28</b>", b"cards: c28, c1"):
        assert found(body) == {"value:c28"}, body
    for body in (b"c281", b"ac28", b"c28_x", b'"c280"', b"#c28a"):
        assert found(body) == set(), body
    assert "value:98765" in found(b'{"seed":98765}')
    assert found(b"987650") == set()


def test_a_card_hidden_at_a_step_is_found_by_id_or_words_in_that_steps_page() -> None:
    assert found(page("next: c07")) == {"id:c07"}
    # The page's text is HTML: its words are read as the reader sees them.
    assert found(page("next: <b>Pots &amp; pans</b>.")) == {"words:Pots & pans"}
    assert found(page("Pots &amp; pansies")) == set()
    # Outside a page of that step, a card's words are no secret: it may lie face up.
    assert found(b"next: Pots & pans") == set()
