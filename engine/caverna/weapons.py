"""Weapons: forging and strength.

Only an unarmed dwarf forges. It pays 1 to 8 ore and gets a weapon of that strength
(never more than 8 when forged); the Blacksmith makes forging 2 ore cheaper (strength 1
and 2 then cost nothing; 8 is still the most). Missing ore may be made up with rubies.
Weapons grow by 1 after each expedition and never past 14. A weapon stays with its
dwarf for good.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.caverna.components import components
from engine.caverna.feeding import can_pay, discount, pay
from engine.caverna.state import CavernaState, Dwarf, Player
from engine.core.prompts import Event


def forge_discount(player: Player) -> int:
    """Ore saved on every forging (the Blacksmith)."""
    return discount(player, "forge").get("ore", 0)


def forge_cost(player: Player, strength: int) -> dict[str, int]:
    """The ore a weapon of ``strength`` costs ``player``."""
    return {"ore": max(0, strength - forge_discount(player))}


def forge_strengths(player: Player, dwarf: int) -> list[int]:
    """The strengths ``dwarf`` may forge now (empty if armed or too poor)."""
    return list(_each_strength(player, dwarf))


def can_forge(player: Player, dwarf: int) -> bool:
    """May ``dwarf`` forge a weapon now? Only the weakest weapon is asked about: a
    stronger one never costs less ore, so it can be paid only if the weakest can."""
    if player.dwarfs[dwarf].weapon:
        return False
    return can_pay(player, {"ore": max(0, 1 - forge_discount(player))})


def _each_strength(player: Player, dwarf: int) -> Iterator[int]:
    if player.dwarfs[dwarf].weapon:
        return
    top = components().tables.weapons.forge_max
    saved = forge_discount(player)  # the same for every strength: read once
    for strength in range(1, top + 1):
        if can_pay(player, {"ore": max(0, strength - saved)}):
            yield strength


def forge(state: CavernaState, seat: int, dwarf: int, strength: int, events: list[Event]) -> None:
    """Pay the ore and arm ``dwarf``."""
    player = state.players[seat]
    rubies = pay(player, forge_cost(player, strength), {})
    player.dwarfs[dwarf].weapon = strength
    args = {"dwarf": dwarf, "strength": strength, "ore": forge_cost(player, strength)["ore"]}
    if rubies:
        args["rubies"] = sum(rubies.values())
    events.append(Event("forged", seat, args))


def strengthen(dwarf: Dwarf, by: int = 1) -> None:
    """Raise an armed dwarf's weapon, up to the cap."""
    if dwarf.weapon:
        dwarf.weapon = min(components().tables.weapons.max_strength, dwarf.weapon + by)


def armed(player: Player) -> list[int]:
    """Indexes of the armed dwarfs."""
    return [i for i, d in enumerate(player.dwarfs) if d.weapon]
