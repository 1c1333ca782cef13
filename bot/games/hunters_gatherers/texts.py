"""Hunters and Gatherers in words: prompts, buttons, chat-log lines, refusals and scores.

Every sentence is in ``bot/games/hunters_gatherers/texts.<lang>.yaml`` under ``hg.``. This
module only chooses the code (figures, scored features, refusals and the end of the game
have variants) and turns the engine's arguments into text a sentence may use:

- a spot's, a tile's or a refusal's square is named by the engine's ``at`` (``CM91``, in
  the game's scheme: see ``engine.hunters_gatherers.coords``), as written on the map's
  edges and accepted by ``/move``; older stored arguments give only ``x``, ``y``
  (``describe.square_of``); ``k`` of a rotation gives ``deg`` (quarter turns → degrees, as
  under the picture);
- each question comes after lines that describe its choices in words (``describe``),
  so that a turn can be played without the picture: the tile in hand and every spot
  with what lies next to it; every rotation offered with what its sides hold; the tile
  just laid, for the figure step. The question comes last, right above the buttons and
  before a clock note the table appends: a text cut to fit a picture's caption loses
  its first lines first (the picture shows what they say) and keeps the question;
- a figure's ``n`` (its button's position in the prompt, the number the picture writes
  on that piece) gives ``num`` ("3 · "); its ``index`` gives ``piece``: nothing for the
  first piece of its kind on the tile, `` (2)`` and so on for the others (``sides``,
  when the engine sends them, become arrows instead);
- the tile in hand (``tile``) gives ``with`` ("с огнём") for the special bonus tiles;
- a scored feature gives ``detail`` (its pieces, fish, mushrooms, gold or animals) and
  ``award`` (who scores how much), ``winners`` and ``points`` (a count: a sentence
  names its form, ``{points:acc}``). Forests and rivers are
  paid by piece: ``pieces`` (older events said ``tiles``, read the same way).

The engine sends every legal spot in one prompt; the bot pages long lists itself.

"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from bot.games.hunters_gatherers.describe import (
    Words,
    degrees,
    known_tile,
    spot_groups,
    square_of,
    tile_contents,
    tile_corners,
    tile_sides,
    touch,
)
from bot.i18n.catalog import Lang, Markup
from bot.i18n.grammar import Phrase, Series
from bot.texts.base import CatalogTexts
from engine.core.prompts import Event, Label
from engine.hunters_gatherers.coords import FIRST, naming
from engine.hunters_gatherers.tiles import Tile, all_tiles
from engine.hunters_gatherers.view import HuntersGatherersView

# Events that get no chat line: the drawn tile shows in the next prompt and picture.
SILENT: Final[frozenset[str]] = frozenset({"tile_drawn"})

FIGURE_KINDS: Final[tuple[str, ...]] = ("gatherer", "fisher", "hunter", "hut")
# Specials of a tile in hand worth a word (the volcano is only on the start tile).
SPECIALS: Final[tuple[str, ...]] = ("fire", "shrine", "mushrooms", "aurochs", "big_lake")
GAME_OVER_REASONS: Final[tuple[str, ...]] = ("last_tile_placed", "no_tile_fits")
# Animals of a meadow: the event's argument and the plural noun, in the score order.
ANIMALS: Final[tuple[tuple[str, str], ...]] = (
    ("deer", "deer"), ("mammoths", "mammoth"), ("aurochs", "aurochs"), ("tigers", "tiger"),
)
# Whole sides as straight arrows; halves of river sides (meadows on either bank) as the
# diagonal toward that half: N1 is the west half of the north side, E1 the north half of
# the east side, and so on clockwise.
ARROWS: Final[Mapping[str, str]] = MappingProxyType({
    "N": "↑", "E": "→", "S": "↓", "W": "←",
    "N1": "↖", "N2": "↗", "E1": "↗", "E2": "↘", "S1": "↘", "S2": "↙", "W1": "↙", "W2": "↖",
})



def _int(value: Any, default: int = 0) -> int:
    """An engine number (never a bool)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else default


def parse_loc(loc: str) -> tuple[int, int] | None:
    """``"3,-1"`` → ``(3, -1)``; anything else → None."""
    parts = loc.split(",")
    if len(parts) != 2:
        return None
    try:
        return int(parts[0].strip()), int(parts[1].strip())
    except ValueError:
        return None


def _turned(w: Words, tile: Tile, k: int, detail: bool = False) -> str:
    """A turn of a tile in words: its sides, then the meadows inside it that matter."""
    return "; ".join([tile_sides(w, tile, k), *tile_corners(w, tile, k, detail)])


class HuntersGatherersTexts(CatalogTexts):
    """Hunters and Gatherers texts from a catalog (the shipped one unless given)."""

    prefix = "hg"

    # --- small pieces ------------------------------------------------------------

    def _winners(self, lang: Lang, names: list[str], seats: list[int]) -> Markup:
        """``<b>Anna</b>, <b>Boris</b> and <b>Cleo</b>`` (names escaped)."""
        marked = [self._cat.t(lang, "hg.winner", name=self._name(lang, names, s)) for s in seats]
        if len(marked) <= 1:
            return Markup("".join(marked))
        last = self._cat.t(lang, "hg.and")
        return Markup(", ".join(marked[:-1]) + last + marked[-1])

    def _award(self, lang: Lang, args: Mapping[str, Any], names: list[str]) -> Phrase:
        """Who scores a feature and how much ("Anna scores 6 points."): a phrase, filled
        only where a line says it."""
        seats = [s for s in args.get("winners") or () if isinstance(s, int)]
        points = _int(args.get("points"))
        zero = "zero_" if points == 0 else ""
        if len(seats) == 1:
            return self._phrase(lang, f"hg.award.{zero}one",
                                name=self._name(lang, names, seats[0]),
                                points=self._count(lang, "points", points))
        return self._phrase(lang, f"hg.award.{zero}many",
                            winners=self._winners(lang, names, seats),
                            points=self._count(lang, "points", points))

    def _detail(self, lang: Lang, code: str, args: Mapping[str, Any]) -> Series:
        """What a scored feature held: ``4 квадрата, 1 золотой самородок``."""
        parts: list[str] = []  # counts, or a plain "no animals"
        if code in ("forest_scored", "river_scored"):
            pieces = args.get("pieces", args.get("tiles"))  # events stored before pieces
            parts.append(self._count(lang, "pieces", _int(pieces)))
        if code == "forest_scored":
            for key in ("mushrooms", "gold"):
                if _int(args.get(key)):
                    parts.append(self._count(lang, key, _int(args.get(key))))
        elif code == "river_scored":
            if _int(args.get("fish")):
                parts.append(self._count(lang, "fish", _int(args.get("fish"))))
        elif code == "meadow_scored":
            for key, noun in ANIMALS:
                if _int(args.get(key)):
                    parts.append(self._count(lang, noun, _int(args.get(key))))
            if not parts:
                parts.append(self._word(lang, "hg.detail.no_animals"))
            notes = [self._word(lang, f"hg.detail.{key}") for key in ("fire", "shrine")
                     if args.get(key) and (key != "fire" or _int(args.get("tigers")))]
            return Series([Series(parts), *notes], "; ")
        return Series(parts)

    def _with(self, lang: Lang, tile_id: Any) -> str:
        """`` с огнём`` for a special tile in hand, else nothing."""
        found = all_tiles().get(tile_id) if isinstance(tile_id, str) else None
        if found is None:
            return ""
        words = [self._word(lang, f"hg.special.{s}") for s in SPECIALS if s in found.specials]
        return " " + self._word(lang, "hg.special_sep").join(words) if words else ""

    def _piece(self, lang: Lang, args: Mapping[str, Any]) -> str:
        sides = args.get("sides")
        if isinstance(sides, (list, tuple)) and sides and all(s in ARROWS for s in sides):
            # One arrow per direction, in order (E1 and N2 both point north-east).
            return " " + "".join(dict.fromkeys(ARROWS[s] for s in sides))
        index = _int(args.get("index"))
        return self._word(lang, "hg.opt.piece", n=index + 1) if index > 0 else ""

    # --- which code ----------------------------------------------------------------

    @staticmethod
    def _kind(args: Mapping[str, Any]) -> str:
        kind = args.get("kind")
        return kind if isinstance(kind, str) and kind in FIGURE_KINDS else "other"

    @classmethod
    def _event_code(cls, event: Event) -> str:
        code, args = event.code, event.args
        if code in ("tile_placed", "tile_discarded"):
            return f"hg.event.{code}.{'bonus' if args.get('bonus') else 'land'}"
        if code == "figure_placed":
            return f"hg.event.figure_placed.{cls._kind(args)}"
        if code in ("forest_scored", "river_scored"):
            return f"hg.event.{code}.{'won' if args.get('winners') else 'nobody'}"
        if code == "game_over":
            reason = args.get("reason")
            return f"hg.event.game_over.{reason if reason in GAME_OVER_REASONS else 'other'}"
        return f"hg.event.{code}"

    def _reason_code(self, code: str, args: Mapping[str, Any]) -> str | None:
        """The catalog code for a refusal, or None when there is none."""
        kind = self._kind(args)
        candidates = [f"hg.reason.{code}"]
        if code == "no_figures_left":
            candidates.insert(0, f"hg.reason.{code}.{'hut' if kind == 'hut' else 'member'}")
        elif code == "feature_occupied":
            candidates.insert(0, f"hg.reason.{code}.{kind}")
        candidates.append(f"reason.{code}")
        for full in candidates:
            if self._cat.has("en", full):
                return full
        return None

    # --- the GameTexts protocol ------------------------------------------------------

    def prompt(
        self, lang: Lang, label: Label, names: list[str], seat: int | None = None
    ) -> Markup:
        """The question, addressed to ``names[seat]`` when a seat is given, after the
        lines that describe its choices (its last line is the question).

        Without a seat (the label alone does not say whose it is) the question stands
        on its own with a capital letter.
        """
        args: dict[str, Any] = dict(label.args)
        code = label.code
        if code == "hg.prompt.spot":
            if args.get("bonus"):
                code = "hg.prompt.spot_bonus"
            args["with"] = self._with(lang, args.get("tile"))
        at = square_of(args)
        args["at"] = at or ""
        args["on"] = self._word(lang, "hg.on_square", at=at) if at else ""
        question = self._cat.t(lang, code, **args)
        if seat is None:
            question = Markup(question[:1].upper() + question[1:])
        else:
            question = self._cat.t(lang, "hg.address", name=self._name(lang, names, seat),
                                   question=question)
        details = self._details(lang, label.code, args)
        return Markup("\n".join([*details, question]))

    def words(self, lang: Lang) -> Words:
        """The words of ``lang`` for ``describe``."""
        return Words(lambda code, **args: self._word(lang, code, **args),
                     lambda noun, n: self._count(lang, noun, n))

    def _tile_line(self, lang: Lang, code: str, **args: Any) -> Markup:
        """A line about a tile, with what is drawn on it when anything is."""
        tile = known_tile(args.get("tile"))
        line = self._cat.t(lang, code, **args)
        contents = tile_contents(self.words(lang), tile) if tile is not None else ""
        if contents:
            line = Markup(line + " " + self._cat.t(lang, "hg.about.contents", items=contents))
        return line

    def _details(self, lang: Lang, code: str, args: Mapping[str, Any]) -> list[Markup]:
        """The lines before a question that describe its choices (see the module)."""
        w = self.words(lang)
        tile = known_tile(args.get("tile"))
        lines: list[Markup] = []
        if code == "hg.prompt.spot":
            if tile is not None:
                lines.append(self._tile_line(lang, "hg.about.tile", tile=tile.id,
                                             sides=tile_sides(w, tile, 0)))
            groups = spot_groups(w, args.get("spots"))
            if groups:
                lines.append(self._cat.t(lang, "hg.about.spots"))
                lines += [self._cat.t(lang, "hg.about.line", text=g) for g in groups]
        elif code == "hg.prompt.rotation":
            around = touch(w, args.get("touch"))
            if around and args.get("at"):
                lines.append(self._cat.t(lang, "hg.about.around", at=args["at"], touch=around))
            rotations = args.get("rotations")
            if tile is not None and isinstance(rotations, list | tuple):
                ks = [k for k in rotations if isinstance(k, int) and not isinstance(k, bool)]
                sides = [_turned(w, tile, k) for k in ks]
                if len(set(sides)) < len(sides):  # say what differs: every meadow's place
                    sides = [_turned(w, tile, k, detail=True) for k in ks]
                lines += [self._cat.t(lang, "hg.about.turn", deg=degrees(k), sides=text)
                          for k, text in zip(ks, sides, strict=True)]
                contents = tile_contents(w, tile)
                if contents:
                    lines.append(self._cat.t(lang, "hg.about.contents", items=contents))
        elif code == "hg.prompt.figure":
            rotation = args.get("rotation")
            if tile is not None and isinstance(rotation, int) and args.get("at"):
                lines.append(self._tile_line(lang, "hg.about.laid", tile=tile.id, at=args["at"],
                                             deg=degrees(rotation),
                                             sides=tile_sides(w, tile, rotation)))
            lines.append(self._cat.t(lang, "hg.about.figure_hint"))
        return lines

    def _option(self, lang: Lang, label: Label) -> str:
        args: dict[str, Any] = dict(label.args)
        code = label.code
        if code == "hg.opt.at":
            args["at"] = square_of(args) or str(_int(args.get("n")))
        elif code == "hg.opt.rot":
            args["deg"] = degrees(_int(args.get("k")))
        elif code == "hg.opt.fig":
            code = f"hg.opt.fig.{self._kind(args)}"
            args["piece"] = self._piece(lang, args)
            n = _int(args.get("n"))
            args["num"] = self._word(lang, "hg.opt.num", n=n) if n > 0 else ""
        return self._cat.plain(lang, code, **args)

    def _event(self, lang: Lang, event: Event, names: list[str]) -> Markup | None:
        if event.code in SILENT:
            return None
        args: dict[str, Any] = dict(event.args)
        args["name"] = self._name(lang, names, event.seat) if event.seat is not None else ""
        at = square_of(event.args)
        args["on"] = self._word(lang, "hg.on_square", at=at) if at else ""
        if event.code in ("forest_scored", "river_scored", "meadow_scored", "huts_scored"):
            args["detail"] = self._detail(lang, event.code, event.args)
            args["award"] = self._award(lang, event.args, names)
            args["winners"] = self._winners(
                lang, names, [s for s in event.args.get("winners") or () if isinstance(s, int)]
            )
            if event.code == "huts_scored":  # a river system's fish are its points
                args["fish"] = self._count(lang, "fish", _int(event.args.get("points")))
            args["points"] = self._count(lang, "points", _int(event.args.get("points")))
        return self._cat.t(lang, self._event_code(event), **args)

    def reason(self, lang: Lang, code: str, args: dict[str, Any]) -> Markup:
        """``hg.reason.<code>`` (or its variant by figure), else the shared
        ``reason.<code>``, else a general refusal."""
        full = self._reason_code(code, args) or "hg.reason.other"
        at = square_of(args) or self._word(lang, "hg.that_spot")
        return self._cat.t(lang, full, **{**args, "at": at})

    def location(self, lang: Lang, loc: str) -> str:
        """``"3,-1"`` → ``Square Q13`` / ``Клетка Q13``; anything else as it is. A bare
        ``x,y`` says nothing of the game's naming scheme: it is named by the first (the
        engine's own words give ``at``, which ``square_of`` prefers)."""
        pos = parse_loc(loc)
        if pos is None:
            return loc
        return self._word(lang, "hg.loc", at=naming(FIRST).square_name(pos))

    def board(self, lang: Lang, view: HuntersGatherersView, seat: int,
              names: list[str]) -> list[Markup]:
        """The seat's figures and huts still in the supply, and its score."""
        me = view.players[seat]
        return [self._cat.t(lang, "hg.board.supply", members=me.members, huts=me.huts,
                            score=me.score)]
