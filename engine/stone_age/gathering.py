"""Rolling dice for food and resources, with tools.

One die per worker (or two for a card's dice); the player may then add any of their
ready tools — each tile whole and once per round, each one-use card once — and the
total divided by the divisor (hunting 2, wood 3, clay 4, stone 5, gold 6), rounded
down, is the yield.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from engine.core.prompts import Event
from engine.core.stacks import push
from engine.stone_age.components import components
from engine.stone_age.state import Player, RollStep, StoneAgeState
from engine.stone_age.tools import best_bonus, ready_tools


def divisor(resource: str) -> int:
    """What a roll is divided by for ``resource`` (food is hunted at 2)."""
    return 2 if resource == "food" else components().values[resource]


def roll_total(player: Player, step: RollStep) -> int:
    """Dice plus the tools chosen so far."""
    return sum(step.dice) + tools_bonus(player.tools, player.one_use_tools,
                                        step.tools, step.once)


def tools_bonus(tiles: Sequence[int], once: Sequence[int], tile_slots: Iterable[int],
                once_slots: Iterable[int]) -> int:
    """What the tool tiles in ``tile_slots`` and the one-use tools at ``once_slots``
    add to a roll (``tiles`` and ``once`` are their values)."""
    return sum(tiles[i] for i in tile_slots) + sum(once[i] for i in once_slots)


def roll_yield(player: Player, step: RollStep) -> int:
    """What the roll gives with the tools chosen so far."""
    return roll_total(player, step) // divisor(step.resource)


def tools_matter(player: Player, step: RollStep) -> bool:
    """Could adding tools raise the yield at all? If not, nobody need be asked."""
    d = divisor(step.resource)
    return (sum(step.dice) + best_bonus(player)) // d > sum(step.dice) // d


def start_roll(
    state: StoneAgeState, seat: int, source: str, resource: str, dice: int, events: list[Event]
) -> None:
    """Roll ``dice`` dice for ``resource``; ask about tools only when they could help."""
    rolled = [state.rng.randint(1, 6) for _ in range(dice)]
    args = {"source": source, "dice": list(rolled), "sum": sum(rolled)}
    events.append(Event("rolled", seat, args))
    step = RollStep(seat=seat, source=source, resource=resource, dice=rolled)
    if tools_matter(state.players[seat], step):
        push(state.stacks, step)
    else:
        finish_roll(state, step, events)


ToolUse = tuple[tuple[int, ...], tuple[int, ...]]  # tile slots, one-use tool indexes


def _alike_counts(values: list[int], ready: list[int]) -> list[list[int]]:
    """For each way to choose among ``ready`` (indexes into ``values``) up to equal
    values: the indexes chosen, taking each value's first ready indexes."""
    by_value: dict[int, list[int]] = {}
    for i in ready:
        by_value.setdefault(values[i], []).append(i)
    ways: list[list[int]] = [[]]
    for same in by_value.values():
        ways = [way + same[:n] for way in ways for n in range(len(same) + 1)]
    return ways


def tool_uses(player: Player) -> list[ToolUse]:
    """Every different way to add tools to a roll, fewest added points first.

    Tiles of one value are alike, and so are one-use tools of one value: using the
    first or the second of two +2 tiles leaves the same board (the used one is turned
    aside either way), so each number of them is one way. A tile and a one-use tool of
    the same value are not alike (one stays for the next round, the other is spent)."""
    return list(_tool_uses(tuple(player.tools), tuple(ready_tools(player)),
                           tuple(player.one_use_tools)))


@lru_cache(maxsize=1024)
def _tool_uses(tools: tuple[int, ...], ready: tuple[int, ...],
               once_values: tuple[int, ...]) -> tuple[ToolUse, ...]:
    """``tool_uses`` of a board with tiles ``tools`` (``ready`` not yet used) and
    one-use tools ``once_values``; a memo, as boards repeat."""
    tiles = _alike_counts(list(tools), list(ready))
    once = _alike_counts(list(once_values), list(range(len(once_values))))
    uses = [(tuple(sorted(t)), tuple(sorted(o))) for t in tiles for o in once]

    def bonus(use: ToolUse) -> tuple[int, int]:
        return tools_bonus(tools, once_values, *use), len(use[0]) + len(use[1])

    return tuple(sorted(uses, key=bonus))


def use_tools(step: RollStep, use: ToolUse) -> None:
    """Choose exactly the tiles and one-use tools of ``use`` for this roll."""
    step.tools = list(use[0])
    step.once = list(use[1])


def toggle_tool(step: RollStep, slot: int) -> None:
    """Add or withdraw a tool tile for this roll (nothing is used until taken)."""
    if slot in step.tools:
        step.tools.remove(slot)
    else:
        step.tools.append(slot)


def toggle_once(step: RollStep, index: int) -> None:
    """Add or withdraw a one-use tool card for this roll."""
    if index in step.once:
        step.once.remove(index)
    else:
        step.once.append(index)


def finish_roll(state: StoneAgeState, step: RollStep, events: list[Event]) -> None:
    """Take the yield: mark chosen tiles used, discard chosen one-use cards."""
    player = state.players[step.seat]
    total = roll_total(player, step)
    amount = total // divisor(step.resource)
    used = [player.tools[i] for i in step.tools] + [player.one_use_tools[i] for i in step.once]
    for i in step.tools:
        player.tools_used[i] = True
    if step.once:
        player.one_use_tools = [v for i, v in enumerate(player.one_use_tools)
                                if i not in step.once]
    player.goods[step.resource] += amount
    events.append(
        Event(
            "gathered",
            step.seat,
            {
                "source": step.source,
                "resource": step.resource,
                "amount": amount,
                "total": total,
                "tools": used,
            },
        )
    )
