"""Declared variants: defaults filled in, unknown names and values refused."""

from __future__ import annotations

import pytest

from engine.core.variants import UnknownVariant, Variant, defaults, read_variants, recorded

MODE = Variant("mode", ("standard", "family"), unofficial=frozenset({"family"}))


def test_the_first_value_is_the_default() -> None:
    assert MODE.default == "standard"
    assert defaults((MODE,)) == {"mode": "standard"}
    assert read_variants((MODE,), None) == {"mode": "standard"}


def test_a_chosen_value_is_kept() -> None:
    assert read_variants((MODE,), {"mode": "family"}) == {"mode": "family"}


@pytest.mark.parametrize("chosen", [{"mode": "famliy"}, {"moed": "family"}])
def test_a_typo_is_refused(chosen: dict[str, str]) -> None:
    with pytest.raises(UnknownVariant) as info:
        read_variants((MODE,), chosen)
    assert (info.value.name, info.value.value) == next(iter(chosen.items()))


def test_unofficial_values_must_be_values() -> None:
    with pytest.raises(ValueError):
        Variant("mode", ("standard",), unofficial=frozenset({"family"}))


def test_every_game_declares_its_variants() -> None:
    from engine.caverna.caverna_game import CAVERNA
    from engine.hunters_gatherers.game import GAME as HUNTERS_GATHERERS
    from engine.stone_age.game import GAME as STONE_AGE

    assert STONE_AGE.variants == ()
    assert {v.name: v.values for v in HUNTERS_GATHERERS.variants} == {
        "names": ("cm91", "n14")}
    assert {v.name: v.values for v in CAVERNA.variants} == CAVERNA.options


def test_a_table_that_lacks_a_variant_plays_what_came_before_it() -> None:
    names = Variant("names", ("cm91", "n14"), before="n14")
    assert recorded((MODE, names), {}) == {"mode": "standard", "names": "n14"}
    assert recorded((MODE, names), {"names": "cm91"}) == {"mode": "standard",
                                                          "names": "cm91"}
    with pytest.raises(ValueError):
        Variant("names", ("cm91",), before="n14")
