"""Expedition loot: which items may be taken now, and taking one (goods, breeding, or
the home-board decision the item opens)."""

from __future__ import annotations

from engine.caverna.breeding import breed, breed_options
from engine.caverna.expedition import loot_table, within_reach
from engine.caverna.receiving import receive
from engine.caverna.spaces import LOOT_DWELLING, board_step_possible
from engine.caverna.state import (
    CavernaState,
    FenceArgs,
    FenceStep,
    FurnishArgs,
    FurnishStep,
    HomeBoardStep,
    LootStep,
    SingleArgs,
    SingleTileStep,
    SowStep,
    StableArgs,
    StableStep,
)
from engine.core.prompts import Event


def loot_choices(state: CavernaState, step: LootStep) -> list[str]:
    """Loot items the expedition may still take now."""
    return [item.id for item in within_reach(step) if loot_doable(state, step.seat, item.id)]


def loot_doable(state: CavernaState, seat: int, item_id: str) -> bool:
    """Can the loot item be used now? (Goods always; actions need their room.)"""
    item = loot_table()[item_id]
    if item.goods or item.does == "all_weapons_plus_one":
        return True
    if item.does == "breed_two_kinds":
        return bool(breed_options(state, seat, 2))
    return board_step_possible(state, loot_step(seat, item_id))


def loot_step(seat: int, item_id: str) -> HomeBoardStep:
    """The home-board decision a loot action opens."""
    item = loot_table()[item_id]
    does = item.does or ""
    if does == "free_stable":
        return StableStep(seat=seat, args=StableArgs(stone=0))
    if does.startswith("single_"):
        return SingleTileStep(seat=seat, args=SingleArgs(tile=does[len("single_"):]))
    if does in ("small_pasture", "large_pasture"):
        size = does.split("_")[0]
        wood = item.cost.get("wood", 0)
        args = FenceArgs(small=wood) if size == "small" else FenceArgs(large=wood)
        return FenceStep(seat=seat, args=args)
    if does == "dwelling":
        return FurnishStep(seat=seat, args=FurnishArgs(scope=LOOT_DWELLING))
    if does == "furnish":
        return FurnishStep(seat=seat, args=FurnishArgs(scope="any"))
    assert does == "sow", does
    return SowStep(seat=seat)


def take_loot(state: CavernaState, step: LootStep, item_id: str, events: list[Event]) -> None:
    """Take one loot item."""
    item = loot_table()[item_id]
    step.taken.append(item_id)
    events.append(Event("loot", step.seat, {"item": item_id}))
    if item.goods:
        receive(state, step.seat, item.goods, events)
    elif item.does == "breed_two_kinds":
        breed(state, step.seat, events, limit=2)
    elif item.does != "all_weapons_plus_one":
        state.push(loot_step(step.seat, item_id))
