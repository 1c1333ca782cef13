"""The pieces every game's redraw shares (engine/core/redraw.py)."""

from __future__ import annotations

from engine.core.redraw import Redraw


def test_a_pool_is_dealt_back_into_the_same_shapes() -> None:
    shapes = [["d", "a", "c"], [], ["b"], ["f", "e"]]
    dealt = Redraw.from_seed(3).redeal(shapes)
    assert [len(s) for s in dealt] == [3, 0, 1, 2]
    assert sorted(x for s in dealt for x in s) == list("abcdef")


def test_the_order_given_does_not_show_through() -> None:
    # The same items in other places and orders: the same deal for the same seed.
    one = Redraw.from_seed(9).redeal([["a", "b", "c"], ["d", "e"]])
    other = Redraw.from_seed(9).redeal([["e", "c", "a"], ["b", "d"]])
    assert one == other


def test_seeds_deal_differently_and_the_dice_are_not_the_shuffles() -> None:
    items = [[chr(ord("a") + i) for i in range(12)]]
    deals = {tuple(Redraw.from_seed(seed).redeal(items)[0]) for seed in range(10)}
    assert len(deals) == 10
    redraw = Redraw.from_seed(4)
    assert redraw.dice.seed != redraw.pools.seed
    assert Redraw.from_seed(4) == Redraw.from_seed(4)
