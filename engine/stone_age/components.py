"""Stone Age component tables, read from ``data/components.yaml``.

The tables are immutable and loaded once: they are constants of the game, not state.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources as importlib_resources
from typing import Any

from engine.core.data import load_yaml

RESOURCES: tuple[str, ...] = ("wood", "clay", "stone", "gold")
GOODS: tuple[str, ...] = ("food", *RESOURCES)
GATHERING: tuple[str, ...] = ("hunt", "forest", "clay", "quarry", "river")
VILLAGE: tuple[str, ...] = ("toolmaker", "hut", "field")
CULTURES: tuple[str, ...] = (
    "writing", "medicine", "pottery", "art", "music", "transport", "weaving", "sundial",
)
MULTIPLIERS: tuple[str, ...] = ("farmer", "toolmaker", "hut_builder", "shaman")


@dataclass(frozen=True, slots=True)
class CardTop:
    """What a civilization card gives at once when bought."""

    effect: str
    amount: int = 1
    resource: str | None = None
    value: int = 0


@dataclass(frozen=True, slots=True)
class Card:
    """A civilization card: its immediate top and its final-scoring bottom."""

    id: str
    top: CardTop
    culture: str | None = None
    multiplier: str | None = None
    figures: int = 0


@dataclass(frozen=True, slots=True)
class Building:
    """A building tile and what it asks to be paid.

    Exactly one form applies: a fixed ``cost``; ``count`` resources of exactly ``kinds``
    kinds; or between ``count_min`` and ``count_max`` resources of any kinds.
    """

    id: str
    cost: tuple[str, ...] = ()
    points: int = 0
    count: int = 0
    kinds: int = 0
    count_min: int = 0
    count_max: int = 0

    @property
    def form(self) -> str:
        """``fixed``, ``kinds`` or ``any``."""
        if self.cost:
            return "fixed"
        return "kinds" if self.kinds else "any"


@dataclass(frozen=True, slots=True)
class Site:
    """A gathering place: what it yields, its divisor and its capacity (None = unlimited)."""

    name: str
    yields: str
    divisor: int
    capacity: int | None


@dataclass(frozen=True, slots=True)
class PlayerCountRules:
    """The limits that depend on the number of players."""

    village_places_open: int
    players_per_site: int


@dataclass(frozen=True, slots=True)
class Components:
    """Every constant table of the game."""

    start_people: int
    start_food: int
    max_people: int
    max_agriculture: int
    tool_slots: int
    max_tool_value: int
    pile_size: int
    row_slots: int
    values: dict[str, int]
    sites: dict[str, Site]
    village_people: dict[str, int]
    by_players: dict[int, PlayerCountRules]
    slot_costs: tuple[int, ...]
    dice_faces: dict[int, dict[str, Any]]
    cards: dict[str, Card]
    buildings: dict[str, Building]


def _card(card_id: str, raw: dict[str, Any]) -> Card:
    top = dict(raw["top"])
    return Card(
        id=card_id,
        top=CardTop(
            effect=top.pop("effect"),
            amount=int(top.pop("amount", 1)),
            resource=top.pop("resource", None),
            value=int(top.pop("value", 0)),
        ),
        culture=raw.get("culture"),
        multiplier=raw.get("multiplier"),
        figures=int(raw.get("figures", 0)),
    )


def _building(building_id: str, raw: dict[str, Any]) -> Building:
    return Building(
        id=building_id,
        cost=tuple(raw.get("cost", ())),
        points=int(raw.get("points", 0)),
        count=int(raw.get("count", 0)),
        kinds=int(raw.get("kinds", 0)),
        count_min=int(raw.get("count_min", 0)),
        count_max=int(raw.get("count_max", 0)),
    )


def parse_components(raw: dict[str, Any]) -> Components:
    """Build the tables from the YAML document's mapping."""
    setup = raw["setup"]
    return Components(
        start_people=setup["people"],
        start_food=setup["food"],
        max_people=setup["max_people"],
        max_agriculture=setup["max_agriculture"],
        tool_slots=setup["tool_slots"],
        max_tool_value=setup["max_tool_value"],
        pile_size=setup["pile_size"],
        row_slots=setup["row_slots"],
        values=dict(raw["resources"]),
        sites={
            name: Site(name, s["yields"], s["divisor"], s["capacity"])
            for name, s in raw["gathering"].items()
        },
        village_people={name: v["people"] for name, v in raw["village"].items()},
        by_players={
            int(n): PlayerCountRules(r["village_places_open"], r["players_per_site"])
            for n, r in raw["by_players"].items()
        },
        slot_costs=tuple(raw["slot_costs"]),
        dice_faces={int(k): dict(v) for k, v in raw["dice_faces"].items()},
        cards={cid: _card(cid, c) for cid, c in raw["cards"].items()},
        buildings={bid: _building(bid, b) for bid, b in raw["buildings"].items()},
    )


@cache
def components() -> Components:
    """The game's tables (read once; they never change)."""
    text = (
        importlib_resources.files("engine.stone_age")
        .joinpath("data/components.yaml")
        .read_text(encoding="utf-8")
    )
    return parse_components(load_yaml(text))
