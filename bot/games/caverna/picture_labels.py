"""Words on the Caverna picture, in Russian and English, and the names of things.

The picture's own short words live in a plain table. Russian terms follow the
rulebook (гном, каверна, туннель, рудник, хлев, пастбище, злаки, урожай, вылазка).
Furnishing tiles and action spaces are named by the game's catalog when it has a
text for them (``cav.furnishing.<id>``, ``cav.space.<id>``), else by the engine's
component data (``engine/caverna/data/*.yaml``, which names every one in both
languages), else by the id made readable — a picture never fails for a missing word.
"""

from __future__ import annotations

from bot.i18n.catalog import Lang, default_catalog
from bot.render.labels import LabelTable
from engine.caverna.components import components

_TABLE: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "title": ("Каверна", "Caverna"),
    "round": ("Раунд {n}", "Round {n}"),
    "round_short": ("Р{n}", "R{n}"),
    "player": ("Игрок {n}", "Player {n}"),
    "phase.start": ("начало раунда", "round start"),
    "phase.work": ("работы", "work phase"),
    "phase.harvest": ("урожай", "harvest"),
    "phase.final": ("последние обмены", "final trades"),
    "phase.over": ("игра окончена", "game over"),
    "turn": ("Ход:", "Turn:"),
    "first": ("первый", "first"),
    "points": ("{n} очк.", "{n} pts"),
    "you": ("вы", "you"),
    "board": ("Домашнее поле: {n}", "Home board: {n}"),
    "actions": ("Места действий", "Action spaces"),
    "round_card": ("Раунд {n}", "Round {n}"),
    "face_down": ("ещё закрыта", "face down"),
    "harvest_track": ("Урожай по раундам", "Harvests by round"),
    "harvest.none": ("нет", "none"),
    "harvest.harvest": ("урожай", "harvest"),
    "harvest.feed1": ("1 еда", "1 food"),
    "harvest.choice": ("без фазы", "skip a phase"),
    "harvest.face_down": ("?", "?"),
    "markers_left": ("Закрыто: {n}", "Face down: {n}"),
    "supply": ("Обустройства в запасе", "Furnishings left"),
    "supply_built": ("построено", "built"),
    "players": ("Игроки", "Players"),
    "dwarfs": ("Гномы", "Dwarfs"),
    "begging": ("попрош.", "begging"),
    "newborn": ("новый", "new"),
    "unlimited": ("∞", "∞"),
    "legend": ("Обозначения", "Key"),
    "prompt": ("Номера — кнопки выбора", "Numbers are the buttons"),
    # landscape tiles and bare squares
    "tile.meadow": ("луг", "meadow"),
    "tile.field": ("поле", "field"),
    "tile.small_pasture": ("пастбище", "pasture"),
    "tile.large_pasture": ("большое пастбище", "large pasture"),
    "tile.cavern": ("каверна", "cavern"),
    "tile.tunnel": ("туннель", "tunnel"),
    "tile.deep_tunnel": ("глуб. туннель", "deep tunnel"),
    "tile.ore_mine": ("рудник", "ore mine"),
    "tile.ruby_mine": ("рубин. шахта", "ruby mine"),
    "tile.forest": ("лес", "forest"),
    "tile.rock": ("скала", "rock"),
    "stable": ("хлев", "stable"),
    # goods and animals (legend)
    "good.wood": ("дерево", "wood"),
    "good.stone": ("камень", "stone"),
    "good.ore": ("руда", "ore"),
    "good.ruby": ("рубин", "ruby"),
    "good.gold": ("золото", "gold"),
    "good.food": ("еда", "food"),
    "good.grain": ("злаки", "grain"),
    "good.vegetable": ("овощи", "vegetables"),
    "animal.sheep": ("овцы", "sheep"),
    "animal.donkey": ("ослы", "donkeys"),
    "animal.wild_boar": ("кабаны", "boars"),
    "animal.cattle": ("коровы", "cattle"),
    "animal.dog": ("собаки", "dogs"),
    "weapon": ("оружие", "weapon"),
}

LABELS = LabelTable(_TABLE)


def label(key: str, lang: str, n: int | str | None = None) -> str:
    """The picture's word for ``key`` in ``lang`` (``{n}`` filled in)."""
    return LABELS.label(key, lang, n)


def readable(identifier: str) -> str:
    """An id as words: ``simple_dwelling_4w2s`` -> ``Simple dwelling 4w2s``."""
    text = identifier.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _catalog_name(code: str, lang: str) -> str | None:
    catalog = default_catalog()
    code_lang: Lang = "en" if lang == "en" else "ru"
    if catalog.has(code_lang, code):
        return catalog.plain(code_lang, code)
    return None


def furnishing_name(tile_id: str, lang: str) -> str:
    """The name of furnishing tile ``tile_id`` (the printed entry dwelling included)."""
    found = _catalog_name(f"cav.furnishing.{tile_id}", lang)
    if found is not None:
        return found
    tile = components().furnishings.get(tile_id)
    if tile is not None:
        return tile.name.en if lang == "en" else tile.name.ru
    if tile_id == "entry_level_dwelling":
        return "Entry-level dwelling" if lang == "en" else "Начальное жилище"
    return readable(tile_id)


def space_name(space_id: str, lang: str) -> str:
    """The name of action space or round card ``space_id``."""
    found = _catalog_name(f"cav.space.{space_id}", lang)
    if found is not None:
        return found
    try:
        name = components().space(space_id).name
    except KeyError:
        return readable(space_id)
    return name.en if lang == "en" else name.ru
