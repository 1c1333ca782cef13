"""Caverna's component tables, read once from ``data/*.yaml`` and validated on load.

- ``furnishings.yaml``: the 48 furnishing tiles (:class:`Furnishing`), each with its
  effects as data (:class:`Effect`: a key and parameters; the keys are documented in the
  file's header and listed in :data:`EFFECT_KEYS`).
- ``action_spaces.yaml``: every action space (:class:`ActionSpace`) and the 12 round
  cards (the same class, with a ``stage``), the boards, which boards each player count
  uses, the solo card order and the Weekly market prices.
- ``tables.yaml``: setup, rounds, harvests, weapons, expedition loot, food conversions,
  rubies, the home board's printed parts and the score pad (:class:`Tables`).

The tables are constants of the game, not state.
"""

from __future__ import annotations

from functools import cache
from importlib import resources as importlib_resources
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    field_validator,
    model_validator,
)

from engine.core.data import load_yaml

GOODS: tuple[str, ...] = ("wood", "stone", "ore", "ruby", "gold", "food", "grain", "vegetable")
FARM_ANIMALS: tuple[str, ...] = ("sheep", "donkey", "wild_boar", "cattle")
ANIMALS: tuple[str, ...] = (*FARM_ANIMALS, "dog")
# Everything a cost, a gain or an accumulation may name.
ITEMS: frozenset[str] = frozenset((*GOODS, *ANIMALS))

TWINS: dict[str, tuple[str, str]] = {
    "meadow_field": ("meadow", "field"),
    "cavern_tunnel": ("cavern", "tunnel"),
    "cavern_cavern": ("cavern", "cavern"),
    "ore_mine_deep_tunnel": ("ore_mine", "deep_tunnel"),
}

EFFECT_KEYS: frozenset[str] = frozenset(
    {
        "room", "holds", "holds_on_fields", "furnish_tunnels", "either_or_is_and_or",
        "overhang", "discount", "on_build", "on_build_per", "round_income",
        "future_income", "pay_with_ore", "convert", "on_gain", "on_birth",
        "slaughter_bonus", "feed_substitute", "feed_reduction", "breed_bonus",
        "weapon_to_food", "overbuilds", "bonus", "cancel_negative",
    }
)

PART_NAMES: frozenset[str] = frozenset(
    {
        "take", "gain", "first_player", "twin", "twin_one_of", "sow", "family_growth",
        "furnish", "expedition", "forge", "fences", "stable", "imitate", "gain_if_mines",
        "gain_per_mine", "trade", "market", "ruby_mine",
    }
)

Connective = Literal["all", "and_or", "and_then_or", "either_or", "then"]
TileKind = Literal["dwelling", "green", "yellow"]


def _one_of(names: frozenset[str], what: str) -> AfterValidator:
    """A field check: the value must be one of ``names`` (``what`` they are, for the
    error)."""

    def check(value: str) -> str:
        if value not in names:
            raise ValueError(f"unknown {what} {value!r}")
        return value

    return AfterValidator(check)


EffectKey = Annotated[str, _one_of(EFFECT_KEYS, "effect key")]
PartName = Annotated[str, _one_of(PART_NAMES, "action part")]


def _goods(value: Any, where: str) -> dict[str, int]:
    """A goods mapping with known names and non-negative amounts."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: goods must be a mapping, got {value!r}")
    for name, amount in value.items():
        if name not in ITEMS:
            raise ValueError(f"{where}: unknown good {name!r}")
        if not isinstance(amount, int) or amount < 0:
            raise ValueError(f"{where}: bad amount {amount!r} of {name}")
    return dict(value)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Name(Frozen):
    """A name in both languages; ``ru_from`` says whether the rulebook gives the Russian."""

    ru: str
    en: str
    ru_from: Literal["rulebook", "ours"] = "ours"


class Effect(Frozen):
    """One effect of a furnishing tile: a key and its parameters (see the data header)."""

    key: EffectKey
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _split(cls, data: Any) -> Any:
        if isinstance(data, dict) and "params" not in data:
            rest = {k: v for k, v in data.items() if k != "key"}
            return {"key": data.get("key"), "params": rest}
        return data

    def goods(self, name: str = "goods") -> dict[str, int]:
        """A goods parameter (``goods``, ``give``, ``get`` …), empty if absent."""
        return dict(self.params.get(name) or {})


class Furnishing(Frozen):
    """A furnishing tile kind."""

    id: str
    kind: TileKind
    block: int = Field(ge=1, le=4)
    count: int | None = 1          # None: unlimited (the ordinary Dwelling)
    name: Name
    cost: dict[str, int]
    points: int = Field(ge=0)
    effects: tuple[Effect, ...] = ()
    bga_beginner: bool = False

    @model_validator(mode="before")
    @classmethod
    def _unlimited(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("count") == "unlimited":
            return {**data, "count": None}
        return data

    @field_validator("cost")
    @classmethod
    def _cost(cls, value: dict[str, int]) -> dict[str, int]:
        return _goods(value, "cost")

    def effect(self, key: str) -> Effect | None:
        """The tile's first effect with ``key``, if any."""
        for effect in self.effects:
            if effect.key == key:
                return effect
        return None

    @property
    def is_dwelling(self) -> bool:
        return self.kind == "dwelling"

    @property
    def dwarf_room(self) -> int:
        """Dwarfs this tile houses (0 for non-dwellings)."""
        room = self.effect("room")
        return int(room.params.get("dwarfs", 0)) if room else 0


class Part(Frozen):
    """One step of an action: ``do`` names it, ``arg`` is its parameter (if any)."""

    do: PartName
    arg: Any = None

    @model_validator(mode="before")
    @classmethod
    def _from_yaml(cls, data: Any) -> Any:
        if isinstance(data, str):
            return {"do": data}
        if isinstance(data, dict) and "do" not in data:
            if len(data) != 1:
                raise ValueError(f"a part is one word or a one-key mapping: {data!r}")
            ((name, arg),) = data.items()
            return {"do": name, "arg": arg}
        return data

    @model_validator(mode="after")
    def _arg(self) -> Part:
        if self.do == "gain":
            _goods(self.arg, "gain")
        if self.do == "twin" and self.arg not in TWINS:
            raise ValueError(f"unknown twin tile {self.arg!r}")
        if self.do == "twin_one_of" and not all(t in TWINS for t in self.arg):
            raise ValueError(f"unknown twin tile in {self.arg!r}")
        if self.do == "expedition" and self.arg not in (1, 2, 3, 4):
            raise ValueError(f"bad expedition level {self.arg!r}")
        if self.do == "furnish" and self.arg not in ("any", "dwelling"):
            raise ValueError(f"bad furnish kind {self.arg!r}")
        if self.do == "ruby_mine" and self.arg not in ("tunnel", "deep_tunnel"):
            raise ValueError(f"bad ruby mine base {self.arg!r}")
        return self


class ActionSpace(Frozen):
    """An action space: printed on a board, or a round card (``stage`` set)."""

    id: str
    name: Name
    accumulates: dict[str, tuple[int, int]] = Field(default_factory=dict)
    first_round: dict[int, int] = Field(default_factory=dict)
    connective: Connective
    options: tuple[tuple[Part, ...], ...]
    imitation: int | None = None
    # Round cards only.
    stage: int | None = None
    round: int | None = None
    back: str | None = None
    flips_when: str | None = None
    side_b: bool = False
    min_players: int = 1

    @field_validator("options", mode="before")
    @classmethod
    def _groups(cls, value: Any) -> Any:
        return [o if isinstance(o, list) else [o] for o in value]

    @field_validator("accumulates", mode="before")
    @classmethod
    def _accumulates(cls, value: Any) -> Any:
        _goods({k: max(v) for k, v in value.items()}, "accumulates")
        return value

    @property
    def accumulating(self) -> bool:
        return bool(self.accumulates)

    @property
    def is_imitation(self) -> bool:
        return self.imitation is not None

    def parts(self) -> list[Part]:
        """Every part of every option, in order."""
        return [part for option in self.options for part in option]

    def refill(self, empty: bool) -> dict[str, int]:
        """Goods put on the space at replenishment: "X(Y)" gives X if the space holds no
        goods at all, else Y."""
        index = 0 if empty else 1
        return {good: pair[index] for good, pair in self.accumulates.items() if pair[index]}

    def refills_in(self, round_number: int, players: int) -> bool:
        """Is the space replenished in that round? (Ruby mining waits in 2-player games.)"""
        return round_number >= self.first_round.get(players, 1)


class LootItem(Frozen):
    """An expedition loot item: goods, or an action named by ``does``."""

    id: str
    strength: int = Field(ge=1, le=14)
    goods: dict[str, int] = Field(default_factory=dict)
    does: str | None = None
    cost: dict[str, int] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _one(self) -> LootItem:
        if bool(self.goods) == bool(self.does):
            raise ValueError(f"loot {self.id}: goods or an action, exactly one")
        _goods(self.goods, f"loot {self.id}")
        _goods(self.cost, f"loot {self.id} cost")
        return self


class PlayerCount(Frozen):
    boards: tuple[str, ...]
    covered: tuple[str, ...] = ()


class Markers(Frozen):
    rounds: tuple[int, ...]
    green: int
    red: int

    @model_validator(mode="after")
    def _count(self) -> Markers:
        if self.green + self.red != len(self.rounds):
            raise ValueError("one harvest marker per listed round")
        return self


class Harvest(Frozen):
    fixed: dict[int, Literal["none", "harvest", "feed_one"]]
    markers: dict[int, Markers]
    solo: dict[str, int]
    red_events: dict[int, Literal["none", "feed_one", "skip_field_or_breeding"]]
    food_per_dwarf: int
    food_per_newborn: int
    food_per_dwarf_feed_one: int
    begging_points: int
    solo_clear_at: int

    def markers_for(self, players: int) -> Markers | None:
        """The face-down markers of that player count (None in solo)."""
        if players <= 1:
            return None
        return self.markers[2] if players == 2 else self.markers[3]


class Setup(Frozen):
    dwarfs: int
    max_dwarfs: int
    max_dwarfs_extended: int
    stables: int
    food_by_seat: dict[int, int]
    food_solo: int


class Rounds(Frozen):
    count: dict[int, int]
    skipped_round: dict[int, int]
    stages: dict[int, tuple[int, ...]]

    def numbers(self, players: int) -> list[int]:
        """The round numbers played (round 9 is skipped with 1 or 2 players)."""
        skipped = self.skipped_round.get(players)
        return [r for r in range(1, 13) if r != skipped]


class Weapons(Frozen):
    forge_max: int
    max_strength: int
    blacksmith_discount: int
    expedition_gain: int


class EntryDwelling(Frozen):
    dwarfs: int
    animals: int
    same_kind: bool


class HomeBoardTable(Frozen):
    entry_dwelling: EntryDwelling
    tile_points: dict[str, int]
    pasture_capacity: dict[str, int]
    stable_on_meadow: int
    stable_on_forest: int
    donkeys_per_mine: int
    fence_cost: dict[str, int]
    stable_cost: dict[str, int]


class ScoreCategory(Frozen):
    id: str
    per: str
    points: int = 0
    every: int = 1
    round: Literal["down", "up"] = "down"
    begging: int = 0


class Scoring(Frozen):
    categories: tuple[ScoreCategory, ...]
    tie: Literal["shared"]


class Tables(Frozen):
    setup: Setup
    rounds: Rounds
    harvest: Harvest
    weapons: Weapons
    loot: tuple[LootItem, ...]
    expedition_levels: tuple[int, ...]
    food_values: dict[str, int]
    donkey_pair_food: int
    gold_to_food_less: int
    ruby_buys: tuple[str, ...]
    ruby_cattle: dict[str, int]
    ruby_tiles: dict[str, int]
    ruby_out_of_order: int
    home_board: HomeBoardTable
    farm_animals: tuple[str, ...]
    goods: tuple[str, ...]
    scoring: Scoring

    def food_for_gold(self, gold: int) -> int:
        """Food bought with ``gold`` coins: one less than the coins (none for 0 or 1)."""
        return max(0, gold - self.gold_to_food_less)


class Components(Frozen):
    """Every constant table of Caverna."""

    furnishings: dict[str, Furnishing]
    spaces: dict[str, ActionSpace]          # printed action spaces
    round_cards: dict[str, ActionSpace]     # the 12 cards plus the round-4 card's back
    market_prices: dict[str, int]
    boards: dict[str, tuple[str, ...]]
    players: dict[int, PlayerCount]
    solo_card_order: tuple[str | None, ...]
    tables: Tables

    @model_validator(mode="after")
    def _cross_references(self) -> Components:
        for board, ids in self.boards.items():
            for space in ids:
                if space not in self.spaces:
                    raise ValueError(f"board {board} names unknown space {space}")
        for count, rule in self.players.items():
            for board in rule.boards:
                if board not in self.boards:
                    raise ValueError(f"{count} players: unknown board {board}")
            in_play = {s for b in rule.boards for s in self.boards[b]}
            if not set(rule.covered) <= in_play:
                raise ValueError(f"{count} players: covers a space not in play")
        for card in self.round_cards.values():
            if card.stage is None:
                raise ValueError(f"round card {card.id} has no stage")
            for other in (card.back, card.flips_when):
                if other is not None and other not in self.round_cards:
                    raise ValueError(f"round card {card.id} names unknown {other}")
        for card_id in self.solo_card_order:
            if card_id is not None and card_id not in self.round_cards:
                raise ValueError(f"solo order names unknown card {card_id}")
        _goods(self.market_prices, "market")
        if set(self.players) != set(range(1, 8)):
            raise ValueError("player counts 1..7 needed")
        return self

    # ----- look-ups

    def space(self, space_id: str) -> ActionSpace:
        """A printed action space or a round card by id."""
        found = self.spaces.get(space_id) or self.round_cards.get(space_id)
        if found is None:
            raise KeyError(space_id)
        return found

    def spaces_for(self, players: int) -> list[str]:
        """The printed action spaces open with that many players (covered ones left out),
        in board order."""
        rule = self.players[players]
        return [
            s for board in rule.boards for s in self.boards[board] if s not in rule.covered
        ]

    def cards_by_stage(self, players: int) -> dict[int, list[str]]:
        """The round cards used with that many players, by stage (front sides only)."""
        stages: dict[int, list[str]] = {}
        for card in self.round_cards.values():
            if card.side_b or card.min_players > players:
                continue
            assert card.stage is not None
            stages.setdefault(card.stage, []).append(card.id)
        return stages

    def fixed_round_cards(self) -> dict[int, str]:
        """Cards that always come up in one round: {4: "wish_for_children"}."""
        return {
            c.round: c.id
            for c in self.round_cards.values()
            if c.round is not None and not c.side_b
        }

    def dwellings(self) -> list[str]:
        return [f.id for f in self.furnishings.values() if f.is_dwelling]


def _named(section: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {sid: {"id": sid, **body} for sid, body in section.items()}


def parse_components(furnishings: Any, actions: Any, tables: Any) -> Components:
    """Build and validate the tables from the three YAML documents."""
    return Components.model_validate(
        {
            "furnishings": _named(furnishings["tiles"]),
            "spaces": _named(actions["spaces"]),
            "round_cards": _named(actions["round_cards"]),
            "market_prices": actions["market_prices"],
            "boards": actions["boards"],
            "players": actions["players"],
            "solo_card_order": actions["solo_card_order"],
            "tables": tables,
        }
    )


def read_data(name: str) -> Any:
    """One YAML document of ``data/`` as plain Python data."""
    text = (
        importlib_resources.files("engine.caverna")
        .joinpath(f"data/{name}")
        .read_text(encoding="utf-8")
    )
    return load_yaml(text)


@cache
def components() -> Components:
    """Caverna's tables (read and validated once; they never change)."""
    return parse_components(
        read_data("furnishings.yaml"), read_data("action_spaces.yaml"), read_data("tables.yaml")
    )
