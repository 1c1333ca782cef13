"""Manifests: what the bot reads about each game, and the one alias list all commands use."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import pytest

import bot.games as games_pkg
from bot.games import (
    GameManifest,
    Named,
    Variant,
    alias_key,
    find_game,
    find_upcoming,
    manifest,
    manifests,
    named_game,
)
from bot.i18n.catalog import LANGS, default_catalog
from bot.identity import Chat, User
from bot.input.new_table_args import BadArgument, parse_new_args
from bot.rules import RulesLibrary
from bot.table import lobby
from bot.table.settings import options_of
from bot.table.turns import replay
from engine.registry import games


def test_every_engine_has_a_manifest_and_back() -> None:
    assert set(manifests()) == set(games())
    for name, entry in manifests().items():
        assert entry.game is games()[name]
        assert entry.rules_file().is_file()
        for lang in LANGS:
            assert entry.texts_file(lang).is_file()
            assert default_catalog().has(lang, entry.title_code)


@pytest.mark.parametrize("name", sorted(manifests()))
def test_each_alias_finds_its_game_in_new_and_rules(name: str) -> None:
    entry = manifests()[name]
    rules = RulesLibrary()
    for alias in (name, *entry.aliases, entry.aliases[0].upper()):
        found = find_game(alias)
        assert found is not None and found.name == name, alias
        assert rules.resolve_game(alias) == name, alias


@pytest.mark.parametrize("name", sorted(manifests()))
def test_a_games_titles_and_command_words_name_it(name: str) -> None:
    # Whatever the bot calls a game, a player may type back: its title in either
    # language ("Carcassonne: Hunters and Gatherers") and the word commands show.
    entry = manifests()[name]
    catalog = default_catalog()
    for lang in LANGS:
        for code in (entry.title_code, entry.word_code):
            typed = catalog.plain(lang, code)
            found = find_game(typed)
            assert found is not None and found.name == name, (lang, typed)
            assert named_game([*typed.split(), "tiger"]) == Named(found, None, ("tiger",))


def test_carcassonne_names_hunters_and_gatherers() -> None:
    for typed in ("carcassonne", "Carcassonne", "каркассон"):
        found = find_game(typed)
        assert found is not None and found.name == "hunters_gatherers", typed


def test_alias_keys_ignore_case_spaces_and_punctuation() -> None:
    assert alias_key("Stone-Age") == alias_key("stone age") == alias_key("STONEAGE")
    assert alias_key("Ёлка") == alias_key("елка")
    assert find_game("chess") is None


def test_announced_games_answer_not_yet(monkeypatch: pytest.MonkeyPatch) -> None:
    announced = {"agricola": ("agricola", {"ru": "Агрикола", "en": "Agricola"})}
    monkeypatch.setattr(games_pkg, "_upcoming", lambda: announced)
    titles = find_upcoming("Agricola")
    assert titles is not None and titles["en"] == "Agricola"
    assert find_upcoming("chess") is None


def test_a_hosted_game_is_never_announced_as_coming() -> None:
    games_pkg._upcoming.cache_clear()
    try:
        for name, entry in manifests().items():
            assert find_upcoming(name) is None, name
            assert find_game(entry.aliases[0]) is entry
    finally:
        games_pkg._upcoming.cache_clear()


def test_a_variant_rejects_a_default_or_word_outside_its_values() -> None:
    with pytest.raises(ValueError, match="default"):
        Variant("mode", ("a", "b"), "c")
    with pytest.raises(ValueError, match="unknown values"):
        Variant("mode", ("a", "b"), "a", {"x": "z"})


class _Recording:
    """A real engine that notes the options each ``new`` was given."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.given: list[Mapping[str, Any] | None] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def new(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> Any:
        self.given.append(options)
        return self.game.new(players, seed, options)


def _with_variants(entry: GameManifest, game: Any) -> GameManifest:
    variants = (Variant("pace", ("slow", "fast"), "slow", {"быстро": "fast", "fast": "fast"}),)
    return dataclasses.replace(entry, game=game, variants=variants)


def test_variants_go_from_new_through_the_lobby_to_the_engine_and_replays() -> None:
    # A game without variants of its own, so its engine takes the test's "pace".
    base = next(e for e in manifests().values() if not e.variants)
    engine = _Recording(base.game)
    entry = _with_variants(base, engine)
    assert parse_new_args(entry, "en", ()).variants == {"pace": "slow"}
    assert parse_new_args(entry, "en", ("pace=fast",)).variants == {"pace": "fast"}
    options = parse_new_args(entry, "en", ("быстро",))
    assert options.variants == {"pace": "fast"}
    with pytest.raises(BadArgument) as bad:
        parse_new_args(entry, "en", ("pace=warp",))
    assert bad.value.code == "cmd.bad_variant" and "slow, fast" in bad.value.fill["values"]

    chat, anna, boris = Chat("g"), User("a", "Anna"), User("b", "Boris")
    record = lobby.open_table("t1", engine, chat, anna, options)
    record = lobby.join(record, boris)
    if entry.min_players > 2:
        pytest.skip("the first game needs more than two players")
    import random

    record = lobby.start(record, anna, engine, random.Random(1))
    assert options_of(record).variants == {"pace": "fast"}
    assert engine.given[-1] == {"pace": "fast"}
    replay(engine, record, [])
    assert engine.given[-1] == {"pace": "fast"}


@pytest.mark.parametrize(("args", "code", "setting"), [
    (("9",), "cmd.bad_seats", "seats"), (("1-9",), "cmd.bad_seats", "seats"),
    (("0",), "cmd.bad_seats", "seats"), (("remind=0",), "cmd.bad_duration", "remind"),
    (("clock=1e9/1/1",), "cmd.bad_setting", "clock"), (("часы=1e9",), "cmd.bad_setting", "clock"),
    (("повтор=много",), "cmd.bad_setting", "repeat"), (("banana",), "cmd.bad_option", None),
])
def test_bad_new_arguments_are_named(args: tuple[str, ...], code: str,
                                     setting: str | None) -> None:
    entry = next(iter(manifests().values()))
    with pytest.raises(BadArgument) as bad:
        parse_new_args(entry, "ru", args)
    assert bad.value.code == code and bad.value.fill["option"] == args[0]
    assert bad.value.setting == setting


def test_a_single_count_fixes_the_seats() -> None:
    entry = manifest(next(iter(manifests())))
    count = entry.min_players
    options = parse_new_args(entry, "en", (str(count),))
    assert options.min_seats == options.max_seats == count


def test_every_manifest_offers_the_variants_its_engine_declares() -> None:
    for name, entry in manifests().items():
        offered = {v.name: (v.values, v.default) for v in entry.variants}
        declared = {v.name: (v.values, v.default) for v in entry.game.variants}
        assert offered == declared, name


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_variant_value_has_words(lang: str) -> None:
    """A lobby names a table's settings that differ from the defaults: every value of
    every game's variants has its words."""
    catalog = default_catalog()
    for entry in manifests().values():
        for variant in entry.variants:
            for value in variant.values:
                code = f"{entry.prefix}.variant.{variant.name}.{value}"
                assert catalog.raw(lang, code) is not None, code
