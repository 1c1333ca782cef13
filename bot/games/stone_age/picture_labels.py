"""Words on the Stone Age picture, in Russian and English.

A plain data table, kept apart from the drawing code so that wording can change
without touching the layout. Russian terms follow the official Russian edition
(Hobby World): жители, древесина, охотничьи угодья, мастерская ремесленника, хижина,
ферма, карьер, каменоломня, выставление, прокорм племени, ремесленник…
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
    "phase.placement": ("выставление", "placement"),
    "phase.actions": ("выполнение действий", "actions"),
    "phase.feeding": ("прокорм племени", "feeding"),
    "phase.over": ("игра окончена", "game over"),
    "end.building_pile_empty": ("опустела стопка построек", "a building pile ran out"),
    "end.cards_exhausted": ("не хватило карт цивилизации", "not enough cards to refill"),
    "first": ("1-й", "1st"),
    "you": ("вы", "you"),
    "final": ("итог {n}", "final {n}"),
    "player": ("Игрок {n}", "Player {n}"),
    "points_short": ("очк.", "pts"),
    "cards": ("Карты цивилизации", "Civilization cards"),
    "buildings": ("Постройки", "Buildings"),
    "empty": ("пусто", "empty"),
    "for_all": ("всем", "for all"),
    "any": ("по выбору", "any"),
    "once": ("одноразовый", "one-use"),  # under a one-use tool card's value
    "once_tools": ("одноразовые", "one-use"),  # beside a player's one-use tools
    # What a building with a fixed count wants: resources of this many different kinds.
    "kinds_1": ("одного вида", "one kind"),
    "kinds_2": ("двух разных видов", "two kinds"),
    "kinds_3": ("трёх разных видов", "three kinds"),
    "kinds_4": ("четырёх разных видов", "four kinds"),
    "home": ("дома {n}", "{n} home"),
    # Locations of the board.
    "loc.hunt": ("Охотничьи угодья", "Hunting grounds"),
    "loc.forest": ("Лес", "Forest"),
    "loc.clay": ("Карьер", "Clay pit"),
    "loc.quarry": ("Каменоломня", "Quarry"),
    "loc.river": ("Река", "River"),
    "loc.toolmaker": ("Мастерская ремесленника", "Tool maker"),
    "loc.hut": ("Хижина", "Hut"),
    "loc.field": ("Ферма", "Field"),
    # Goods and the player board.
    "res.food": ("еда", "food"),
    "res.wood": ("древесина", "wood"),
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
