"""The transcribed Stone Age components: counts and cross-checks against the fact sheet."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from engine.stone_age.components import CULTURES, MULTIPLIERS, RESOURCES, components

REFERENCE = Path(__file__).resolve().parents[3].parent / "shared" / "reference" / "stone_age.yaml"


def test_thirty_six_cards_sixteen_green_twenty_sand() -> None:
    """36 civilization cards: 8 culture symbols twice each, and 20 sand cards."""
    cards = components().cards.values()
    assert len(cards) == 36
    cultures = Counter(c.culture for c in cards if c.culture)
    assert cultures == dict.fromkeys(CULTURES, 2)
    sand = [c for c in cards if c.multiplier]
    assert len(sand) == 20
    assert all(c.multiplier in MULTIPLIERS and c.figures >= 1 for c in sand)


def test_sand_figures_per_multiplier() -> None:
    """Five cards of each multiplier, with 7/8/9/7 figures."""
    cards = components().cards.values()
    per = Counter(c.multiplier for c in cards if c.multiplier)
    figures = Counter()
    for c in cards:
        if c.multiplier:
            figures[c.multiplier] += c.figures
    assert per == dict.fromkeys(MULTIPLIERS, 5)
    assert figures == {"farmer": 7, "toolmaker": 8, "hut_builder": 9, "shaman": 7}


def test_card_tops() -> None:
    """Ten dice-for-everyone cards, seven food cards worth 25 food, and the rest."""
    tops = Counter(c.top.effect for c in components().cards.values())
    assert tops == {"dice_for_all": 10, "food": 7, "resource": 5, "resource_dice": 3,
                    "points": 3, "tool": 1, "agriculture": 2, "extra_card": 1,
                    "one_use_tool": 3, "two_resources": 1}
    food = sorted(c.top.amount for c in components().cards.values() if c.top.effect == "food")
    assert food == [1, 2, 3, 3, 4, 5, 7]
    once = sorted(c.top.value for c in components().cards.values()
                  if c.top.effect == "one_use_tool")
    assert once == [2, 3, 4]


def test_twenty_eight_buildings() -> None:
    """17 fixed tiles whose printed points equal their resource values, 8 tiles of n
    resources of k kinds (n 4 or 5, k 1..4), 3 tiles of 1 to 7 resources."""
    comp = components()
    buildings = list(comp.buildings.values())
    assert len(buildings) == 28
    fixed = [b for b in buildings if b.form == "fixed"]
    assert len(fixed) == 17
    for b in fixed:
        assert len(b.cost) == 3 and set(b.cost) <= set(RESOURCES)
        assert b.points == sum(comp.values[r] for r in b.cost), b.id
    kinds = sorted((b.count, b.kinds) for b in buildings if b.form == "kinds")
    assert kinds == [(n, k) for n in (4, 5) for k in (1, 2, 3, 4)]
    anys = [b for b in buildings if b.form == "any"]
    assert len(anys) == 3 and all((b.count_min, b.count_max) == (1, 7) for b in anys)


def test_board_constants() -> None:
    """Divisors 2..6, capacities, start stock and limits as the rulebook gives them."""
    comp = components()
    assert {s.name: s.divisor for s in comp.sites.values()} == {
        "hunt": 2, "forest": 3, "clay": 4, "quarry": 5, "river": 6}
    assert comp.sites["hunt"].capacity is None
    assert {comp.sites[s].capacity for s in ("forest", "clay", "quarry", "river")} == {7}
    assert comp.village_people == {"toolmaker": 1, "hut": 2, "field": 1}
    assert (comp.start_people, comp.start_food, comp.max_people, comp.max_agriculture) == (
        5, 12, 10, 10)
    assert comp.slot_costs == (1, 2, 3, 4)
    assert comp.pile_size * 4 == 28


@pytest.mark.skipif(not REFERENCE.exists(), reason="the shared fact sheet is not beside the repo")
def test_matches_the_reference_fact_sheet() -> None:
    """Every card and building agrees with ../shared/reference/stone_age.yaml."""
    ref = yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))
    comp = components()
    for raw in ref["civilization_cards"]:
        card = comp.cards[raw["id"]]
        bottom = raw["bottom"]
        assert card.culture == bottom.get("culture"), raw["id"]
        assert card.multiplier == bottom.get("multiplier"), raw["id"]
        assert card.figures == bottom.get("figures", 0), raw["id"]
        top = raw["top"]
        names = {"victory_points": "points", "tool_permanent": "tool",
                 "any_resources": "two_resources", "dice_roll_all": "dice_for_all"}
        assert card.top.effect == names.get(top["type"], top["type"]), raw["id"]
        if "resource" in top:
            assert card.top.resource == top["resource"], raw["id"]
        if top["type"] in ("food", "resource", "victory_points"):
            assert card.top.amount == top["amount"], raw["id"]
        if "value" in top:
            assert card.top.value == top["value"], raw["id"]
    for raw in ref["buildings"]:
        b = comp.buildings[raw["id"]]
        if raw["kind"] == "fixed":
            assert sorted(b.cost) == sorted(raw["resources"]) and b.points == raw["points"]
        elif raw["kind"] == "choose_n_of_k":
            assert (b.count, b.kinds) == (raw["count"], raw["kinds"])
        else:
            assert (b.count_min, b.count_max) == (raw["count_min"], raw["count_max"])
