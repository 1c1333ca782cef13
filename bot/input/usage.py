"""A command written out for its reader, from the one command schema: its usage line
and what its words mean, in the reader's language.

The command itself is a ``bot.ui.markup.Command`` node: each platform spells it as its
users type it (``/vote`` on Telegram, ``/table vote`` or ``/стол голос`` on Discord,
``/голос`` in a Russian console). The arguments follow in typed order, named in the
reader's language: ``[стол]`` is optional, ``<выбор>`` required, and a choice shows
its values as the reader types them (``ждать|случайно|жадно|прервать``). The
explanation says what each argument is for, and for a choice what each value does.
"""

from __future__ import annotations

from bot.i18n import Lang, Markup, command, escape
from bot.input.command_schema import Arg, CommandSpec, schema, spec_named
from bot.services import Ctx, Services
from bot.ui.message import Reply


def _shown(arg: Arg, lang: Lang) -> Markup:
    if arg.values:
        inner = "|".join(v.word(lang) for v in arg.values)
        return escape(inner if arg.required else f"[{inner}]")
    return escape(f"<{arg.named(lang)}>" if arg.required else f"[{arg.named(lang)}]")


def usage(spec: CommandSpec, lang: Lang) -> Markup:
    """The command and its arguments as typed: ``/vote [стол] ждать|случайно|…``."""
    return Markup(" ".join([command(spec.name, lang), *(_shown(a, lang) for a in spec.args)]))


def explained(sv: Services, spec: CommandSpec, lang: Lang) -> list[Markup]:
    """What each argument is for, one line each; a choice says what each of its values
    does (those whose word does not say it alone)."""
    lines = []
    for arg in spec.args:
        meant = [sv.t(lang, "usage.value", word=v.word(lang), about=v.about.of(lang))
                 for v in arg.values if v.about is not None]
        about = Markup("; ".join(meant)) if meant else arg.about.of(lang)
        lines.append(sv.t(lang, "usage.arg", arg=arg.named(lang), about=about))
    return lines


def usage_reply(sv: Services, ctx: Ctx, name: str, *more: Markup) -> Reply:
    """A command typed wrong: its usage line, what its words mean and ``more`` (the games
    there are, say), shown prominently to the actor."""
    spec = spec_named(name)
    lines = [sv.t(ctx.lang, "usage.line", usage=usage(spec, ctx.lang)),
             *explained(sv, spec, ctx.lang), *more]
    return Reply(answer=Markup("\n".join(lines)), alert=True)


def help_lines(sv: Services, lang: Lang) -> list[Markup]:
    """``/help``: every command's usage line and what it does, in help order."""
    return [sv.t(lang, "help.line", usage=usage(spec, lang), about=spec.about.of(lang))
            for spec in schema()]
