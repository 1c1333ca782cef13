"""An expedition: loot as toggles (``loot:<item>`` takes an item, or puts back a taken
one offered as a "back" option), confirmed with ``done``."""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions.options import opt
from engine.caverna.expedition import ALL_WEAPONS, finish_expedition, loot_table, returnable, supply
from engine.caverna.loot import loot_choices, take_loot
from engine.caverna.state import CavernaState, LootStep
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Option
from engine.core.steps import StepRules


def _loot_options(state: CavernaState, step: LootStep) -> list[Option]:
    """Loot as toggles: each item still open (tap to take), each taken item that can be
    put back (shown apart, as a step back), and the confirmation with the count."""
    table = loot_table()
    opts = [
        opt(f"loot:{i}", "loot", item=i, strength=table[i].strength,
             goods=dict(table[i].goods), does=table[i].does)
        for i in loot_choices(state, step)
    ]
    opts += [Option(f"loot:{i}", Label("cav.opt.loot_back", {"item": i}), back=True)
             for i in returnable(state, step)]
    return [*opts, opt("done", "loot_done", taken=len(step.taken), level=step.level)]


def _take(state: CavernaState, step: LootStep, item: str, events: list[Event]) -> None:
    """Take ``item``, and note what it gave if it can be put back."""
    player = state.players[step.seat]
    before, depth, mark = supply(player), len(state.stacks[step.seat]), len(events)
    take_loot(state, step, item, events)
    settled = state.top(step.seat) is step and len(state.stacks[step.seat]) == depth
    eaten = any(e.code == "animals_eaten" for e in events[mark:])
    plain = loot_table()[item].goods or loot_table()[item].does == ALL_WEAPONS
    if plain and settled and not eaten:
        after = supply(player)
        step.returns[item] = {g: after[g] - before[g] for g in after if after[g] != before[g]}


def _put_back(state: CavernaState, step: LootStep, item: str, events: list[Event]) -> None:
    """Undo taking ``item`` (one of :func:`returnable`)."""
    player = state.players[step.seat]
    for good, amount in step.returns.pop(item).items():
        if good in player.animals:
            player.animals[good] -= amount
        else:
            player.goods[good] -= amount
    step.taken.remove(item)
    events.append(Event("loot_returned", step.seat, {"item": item}))


def _apply_loot(state: CavernaState, step: LootStep, key: str, events: list[Event]) -> None:
    if key == "done":
        state.pop(step.seat)
        finish_expedition(state, step, events)
        return
    head, _, item = key.partition(":")
    if head == "loot" and item in returnable(state, step):
        _put_back(state, step, item, events)
    elif head == "loot" and item in loot_choices(state, step):
        _take(state, step, item, events)
    else:
        raise IllegalMove("loot_not_open", key=key)


def _loot_label(state: CavernaState, step: LootStep) -> Label:
    return Label("cav.prompt.loot", {"level": step.level, "strength": step.strength,
                                     "taken": list(step.taken)})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "loot": StepRules(_loot_options, _apply_loot, _loot_label),
}
