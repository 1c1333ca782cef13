"""Rules look-up: each game's rules in our own words (ru/en), searchable by topic."""

from bot.rules.lookup import RulesIndex, RulesLibrary, UnknownGameError, load_books
from bot.rules.models import LANGS, Lang, RulesBook, Topic, TopicHit

__all__ = [
    "LANGS",
    "Lang",
    "RulesBook",
    "RulesIndex",
    "RulesLibrary",
    "Topic",
    "TopicHit",
    "UnknownGameError",
    "load_books",
]
