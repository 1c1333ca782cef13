"""What /board says about a game of Caverna in text alone, from the engine's view.

The lines: the round, phase and first player; this round's harvest and the markers
still face down; every action space with the goods on it and who stands there; then
the asking seat's own home board in full (dwarfs and weapons, supply, animals, income
to come, and each row of squares with its tile, furnishing, stable, crop and animals);
then one line per other player. A view it half understands gives fewer lines, never an
exception (the view is read defensively).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.games.caverna.describe import as_int, counts, goods_text, square_name
from bot.games.caverna.picture.reading import animals_by_square
from bot.i18n.catalog import Lang, Markup

if TYPE_CHECKING:
    from bot.games.caverna.texts import CavernaTexts

Pos = tuple[int, int]


def _list(value: Any) -> list[Mapping[str, Any]]:
    return [e for e in value if isinstance(e, Mapping)] if isinstance(value, list) else []


def _map(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def table_lines(t: CavernaTexts, lang: Lang, view: Mapping[str, Any],
                names: list[str]) -> list[Markup]:
    """Round, phase, harvest and the action spaces."""
    cat = t._cat
    lines = []
    phase = str(view.get("phase"))
    lines.append(cat.t(lang, "cav.board.table", round=as_int(view.get("round")),
                       last=as_int(view.get("last_round")),
                       phase=t._known(lang, f"cav.phase.{phase}", phase),
                       first=t._name(lang, names, as_int(view.get("first")))))
    harvest = _map(view.get("harvest"))
    if isinstance(harvest.get("this_round"), str):
        lines.append(cat.t(lang, "cav.board.harvest_now",
                           kind=t._harvest(lang, harvest["this_round"])))
    if as_int(harvest.get("face_down")):
        lines.append(cat.t(lang, "cav.board.harvests_left", left=as_int(harvest["face_down"]),
                           reds=as_int(harvest.get("reds_left")),
                           greens=as_int(harvest.get("greens_left"))))
    if view.get("official") is False:
        lines.append(cat.t(lang, "cav.board.unofficial"))
    spaces = _list(view.get("spaces"))
    if spaces:
        lines.append(cat.t(lang, "cav.board.spaces_title"))
    w = t.words(lang)
    for space in spaces:
        goods = counts(space.get("goods"))
        occupant = _map(space.get("occupant"))
        who = ""
        if "seat" in occupant:
            who = cat.plain(lang, "cav.board.space_who",
                            name=t._name(lang, names, as_int(occupant["seat"])))
        lines.append(cat.t(
            lang, "cav.board.space", space=t.space_name(lang, space.get("id")),
            goods=cat.plain(lang, "cav.board.space_goods", goods=goods_text(w, goods))
            if goods else "",
            who=Markup(who),
        ))
    return lines


def _dwarfs(t: CavernaTexts, lang: Lang, player: Mapping[str, Any]) -> str:
    parts = []
    for dwarf in _list(player.get("dwarfs")):
        weapon = as_int(dwarf.get("weapon"))
        bits = [t._word(lang, "cav.board.dwarf_weapon", weapon=weapon) if weapon
                else t._word(lang, "cav.board.dwarf_unarmed")]
        if dwarf.get("born"):
            bits.append(t._word(lang, "cav.board.dwarf_born"))
        if dwarf.get("at"):
            bits.append(t._word(lang, "cav.board.dwarf_at",
                                space=t.space_name(lang, dwarf["at"])))
        parts.append(f"{as_int(dwarf.get('index')) + 1} ({', '.join(bits)})")
    return "; ".join(parts) or t._word(lang, "cav.none")


def _square(t: CavernaTexts, lang: Lang, space: Mapping[str, Any],
            animals: Mapping[str, int]) -> str:
    """One square: ``D2 cavern: Entry-level dwelling, 2 sheep``."""
    w = t.words(lang)
    tile = space.get("tile")
    if tile is None:
        tile = "forest" if space.get("half") == "forest" else "rock"
    bits = [t.tile_name(lang, tile)]
    extra = []
    if space.get("furnishing"):
        extra.append(t.tile_name(lang, space["furnishing"]))
    if space.get("stable"):
        extra.append(t._word(lang, "cav.board.stable"))
    if space.get("crop"):
        extra.append(t._word(lang, "cav.board.crop", crop=t._good(lang, space["crop"]),
                             n=as_int(space.get("crop_count"))))
    if animals:
        extra.append(goods_text(w, animals))
    if space.get("bonus"):
        extra.append(t._word(lang, "cav.board.bonus", goods=goods_text(w, space["bonus"])))
    what = bits[0] + (": " + ", ".join(extra) if extra else "")
    at = square_name((as_int(space.get("x")), as_int(space.get("y"))))
    return t._word(lang, "cav.board.square", at=at, what=what)


def home_lines(t: CavernaTexts, lang: Lang, player: Mapping[str, Any],
               names: list[str]) -> list[Markup]:
    """One seat's home board and supply in full."""
    cat = t._cat
    w = t.words(lang)
    score = _map(player.get("score"))
    seat = as_int(player.get("seat"))
    lines = [
        cat.t(lang, "cav.board.player_title", name=t._name(lang, names, seat),
              total=w.count("points", as_int(score.get("total")))),
        cat.t(lang, "cav.board.dwarfs", dwarfs=_dwarfs(t, lang, player)),
        cat.t(lang, "cav.board.room", room=as_int(player.get("room")),
              max=as_int(player.get("max_dwarfs"))),
        cat.t(lang, "cav.board.goods", goods=t.goods(lang, player.get("goods"))),
        cat.t(lang, "cav.board.animals", animals=t.goods(lang, player.get("animals"))),
    ]
    if as_int(player.get("begging")):
        lines.append(cat.t(lang, "cav.board.begging", n=as_int(player["begging"])))
    income = [
        t._word(lang, "cav.board.income_item", round=as_int(i.get("round")),
                goods=goods_text(w, i.get("goods")))
        for i in _list(player.get("income"))
    ]
    if income:
        lines.append(cat.t(lang, "cav.board.income", items="; ".join(income)))
    board = _map(player.get("board"))
    held = animals_by_square(player)
    rows: dict[int, list[str]] = {}
    for space in sorted(_list(board.get("spaces")),
                        key=lambda s: (as_int(s.get("y")), as_int(s.get("x")))):
        pos = (as_int(space.get("x")), as_int(space.get("y")))
        rows.setdefault(pos[1], []).append(_square(t, lang, space, held.get(pos, {})))
    for y, squares in sorted(rows.items()):
        lines.append(cat.t(lang, "cav.board.row", row=y + 1, squares=" · ".join(squares)))
    if board:
        unused = board.get("unused")
        n = len(unused) if isinstance(unused, list) else as_int(unused)
        lines.append(cat.t(lang, "cav.board.unused", n=n,
                           stables=as_int(board.get("stables_left"))))
    return lines


def other_line(t: CavernaTexts, lang: Lang, player: Mapping[str, Any],
               names: list[str]) -> Markup:
    """Another seat in one line: score, dwarfs, supply and animals."""
    w = t.words(lang)
    score = _map(player.get("score"))
    return t._cat.t(lang, "cav.board.other", name=t._name(lang, names,
                                                         as_int(player.get("seat"))),
                    total=w.count("points", as_int(score.get("total"))),
                    dwarfs=_dwarfs(t, lang, player),
                    goods=t.goods(lang, player.get("goods")),
                    animals=t.goods(lang, player.get("animals")))


def board_lines(t: CavernaTexts, lang: Lang, view: Mapping[str, Any], seat: int | None,
                names: list[str]) -> list[Markup]:
    """Everything /board says: the table, ``seat``'s home board, the others."""
    lines = table_lines(t, lang, view, names)
    players = _list(view.get("players"))
    mine = [p for p in players if as_int(p.get("seat"), -1) == seat]
    others = [p for p in players if as_int(p.get("seat"), -1) != seat]
    for player in mine or players[:1]:
        lines += home_lines(t, lang, player, names)
    for player in others if mine else players[1:]:
        lines.append(other_line(t, lang, player, names))
    return lines
