"""Paying for cards, buildings and missing food.

A payment is a bill of wood, clay, stone and gold (food is never a resource). Its rule
is either a fixed bill or a number of resources, optionally of an exact number of
different kinds. When the ways to pay are few they are offered as complete bills (one
tap); otherwise the payer adds resources one at a time and confirms.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import islice
from typing import Final

from engine.core.keys import parse_number
from engine.stone_age.components import RESOURCES, Building, components
from engine.stone_age.state import PayRule, Player

Bill = tuple[int, int, int, int]
MAX_LISTED: Final = 24


def card_rule(cost: int) -> PayRule:
    """Any ``cost`` resources."""
    return PayRule(count_min=cost, count_max=cost)


def food_rule(missing: int) -> PayRule:
    """Any ``missing`` resources instead of food."""
    return PayRule(count_min=missing, count_max=missing)


def building_rule(building: Building) -> PayRule:
    """The rule printed on a building tile."""
    if building.form == "fixed":
        bill = {r: 0 for r in RESOURCES}
        for r in building.cost:
            bill[r] += 1
        return PayRule(fixed=bill)
    if building.form == "kinds":
        return PayRule(count_min=building.count, count_max=building.count, kinds=building.kinds)
    return PayRule(count_min=building.count_min, count_max=building.count_max)


def holdings(player: Player) -> Bill:
    """The player's wood, clay, stone and gold."""
    g = player.goods
    return (g["wood"], g["clay"], g["stone"], g["gold"])


def bill_of(kinds: Sequence[str]) -> Bill:
    """Count a list of resource names into a bill."""
    return (
        kinds.count("wood"), kinds.count("clay"), kinds.count("stone"), kinds.count("gold")
    )


# What wood, clay, stone and gold are each worth.
_VALUES: Final[tuple[int, ...]] = tuple(components().values[r] for r in RESOURCES)


def bill_value(bill: Bill) -> int:
    """Points a bill is worth on a variable building (each resource at its value)."""
    w, c, s, g = bill
    vw, vc, vs, vg = _VALUES
    return w * vw + c * vc + s * vs + g * vg


# A payment rule as a hashable value: the fixed bill (None if none), the least and
# the most resources, the exact number of kinds (None if any).
RuleKey = tuple[Bill | None, int, int, int | None]


def rule_key(rule: PayRule) -> RuleKey:
    """``rule`` as a hashable value, to look its ways to pay up in a memo."""
    f = rule.fixed
    fixed: Bill | None = None if f is None else (
        f.get("wood", 0), f.get("clay", 0), f.get("stone", 0), f.get("gold", 0))
    return fixed, rule.count_min, rule.count_max, rule.kinds


def fits(rule: PayRule, bill: Bill) -> bool:
    """Does ``bill`` satisfy ``rule`` exactly?"""
    return _fits(rule_key(rule), bill)


def _fits(key: RuleKey, bill: Bill) -> bool:
    """``fits`` for a rule given as its ``rule_key``."""
    fixed, count_min, count_max, kinds = key
    if fixed is not None:
        return bill == fixed
    if not count_min <= sum(bill) <= count_max:
        return False
    return kinds is None or sum(1 for n in bill if n) == kinds


def affordable(bill: Bill, have: Bill) -> bool:
    """Can a player holding ``have`` pay ``bill``?"""
    return all(b <= h for b, h in zip(bill, have, strict=True))


def _bills(rule: PayRule, have: Bill) -> Iterator[Bill]:
    """Every way to pay ``rule`` from ``have``: by number of resources, and cheapest
    first within a number (a player usually pays with what is worth least). Lazy, as
    most callers want the first ways only."""
    key = rule_key(rule)
    fixed, count_min, count_max, _ = key
    if fixed is not None:
        if affordable(fixed, have):
            yield fixed
        return
    for total in range(count_min, count_max + 1):
        # No bill of ``total`` resources holds more than ``total`` of one kind: the
        # stock capped there gives the same bills, and the memo more hits.
        yield from _bills_of(key, total, tuple(min(h, total) for h in have))


@lru_cache(maxsize=8192)
def _bills_of(key: RuleKey, total: int, have: tuple[int, ...]) -> tuple[Bill, ...]:
    """The ways to pay the rule ``key`` with exactly ``total`` resources from ``have``,
    cheapest first; a memo, as the same few rules meet the same small stocks."""
    found: list[Bill] = []
    for w in range(min(have[0], total) + 1):
        for c in range(min(have[1], total - w) + 1):
            for s in range(min(have[2], total - w - c) + 1):
                g = total - w - c - s
                if g <= have[3] and _fits(key, (w, c, s, g)):
                    found.append((w, c, s, g))
    found.sort(key=lambda b: (bill_value(b), b[::-1]))
    return tuple(found)


def bills(rule: PayRule, have: Bill, limit: int | None = None) -> list[Bill]:
    """Ways to pay, cheapest first; at most ``limit`` of them when given."""
    return list(islice(_bills(rule, have), limit))


def can_pay(rule: PayRule, have: Bill) -> bool:
    """Is there any way to pay?"""
    return next(_bills(rule, have), None) is not None


def payable(rule: PayRule, have: Bill, boons: int = 0) -> bool:
    """Can ``rule`` be met from ``have`` and ``boons`` "two resources of your choice"
    cards (each brings any two resources)?"""
    room = 2 * boons
    if not room:
        return can_pay(rule, have)
    plenty: Bill = (have[0] + room, have[1] + room, have[2] + room, have[3] + room)
    return any(sum(max(0, b - h) for b, h in zip(bill, have, strict=True)) <= room
               for bill in _bills(rule, plenty))


def listed(rule: PayRule, have: Bill) -> list[Bill] | None:
    """The complete bills to offer, or None when there are too many to list."""
    found = bills(rule, have, limit=MAX_LISTED + 1)
    return found if len(found) <= MAX_LISTED else None


def completable(rule: PayRule, have: Bill, partial: Bill) -> bool:
    """Can a payment that already holds ``partial`` still be finished?"""
    if not affordable(partial, have):
        return False
    if rule.kinds is None and rule.fixed is None:
        return sum(partial) <= rule.count_max and sum(have) >= rule.count_min
    return any(
        all(b >= p for b, p in zip(bill, partial, strict=True)) for bill in _bills(rule, have)
    )


def pay(player: Player, bill: Bill) -> None:
    """Take the bill from the player's stock (checked affordable by the caller)."""
    for n, r in zip(bill, RESOURCES, strict=True):
        player.goods[r] -= n


def bill_key(bill: Bill) -> str:
    """The option key for paying ``bill``: ``pay:w.c.s.g``."""
    return "pay:" + ".".join(str(n) for n in bill)


def parse_bill(text: str) -> Bill | None:
    """Read ``w.c.s.g`` back; None if it is not four non-negative numbers."""
    numbers = [parse_number(p) for p in text.split(".")]
    if len(numbers) != 4:
        return None
    w, c, s, g = numbers
    if w is None or c is None or s is None or g is None:
        return None
    return (w, c, s, g)


def bill_dict(bill: Bill) -> dict[str, int]:
    """The bill as ``{resource: amount}`` without zeros, for labels and events."""
    return {r: n for n, r in zip(bill, RESOURCES, strict=True) if n}
