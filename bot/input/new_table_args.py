"""Reading ``/new``'s arguments into a table's options and its AI players.

``/new <game> [3 | 2-4] [ru|en] [remind=12h] [repeat=3] [clock[=24/12/72]] [quiet]
[private] [ai=2 [level=strong]] [<variant>=<value> | <variant word>]`` — every argument is
optional and may come in any order, each under its English or its Russian name
(``напоминание=12ч``, ``тихо``, ``ии=2 уровень=сильный``). The AI players take seats
at the table as it opens (``bot.table.lobby.add_ai``), all at one level (``normal``
unless named; a level's words are the ones ``/vote`` takes for it).
Durations take a unit (``30m``, ``1.5h``, ``2d``, or ``30м``, ``1,5ч``, ``2д``; hours
without one) and are bounded, so no setting can overflow a date later in the game.

A refusal names the setting it is about (``BadArgument.setting``, one of ``SETTINGS``),
so that the answer can show what that setting expects, with an example
(``new.setting.<name>`` in the catalog).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from bot.games import GameManifest
from bot.i18n import Lang
from bot.input.command_schema import arg_of
from bot.table.settings import (
    MAX_DURATION_H,
    MIN_DURATION_H,
    AiLevel,
    TableOptions,
    as_level,
)

UNIT_HOURS = {"s": 1 / 3600, "m": 1 / 60, "h": 1.0, "d": 24.0,
              "с": 1 / 3600, "м": 1 / 60, "ч": 1.0, "д": 24.0}
DURATION = r"(\d+(?:[.,]\d+)?)([smhdсмчд]?)"
#: Every setting ``/new`` reads, in the order a usage lists them.
SETTINGS = ("seats", "lang", "remind", "repeat", "clock", "quiet", "private", "ai", "level")
#: The names a setting is typed by (``name=value`` or the bare word), both languages.
NAMES = {"remind": "remind", "напоминание": "remind", "repeat": "repeat", "повтор": "repeat",
         "clock": "clock", "часы": "clock", "quiet": "quiet", "тихо": "quiet",
         "private": "private", "закрытый": "private", "закрыто": "private",
         "ai": "ai", "ии": "ai", "level": "level", "уровень": "level"}
DEFAULT_AI_LEVEL: AiLevel = "normal"
LANG_WORDS: dict[str, Lang] = {"ru": "ru", "рус": "ru", "русский": "ru",
                               "en": "en", "англ": "en", "английский": "en"}
MAX_REPEATS = 20


class BadArgument(Exception):
    """An argument ``/new`` cannot use: ``code`` names the catalog text, ``fill`` its
    values, ``setting`` the setting it was meant for (None: no setting reads it)."""

    def __init__(self, code: str, fill: dict[str, Any], setting: str | None = None) -> None:
        super().__init__(code)
        self.code = code
        self.fill = fill
        self.setting = setting


def _hours(number: str, unit: str, arg: str, setting: str, *, zero: bool = False) -> float:
    hours = float(number.replace(",", ".")) * UNIT_HOURS[unit or "h"]
    if zero and hours == 0:
        return 0.0
    if not MIN_DURATION_H <= hours <= MAX_DURATION_H:
        raise BadArgument("cmd.bad_duration", {"option": arg}, setting)
    return hours


def _seats(arg: str, game: GameManifest) -> tuple[int, int] | None:
    if m := re.fullmatch(r"(\d{1,3})", arg):
        low = high = int(m[1])
    elif m := re.fullmatch(r"(\d{1,3})-(\d{1,3})", arg):
        low, high = int(m[1]), int(m[2])
    else:
        return None
    if not game.min_players <= low <= high <= game.max_players:
        raise BadArgument("cmd.bad_seats", {"option": arg, "min": game.min_players,
                                            "max": game.max_players}, "seats")
    return low, high


def _variant(arg: str, game: GameManifest) -> tuple[str, str] | None:
    name, eq, value = arg.partition("=")
    for variant in game.variants:
        if eq and name == variant.name:
            if value not in variant.values:
                raise BadArgument("cmd.bad_variant", {
                    "option": arg, "values": ", ".join(variant.values),
                    "example": f"{variant.name}={variant.default}"})
            return variant.name, value
        if not eq and arg in variant.words:
            return variant.name, variant.words[arg]
    return None


@dataclass(frozen=True, slots=True)
class NewTable:
    """What ``/new`` asks for: the table's options, and how many AI players sit down at
    it from the start, at which level."""

    options: TableOptions
    ai: int = 0
    level: AiLevel = DEFAULT_AI_LEVEL


def _level(word: str) -> AiLevel | None:
    """The AI level a typed word names (``/vote``'s words for it, either language)."""
    key = arg_of("vote", "choice").value_of(word)
    return None if key is None else as_level(key)


def _setting(arg: str, values: dict[str, Any]) -> bool:
    """Read ``arg`` as a named setting into ``values``; False if it names none. A named
    setting whose value does not read is refused with what it expects."""
    name, eq, value = arg.partition("=")
    setting = NAMES.get(name)
    if setting is None:
        return False
    if setting == "remind" and (m := re.fullmatch(DURATION, value)):
        values["reminder_h"] = _hours(m[1], m[2], arg, setting)
    elif setting == "repeat" and re.fullmatch(r"\d{1,3}", value) \
            and int(value) <= MAX_REPEATS:
        values["reminder_repeats"] = int(value)
    elif setting == "clock" and not eq:
        values["clock"] = True
    elif setting == "clock" and (m := re.fullmatch(f"{DURATION}/{DURATION}/{DURATION}", value)):
        initial, bonus, most = (_hours(m[1], m[2], arg, setting),
                                _hours(m[3], m[4], arg, setting, zero=True),
                                _hours(m[5], m[6], arg, setting))
        if most < initial:
            raise BadArgument("cmd.bad_clock", {"option": arg}, setting)
        values.update(clock=True, clock_initial_h=initial, clock_bonus_h=bonus,
                      clock_max_h=most)
    elif setting == "quiet" and not eq:
        values["notify_next"] = False
    elif setting == "private" and not eq:
        values["spectators"] = False
    elif setting == "ai" and re.fullmatch(r"\d", value):
        values["ai"] = (int(value), arg)
    elif setting == "level" and (level := _level(value)) is not None:
        values["level"] = level
    else:
        raise BadArgument("cmd.bad_setting", {"option": arg}, setting)
    return True


def read_new_args(game: GameManifest, lang: Lang, args: tuple[str, ...]) -> NewTable:
    """What ``args`` ask for a new table of ``game``; ``BadArgument`` says which argument
    is wrong and why (nothing is created then)."""
    values: dict[str, Any] = {"min_seats": game.min_players, "max_seats": game.max_players,
                              "lang": lang, "variants": game.variant_defaults()}
    for arg in args:
        a = arg.lower()
        if seats := _seats(a, game):
            values["min_seats"], values["max_seats"] = seats
        elif a in LANG_WORDS:
            values["lang"] = LANG_WORDS[a]
        elif _setting(a, values):
            continue
        elif chosen := _variant(a, game):
            values["variants"] = {**values["variants"], chosen[0]: chosen[1]}
        else:
            raise BadArgument("cmd.bad_option", {"option": arg})
    ai, typed = values.pop("ai", (0, ""))
    level: AiLevel = values.pop("level", DEFAULT_AI_LEVEL)
    options = TableOptions.model_validate(values)
    if ai > options.max_seats - 1:  # the creator sits at the table too
        raise BadArgument("cmd.bad_ai", {"option": typed, "max": options.max_seats - 1}, "ai")
    return NewTable(options, ai, level)


def parse_new_args(game: GameManifest, lang: Lang, args: tuple[str, ...]) -> TableOptions:
    """The options ``args`` choose for a new table of ``game`` (``read_new_args``)."""
    return read_new_args(game, lang, args).options
