"""What random games of a game say, collected once, and the checks its rendering passes
in both languages (shared by each game's text tests)."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from bot.i18n.catalog import Lang, Markup
from bot.texts import GameTexts
from engine.core.errors import IllegalMove
from engine.core.prompts import Event, Label, Prompt
from engine.core.protocol import Game

LANG_PAIR: tuple[Lang, Lang] = ("en", "ru")
Said = tuple[str, Any]
CheckPair = Callable[[dict[Lang, str], str], None]


@dataclass
class Seen:
    """What the random games produced, each kept once per distinct arguments."""

    prompts: dict[str, tuple[Label, int]] = field(default_factory=dict)
    options: dict[str, Label] = field(default_factory=dict)
    events: dict[str, Event] = field(default_factory=dict)
    refusals: dict[str, tuple[str, dict[str, Any]]] = field(default_factory=dict)
    breakdowns: list[dict[str, int]] = field(default_factory=list)


def _key(code: str, args: Any) -> str:
    return f"{code} {args!r}"


def collect(plays: Iterable[Iterable[Said]]) -> Seen:
    """Gather what ``plays`` (one stream of (kind, item) per game) said."""
    out = Seen()
    for play in plays:
        for kind, item in play:
            if kind == "prompt":
                out.prompts.setdefault(_key(item[0].code, item[0].args), item)
            elif kind == "option":
                out.options.setdefault(_key(item.code, item.args), item)
            elif kind == "event":
                out.events.setdefault(_key(item.code, item.args), item)
            elif kind == "breakdown":
                out.breakdowns.append(item)
            else:
                out.refusals.setdefault(_key(*item), item)
    return out


def asked(prompt: Prompt) -> Iterator[Said]:
    """The prompt and its options (labels may share data with the state: copied before
    the state moves on)."""
    yield "prompt", (copy.deepcopy(prompt.label), prompt.seat)
    for option in prompt.options:
        yield "option", copy.deepcopy(option.label)


def applied(game: Game[Any], state: Any, seat: int, key: str) -> Iterator[Said]:
    """Apply ``key``; its events, or the refusal."""
    try:
        events = game.apply(state, seat, key)
    except IllegalMove as err:
        yield "refusal", (err.code, dict(err.args_map))
    else:
        for event in events:
            yield "event", copy.deepcopy(event)


def probed(game: Game[Any], state: Any, tries: Iterable[tuple[int, str]]
           ) -> Generator[Said, None, bool]:
    """Try (seat, key) in turn until one is accepted; whether one was."""
    for seat, key in tries:
        said = list(applied(game, state, seat, key))
        yield from said
        if not (said and said[0][0] == "refusal"):
            return True
    return False


def check_text(text: str, what: str, raw_code: re.Pattern[str]) -> None:
    assert "{" not in text and "}" not in text, f"unfilled placeholder in {what}: {text!r}"
    assert not raw_code.search(text), f"raw code in {what}: {text!r}"
    assert text.strip(), f"empty text for {what}"


def check_pair(texts: dict[Lang, str], what: str, raw_code: re.Pattern[str],
               same_in_both: re.Pattern[str] | None = None) -> None:
    """Both languages' texts pass ``check_text`` and differ, unless the English is made
    only of icons, numbers and what ``same_in_both`` matches (read the same in both)."""
    for lang, text in texts.items():
        check_text(text, f"{what} [{lang}]", raw_code)
    english = same_in_both.sub("", texts["en"]) if same_in_both else texts["en"]
    if any(ch.isalpha() for ch in english):
        assert texts["ru"] != texts["en"], f"Russian equals English for {what}: {texts['en']!r}"


def assert_options_render_short(seen: Seen, texts: GameTexts, check: CheckPair) -> None:
    for label in seen.options.values():
        out = {lang: texts.option(lang, label) for lang in LANG_PAIR}
        for lang, text in out.items():
            assert len(text) <= 40, f"button too long [{lang}]: {text!r}"
            assert "<" not in text and "&" not in text, f"markup in a button: {text!r}"
        check(dict(out), f"option {label}")


def assert_events_render(seen: Seen, texts: GameTexts, names: list[str],
                         silent: Iterable[str], check: CheckPair) -> None:
    """A line in both languages for every event, none for the silent ones."""
    for event in seen.events.values():
        out = {lang: texts.event(lang, event, names) for lang in LANG_PAIR}
        if event.code in silent:
            assert out == {"en": None, "ru": None}
            continue
        rendered: dict[Lang, str] = {}
        for lang, text in out.items():
            assert isinstance(text, Markup), f"no line for {event}"
            rendered[lang] = text
        check(rendered, f"event {event}")


def assert_refusals_render(seen: Seen, texts: GameTexts, check: CheckPair) -> None:
    """Every refusal met has its own words, not the general ones."""
    general = {lang: texts.reason(lang, "surely_no_such_code", {}) for lang in LANG_PAIR}
    for code, args in seen.refusals.values():
        out: dict[Lang, str] = {lang: texts.reason(lang, code, args) for lang in LANG_PAIR}
        check(out, f"refusal {code} {args}")
        assert out["en"] != general["en"], code
