"""Words on the Caverna picture and the names of things.

The picture's own short words are the ``cav.picture`` texts of the game's catalog.
Furnishing tiles and action spaces are named by the game's catalog when it has a
text for them (``cav.furnishing.<id>``, ``cav.space.<id>``), else by the engine's
component data (``engine/caverna/data/*.yaml``, which names every one in both
languages), else by the id made readable — a picture never fails for a missing word.
"""

from __future__ import annotations

from bot.i18n.catalog import Lang, default_catalog
from bot.render.labels import PictureWords
from engine.caverna.components import components

# The picture's own words: ``cav.picture.*`` in the game's texts.<lang>.yaml.
WORDS = PictureWords("cav")
label = WORDS.label


def readable(identifier: str) -> str:
    """An id as words: ``simple_dwelling_4w2s`` -> ``Simple dwelling 4w2s``."""
    text = identifier.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def _catalog_name(code: str, lang: str) -> str | None:
    catalog = default_catalog()
    code_lang: Lang = "en" if lang == "en" else "ru"
    if catalog.has(code_lang, code):
        return catalog.plain(code_lang, code)
    return None


def furnishing_name(tile_id: str, lang: str) -> str:
    """The name of furnishing tile ``tile_id`` (the printed entry dwelling included)."""
    found = _catalog_name(f"cav.furnishing.{tile_id}", lang)
    if found is not None:
        return found
    tile = components().furnishings.get(tile_id)
    if tile is not None:
        return tile.name.en if lang == "en" else tile.name.ru
    if tile_id == "entry_level_dwelling":
        return "Entry-level dwelling" if lang == "en" else "Начальное жилище"
    return readable(tile_id)


def space_name(space_id: str, lang: str) -> str:
    """The name of action space or round card ``space_id``."""
    found = _catalog_name(f"cav.space.{space_id}", lang)
    if found is not None:
        return found
    try:
        name = components().space(space_id).name
    except KeyError:
        return readable(space_id)
    return name.en if lang == "en" else name.ru
