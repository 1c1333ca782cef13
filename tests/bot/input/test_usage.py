"""Usage lines and /help, from the command schema, as each platform shows them: every
command as its users type it there, every word in the reader's language, no template
left unfilled."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from adapters.console.chat import console_text
from adapters.discord.commands import payload, typed
from adapters.discord.render import markdown
from adapters.telegram.render import html
from bot.i18n import LANGS, Lang
from bot.input.command_schema import schema
from bot.input.usage import usage_reply
from bot.services import Ctx
from bot.ui.markup import Rich
from tests.bot.helpers import ANNA, GROUP, Harness, plain

#: Each platform's rendering of a text (what its users read).
RENDERERS: dict[str, Callable[[Rich], str]] = {
    "console": console_text, "telegram": html, "discord": markdown}


async def texts(h: Harness, lang: Lang) -> list[Rich]:
    """/help and every command's usage answer, in ``lang``."""
    ctx = Ctx(chat=GROUP, user=ANNA, lang=lang)
    await h.text(ANNA, f"/language {lang}")
    help_text = (await h.text(ANNA, "/help")).answer
    assert help_text is not None
    answers = [usage_reply(h.sv, ctx, spec.name).answer for spec in schema()]
    return [help_text, *(a for a in answers if a is not None)]


@pytest.mark.parametrize("lang", LANGS)
async def test_no_rendered_help_or_usage_has_a_raw_placeholder(h: Harness, lang: Lang) -> None:
    for text in await texts(h, lang):
        for platform, render in RENDERERS.items():
            shown = render(text)
            assert "{" not in shown and "}" not in shown, (platform, shown)


@pytest.mark.parametrize("lang", LANGS)
async def test_discord_help_names_the_commands_discord_has(h: Harness, lang: Lang) -> None:
    [help_text, *_] = await texts(h, lang)
    shown = markdown(help_text).splitlines()[1:]
    # Every line starts with the command as it is typed on Discord, which the synced
    # payload has (a group and its subcommand, or a top-level command).
    synced = {f"/{c['name']}" for c in payload()} | {
        f"/{c['name']} {s['name']}" for c in payload() for s in c.get("options", [])
        if s["type"] == 1}
    synced_ru = {f"/{c.get('name_localizations', {}).get('ru', c['name'])}" for c in payload()}
    for spec, line in zip(schema(), shown, strict=True):
        assert line.startswith(typed(spec.name, lang) + " "), line
        head = typed(spec.name, lang)
        assert head in synced if lang == "en" else head.split()[0] in synced_ru, head
    assert not any(line.startswith(("/abort", "/board", "/join")) for line in shown)


async def test_each_platform_spells_a_command_its_own_way(h: Harness) -> None:
    await h.text(ANNA, "/language ru")
    [vote] = [usage_reply(h.sv, Ctx(chat=GROUP, user=ANNA, lang="ru"), "vote").answer]
    assert vote is not None
    first = {name: render(vote).splitlines()[0] for name, render in RENDERERS.items()}
    assert first == {
        "console": "Формат: /голос [стол] ждать|лёгкий|обычный|сильный|прервать|согласен|против",
        "telegram": "Формат: /vote [стол] ждать|лёгкий|обычный|сильный|прервать|согласен|против",
        "discord": r"Формат: /стол голос \[стол\] ждать\|лёгкий\|обычный\|сильный\|прервать"
                   r"\|согласен\|против",
    }
    # Plain text (an alert, a button) says it the way a platform without its own does.
    assert plain(vote).splitlines()[0] == (
        "Формат: /vote [стол] ждать|лёгкий|обычный|сильный|прервать|согласен|против")
