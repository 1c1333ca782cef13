"""Caverna's words for single things: squares, placements, furnishing buttons, /board."""

from __future__ import annotations

from bot.games.caverna.describe import square_name, square_of
from bot.games.caverna.texts import CavernaTexts
from bot.i18n import to_plain
from bot.i18n.catalog import LANGS
from engine.caverna.caverna_game import CAVERNA
from engine.caverna.components import components
from engine.core.prompts import Event, Label

MAX_BUTTON = 64


def test_squares_are_named_like_a_chess_board_with_overhang_beyond() -> None:
    assert square_name((0, 0)) == "A1"
    assert square_name((5, 3)) == "F4"
    assert square_name((-1, 2)) == "-A3"
    assert square_name((6, 0)) == "G1"
    assert square_name((2, -1)) == "C0"
    assert square_of("3,1+3,2") == "D2+D3"
    assert square_of("not a square") == "not a square"


def test_a_twin_placement_names_both_halves_and_the_direction() -> None:
    texts = CavernaTexts()
    label = Label("cav.opt.lay", {"tile": "meadow_field", "at": "2,2+1,2"})
    assert texts.option("en", label) == "Meadow C3, field B3 (west)"
    assert texts.option("ru", label) == "Луг C3, поле B3 (на запад)"


def test_every_furnishing_button_carries_cost_and_points_and_fits() -> None:
    texts = CavernaTexts()
    for tile_id, tile in components().furnishings.items():
        for lang in LANGS:
            text = texts.option(lang, Label("cav.opt.tile", {"tile": tile_id, "cost": tile.cost}))
            assert len(text) <= MAX_BUTTON, text
            assert text.startswith(getattr(tile.name, lang)), text
            if tile.points:
                assert str(tile.points) in text, text
            for good, n in tile.cost.items():
                assert str(n) in text, (text, good)
    assert "★" in texts.option("en", Label("cav.opt.tile", {"tile": "main_storage",
                                                            "cost": {"wood": 2, "stone": 1}}))


def test_the_board_text_describes_the_own_home_board_and_the_others() -> None:
    texts = CavernaTexts()
    state = CAVERNA.new(3, 5)
    lines = texts.board("en", CAVERNA.view(state, 1), 1, ["Anna", "Boris", "Cleo"])
    text = "\n".join(lines)
    assert "Row 4:" in text and "D4 cavern: Entry-level dwelling" in text
    own = next(i for i, line in enumerate(lines) if line.startswith("<b>Boris</b> —"))
    assert lines[own + 1].startswith("Dwarfs: unarmed ×2")
    assert "<b>Anna</b> —" in text and "<b>Cleo</b> —" in text
    ru = "\n".join(texts.board("ru", CAVERNA.view(state, 1), 1, ["Анна", "Борис", "Клео"]))
    assert "Привходовое жилище" in ru and "Ряд 1:" in ru


def test_furnishing_buttons_fall_into_three_named_groups() -> None:
    from engine.caverna.decisions.furnishing import furnish_group as _furnish_group
    from engine.core.prompts import Option

    texts = CavernaTexts()
    seen = set()
    for tile_id, tile in components().furnishings.items():
        group = _furnish_group(tile_id)
        option = Option(f"tile:{tile_id}", Label("cav.opt.tile", {
            "tile": tile_id, "cost": tile.cost, "group": group}))
        for lang in LANGS:
            found = texts.option_group(lang, option)
            assert found is not None and found.key == group and found.label
            assert len(texts.option(lang, option.label)) <= MAX_BUTTON
        seen.add(group)
    assert seen == {"dwelling", "green", "yellow"}
    assert texts.option_group("en", Option("x", Label("cav.opt.tile", {"tile": "dwelling",
                                                                       "group": "dwelling"}))
                              ).label == "Dwellings"


def test_loot_toggles_and_the_expedition_prompt_count_what_is_taken() -> None:
    texts = CavernaTexts()
    assert texts.option("en", Label("cav.opt.loot", {"item": "gold", "strength": 6})) == \
        "◻ 2 gold (weapon 6+)"
    assert texts.option("en", Label("cav.opt.loot_back", {"item": "gold"})) == \
        "✅ 2 gold — put back"
    assert texts.option("ru", Label("cav.opt.loot_done", {"taken": 2, "level": 3})) == \
        "✔ Подтвердить трофеи (2 из 3)"
    question = texts.prompt("en", Label("cav.prompt.loot", {
        "level": 3, "strength": 6, "taken": ["gold", "dog"]}), ["Ann"], 0)
    assert "2 of 3 taken" in question and "weapon 6" in question
    assert texts.option("ru", Label("cav.opt.lay_at", {"at": "2,3", "ways": 3})) == \
        "C4 ▸ 3 варианта"


def test_the_housed_event_says_where_animals_live() -> None:
    from engine.core.prompts import Event

    texts = CavernaTexts()
    event = Event("housed", 0, {"places": [
        {"at": "3,3", "place": "entry_level_dwelling", "animals": {"sheep": 2}},
        {"at": "0,0+1,0", "place": "large_pasture", "animals": {"cattle": 4}},
        {"at": "4,1", "place": "ore_mine", "animals": {"donkey": 1}},
        {"at": "1,1", "place": "meadow", "animals": {"sheep": 2, "dog": 1}},
    ], "free_dogs": 1})
    line = texts.event("en", event, ["Ann"])
    assert line is not None
    for part in ("2 sheep — Entry-level dwelling D4", "4 cattle — large pasture A1+B1",
                 "1 donkey — ore mine E2", "guarded by dogs B2", "1 dog roaming free"):
        assert part in line, line
    ru = texts.event("ru", event, ["Ann"])
    assert ru is not None and "большое пастбище A1+B1" in ru
    empty = texts.event("en", Event("housed", 0, {"places": [], "free_dogs": 0}), ["Ann"])
    assert empty is not None and "no animals" in empty
    covered = texts.event("ru", Event("covered", 0, {"tile": "trader"}), ["Ann"])
    assert covered is not None and "Торговец" in covered


def test_a_conversion_step_says_what_it_takes_and_gives() -> None:
    """Gold goes several coins at a time (1 more than the food bought) and donkeys in
    pairs: the button and the event name the real counts, not "1 gold"."""
    texts = CavernaTexts()
    gold = Label("cav.opt.convert", {"converted": {"gold": 3}, "food": 2})
    assert texts.option("en", gold) == "Convert 3 gold → 2 food"
    assert texts.option("ru", gold) == "Обменять 3 золотых → 2 еды"
    pair = Label("cav.opt.convert", {"converted": {"donkey": 2}, "food": 3})
    assert texts.option("en", pair) == "Convert 2 donkeys → 3 food"
    event = Event("converted", 0, {"kind": "gold", "count": 3, "food": 2})
    assert to_plain(texts.event("en", event, ["Ann"]) or "") == "Ann converts 3 gold into 2 food."
    assert "3 золотых" in to_plain(texts.event("ru", event, ["Ann"]) or "")


def test_a_conversion_of_several_goods_says_the_food_it_gives() -> None:
    """A whole way to cover a feeding or a bill names each good it takes and the food
    it gives: "1 ruby + 2 grain → 4 food", never "… to food"."""
    texts = CavernaTexts()
    both = Label("cav.opt.convert", {"converted": {"grain": 2, "ruby": 1}, "food": 4})
    assert texts.option("en", both) == "Convert 1 ruby + 2 grain → 4 food"
    assert texts.option("ru", both) == "Обменять 1 рубин + 2 злака → 4 еды"
    pay = Label("cav.opt.pay", {"bill": {"food": 2}, "converted": {"vegetable": 1},
                                "food": 2})
    assert texts.option("en", pay) == "Convert 1 vegetable → 2 food, then pay"
    assert texts.option("ru", pay) == "Обменять 1 овощ → 2 еды и заплатить"


def test_the_working_cave_button_names_the_cost_the_engine_gives() -> None:
    texts = CavernaTexts()
    label = Label("cav.opt.working_cave", {"good": "ore", "cost": 2})
    assert texts.option("en", label) == "Working cave: feed a dwarf with 2 ore"


def _line(lang: str, code: str, args: dict[str, object]) -> str:
    line = CavernaTexts().event("ru" if lang == "ru" else "en", Event(code, 0, args), ["Ann"])
    assert line is not None
    return to_plain(line)


def test_a_laid_tile_is_named_in_the_accusative() -> None:
    """«кладёт каверну D1», «кладёт рубиновую шахту E2»: the object of a sentence is in
    the accusative, for a single tile and for both halves of a twin."""
    cavern = {"tile": "cavern", "at": "3,0", "rubies": 0, "deep": False}
    assert _line("ru", "tile_laid", cavern) == "Ann кладёт каверну D1."
    assert _line("en", "tile_laid", cavern) == "Ann lays cavern D1."
    mine = {"tile": "ruby_mine", "at": "4,1", "rubies": 0, "deep": False}
    assert _line("ru", "tile_laid", mine) == "Ann кладёт рубиновую шахту E2."
    twin = {"tile": "cavern_tunnel", "at": "5,3+4,3", "rubies": 0, "deep": False}
    assert _line("ru", "tile_laid", twin) == "Ann кладёт каверну F4, туннель E4 (на запад)."
    bought = {"tile": "cavern", "at": "3,0", "rubies": 1, "deep": False}
    assert _line("ru", "tile_laid", bought) == "Ann платит 1 рубин и кладёт каверну D1."
    # A button names the tile alone, in the nominative.
    label = Label("cav.opt.lay", {"tile": "ruby_mine", "at": "4,1"})
    assert CavernaTexts().option("ru", label) == "Рубиновая шахта E2"
    question = Label("cav.prompt.board", {"what": "single", "tile": "cavern"})
    assert "куда вы кладёте каверну?" in CavernaTexts().prompt("ru", question, ["Ann"], 0)


def test_goods_in_a_sentence_agree_with_their_number_and_case() -> None:
    """«меняет рубин на 1 руду», «платит 1 руду», «превращает 1 кабана в 2 еды»."""
    assert _line("ru", "ruby_spent", {"good": "ore"}) == "Ann меняет рубин на 1 руду."
    assert _line("en", "ruby_spent", {"good": "ore"}) == "Ann trades a ruby for 1 ore."
    assert _line("ru", "paid", {"bill": {"ore": 1, "wood": 2}}) == \
        "Ann платит 2 дерева, 1 руду."
    assert _line("ru", "converted", {"goods": {"wild_boar": 1}, "food": 2}) == \
        "Ann превращает 1 кабана в 2 еды."
    assert _line("ru", "gained", {"goods": {"sheep": 1, "food": 5}}) == \
        "Ann получает 5 еды, 1 овцу."
    assert _line("ru", "bought", {"good": "sheep", "gold": 1}) == \
        "Ann покупает 1 овцу за 1 золотой."
    assert _line("ru", "traded", {"times": 2}) == "Ann продаёт 4 руды за 4 золотых и 2 еды."
    assert _line("ru", "fed", {"food": 1}) == "Ann тратит на кормёжку семьи 1 еду."


def test_nothing_paid_is_its_own_sentence() -> None:
    """No «платит ничего» / "pays nothing" glued from an empty list: a sentence of its
    own; a payment partly in rubies says which goods they stood in for."""
    assert _line("ru", "paid", {"bill": {}, "for": "furnish:dog_school@3,2"}) == \
        "Ann ничего не платит."
    assert _line("en", "paid", {"bill": {}}) == "Ann pays nothing."
    rubies = {"bill": {"wood": 1, "stone": 1}, "rubies": {"wood": 1}}
    assert _line("ru", "paid", rubies) == "Ann платит 1 дерево, 1 камень: 1 рубин вместо 1 дерева."
    assert _line("en", "paid", rubies) == "Ann pays 1 wood, 1 stone: 1 ruby for 1 wood."
    # Nothing gained, nothing taken: no line at all.
    assert CavernaTexts().event("ru", Event("gained", 0, {"goods": {}}), ["Ann"]) is None
    assert CavernaTexts().event("ru", Event("took", 0, {"space": "supplies", "goods": {}}),
                                ["Ann"]) is None
    assert _line("ru", "sowed", {"grain": 0, "vegetable": 0}) == "Ann ничего не сеет."


def test_a_player_named_after_a_preposition_is_named_through_a_noun() -> None:
    """Names do not decline: «у игрока Ann», not «у Ann»."""
    assert _line("ru", "housed", {"places": [], "free_dogs": 0}) == \
        "🏠 У игрока Ann теперь нет животных."
    assert _line("ru", "begged", {"food": 0, "markers": 2}) == \
        "Ann: еды на кормёжку нет, приходится взять 2 жетона попрошайничества."
def test_every_conversion_offered_names_what_it_takes_and_the_food_it_gives() -> None:
    """Over random games, each conversion a feeding or a payment offers names every good
    it takes with its count (in the accusative: «обменять 1 овцу») and the food it gives,
    in both languages."""
    import random

    texts = CavernaTexts()
    seen = 0
    for seed in range(6):
        rnd = random.Random(seed)
        state = CAVERNA.new(1 + seed % 4, seed)
        while prompts := CAVERNA.pending(state):
            for option in (o for p in prompts for o in p.options):
                converted = option.label.args.get("converted")
                if option.label.code not in ("cav.opt.convert", "cav.opt.pay") or not converted:
                    continue
                seen += 1
                for lang in LANGS:
                    words, text = texts.words(lang), texts.option(lang, option.label)
                    # What is given up is the object of «обменять»: the accusative.
                    wanted = [words.count(k, n).form("acc") for k, n in converted.items()]
                    wanted.append(words.count("food", option.label.args["food"]))
                    assert all(part in text for part in wanted), (text, wanted)
            prompt = rnd.choice(prompts)
            CAVERNA.apply(state, prompt.seat, rnd.choice(prompt.keys()))
    assert seen > 50
