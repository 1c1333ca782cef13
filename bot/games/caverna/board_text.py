"""What /board says about a game of Caverna in text alone, from the engine's view.

The lines: the round, phase and first player; this round's harvest and the markers
still face down; every action space with the goods on it and who stands there; then
the asking seat's own home board in full (dwarfs and weapons, supply, animals, income
to come, and each row of squares with its tile, furnishing, stable, crop and animals);
then one line per other player. The view is a ``CavernaView``
(:mod:`engine.caverna.view_model`), read by its fields.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING

from bot.games.caverna.describe import counts, goods_text, square_name
from bot.i18n.catalog import Lang, Markup
from engine.caverna.view_model import BoardSquare, CavernaView, PlayerView

if TYPE_CHECKING:
    from bot.games.caverna.texts import CavernaTexts


def table_lines(t: CavernaTexts, lang: Lang, view: CavernaView,
                names: list[str]) -> list[Markup]:
    """Round, phase, harvest and the action spaces."""
    cat = t._cat
    lines = []
    lines.append(cat.t(lang, "cav.board.table", round=view.round, last=view.last_round,
                       phase=t._known(lang, f"cav.phase.{view.phase}", view.phase),
                       first=t._name(lang, names, view.first)))
    harvest = view.harvest
    lines.append(cat.t(lang, "cav.board.harvest_now", kind=t._harvest(lang, harvest.this_round)))
    if harvest.face_down:
        lines.append(cat.t(lang, "cav.board.harvests_left", left=harvest.face_down,
                           reds=harvest.reds_left, greens=harvest.greens_left))
    if not view.official:
        lines.append(cat.t(lang, "cav.board.unofficial"))
    if view.spaces:
        lines.append(cat.t(lang, "cav.board.spaces_title"))
    w = t.words(lang)
    for space in view.spaces:
        goods = counts(space.goods)
        who = ""
        if space.occupant is not None:
            who = cat.plain(lang, "cav.board.space_who",
                            name=t._name(lang, names, space.occupant.seat))
        lines.append(cat.t(
            lang, "cav.board.space", space=t.space_name(lang, space.id),
            goods=cat.plain(lang, "cav.board.space_goods", goods=goods_text(w, goods))
            if goods else "",
            who=Markup(who),
        ))
    return lines


def _dwarfs(t: CavernaTexts, lang: Lang, player: PlayerView) -> str:
    # Dwarfs alike are counted, not numbered: "unarmed ×2", not "1 (unarmed); 2 (unarmed)".
    alike: Counter[str] = Counter()
    for dwarf in player.dwarfs:
        bits = [t._word(lang, "cav.board.dwarf_weapon", weapon=dwarf.weapon) if dwarf.weapon
                else t._word(lang, "cav.board.dwarf_unarmed")]
        if dwarf.born:
            bits.append(t._word(lang, "cav.board.dwarf_born"))
        if dwarf.at:
            bits.append(t._word(lang, "cav.board.dwarf_at",
                                space=t.space_name(lang, dwarf.at)))
        alike[", ".join(bits)] += 1
    parts = [about if n == 1 else f"{about} ×{n}" for about, n in alike.items()]
    return "; ".join(parts) or t._word(lang, "cav.none")


def _square(t: CavernaTexts, lang: Lang, space: BoardSquare,
            animals: Mapping[str, int]) -> str:
    """One square: ``D2 cavern: Entry-level dwelling, 2 sheep``."""
    w = t.words(lang)
    # A square without a tile is named by its half: bare forest or bare rock.
    tile = space.tile or ("forest" if space.half == "forest" else "rock")
    bits = [t.tile_name(lang, tile)]
    extra = []
    if space.furnishing:
        extra.append(t.tile_name(lang, space.furnishing))
    if space.stable:
        extra.append(t._word(lang, "cav.board.stable"))
    if space.crop:
        extra.append(t._word(lang, "cav.board.crop", crop=t._good(lang, space.crop),
                             n=space.crop_count))
    if animals:
        extra.append(goods_text(w, animals))
    if space.bonus:
        extra.append(t._word(lang, "cav.board.bonus", goods=goods_text(w, space.bonus)))
    what = bits[0] + (": " + ", ".join(extra) if extra else "")
    return t._word(lang, "cav.board.square", at=square_name(space.pos), what=what)


def home_lines(t: CavernaTexts, lang: Lang, player: PlayerView,
               names: list[str]) -> list[Markup]:
    """One seat's home board and supply in full."""
    cat = t._cat
    w = t.words(lang)
    lines = [
        cat.t(lang, "cav.board.player_title", name=t._name(lang, names, player.seat),
              total=w.count("points", player.score.total)),
        cat.t(lang, "cav.board.dwarfs", dwarfs=_dwarfs(t, lang, player)),
        cat.t(lang, "cav.board.room", room=player.room, max=player.max_dwarfs),
        cat.t(lang, "cav.board.goods", goods=t.goods(lang, player.goods)),
        cat.t(lang, "cav.board.animals", animals=t.goods(lang, player.animals)),
    ]
    if player.begging:
        lines.append(cat.t(lang, "cav.board.begging", n=player.begging))
    income = [
        t._word(lang, "cav.board.income_item", round=i.round, goods=goods_text(w, i.goods))
        for i in player.income
    ]
    if income:
        lines.append(cat.t(lang, "cav.board.income", items="; ".join(income)))
    board = player.board
    held = player.housing.by_square()
    rows: dict[int, list[str]] = {}
    for space in sorted(board.spaces, key=lambda s: (s.y, s.x)):
        rows.setdefault(space.y, []).append(_square(t, lang, space, held.get(space.pos, {})))
    for y, squares in sorted(rows.items()):
        lines.append(cat.t(lang, "cav.board.row", row=y + 1, squares=" · ".join(squares)))
    lines.append(cat.t(lang, "cav.board.unused", n=board.unused, stables=board.stables_left))
    return lines


def other_line(t: CavernaTexts, lang: Lang, player: PlayerView,
               names: list[str]) -> Markup:
    """Another seat in one line: score, dwarfs, supply and animals."""
    w = t.words(lang)
    return t._cat.t(lang, "cav.board.other", name=t._name(lang, names, player.seat),
                    total=w.count("points", player.score.total),
                    dwarfs=_dwarfs(t, lang, player),
                    goods=t.goods(lang, player.goods),
                    animals=t.goods(lang, player.animals))


def board_lines(t: CavernaTexts, lang: Lang, view: CavernaView, seat: int | None,
                names: list[str]) -> list[Markup]:
    """Everything /board says: the table, ``seat``'s home board, the others."""
    lines = table_lines(t, lang, view, names)
    players = view.players
    mine = [p for p in players if p.seat == seat]
    others = [p for p in players if p.seat != seat]
    for player in mine or players[:1]:
        lines += home_lines(t, lang, player, names)
    for player in others if mine else players[1:]:
        lines.append(other_line(t, lang, player, names))
    return lines
