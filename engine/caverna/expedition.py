"""Expeditions: an armed dwarf brings back loot, then its weapon grows.

An expedition of level L lets the player choose up to L *different* loot items, one
after another in any order, each needing a weapon at least as strong as printed. The
strength that counts is the weapon's as the expedition starts: the +1 comes only when
it ends (whatever was taken). The "+1 to all weapons" item raises every armed dwarf of
the player by 1 after the expedition, so the expedition dwarf gains 2 in all. 14 is the
cap. An unarmed dwarf goes on no expedition.

Loot that gives goods is handed out at once; loot that is an action (furnish a cavern,
a free stable, single tiles, cheap pastures, a cheap dwelling, sowing, breeding) opens
that action as a home-board step. Items are toggles until the player confirms: an item
that only gave goods or animals (or the "+1 to every weapon", which acts at the end) may
be put back while the supply still holds what it gave; an item that opened a decision
stays taken. The expedition ends on the confirmation, or by itself when nothing is left
to take or put back.
"""

from __future__ import annotations

from engine.caverna.animals import fits
from engine.caverna.components import LootItem, components
from engine.caverna.state import CavernaState, LootStep, Player
from engine.caverna.weapons import strengthen
from engine.core.prompts import Event

ALL_WEAPONS = "all_weapons_plus_one"


def loot_table() -> dict[str, LootItem]:
    """Every loot item by id."""
    return {item.id: item for item in components().tables.loot}


def start_expedition(
    state: CavernaState, seat: int, dwarf: int, level: int, events: list[Event]
) -> None:
    """Open the loot choice of a level-``level`` expedition by ``dwarf``."""
    strength = state.players[seat].dwarfs[dwarf].weapon
    assert strength, "only an armed dwarf goes on an expedition"
    state.push(LootStep(seat=seat, dwarf=dwarf, level=level, strength=strength))
    events.append(Event("expedition", seat, {"dwarf": dwarf, "level": level,
                                             "strength": strength}))


def within_reach(step: LootStep) -> list[LootItem]:
    """Items not yet taken that the weapon is strong enough for, in card order."""
    if len(step.taken) >= step.level:
        return []
    return [
        i for i in components().tables.loot
        if i.strength <= step.strength and i.id not in step.taken
    ]


def finish_expedition(state: CavernaState, step: LootStep, events: list[Event]) -> None:
    """The expedition is back: the dwarf's weapon +1, then +1 for every armed dwarf if
    that item was taken."""
    player = state.players[step.seat]
    strengthen(player.dwarfs[step.dwarf])
    if any(loot_table()[i].does == ALL_WEAPONS for i in step.taken):
        for d in player.dwarfs:
            strengthen(d)
    events.append(Event("expedition_back", step.seat, {
        "dwarf": step.dwarf, "loot": list(step.taken),
        "strength": player.dwarfs[step.dwarf].weapon,
    }))


def supply(player: Player) -> dict[str, int]:
    """Goods and animals in one mapping (their ids never clash)."""
    return {**player.goods, **player.animals}


def returnable(state: CavernaState, step: LootStep) -> list[str]:
    """Taken items that may still be put back: nothing else came of them, the supply
    still holds what they gave (goods are alike, so spending some of the same good
    since is no obstacle), and the animals left still all have a home (a dog gone may
    leave the sheep it guarded with none)."""
    player = state.players[step.seat]
    have = supply(player)
    out = []
    for item in step.taken:
        gave = step.returns.get(item)
        if gave is None or any(have.get(g, 0) < n for g, n in gave.items()):
            continue
        if any(g in player.animals for g in gave):
            left = {k: n - gave.get(k, 0) for k, n in player.animals.items()}
            if not fits(player.board, left, len(player.dwarfs)):
                continue
        out.append(item)
    return out
