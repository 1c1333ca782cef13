"""Every user-facing text goes through the catalog, in Russian and English."""

from bot.i18n.catalog import (
    LANGS,
    Catalog,
    Lang,
    Markup,
    command,
    escape,
    normalize_lang,
    to_plain,
)

__all__ = [
    "LANGS", "Catalog", "Lang", "Markup", "command", "escape", "normalize_lang", "to_plain",
]
