"""Every user-facing text goes through the catalog, in Russian and English."""

from bot.i18n.catalog import LANGS, Catalog, Lang, normalize_lang

__all__ = ["LANGS", "Catalog", "Lang", "normalize_lang"]
