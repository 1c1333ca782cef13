"""Options and prompts: the one real option of a step (``only_choice``)."""

from __future__ import annotations

from engine.core.prompts import BACK, Label, Option, only_choice


def _opt(key: str, back: bool = False) -> Option:
    return Option(key, Label(f"opt.{key}"), back=back)


def test_a_lone_option_is_the_only_choice() -> None:
    assert only_choice([_opt("forge:1")]) == "forge:1"
    assert only_choice([BACK]) == "back"


def test_steps_back_are_no_real_options() -> None:
    assert only_choice([_opt("go:supplies"), BACK]) == "go:supplies"
    assert only_choice([_opt("loot:wood", back=True), _opt("loot:dog", back=True),
                        _opt("done")]) == "done"


def test_two_real_options_are_a_choice() -> None:
    assert only_choice([_opt("part:1"), _opt("stop")]) is None
    assert only_choice([_opt("at:1,2"), _opt("at:2,2"), BACK]) is None
    assert only_choice([BACK, _opt("loot:wood", back=True)]) is None
    assert only_choice([]) is None
