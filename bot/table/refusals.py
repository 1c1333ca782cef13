"""Why a change to a table is not made, as a value: a code, never rendered text, so
that callers decide by the code and the actor hears it in their own words."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.i18n import Lang
from bot.services import Ctx, Services
from bot.texts import texts_for
from bot.ui.message import Reply


@dataclass(frozen=True, slots=True)
class Refusal:
    """A catalog code and its arguments, or (``game`` set) a reason code of that game's
    engine, worded by the game's texts. ``lang``: the language to word it in when it
    is not the actor's (a lobby refusal is about the table: its language)."""

    code: str
    args: dict[str, object] = field(default_factory=dict)
    game: str | None = None
    lang: Lang | None = None


def refuse(sv: Services, ctx: Ctx, code: str, **args: object) -> Reply:
    """A refusal shown prominently to the actor; nothing else happens."""
    return Reply(answer=sv.t(ctx.lang, code, **args), alert=True, refused=code)


def refusal_reply(sv: Services, ctx: Ctx, refusal: Refusal) -> Reply:
    """``refusal`` in words, shown prominently to the actor: the catalog's, or the
    game's for its engine's reasons."""
    lang = refusal.lang or ctx.lang
    if refusal.game is not None:
        return Reply(answer=texts_for(refusal.game).reason(lang, refusal.code, refusal.args),
                     alert=True, refused=refusal.code)
    return Reply(answer=sv.t(lang, refusal.code, **refusal.args), alert=True,
                 refused=refusal.code)
