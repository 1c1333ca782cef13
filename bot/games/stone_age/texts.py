"""Stone Age in words: prompts, buttons, chat-log lines, refusals and the score sheet.

Every sentence is in ``bot/games/stone_age/texts.<lang>.yaml`` under ``sa.``. This
module only chooses the code (a few labels have variants, e.g. a tool button that is
switched on) and turns the engine's arguments into text that any sentence may use:

- a location (``loc``, ``target``, ``slot``, ``pile``, ``source``) gives ``place``, a
  noun whose forms are its name, ``to`` ("to the forest" / "в лес") and ``at`` ("in the
  forest" / "в лесу"), which a text asks as ``{place:to}``; ``n`` (card or pile
  number) and ``loc_icon``;
- goods (``paid``, ``goods``) become ``2🪵 1🧱``; dice become ``3+4+5 = 12`` (``roll``)
  or ``2, 3, 6`` (``dice``); ``resource`` becomes its name, with ``icon``;
- ``card`` and ``building`` ids become short descriptions;
- counts of people (``count``, ``unplaced``) give ``workers`` ("3 жителя"), a card
  cost gives ``price`` ("2 ресурса");
- places that will follow by themselves (``later``) give their names, and the tools
  a take adds (``tiles``, ``once``) give ``used`` ("🛠2+1, 🛠3 одноразовый").

Options of one gathering site (its numbers of people) form a group that folds: a
platform that cannot show every placement on one page opens a site's numbers from one
button (``bot.ui.layout``).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from bot.i18n.catalog import Lang, Markup
from bot.texts.base import CatalogTexts
from bot.ui.choices import Group
from engine.core.prompts import Event, Label, Option
from engine.stone_age.components import GATHERING, GOODS, VILLAGE, components
from engine.stone_age.gathering import divisor
from engine.stone_age.view import building_info, card_info
from engine.stone_age.view_model import (
    BuildingView,
    CardView,
    FixedBuildingView,
    KindsBuildingView,
    StoneAgeView,
)

ICON: Final[Mapping[str, str]] = MappingProxyType({
    "food": "🍖",
    "wood": "🪵",
    "clay": "🧱",
    "stone": "🪨",
    "gold": "🪙",
    "tool": "🛠",
    "agriculture": "🌾",
    "people": "👤",
    "dice": "🎲",
    "points": "⭐",
    "building": "🏠",
    "card": "🃏",
})

LOC_ICON: Final[Mapping[str, str]] = MappingProxyType({
    "hunt": "🍖",
    "forest": "🪵",
    "clay": "🧱",
    "quarry": "🪨",
    "river": "🪙",
    "toolmaker": "🛠",
    "hut": "👤",
    "field": "🌾",
    "card": "🃏",
    "bld": "🏠",
})

# Events that get no chat line: the dice of a gathering roll show in the roller's
# prompt and again in the ``gathered`` line.
SILENT: Final[frozenset[str]] = frozenset({"rolled"})

# How many kinds a building wants, as the word its text is filed under.
_KINDS_WORD: Final[Mapping[int, str]] = MappingProxyType(
    {1: "one", 2: "two", 3: "three", 4: "four"}
)

# Argument names that may name a location, in the order they are looked at.
_LOC_KEYS: Final[tuple[str, ...]] = ("loc", "target", "slot", "pile", "source")
_NUMBERED: Final[tuple[str, ...]] = ("card", "bld")


def split_loc(loc: str) -> tuple[str, int | None]:
    """``card3`` → ``("card", 3)``, ``bld1`` → ``("bld", 1)``, ``forest`` → ``("forest", None)``."""
    for prefix in _NUMBERED:
        rest = loc[len(prefix):]
        if loc.startswith(prefix) and rest.isdigit():
            return prefix, int(rest)
    return loc, None


def _is_board_loc(loc: str) -> bool:
    kind, _ = split_loc(loc)
    return kind in GATHERING or kind in VILLAGE or (kind in _NUMBERED and kind != loc)


def _loc_in(args: Mapping[str, Any]) -> str | None:
    """The board location an argument mapping names, if any.

    ``card_bought`` gives its slot and ``pile_empty`` its pile as 1-based numbers; other
    codes give location keys.
    """
    for key in _LOC_KEYS:
        value = args.get(key)
        if isinstance(value, bool):
            continue
        if isinstance(value, int) and key in ("slot", "pile"):
            return f"{'card' if key == 'slot' else 'bld'}{value}"
        if isinstance(value, str) and _is_board_loc(value):
            return value
    return None


def goods_text(goods: Mapping[str, int]) -> str:
    """``{"wood": 2, "clay": 1}`` → ``2🪵 1🧱`` (food first, then by value)."""
    order = [g for g in GOODS if g in goods] + sorted(g for g in goods if g not in GOODS)
    parts = [f"{goods[g]}{ICON.get(g, g)}" for g in order if goods[g]]
    return " ".join(parts) if parts else "0"


def roll_text(dice: list[int]) -> str:
    """``[3, 4, 5]`` → ``3+4+5 = 12``; a single die is just its face."""
    if len(dice) == 1:
        return str(dice[0])
    return f"{'+'.join(str(d) for d in dice)} = {sum(dice)}"


def faces_text(dice: list[int]) -> str:
    """``[2, 3, 6]`` → ``2, 3, 6``."""
    return ", ".join(str(d) for d in dice)


def tools_text(tools: list[int]) -> str:
    """A tool board ``[2, 1, 0]`` → ``2+1`` (empty slots left out)."""
    held = [str(v) for v in tools if v]
    return "+".join(held) if held else "0"


def used_tools_text(total: int, tools: list[int]) -> str:
    """A finished roll: ``🎲 14 +1 🛠 +2 🛠`` (the dice, then every tool added)."""
    dice = total - sum(tools)
    return f"{ICON['dice']} {dice}" + "".join(f" +{v} {ICON['tool']}" for v in tools)


def _summands(values: list[int]) -> str:
    """``[1, 2, 1]`` → ``2+1+1`` (largest first)."""
    return "+".join(str(v) for v in sorted(values, reverse=True))


def _die_reward(args: Mapping[str, Any]) -> dict[str, Any]:
    """What the die face in ``args`` gives on a dice-for-everyone card."""
    face = args.get("face")
    return dict(components().dice_faces.get(face, {})) if isinstance(face, int) else {}


class StoneAgeTexts(CatalogTexts):
    """Stone Age texts from a catalog (the shipped one unless given)."""

    prefix = "sa"

    # --- small pieces ------------------------------------------------------------

    def _loc_forms(self, lang: Lang, args: Mapping[str, Any]) -> dict[str, Any]:
        loc = _loc_in(args)
        source = args.get("source")
        if loc is None and isinstance(source, str) and source in components().cards:
            kind, n = "card_dice", None
        elif loc is None:
            kind, n = "unknown", None
        else:
            kind, n = split_loc(loc)
        number: Any = n if n is not None else "?"
        return {
            "place": self._noun(lang, f"sa.loc.{kind}", n=number),
            "n": number,
            "loc_icon": LOC_ICON.get(kind, ICON["dice"]),
        }

    def _args(self, lang: Lang, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The engine's arguments plus everything derived from them (see the module doc)."""
        out: dict[str, Any] = dict(raw)
        out.update(self._loc_forms(lang, raw))
        for key in ("paid", "goods"):
            value = raw.get(key)
            if isinstance(value, Mapping):
                out[key] = goods_text(value)
        dice = raw.get("dice")
        if isinstance(dice, list):
            out["dice"] = faces_text(dice)
            out["roll"] = roll_text(dice)
        tools = raw.get("tools")
        if isinstance(tools, list):
            out["tools"] = tools_text(tools)
            total = raw.get("total")
            if isinstance(total, int):
                out["roll"] = used_tools_text(total, tools)
        resource = raw.get("resource")
        if isinstance(resource, str):
            out["icon"] = ICON.get(resource, "")
            out["resource"] = self._noun(lang, f"sa.resource.{resource}")
            if resource in GOODS:
                out["div"] = divisor(resource)
        card = raw.get("card")
        if isinstance(card, str) and card in components().cards:
            out["card"] = self.card(lang, card_info(card))
        building = raw.get("building")
        if isinstance(building, str) and building in components().buildings:
            out["building"] = self.building(lang, building_info(building))
        elif "building" in raw:
            out["building"] = self._phrase(lang, "sa.building.unknown")
        for key in ("count", "unplaced"):
            value = raw.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                out["workers"] = self._count(lang, "people", value)
        cost = raw.get("cost")
        if isinstance(cost, int):
            out["price"] = self._count(lang, "resources", cost)
        counts = raw.get("counts")
        if isinstance(counts, list) and counts:
            low, high = min(counts), max(counts)
            out["counts"] = str(low) if low == high else f"{low}–{high}"
        later = raw.get("later")
        if isinstance(later, list):
            out["later"] = ", ".join(self.location(lang, str(loc)) for loc in later)
        tiles, once = raw.get("tiles"), raw.get("once")
        if isinstance(tiles, list) and isinstance(once, list):
            used = []
            if tiles:
                used.append(self._word(lang, "sa.tool_tiles", values=_summands(tiles)))
            if once:
                number = "one" if len(once) == 1 else "many"
                used.append(self._word(lang, f"sa.tool_once.{number}", values=_summands(once)))
            out["used"] = ", ".join(used)
        return out

    # --- which code ----------------------------------------------------------------

    @staticmethod
    def _option_code(label: Label) -> str:
        code, args = label.code, label.args
        if code in ("sa.opt.tool", "sa.opt.once") and args.get("on"):
            return code + "_on"
        if code == "sa.opt.take" and (args.get("tiles") or args.get("once")):
            return "sa.opt.take_tools"
        if code == "sa.opt.at" and len(args.get("counts") or ()) == 1:
            return "sa.opt.at_fixed"
        if code == "sa.opt.pay" and "points" in args:
            return "sa.opt.pay_points"
        if code == "sa.opt.die":
            return f"sa.opt.die.{next(iter(_die_reward(args)), 'resource')}"
        return code

    @staticmethod
    def _event_code(event: Event) -> str:
        code, args = event.code, event.args
        if code == "short_of_food":
            return f"sa.event.short_of_food.{'some' if args.get('food') else 'none'}"
        if code in ("card_declined", "building_declined"):
            return f"sa.event.{code}.{'cannot_pay' if args.get('cannot_pay') else 'passed'}"
        if code == "gathered":
            source = args.get("source")
            kind = source if source in GATHERING else "card"
            return f"sa.event.gathered.{kind}"
        if code == "game_over":
            reason = args.get("reason")
            known = ("cards_exhausted", "building_pile_empty")
            return f"sa.event.game_over.{reason if reason in known else 'other'}"
        return f"sa.event.{code}"

    # --- the GameTexts protocol ------------------------------------------------------

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, addressed to ``names[seat]`` when a seat is given.

        Without a seat (the label alone does not say whose it is) the question stands
        on its own with a capital letter. A payment begun shows what is chosen so far.
        """
        args = self._args(lang, label.args)
        code = label.code
        if code == "sa.prompt.act" and label.args.get("later"):
            code = "sa.prompt.act_later"
        question = self._cat.t(lang, code, **args)
        if seat is None:
            text = Markup(question[:1].upper() + question[1:])
        else:
            text = self._cat.t(lang, "sa.address", name=self._name(lang, names, seat),
                               question=question)
        paid = label.args.get("paid")
        if isinstance(paid, Mapping) and paid:
            text = Markup(text + "\n" + self._cat.t(lang, "sa.prompt.paid", paid=args["paid"]))
        return text

    def _option(self, lang: Lang, label: Label) -> str:
        raw = label.args
        if label.code == "sa.opt.die":
            raw = {**_die_reward(raw), **raw}
        if label.code in ("sa.opt.at", "sa.opt.do"):
            # Cards and buildings are named by what they are, not by their slot.
            if raw.get("card"):
                cost = components().slot_costs[int(str(raw["loc"])[4:]) - 1]
                return f"🃏{cost}: {self.card(lang, card_info(str(raw['card'])))}"
            if raw.get("building"):
                # Its pile's number too: two piles may show the same kind of building.
                pile = str(raw["loc"]).removeprefix("bld")
                return f"🏠{pile}: {self.building(lang, building_info(str(raw['building'])))}"
        return self._cat.plain(lang, self._option_code(label), **self._args(lang, raw))

    def _short(self, lang: Lang, label: Label) -> str | None:
        code = f"{label.code}_short"
        if not self._cat.has(lang, code):
            return None
        return self._cat.plain(lang, code, **self._args(lang, label.args))

    def option_group(self, lang: Lang, option: Option) -> Group | None:
        """A gathering site's numbers of people: a group named after the site, with the
        numbers it takes, that folds (see the module)."""
        key = option.label.args.get("group")
        if not isinstance(key, str) or not key:
            return None
        return Group(key, self._word(lang, "sa.group.site", **self._args(lang, option.label.args)),
                     fold=True)

    def _event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        if event.code in SILENT:
            return None
        name = self._name(lang, names, event.seat) if event.seat is not None else ""
        return self._cat.t(lang, self._event_code(event), **{**self._args(lang, event.args),
                                                             "name": name})

    def reason(self, lang: Lang, code: str, args: dict[str, Any]) -> Markup:
        """``sa.reason.<code>``, else the shared ``reason.<code>``, else a general refusal."""
        filled = self._args(lang, args)
        for full in (f"sa.reason.{code}", f"reason.{code}"):
            if self._cat.has(lang, full) or self._cat.has("en", full):
                return self._cat.t(lang, full, **filled)
        return self._cat.t(lang, "sa.reason.other", **filled)

    def location(self, lang: Lang, loc: str) -> str:
        """``forest`` → ``Forest`` / ``Лес``; ``card2`` → ``Card 2`` / ``Карта 2``."""
        if not _is_board_loc(loc):
            return loc
        kind, n = split_loc(loc)
        return self._noun(lang, f"sa.loc.{kind}", n=n if n is not None else "?")

    def bottom(self, lang: Lang, info: CardView) -> str:
        """What a card scores at the end: its culture symbol (``pottery``) or its
        figures (``2 farmers``)."""
        if info.culture:
            return self._noun(lang, f"sa.culture.{info.culture}")
        return self._count(lang, str(info.multiplier), info.figures or 0)

    def card(self, lang: Lang, info: CardView) -> str:
        """``🍖7 | pottery``, ``🎲 for all | 2 farmers``."""
        top = self._phrase(
            lang,
            f"sa.card.top.{info.top}",
            # Only food, resource and points cards have an amount and only one-use
            # tools a value; the other cards' sentences do not use them.
            amount=info.amount if info.amount is not None else 1,
            value=info.value or 0,
            icon=ICON.get(info.resource, "") if info.resource else "",
        )
        return self._phrase(lang, "sa.card.desc", top=top, bottom=self.bottom(lang, info))

    def building(self, lang: Lang, info: BuildingView) -> str:
        """``🪵🪵🧱 → 10⭐``, ``4 of 2 kinds``, ``1–7 any``."""
        if isinstance(info, FixedBuildingView):
            cost = "".join(ICON.get(r, r) for r in info.cost)
            return self._phrase(lang, "sa.building.fixed", cost=cost, points=info.points)
        if isinstance(info, KindsBuildingView):
            count, kinds = info.count, info.kinds
            word = _KINDS_WORD.get(kinds, "many")
            return self._phrase(lang, f"sa.building.kinds.{word}", count=count, kinds=kinds,
                                resources=self._count(lang, "resources", count))
        low, high = info.count_min, info.count_max
        span = str(low) if low == high else f"{low}–{high}"
        return self._phrase(lang, "sa.building.any", span=span)

    def board(self, lang: Lang, view: StoneAgeView, seat: int, names: list[str]) -> list[Markup]:
        """The seat's own civilization cards, then, for every other player holding any,
        the scoring bottoms of the cards the table saw them buy and how many they hold
        face down (drawn blind from the deck)."""
        players = view.players
        # ``seat`` is the caller's, not the view's: a seat the game does not have
        # holds no cards.
        mine = players[seat].cards if 0 <= seat < len(players) else []
        cards = [self.card(lang, c) for c in mine]
        lines = [self._cat.t(lang, "sa.board.cards", cards="; ".join(cards) if cards else "—")]
        for other in players:
            if other.seat == seat or not other.card_count:
                continue
            parts = [self.bottom(lang, c) for c in other.cards]
            if other.hidden_cards:
                parts.append(self._count(lang, "face_down", other.hidden_cards))
            lines.append(self._cat.t(lang, "sa.board.other",
                                     name=self._name(lang, names, other.seat),
                                     cards=", ".join(parts)))
        return lines
