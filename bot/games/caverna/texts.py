"""Caverna in words: prompts, buttons, chat-log lines, refusals, scores and /board.

Every sentence is in ``bot/games/caverna/texts.<lang>.yaml`` under ``cav.``. This module
only picks the code (many prompts and options have variants by their arguments) and
turns the engine's arguments into text a sentence may use:

- ``space`` (an action space or round card id) → its name; ``tile`` → a furnishing's
  or landscape tile's name; goods mappings (``goods``, ``bill``, ``cost``,
  ``converted``, ``animals``) → lists like "4 wood, 3 stone". Names, counts and lists
  are nouns that know their forms (:mod:`bot.i18n.grammar`): a sentence names the form
  it needs (``платит {bill:acc}``), and a list that comes empty picks the sentence's
  ``_nothing`` variant (or no line) instead of saying "pays nothing";
- ``at`` (``"x,y"``, or ``"x,y+x,y"`` for a twin or a large pasture) → square names
  (``D2``; see :mod:`bot.games.caverna.describe`), and a twin's placement in words:
  which half lands on which square and which way the tile points;
- a furnishing option carries its cost and printed points (a star for a yellow tile's
  bonus), so no option needs the rulebook's appendix; ``/rules caverna <tile>`` tells
  what a tile does.

``board`` (for /board) describes the table and every home board in text alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from bot.games.caverna.board_text import board_lines
from bot.games.caverna.describe import (
    Words,
    as_int,
    counts,
    goods_text,
    parse_square,
    placement_text,
    points_text,
    square_name,
    square_of,
)
from bot.i18n.catalog import Lang, Markup
from bot.i18n.grammar import Inflected, Series
from bot.texts.base import CatalogTexts
from engine.caverna.components import components
from engine.caverna.view_model import CavernaView
from engine.core.prompts import Event, Label

# The goods lists of an event: when one comes empty, the line is the event's
# ``<code>_nothing`` sentence if the catalog has one, else there is no line.
LISTS: Final[tuple[str, ...]] = ("goods", "bill", "converted", "animals", "give", "get")
TRADE_ORE, TRADE_GOLD, TRADE_FOOD = 2, 2, 1  # one Ore trading exchange
# Events whose line depends on a variant of the arguments: the argument, and the code
# suffix it adds when it is there (non-empty).
VARIANTS: Final[Mapping[str, tuple[tuple[str, str], ...]]] = MappingProxyType({
    "paid": (("converted", "_converted"), ("rubies", "_rubies")),
})


def _dict(value: Any) -> dict[str, Any]:
    return dict(value) if isinstance(value, Mapping) else {}


class CavernaTexts(CatalogTexts):
    """Caverna texts from a catalog (the shipped one unless given)."""

    prefix = "cav"

    # --- small pieces ------------------------------------------------------------

    def words(self, lang: Lang) -> Words:
        """The words of ``lang`` for :mod:`bot.games.caverna.describe`."""
        return Words(lambda code, **args: self._word(lang, code, **args),
                     lambda noun, n: self._count(lang, noun, n),
                     lambda code: self._noun(lang, code),
                     lambda code, **args: self._phrase(lang, code, **args))

    def _known(self, lang: Lang, code: str, fallback: str) -> str:
        """The noun ``code`` if the catalog has it, else ``fallback`` as it is."""
        return self._noun(lang, code) if self._cat.has_noun("en", code) else fallback

    def space_name(self, lang: Lang, space: Any) -> str:
        """An action space's or round card's name."""
        return self._known(lang, f"cav.space.{space}", str(space))

    def tile_name(self, lang: Lang, tile: Any) -> str:
        """A furnishing's name, else a landscape tile's, else the id."""
        if self._cat.has_noun("en", f"cav.furnishing.{tile}"):
            return self._noun(lang, f"cav.furnishing.{tile}")
        return self._known(lang, f"cav.tile.{tile}", str(tile))

    def goods(self, lang: Lang, goods: Any, empty: str | None = None) -> Series:
        """``4 wood, 3 stone``; for nothing ``empty``, else "nothing" (a sentence says
        nothing its own way: it passes ``""`` and picks its ``_nothing`` variant)."""
        return goods_text(self.words(lang), goods,
                          self._word(lang, "cav.none") if empty is None else empty)

    def _good(self, lang: Lang, good: Any) -> str:
        return self._known(lang, f"cav.noun.{good}", str(good))

    def furnishing_label(self, lang: Lang, tile_id: str, cost: Any) -> str:
        """``Cuddle room · 1 wood · 2 points``: name, what it costs this player, points."""
        tile = components().furnishings.get(tile_id)
        kind, points = (tile.kind, tile.points) if tile else ("green", 0)
        w = self.words(lang)
        price = goods_text(w, cost, self._word(lang, "cav.opt.free"))
        return self._word(lang, "cav.opt.tile", tile=self.tile_name(lang, tile_id),
                          cost=price, points=points_text(w, kind, points))

    # --- prompts -------------------------------------------------------------------

    def _prompt_code(self, label: Label) -> tuple[str, dict[str, Any]]:
        """The catalog code of a question and the arguments it gets before wording."""
        code, args = label.code, dict(label.args)
        kind = code.removeprefix("cav.prompt.")
        if kind == "place":
            if "dwarf" not in args:
                return "cav.prompt.place.chosen", args
            return ("cav.prompt.place.armed" if as_int(args.get("weapon"))
                    else "cav.prompt.place.unarmed"), args
        if kind == "group" and args.get("imitated"):
            return "cav.prompt.group_imitated", args
        if kind == "loot":
            taken = args.get("taken")
            args["count"] = len(taken or ())
        if kind == "board":
            return self._board_code(args), args
        full = f"cav.prompt.{kind}"
        return (full if self._cat.has("en", full) else "cav.prompt.other"), args

    @staticmethod
    def _board_code(args: dict[str, Any]) -> str:
        what = args.get("what")
        if what == "twin":
            return "cav.prompt.board.twin_from" if args.get("first") else "cav.prompt.board.twin"
        if what == "single":
            if args.get("first"):
                return "cav.prompt.board.twin_from"
            return "cav.prompt.board.single_ruby" if args.get("ruby") else \
                "cav.prompt.board.single"
        if what == "ruby_mine":
            if args.get("first"):
                return "cav.prompt.board.twin_from"
            onto = "deep_tunnel" if args.get("onto") == "deep_tunnel" else "tunnel"
            return f"cav.prompt.board.ruby_mine.{onto}"
        if what == "furnish":
            if args.get("tile"):
                return "cav.prompt.board.furnish_where"
            scope = args.get("scope")
            scope = scope if scope in ("any", "dwelling", "dwelling_loot") else "any"
            return f"cav.prompt.board.furnish.{scope}"
        if what == "fences":
            return "cav.prompt.board.fences_more" if args.get("built") else \
                "cav.prompt.board.fences"
        if what in ("sow", "stable"):
            return f"cav.prompt.board.{what}"
        return "cav.prompt.board.other"

    def _prompt_args(self, lang: Lang, args: dict[str, Any]) -> dict[str, Any]:
        """Names and lists in place of the engine's ids and mappings."""
        out = dict(args)
        w = self.words(lang)
        if "space" in args:
            out["space"] = self.space_name(lang, args["space"])
        if "bill" in args:
            out["bill"] = self.goods(lang, args["bill"])
        out["food"] = (w.count("food", as_int(args.get("food"))) if "food" in args
                       else w.count("food", as_int(args.get("cost"))))
        if "need" in args:
            out["need"] = w.count("food", as_int(args["need"]))
        what = args.get("what")
        if what == "twin":
            kinds = args.get("kinds")
            kinds = kinds if isinstance(kinds, list) else [kinds]
            out["tile"] = self.tile_name(lang, kinds[0]) if len(kinds) == 1 else \
                self._noun(lang, "cav.tile.twin")
        elif what in ("single", "furnish") and args.get("tile"):
            out["tile"] = self.tile_name(lang, args["tile"])
        elif what == "ruby_mine":
            out["tile"] = self.tile_name(lang, "ruby_mine")
        if "first" in args:
            out["first"] = square_of(args["first"])
        if "ruby" in args:
            out["rubies"] = w.count("ruby", as_int(args["ruby"]))
        if what == "stable":
            out["cost"] = goods_text(w, {"stone": as_int(args.get("stone"))},
                                     self._word(lang, "cav.opt.free"))
        return out

    def _details(self, lang: Lang, label: Label) -> list[Markup]:
        """Lines before a question that explain its choices without the picture."""
        args = label.args
        lines: list[Markup] = []
        if label.code == "cav.prompt.board":
            what = args.get("what")
            if what == "furnish" and not args.get("tile"):
                lines.append(self._cat.t(lang, "cav.about.furnish"))
            elif what in ("twin", "single", "ruby_mine", "fences", "stable") or \
                    (what == "furnish" and args.get("tile")):
                lines.append(self._cat.t(lang, "cav.about.board_key"))
        elif label.code == "cav.prompt.loot":
            taken = args.get("taken")
            if isinstance(taken, list) and taken:
                items = ", ".join(self._known(lang, f"cav.loot.{i}", str(i)) for i in taken)
                lines.append(self._cat.t(lang, "cav.about.loot_taken", items=items))
        return lines

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, after lines that explain its choices; addressed to
        ``names[seat]`` when a seat is given, else standing alone with a capital."""
        code, args = self._prompt_code(label)
        question = self._cat.t(lang, code, **self._prompt_args(lang, args))
        if seat is None:
            question = Markup(question[:1].upper() + question[1:])
        else:
            question = self._cat.t(lang, "cav.address", name=self._name(lang, names, seat),
                                   question=question)
        return Markup("\n".join([*self._details(lang, label), question]))

    # --- options -------------------------------------------------------------------

    def _part(self, lang: Lang, args: Mapping[str, Any]) -> str:
        """One part of an action as a button text."""
        do = str(args.get("do"))
        w = self.words(lang)
        kinds = args.get("kinds")
        kinds = list(kinds) if isinstance(kinds, list | tuple) else []
        goods = goods_text(w, args.get("goods"))
        if do == "take":
            return self._word(lang, "cav.part.take", goods="")
        if do == "group":
            parts = args.get("parts")
            sep = self._word(lang, "cav.part.join")
            return sep.join(self._part(lang, p if isinstance(p, Mapping) else {"do": p})
                            for p in parts or ())
        if do == "twin":
            if len(kinds) == 1:
                return self._word(lang, "cav.part.twin", tile=self.tile_name(lang, kinds[0]))
            return self._word(lang, "cav.part.twin_any")
        if do in ("furnish", "ruby_mine"):
            scope = kinds[0] if kinds else ""
            code = f"cav.part.{do}.{scope}"
            if not self._cat.has("en", code):
                code = f"cav.part.{do}.{'any' if do == 'furnish' else 'tunnel'}"
            return self._word(lang, code)
        if self._cat.has("en", f"cav.part.{do}"):
            return self._word(lang, f"cav.part.{do}", goods=goods,
                              level=as_int(args.get("level")))
        return self._word(lang, "cav.part.other")

    def _conversion(self, lang: Lang, args: dict[str, Any]) -> dict[str, Inflected]:
        """A conversion in words: what goes (``1 ruby + 2 grain``; a step may take more
        than one: gold for the food missing, a donkey pair) and the food it gives."""
        w = self.words(lang)
        return {"converted": goods_text(w, args.get("converted"), sep=" + "),
                "food": w.count("food", as_int(args.get("food")))}

    def _option(self, lang: Lang, label: Label) -> str:
        text = self._option_text(lang, label)
        return text[:1].upper() + text[1:]

    def _option_text(self, lang: Lang, label: Label) -> str:
        args: dict[str, Any] = dict(label.args)
        code = label.code
        w = self.words(lang)
        kind = code.removeprefix("cav.opt.")
        goods = counts(args.get("goods"))
        if kind in ("go", "copy"):
            name = self.space_name(lang, args.get("space"))
            if goods:
                return self._word(lang, f"{code}_goods", space=name,
                                  goods=goods_text(w, goods))
            return self._word(lang, code, space=name)
        if kind == "dwarf" and not as_int(args.get("weapon")):
            return self._word(lang, "cav.opt.dwarf_unarmed")
        if kind == "part":
            return self._word(lang, code, part=self._part(lang, args))
        if kind == "pay":
            if counts(args.get("converted")):
                return self._word(lang, code, **self._conversion(lang, args))
            return self._word(lang, "cav.opt.pay_plain", bill=self.goods(lang, args.get("bill")))
        if kind == "pay_ore":
            return self._word(lang, code, bill=self.goods(lang, args.get("bill")))
        if kind in ("loot", "loot_back"):
            item = args.get("item")
            return self._word(lang, code, item=self._known(lang, f"cav.loot.{item}", str(item)),
                              strength=as_int(args.get("strength")))
        if kind == "loot_done":
            return self._word(lang, code, taken=as_int(args.get("taken")),
                              level=as_int(args.get("level")))
        if kind == "buy":
            return self._word(lang, code, good=self._good(lang, args.get("good")),
                              gold=as_int(args.get("gold")))
        if kind == "trade":
            times = as_int(args.get("times"), 1)
            return self._word(lang, code, times=times, ore=w.count("ore", TRADE_ORE * times),
                              gold=w.count("gold", TRADE_GOLD * times),
                              food=w.count("food", TRADE_FOOD * times))
        if kind in ("keep", "young"):
            animals = counts(args.get("animals"))
            if not animals:
                return self._word(lang, f"{code}_none")
            return self._word(lang, code, animals=goods_text(w, animals))
        if kind == "ruby_buy":
            if args.get("good") == "cattle":
                return self._word(lang, "cav.opt.ruby_buy_cattle")
            return self._word(lang, code, good=self._good(lang, args.get("good")))
        if kind == "ruby_tile":
            return self._word(lang, code, rubies=w.count("ruby", as_int(args.get("rubies"))),
                              tile=self.tile_name(lang, args.get("tile")))
        if kind == "swap":
            return self._swap(lang, args)
        if kind == "disarm":
            return self._word(lang, code, dwarf=as_int(args.get("dwarf")) + 1,
                              food=as_int(args.get("food")))
        if kind == "skip":
            stage = "breed" if args.get("stage") == "breed" else "field"
            return self._word(lang, f"cav.opt.skip.{stage}")
        if kind == "convert":
            return self._word(lang, code, **self._conversion(lang, args))
        if kind == "working_cave":
            good = str(args.get("good"))
            return self._word(lang, code, cost=w.count(good, as_int(args.get("cost", 1))))
        if kind == "beg":
            return self._word(lang, code, markers=w.count("markers", as_int(args.get("markers"))))
        if kind == "keep_space":
            return self._word(lang, code, space=self.space_name(lang, args.get("space")))
        if kind == "lay_at":
            return self._word(lang, code, at=square_of(args.get("at")),
                              ways=w.count("ways", as_int(args.get("ways"), 2)))
        if kind == "lay":
            return self._word(lang, code, placement=placement_text(
                w, str(args.get("tile")), str(args.get("at"))))
        if kind == "tile":
            return self.furnishing_label(lang, str(args.get("tile")), args.get("cost"))
        if kind == "at":
            return self._word(lang, code, tile=self.tile_name(lang, args.get("tile")),
                              at=square_of(args.get("at")))
        if kind == "sow":
            return self._word(lang, code, what=self._sown(lang, args))
        if kind == "fence":
            size = "large_pasture" if args.get("size") == "large" else "small_pasture"
            name = self.tile_name(lang, size)
            return self._word(lang, code, pasture=name[:1].upper() + name[1:],
                              at=square_of(args.get("at")),
                              cost=goods_text(w, args.get("cost"),
                                              self._word(lang, "cav.opt.free")))
        if kind == "stable":
            return self._word(lang, code, at=square_of(args.get("at")),
                              cost=goods_text(w, args.get("cost"),
                                              self._word(lang, "cav.opt.free")))
        return self._word(lang, code, **args)

    def _sown(self, lang: Lang, args: Mapping[str, Any], empty: str | None = None) -> Series:
        """What is sown (``empty``, else "nothing", when nothing is)."""
        return self.goods(lang, {"grain": as_int(args.get("grain")),
                                 "vegetable": as_int(args.get("vegetable"))}, empty)

    def _swap(self, lang: Lang, args: Mapping[str, Any]) -> str:
        """A furnishing's conversion as a button: what it takes and what it gives."""
        tile_id = str(args.get("tile"))
        tile = components().furnishings.get(tile_id)
        effect = tile.effect("convert") if tile else None
        give: dict[str, int] = {}
        get: dict[str, int] = {}
        if effect is not None:
            give = effect.goods("give")
            choices = effect.params.get("get_one_of") or [effect.goods("get")]
            index = as_int(args.get("choice"))
            if 0 <= index < len(choices):
                get = dict(choices[index])
        return self._word(lang, "cav.opt.swap", tile=self.tile_name(lang, tile_id),
                          give=self.goods(lang, give), get=self.goods(lang, get))

    # --- events --------------------------------------------------------------------

    def _event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        args: dict[str, Any] = dict(event.args)
        code = event.code
        w = self.words(lang)
        out: dict[str, Any] = {
            "name": self._name(lang, names, event.seat) if event.seat is not None else "",
        }
        for key in ("round", "level", "strength", "times", "weapon", "dwarfs"):
            out[key] = as_int(args.get(key))
        for key in LISTS:
            if key in args:
                out[key] = self.goods(lang, args.get(key), "")
                if not out[key]:
                    nothing = f"cav.event.{code}_nothing"
                    if not self._cat.has("en", nothing):
                        return None  # an empty list is not worth a line
                    return self._cat.t(lang, nothing, **out)
        if "food" in args:
            out["food"] = w.count("food", as_int(args["food"]))
        if "space" in args:
            out["space"] = self.space_name(lang, args["space"])
        if "at" in args:
            out["at"] = square_of(args["at"])
        if "good" in args:
            out["good"] = w.count(str(args["good"]), 1)
        if "gold" in args:
            out["gold"] = w.count("gold", as_int(args["gold"]))
        if "markers" in args:
            out["markers"] = w.count("markers", as_int(args["markers"]))
        if "rubies" in args:
            # A tile bought with rubies says how many; a payment names the goods they
            # stood in for.
            stood = counts(args["rubies"])
            out["rubies"] = w.count("ruby", sum(stood.values()) if stood
                                    else as_int(args["rubies"]))
            out["stood"] = self.goods(lang, stood, "")
        for arg, suffix in VARIANTS.get(code, ()):
            if out.get(arg):
                code += suffix
        code = self._event_details(lang, code, args, out)
        full = f"cav.event.{code}"
        if not self._cat.has("en", full):
            full = "cav.event.other"
        return self._cat.t(lang, full, **out)

    def _event_details(self, lang: Lang, code: str, args: Mapping[str, Any],
                       out: dict[str, Any]) -> str:
        """The arguments only some events have, into ``out``; the event's catalog code
        (some events have variants by their arguments)."""
        w = self.words(lang)
        if code == "placed":
            return "placed_ruby" if args.get("out_of_order") else (
                "placed_armed" if as_int(args.get("weapon")) else "placed")
        if code == "converted" and "kind" in args:
            out["goods"] = Series([w.count(str(args["kind"]), as_int(args.get("count", 1)))])
        elif code == "traded":
            times = as_int(args.get("times"), 1)
            out["ore"] = w.count("ore", TRADE_ORE * times)
            out["gold"] = w.count("gold", TRADE_GOLD * times)
            out["food"] = w.count("food", TRADE_FOOD * times)
        elif code == "tile_laid":
            out["placement"] = placement_text(w, str(args.get("tile")), str(args.get("at")))
            if as_int(args.get("rubies")):
                return "tile_laid_ruby"
        elif code == "fenced":
            out["pasture"] = self.tile_name(lang, args.get("pasture"))
        elif code in ("furnished", "swapped", "covered"):
            out["tile"] = self.tile_name(lang, args.get("tile"))
        elif code == "sowed":
            out["what"] = self._sown(lang, args, "")
            if not out["what"]:
                return "sowed_nothing"
        elif code == "card_revealed":
            out["space"] = self.space_name(lang, args.get("card"))
        elif code == "card_turned":
            out["space"] = self.space_name(lang, args.get("card"))
            out["to"] = self.space_name(lang, args.get("to"))
        elif code in ("loot", "loot_returned"):
            item = args.get("item")
            out["item"] = self._known(lang, f"cav.loot.{item}", str(item))
        elif code == "fed_with":  # the Working cave takes 2 ore, or 1 wood or stone
            good = str(args.get("good"))
            out["good"] = w.count(good, 2 if good == "ore" else 1)
        elif code == "family_grew":
            out["dwarfs"] = w.count("dwarfs", as_int(args.get("dwarfs")))
        elif code == "harvest_marker":
            out["marker"] = self._known(lang, f"cav.marker.{args.get('marker')}", "")
            out["harvest"] = self._harvest(lang, args.get("harvest"))
        elif code == "harvest":
            out["kind"] = self._harvest(lang, args.get("kind"))
        elif code in ("skipped", "skipped_empty"):
            stage = "breed" if args.get("stage") == "breed" else "field"
            out["stage"] = self._noun(lang, f"cav.stage.{stage}")
        elif code == "disarmed":
            out["strength"] = as_int(args.get("food"))
        elif code == "begged" and not as_int(args.get("food")):
            return "begged_none"
        elif code == "housed":
            out["places"] = self._housing(lang, args)
            if not out["places"]:
                return "housed_none"
        return code

    def _housing(self, lang: Lang, args: Mapping[str, Any]) -> Series:
        """Where animals live, in words: ``2 sheep — small pasture C3; 1 dog roaming
        free`` (see :mod:`engine.caverna.housed` for the places)."""
        w = self.words(lang)
        parts: list[str] = []
        places = args.get("places")
        for place in places if isinstance(places, list) else []:
            if not isinstance(place, Mapping) or not counts(place.get("animals")):
                continue
            kind = str(place.get("place"))
            where = (self._noun(lang, f"cav.house.{kind}")
                     if self._cat.has("en", f"cav.house.{kind}") else self.tile_name(lang, kind))
            parts.append(self._phrase(lang, "cav.house.place", animals=self.goods(
                lang, place.get("animals")), where=where, at=square_of(place.get("at"))))
        dogs = as_int(args.get("free_dogs"))
        if dogs:
            parts.append(self._phrase(lang, "cav.house.free_dogs", dogs=w.count("dog", dogs)))
        return Series(parts, self._word(lang, "cav.house.join"))

    def _harvest(self, lang: Lang, kind: Any) -> str:
        """A harvest kind in words (the engine's and the view's names)."""
        names = {"feed_one": "feed1", "skip_field_or_breeding": "choice"}
        key = names.get(str(kind), str(kind))
        return self._known(lang, f"cav.harvest.{key}", str(kind))

    # --- refusals, locations, board ------------------------------------------------

    def reason(self, lang: Lang, code: str, args: dict[str, Any]) -> Markup:
        """``cav.reason.<code>``, else the shared ``reason.<code>``, else a general
        refusal."""
        for full in (f"cav.reason.{code}", f"reason.{code}"):
            if self._cat.has("en", full):
                return self._cat.t(lang, full, **args)
        return self._cat.t(lang, "cav.reason.other")

    def location(self, lang: Lang, loc: str) -> str:
        """A square (``"3,1"`` → ``D2``) or an action space's name; else as given."""
        pos = parse_square(loc)
        if pos is not None:
            return square_name(pos)
        return self.space_name(lang, loc)

    def board(self, lang: Lang, view: CavernaView, seat: int, names: list[str]) -> list[Markup]:
        """The table and every home board in words (see :mod:`board_text`)."""
        return board_lines(self, lang, view, seat, names)
