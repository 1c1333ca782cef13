"""Reading ``/new``'s arguments into a table's options.

``/new <game> [3 | 2-4] [ru|en] [remind=12h] [repeat=3] [clock[=24/12/72]] [quiet]
[<variant>=<value> | <variant word>]`` — every argument is optional and may come in
any order. Durations take a unit (``30m``, ``1.5h``, ``2d``; hours without one) and
are bounded, so no setting can overflow a date later in the game.
"""

from __future__ import annotations

import re
from typing import Any

from bot.games import GameManifest
from bot.i18n import Lang
from bot.table.settings import MAX_DURATION_H, MIN_DURATION_H, TableOptions

UNIT_HOURS = {"s": 1 / 3600, "m": 1 / 60, "h": 1.0, "d": 24.0}
DURATION = r"(\d+(?:[.,]\d+)?)([smhd]?)"


class BadArgument(Exception):
    """An argument ``/new`` cannot use: ``code`` names the catalog text, ``fill`` its values."""

    def __init__(self, code: str, fill: dict[str, Any]) -> None:
        super().__init__(code)
        self.code = code
        self.fill = fill


def _hours(number: str, unit: str, arg: str, *, zero: bool = False) -> float:
    hours = float(number.replace(",", ".")) * UNIT_HOURS[unit or "h"]
    if zero and hours == 0:
        return 0.0
    if not MIN_DURATION_H <= hours <= MAX_DURATION_H:
        raise BadArgument("cmd.bad_duration", {"option": arg})
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
                                            "max": game.max_players})
    return low, high


def _variant(arg: str, game: GameManifest) -> tuple[str, str] | None:
    name, eq, value = arg.partition("=")
    for variant in game.variants:
        if eq and name == variant.name:
            if value not in variant.values:
                raise BadArgument("cmd.bad_variant", {
                    "option": arg, "values": ", ".join(variant.values)})
            return variant.name, value
        if not eq and arg in variant.words:
            return variant.name, variant.words[arg]
    return None


def parse_new_args(game: GameManifest, lang: Lang, args: tuple[str, ...]) -> TableOptions:
    """The options ``args`` choose for a new table of ``game``; ``BadArgument`` says
    which argument is wrong and why (nothing is created then)."""
    values: dict[str, Any] = {"min_seats": game.min_players, "max_seats": game.max_players,
                              "lang": lang, "variants": game.variant_defaults()}
    for arg in args:
        a = arg.lower()
        if seats := _seats(a, game):
            values["min_seats"], values["max_seats"] = seats
        elif a in ("ru", "en"):
            values["lang"] = a
        elif m := re.fullmatch(rf"(?:remind|напоминание)={DURATION}", a):
            values["reminder_h"] = _hours(m[1], m[2], arg)
        elif m := re.fullmatch(r"(?:repeat|повтор)=(\d{1,3})", a):
            if int(m[1]) > 20:
                raise BadArgument("cmd.bad_option", {"option": arg})
            values["reminder_repeats"] = int(m[1])
        elif a in ("clock", "часы"):
            values["clock"] = True
        elif m := re.fullmatch(rf"(?:clock|часы)={DURATION}/{DURATION}/{DURATION}", a):
            initial, bonus, most = (_hours(m[1], m[2], arg), _hours(m[3], m[4], arg, zero=True),
                                    _hours(m[5], m[6], arg))
            if most < initial:
                raise BadArgument("cmd.bad_clock", {"option": arg})
            values.update(clock=True, clock_initial_h=initial, clock_bonus_h=bonus,
                          clock_max_h=most)
        elif a in ("quiet", "тихо"):
            values["notify_next"] = False
        elif chosen := _variant(a, game):
            values["variants"] = {**values["variants"], chosen[0]: chosen[1]}
        else:
            raise BadArgument("cmd.bad_option", {"option": arg})
    return TableOptions.model_validate(values)
