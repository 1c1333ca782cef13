"""Exact Stone Age texts in both languages, and escaping of player names."""

from __future__ import annotations

import pytest

from bot.games.stone_age.texts import StoneAgeTexts, goods_text, roll_text
from bot.i18n.catalog import Lang
from bot.ui.choices import Group
from engine.core.prompts import Event, Label, Option
from engine.stone_age.scoring import BREAKDOWN_KEYS
from engine.stone_age.view import building_info, card_info
from tests.bot.texts.conftest import RecordingCatalog

EN = ["Anna", "Boris"]
RU = ["Анна", "Борис"]
EVIL = '<b>Eve & "Bob"</b>'
EVIL_ESCAPED = '&lt;b&gt;Eve &amp; "Bob"&lt;/b&gt;'


@pytest.fixture(autouse=True)
def _no_missing_texts(catalog: RecordingCatalog) -> object:
    yield
    assert not catalog.missing, sorted(catalog.missing)


def test_hunting_line(texts: StoneAgeTexts) -> None:
    event = Event("gathered", 0, {"source": "hunt", "resource": "food", "amount": 7,
                                  "total": 15, "tools": [1]})
    assert texts.event("en", event, EN) == "<b>Anna</b> hunted: 🎲 14 +1 🛠 → +7 🍖"
    assert texts.event("ru", event, RU) == "<b>Анна</b> охотится: 🎲 14 +1 🛠 → +7 🍖"


def test_gathering_with_a_card_and_no_tools(texts: StoneAgeTexts) -> None:
    event = Event("gathered", 1, {"source": "c14", "resource": "gold", "amount": 1,
                                  "total": 8, "tools": []})
    assert texts.event("en", event, EN) == "<b>Boris</b> rolled the card's dice: 🎲 8 → +1 🪙"
    assert texts.event("ru", event, RU) == (
        "<b>Борис</b> бросает кубики по карте «Ресурсы за бросок кубиков»: 🎲 8 → +1 🪙"
    )


def test_rolled_is_silent(texts: StoneAgeTexts) -> None:
    event = Event("rolled", 0, {"source": "hunt", "dice": [3, 4], "sum": 7})
    assert texts.event("en", event, EN) is None
    assert texts.event("ru", event, RU) is None


# (what, id, English, Russian): a civilization card's or a building's description.
DESCRIPTIONS = [
    ("card", "c01", "🍖7 | pottery", "🍖7 | керамика"),
    ("card", "c07", "🪨2 | transport", "🪨2 | транспорт"),
    ("card", "c12", "🎲 for all | sundial", "🎲 предметы всем | время"),
    ("card", "c18", "🎲 for all | 2 farmers", "🎲 предметы всем | 2 земледельца"),
    ("card", "c24", "🛠4 once | 1 toolmaker", "🛠4 одноразовый | 1 ремесленник"),
    ("card", "c31", "⭐3 | 3 hut builders", "⭐3 | 3 строителя"),
    ("card", "c35", "🎲🎲 → 🪵 | 2 shamans", "🎲🎲 → 🪵 | 2 шамана"),
    ("card", "c04", "any 2 | medicine", "2 ресурса по выбору | медицина"),
    ("card", "c13", "🛠+1 | art", "🛠+1 | скульптура"),
    ("building", "b01", "🪵🪵🧱 → 10⭐", "🪵🪵🧱 → 10⭐"),
    ("building", "b17", "🪨🪨🪙 → 16⭐", "🪨🪨🪙 → 16⭐"),
    ("building", "b18", "4 resources of one kind", "4 ресурса одного вида"),
    ("building", "b19", "4 resources of two different kinds", "4 ресурса двух разных видов"),
    ("building", "b24", "5 resources of three different kinds", "5 ресурсов трёх разных видов"),
    ("building", "b21", "4 resources of four different kinds", "4 ресурса четырёх разных видов"),
    ("building", "b26", "1–7 resources of any kind", "1–7 ресурсов любых видов"),
]


@pytest.mark.parametrize(("what", "item", "en", "ru"), DESCRIPTIONS)
def test_card_and_building_descriptions(texts: StoneAgeTexts, what: str, item: str, en: str,
                                        ru: str) -> None:
    if what == "card":
        assert texts.card("en", card_info(item)) == en
        assert texts.card("ru", card_info(item)) == ru
    else:
        assert texts.building("en", building_info(item)) == en
        assert texts.building("ru", building_info(item)) == ru


def test_score_parts(texts: StoneAgeTexts) -> None:
    breakdown = dict(zip(BREAKDOWN_KEYS, [42, 3, -10, 25, 8, 12, 6, 14, 5], strict=True))
    assert [texts.score_part("en", k, v) for k, v in breakdown.items()] == [
        "🏠 Buildings: 42", "🃏 Card points: 3", "🍖 Hunger: -10", "🎭 Culture sets: 25",
        "🌾 Farmers: 8", "🛠 Toolmakers: 12", "🏠 Hut builders: 6", "👤 Shamans: 14",
        "🪵 Resources left: 5",
    ]
    assert [texts.score_part("ru", k, v) for k, v in breakdown.items()] == [
        "🏠 Постройки: 42", "🃏 Очки с карт: 3", "🍖 Прокорм племени: -10",
        "🎭 Символы культуры: 25",
        "🌾 Земледельцы: 8", "🛠 Ремесленники: 12", "🏠 Строители: 6", "👤 Шаманы: 14",
        "🪵 Оставшиеся ресурсы: 5",
    ]


@pytest.mark.parametrize(
    ("left", "en", "ru"),
    [(1, "1 person", "1 житель"), (3, "3 people", "3 жителя"), (5, "5 people", "5 жителей")],
)
def test_place_prompt_plurals(texts: StoneAgeTexts, left: int, en: str, ru: str) -> None:
    label = Label("sa.prompt.place", {"unplaced": left})
    assert texts.prompt("en", label, EN, 0) == f"<b>Anna</b>, place your people ({en} left)."
    assert texts.prompt("ru", label, RU, 0) == f"<b>Анна</b>, выставьте жителей (в запасе {ru})."


def test_prompt_without_a_seat_stands_alone(texts: StoneAgeTexts) -> None:
    label = Label("sa.prompt.place", {"unplaced": 3})
    assert texts.prompt("en", label, EN) == "Place your people (3 people left)."
    assert texts.prompt("ru", label, RU) == "Выставьте жителей (в запасе 3 жителя)."
    roll = Label("sa.prompt.roll", {"dice": [2], "resource": "food", "source": "hunt"})
    assert texts.prompt("ru", roll, RU) == (
        "В охотничьих угодьях выпало 🎲 2: каждые 2 дают 1 🍖. "
        "Взять как есть или добавить инструменты?"
    )


def test_prompts_name_places_in_the_right_case(texts: StoneAgeTexts) -> None:
    count = Label("sa.prompt.count", {"loc": "quarry"})
    assert texts.prompt("en", count, EN, 1) == "<b>Boris</b>, how many people go to the quarry?"
    assert texts.prompt("ru", count, RU, 1) == (
        "<b>Борис</b>, сколько жителей отправить в каменоломню?"
    )
    roll = Label("sa.prompt.roll", {"dice": [6, 3], "resource": "stone", "source": "quarry"})
    assert texts.prompt("ru", roll, RU, 1) == (
        "<b>Борис</b>, в каменоломне выпало 🎲 6+3 = 9: каждые 5 дают 1 🪨. "
        "Взять как есть или добавить инструменты?"
    )


def test_payment_prompt_shows_what_is_chosen(texts: StoneAgeTexts) -> None:
    label = Label("sa.prompt.pay_card", {"target": "card3", "paid": {"wood": 2}, "cost": 3})
    assert texts.prompt("en", label, EN, 0) == (
        "<b>Anna</b>, pay 3 resources of any kind for card 3.\nChosen so far: 2🪵"
    )
    assert texts.prompt("ru", label, RU, 0) == (
        "<b>Анна</b>, заплатите за карту 3: 3 ресурса любого вида.\nУже выбрано: 2🪵"
    )


@pytest.mark.parametrize(
    ("label", "en", "ru"),
    [
        (Label("sa.opt.at", {"loc": "hunt", "counts": [1, 2, 3, 4, 5]}),
         "🍖 Hunting grounds · 👤1–5", "🍖 Охотничьи угодья · 👤1–5"),
        (Label("sa.opt.at", {"loc": "card2", "counts": [1]}), "🃏 Card 2", "🃏 Карта 2"),
        (Label("sa.opt.count", {"loc": "forest", "count": 2}), "2 people", "2 жителя"),
        (Label("sa.opt.tool", {"value": 3, "on": False}),
         "🛠 Add tool +3", "🛠 Инструмент +3"),
        (Label("sa.opt.tool", {"value": 3, "on": True}),
         "✅ Tool +3 (undo)", "✅ Инструмент +3 (убрать)"),
        (Label("sa.opt.take", {"resource": "food", "total": 14, "amount": 7}),
         "Take +7 🍖 (total 14)", "Взять +7 🍖 (сумма 14)"),
        (Label("sa.opt.take", {"resource": "food", "total": 14, "amount": 7,
                               "tiles": [], "once": []}),
         "Take +7 🍖 (total 14)", "Взять +7 🍖 (сумма 14)"),
        (Label("sa.opt.take", {"resource": "wood", "total": 12, "amount": 4,
                               "tiles": [1, 2], "once": [3]}),
         "Take +4 🪵: 🛠2+1, one-use 🛠3", "Взять +4 🪵: 🛠2+1, 🛠3 одноразовый"),
        (Label("sa.opt.take", {"resource": "gold", "total": 25, "amount": 4,
                               "tiles": [4, 4, 4], "once": [3, 4]}),
         "Take +4 🪙: 🛠4+4+4, one-use 🛠4+3", "Взять +4 🪙: 🛠4+4+4, 🛠4+3 одноразовые"),
        (Label("sa.opt.take", {"resource": "food", "total": 9, "amount": 4,
                               "tiles": [], "once": [2]}),
         "Take +4 🍖: one-use 🛠2", "Взять +4 🍖: 🛠2 одноразовый"),
        (Label("sa.opt.place", {"loc": "forest", "count": 3, "counts": [1, 2, 3],
                                "group": "forest"}),
         "🪵 Forest: 3 people", "🪵 Лес: 3 жителя"),
        (Label("sa.opt.place", {"loc": "hunt", "count": 1, "counts": [1], "group": "hunt"}),
         "🍖 Hunting grounds: 1 person", "🍖 Охотничьи угодья: 1 житель"),
        (Label("sa.opt.pay", {"paid": {"wood": 2, "clay": 1}, "points": 10}),
         "Pay 2🪵 1🧱 → 10⭐", "Отдать 2🪵 1🧱 → 10⭐"),
        (Label("sa.opt.die", {"face": 2}), "🎲 2 → +1 🧱 clay", "🎲 2 → +1 🧱 глина"),
        (Label("sa.opt.die", {"face": 6}),
         "🎲 6 → +1 🌾 agriculture", "🎲 6 → +1 🌾 земледелие"),
        (Label("sa.opt.hungry", {"penalty": 10}), "Go hungry (−10⭐)", "Не кормить (−10⭐)"),
        (Label("sa.opt.once", {"value": 4, "on": False}),
         "🛠 One-use tool +4", "🛠 Одноразовый инструмент +4"),
        (Label("sa.opt.add", {"resource": "wood"}), "+1 🪵 wood", "+1 🪵 древесина"),
        (Label("opt.back"), "« Back", "« Назад"),
    ],
)
def test_options(texts: StoneAgeTexts, label: Label, en: str, ru: str) -> None:
    assert texts.option("en", label) == en
    assert texts.option("ru", label) == ru


def test_event_lines(texts: StoneAgeTexts) -> None:
    placed = Event("placed", 1, {"loc": "hut", "count": 2})
    assert texts.event("en", placed, EN) == "<b>Boris</b> sends 2 people to the hut"
    assert texts.event("ru", placed, RU) == "<b>Борис</b>: 2 жителя в хижину"
    bought = Event("card_bought", 0, {"card": "c01", "slot": 2, "paid": {"wood": 1, "gold": 1}})
    assert texts.event("en", bought, EN) == "<b>Anna</b> buys card 2 for 1🪵 1🪙: 🍖7 | pottery"
    assert texts.event("ru", bought, RU) == (
        "<b>Анна</b> покупает карту 2 за 1🪵 1🪙: 🍖7 | керамика"
    )
    passed = Event("card_declined", 0, {"loc": "card4"})
    broke = Event("card_declined", 0, {"slot": "card4", "cannot_pay": True})
    assert texts.event("en", passed, EN) == "<b>Anna</b> passes on card 4"
    assert texts.event("ru", broke, RU) == (
        "<b>Анна</b> не может оплатить карту 4 и остаётся ни с чем"
    )
    over = Event("game_over", None, {"reason": "building_pile_empty"})
    assert texts.event("ru", over, RU) == (
        "<b>Игра окончена</b>: опустела одна из стопок построек."
    )
    pile = Event("pile_empty", 1, {"pile": 3})
    assert texts.event("en", pile, EN) == "Building pile 3 is used up: this round is the last one."


@pytest.mark.parametrize(
    ("code", "args", "en", "ru"),
    [
        ("already_there", {"loc": "forest", "count": 1},
         "You already have people in the forest this round.",
         "У вас уже есть жители в лесу в этом раунде."),
        ("not_enough_room", {"loc": "clay", "count": 5},
         "That many people no longer fit at the clay pit.",
         "Столько жителей в карьер уже не поместится."),
        ("no_such_die", {"face": 5}, "There is no die showing 5.", "Нет кубика со значением 5."),
        ("not_your_turn", {}, "It is not your turn.", "Сейчас не ваш ход."),
        ("resolves_later", {"loc": "card2"},
         "That place comes by itself, after the ones you choose from now.",
         "Это место разыграется само, после тех, что вы выбираете сейчас."),
        ("brand_new_code", {}, "That move is not allowed.", "Так ходить нельзя."),
    ],
)
def test_reasons(texts: StoneAgeTexts, code: str, args: dict[str, object], en: str,
                 ru: str) -> None:
    assert texts.reason("en", code, dict(args)) == en
    assert texts.reason("ru", code, dict(args)) == ru


def test_a_sites_numbers_are_a_group_that_folds(texts: StoneAgeTexts) -> None:
    option = Option("place:clay:2", Label("sa.opt.place", {
        "loc": "clay", "count": 2, "counts": [1, 2, 3, 4], "group": "clay"}))
    assert texts.option_group("en", option) == Group("clay", "🧱 Clay pit · 👤1–4", fold=True)
    assert texts.option_group("ru", option) == Group("clay", "🧱 Карьер · 👤1–4", fold=True)
    assert texts.option_group("en", Option("at:hut", Label("sa.opt.at", {"loc": "hut"}))) is None


def test_the_order_prompt_names_the_places_that_follow_by_themselves(
    texts: StoneAgeTexts,
) -> None:
    label = Label("sa.prompt.act", {"later": ["card2", "bld1"]})
    assert texts.prompt("en", label, EN, 0) == (
        "<b>Anna</b>, which place do you resolve next? "
        "The rest then resolve by themselves: Card 2, Building 1.")
    assert texts.prompt("ru", label, RU, 0) == (
        "<b>Анна</b>, какое место разыграть следующим? "
        "Остальные потом разыграются сами: Карта 2, Постройка 1.")
    alone = Label("sa.prompt.act", {"later": []})
    assert texts.prompt("en", alone, EN, 0) == "<b>Anna</b>, which place do you resolve next?"
    assert texts.prompt("ru", alone, RU, 0) == "<b>Анна</b>, какое место разыграть следующим?"


def test_locations(texts: StoneAgeTexts) -> None:
    assert texts.location("en", "clay") == "Clay pit"
    assert texts.location("ru", "clay") == "Карьер"
    assert texts.location("ru", "quarry") == "Каменоломня"
    assert texts.location("ru", "toolmaker") == "Мастерская ремесленника"
    assert texts.location("ru", "hunt") == "Охотничьи угодья"
    assert texts.location("ru", "bld2") == "Постройка 2"
    assert texts.location("en", "card1") == "Card 1"
    assert texts.location("en", "moon") == "moon"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_names_are_escaped(texts: StoneAgeTexts, lang: Lang) -> None:
    names = ["Anna", EVIL]
    texts_out = [
        texts.prompt(lang, Label("sa.prompt.place", {"unplaced": 2}), names, 1),
        texts.prompt(lang, Label("sa.prompt.pay_feed", {"target": "feed", "paid": {},
                                                        "missing": 2}), names, 1),
        texts.event(lang, Event("placed", 1, {"loc": "forest", "count": 2}), names),
        texts.event(lang, Event("round_started", 1, {"round": 2}), names),
        texts.event(lang, Event("hungry", 1, {"penalty": 10}), names),
    ]
    for text in texts_out:
        assert text is not None
        assert EVIL_ESCAPED in text
        assert EVIL not in text
        assert "<b>Eve" not in text


def test_unknown_seat_gets_a_neutral_name(texts: StoneAgeTexts) -> None:
    label = Label("sa.prompt.act")
    assert texts.prompt("en", label, [], 2) == "<b>Player 3</b>, which place do you resolve next?"
    assert texts.prompt("ru", label, [], 2) == "<b>Игрок 3</b>, какое место разыграть следующим?"


def test_formatting_helpers() -> None:
    assert goods_text({"gold": 1, "wood": 2, "food": 3}) == "3🍖 2🪵 1🪙"
    assert goods_text({}) == "0"
    assert roll_text([4]) == "4"
    assert roll_text([3, 4, 5]) == "3+4+5 = 12"


def test_the_deck_end_says_the_row_could_not_be_refilled(texts: StoneAgeTexts,
                                                         catalog: RecordingCatalog) -> None:
    assert catalog.t("en", "sa.result.reason.cards_exhausted") == (
        "There were not enough civilization cards left to refill the row."
    )
    assert catalog.t("ru", "sa.result.reason.cards_exhausted") == (
        "В колоде не хватило карт цивилизации, чтобы снова заполнить ячейки на поле."
    )
    over = Event("game_over", None, {"reason": "cards_exhausted"})
    assert texts.event("en", over, EN) == (
        "<b>Game over</b>: not enough civilization cards are left to refill the row."
    )
    assert texts.event("ru", over, RU) == (
        "<b>Игра окончена</b>: в колоде не хватило карт цивилизации, "
        "чтобы снова заполнить ячейки на поле."
    )


def test_card_effects_are_named_as_in_the_official_edition(texts: StoneAgeTexts) -> None:
    lines = {
        code: texts.event("ru", Event(code, 0, args), RU)
        for code, args in (("extra_card", {}), ("dice_for_all", {"dice": [2, 5]}),
                           ("boon_gained", {}), ("one_use_tool_gained", {"value": 3}))
    }
    assert lines == {
        "extra_card": "<b>Анна</b> по бонусной карте берёт верхнюю карту колоды в закрытую",
        "dice_for_all": (
            "<b>Анна</b> бросает кубики по карте «Предметы за бросок кубика»: 🎲 2, 5"
        ),
        "boon_gained": (
            "<b>Анна</b> получает карту «2 ресурса по выбору игрока»: "
            "взять их можно в любой момент"
        ),
        "one_use_tool_gained": "<b>Анна</b> получает одноразовый инструмент: 🛠 3",
    }
    assert texts.reason("ru", "no_boon", {}) == (
        "У вас нет неиспользованной карты «2 ресурса по выбору игрока»."
    )
