"""Words on the Stone Age picture, in Russian and English.

A plain data table, kept apart from the drawing code so that wording can change
without touching the layout. Russian terms follow the official Russian edition
(Hobby World): жители, хижина, мастерская, ферма, карьер, каменоломня, ремесленник…
Labels are short on purpose: the picture is read at phone size, so every word
competes with the icons for room.

``{n}`` in a label is a number filled in by the renderer.
"""

from __future__ import annotations

from bot.render.labels import DEFAULT_LANG, LANGS, LabelTable, Lang

__all__ = ["DEFAULT_LANG", "LABELS", "LANGS", "Lang", "label"]

_TABLE: dict[str, tuple[str, str]] = {
    # key: (ru, en)
    "title": ("Каменный век", "Stone Age"),
    "round": ("Раунд {n}", "Round {n}"),
    "deck": ("Колода: {n}", "Deck: {n}"),
    "turn": ("Ход:", "Turn:"),
    "phase.placement": ("расстановка", "placement"),
    "phase.actions": ("действия", "actions"),
    "phase.feeding": ("кормление", "feeding"),
    "phase.over": ("игра окончена", "game over"),
    "end.building_pile_empty": ("кончилась стопка построек", "a building pile ran out"),
    "end.cards_exhausted": ("кончились карты", "no cards left"),
    "first": ("1-й", "1st"),
    "you": ("вы", "you"),
    "final": ("итог {n}", "final {n}"),
    "player": ("Игрок {n}", "Player {n}"),
    "points_short": ("очк.", "pts"),
    "cards": ("Карты цивилизации", "Civilization cards"),
    "buildings": ("Постройки", "Buildings"),
    "empty": ("пусто", "empty"),
    "for_all": ("всем", "for all"),
    "any": ("любые", "any"),
    "once": ("разово", "once"),
    "kinds": ("{n} вида", "{n} kinds"),  # n is 2..4 in the game
    "kinds_1": ("1 вид", "1 kind"),
    "home": ("дома {n}", "{n} home"),
    # Locations of the board.
    "loc.hunt": ("Охота", "Hunt"),
    "loc.forest": ("Лес", "Forest"),
    "loc.clay": ("Карьер", "Clay pit"),
    "loc.quarry": ("Каменоломня", "Quarry"),
    "loc.river": ("Река", "River"),
    "loc.toolmaker": ("Мастерская", "Toolmaker"),
    "loc.hut": ("Хижина", "Hut"),
    "loc.field": ("Ферма", "Field"),
    # Goods and the player board.
    "res.food": ("еда", "food"),
    "res.wood": ("дерево", "wood"),
    "res.clay": ("глина", "clay"),
    "res.stone": ("камень", "stone"),
    "res.gold": ("золото", "gold"),
    "people": ("жители", "people"),
    "agriculture": ("земледелие", "agriculture"),
    "tools": ("инструменты", "tools"),
    "bld_count": ("постройки", "buildings"),
    "card_count": ("карты", "cards"),
    # Culture symbols (green cards) and figures (sand cards).
    "culture.writing": ("Письменность", "Writing"),
    "culture.medicine": ("Медицина", "Medicine"),
    "culture.pottery": ("Керамика", "Pottery"),
    "culture.art": ("Скульптура", "Art"),
    "culture.music": ("Музыка", "Music"),
    "culture.transport": ("Транспорт", "Transport"),
    "culture.weaving": ("Ткачество", "Weaving"),
    "culture.sundial": ("Время", "Sundial"),
    "mult.farmer": ("земледелец", "farmer"),
    "mult.toolmaker": ("ремесленник", "toolmaker"),
    "mult.hut_builder": ("строитель", "builder"),
    "mult.shaman": ("шаман", "shaman"),
}

_WORDS = LabelTable(_TABLE)
LABELS = _WORDS.labels
label = _WORDS.label
