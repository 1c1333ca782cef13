"""Numbers read out of option keys: only the canonical spelling, under the right head."""

from __future__ import annotations

import pytest

from engine.core.keys import keyed_number


@pytest.mark.parametrize(("key", "number"), [
    ("n:3", 3),
    ("n:0", 0),
    ("n:12", 12),
    ("n:", None),
    ("n", None),
    ("n:03", None),
    ("n:-1", None),
    ("n:x", None),
    ("m:3", None),
    ("N:3", None),
    ("n:3:4", None),
])
def test_a_number_is_read_only_under_its_head(key: str, number: int | None) -> None:
    assert keyed_number(key, "n") == number
