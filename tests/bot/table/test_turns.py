"""A prompt's fingerprint: what it asks and offers, whichever object carries it."""

from __future__ import annotations

from bot.table.turns import fingerprint
from engine.core.prompts import Label, Option, Prompt


def _prompt(seat: int = 0, code: str = "sa.prompt.place", keys: tuple[str, ...] = ("a", "b"),
            **args: object) -> Prompt:
    return Prompt(seat=seat, label=Label(code, dict(args)),
                  options=tuple(Option(k, Label("sa.opt.x", {"k": k})) for k in keys))


def test_equal_prompts_share_a_fingerprint_and_different_ones_do_not() -> None:
    first = _prompt(left=3)
    assert fingerprint(first) == fingerprint(first) == fingerprint(_prompt(left=3))
    assert len(fingerprint(first)) == 8
    others = [_prompt(seat=1, left=3), _prompt(left=2), _prompt(code="sa.prompt.act", left=3),
              _prompt(keys=("a",), left=3), _prompt(keys=("b", "a"), left=3)]
    assert len({fingerprint(first), *(fingerprint(p) for p in others)}) == 1 + len(others)
    # Asked again, every prompt still reads as its own.
    assert fingerprint(others[1]) != fingerprint(first)
    assert fingerprint(_prompt(left=2)) == fingerprint(others[1])
