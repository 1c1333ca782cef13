"""Words on the Hunters and Gatherers picture, in Russian and English.

A plain data table, kept apart from the drawing code so that wording can change
without touching the layout. Russian terms follow the Russian edition of the game
(«Каркассон: Охотники и собиратели»): собиратель, рыбак, охотник, хижина, тур,
саблезубый тигр. Labels are short: the picture is read at phone size.

``{n}`` in a label is a number filled in by the renderer.
"""

from __future__ import annotations

from bot.render.labels import DEFAULT_LANG, LANGS, LabelTable, Lang

__all__ = ["DEFAULT_LANG", "LABELS", "LANGS", "Lang", "label"]

_TABLE: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "title": ("Охотники и собиратели", "Hunters & Gatherers"),
    "turn": ("Ход:", "Turn:"),
    "tiles_left": ("Плиток: {n}", "Tiles: {n}"),
    "bonus_left": ("бонус: {n}", "bonus: {n}"),
    "player": ("Игрок {n}", "Player {n}"),
    "you": ("вы", "you"),
    "points": ("очк.", "pts"),
    "current": ("Квадрат хода", "Tile to place"),
    "current_bonus": ("Бонусный квадрат", "Bonus tile"),
    "pick_spot": ("Места названы клетками: буква и число", "Spots go by square: letter and number"),
    "pick_rotation": ("Выберите поворот", "Pick a rotation"),
    "pick_figure": ("Можно поставить фигуру", "You may place a figure"),
    "pick_rotation_here": ("Повороты, которые подходят сюда", "The turns that fit this spot"),
    "pick_figure_numbered": ("Номер на участке — номер кнопки", "A piece's number is its button"),
    "over": ("Игра окончена", "Game over"),
    "end.tiles_exhausted": ("квадраты кончились", "no tiles left"),
    "end.last_tile_placed": ("выложен последний квадрат", "the last tile is placed"),
    "end.no_tile_fits": ("квадраты больше некуда класть", "no tile fits any more"),
    "end.aborted": ("игра прервана", "game stopped"),
    "winner": ("победа", "winner"),
    # Legend.
    "animal.deer": ("олень", "deer"),
    "animal.mammoth": ("мамонт", "mammoth"),
    "animal.aurochs": ("тур", "aurochs"),
    "animal.tiger": ("тигр", "tiger"),
    "gold": ("золото", "gold"),
    "mushrooms": ("грибы", "mushrooms"),
    "lake": ("озеро, рыба", "lake, fish"),
    "spring": ("родник", "spring"),
    "fire": ("огонь", "fire"),
    "shrine": ("святыня", "shrine"),
    "figure.gatherer": ("собиратель", "gatherer"),
    "figure.fisher": ("рыбак", "fisher"),
    "figure.hunter": ("охотник", "hunter"),
    "figure.hut": ("хижина", "hut"),
    "members": ("фигур", "figures"),
    "huts": ("хижин", "huts"),
    # One letter on an animal badge (the tiger has stripes instead of a letter).
    "letter.deer": ("О", "D"),
    "letter.mammoth": ("М", "M"),
    "letter.aurochs": ("Т", "A"),
}

_WORDS = LabelTable(_TABLE)
LABELS = _WORDS.labels
label = _WORDS.label
