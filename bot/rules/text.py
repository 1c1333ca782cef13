"""Text helpers for the rules search: normalisation, a light stemmer, fuzzy matching.

Everything here is pure and deterministic. The stemmer is deliberately crude: it only
needs to map the forms players type ("инструментов", "инструменты", "tools") onto the
same key as the keywords; fuzzy matching absorbs what the stemmer misses and typos.
"""

from __future__ import annotations

import re

_WORD = re.compile(r"[0-9a-zа-я]+")

# Ukrainian letters are folded onto their nearest Russian ones and ё onto е, so that
# "інструменти", "инструменты" and "инструме́нты" typed on any keyboard meet.
_FOLD = str.maketrans(
    {
        "ё": "е",
        "і": "и",
        "ї": "и",
        "є": "е",
        "ґ": "г",
        "ў": "у",
        "'": "",
        "’": "",
        "ʼ": "",
        "\u0301": "",  # combining acute accent (stress marks)
    }
)

# Words that carry no topic meaning. Removing them keeps "как", "the", "сколько"
# from pulling every topic that happens to contain them.
# fmt: off
STOPWORDS: frozenset[str] = frozenset(
    [
        "а", "без", "бы", "был", "была", "были", "было", "быть", "в", "вам", "вас", "во",
        "вот", "вы", "где", "да", "для", "до", "его", "ее", "если", "есть", "еще", "же",
        "за", "и", "из", "или", "им", "их", "к", "как", "какая", "какие", "каким", "какой",
        "ко", "кто", "ли", "либо", "мне", "меня", "мой", "мы", "на", "над", "нам", "нас",
        "не", "него", "нее", "нет", "ни", "них", "но", "ну", "о", "об", "от", "по", "под",
        "при", "про", "с", "свой", "со", "сколько", "так", "там", "тем", "то", "тогда",
        "тоже", "только", "тут", "ты", "у", "уже", "чем", "что", "чтобы", "эта", "эти",
        "это", "этот", "я", "можно", "нужно", "надо", "разве", "какое", "каков", "почему",
        "зачем", "ж", "ничего", "a", "an", "the", "is", "are", "am", "be", "been", "do",
        "does", "did", "can", "could", "i", "you", "we", "he", "she", "it", "they", "my",
        "your", "our", "their", "of", "to", "in", "on", "at", "for", "with", "by", "from",
        "and", "or", "if", "what", "how", "many", "much", "where", "which", "this", "that",
        "these", "those", "there", "about", "me", "us", "them", "should", "would", "will",
        "shall", "must", "may", "might", "its", "please", "get", "got", "have", "has",
        "had", "any", "some"
    ]
)
# fmt: on

# Russian (and folded Ukrainian) inflectional endings, longest first so that "-ами"
# wins over "-и". Only endings: derivational suffixes are left to the fuzzy matcher.
# fmt: off
_RU_ENDINGS: tuple[str, ...] = tuple(
    sorted(
        {
            # adjectives and participles
            "ыми", "ими", "ого", "его", "ому", "ему", "ая", "яя", "ое", "ее", "ые", "ие",
            "ый", "ий", "ой", "ую", "юю", "ых", "их", "ым", "им",
            # nouns
            "иями", "ами", "ями", "ах", "ях", "ов", "ев", "ей", "ом", "ем", "ам", "ям",
            "ью", "ия", "ию", "ух", "а", "я", "о", "е", "ы", "и", "у", "ю", "ь", "й",
            # verbs
            "ить", "ать", "ять", "еть", "уть", "ешь", "ете", "ет", "ут", "ют", "ит", "ат",
            "ят", "ил", "ила", "ило", "или", "ал", "ала", "али", "ть", "ает", "яет",
            "ают", "яют", "ует", "уют", "овать", "евать",
            # Ukrainian after folding (-ів, -ою, -ею)
            "ив", "ою", "ею",
        },
        key=len,
        reverse=True,
    )
)
# fmt: on
_RU_REFLEXIVE: tuple[str, ...] = ("ся", "сь")
# A stem shorter than this is too ambiguous ("д" from "дом"), so the ending stays.
_MIN_STEM = 2


def normalize(text: str) -> str:
    """Lower-case `text` and fold letter variants (ё, Ukrainian і/ї/є/ґ, accents)."""
    return text.lower().translate(_FOLD)


def words(text: str) -> list[str]:
    """Split `text` into normalised words (letters and digits only)."""
    return _WORD.findall(normalize(text))


def _is_cyrillic(word: str) -> bool:
    return any("а" <= ch <= "я" for ch in word)


def _stem_ru(word: str) -> str:
    for ending in _RU_REFLEXIVE:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM + 1:
            word = word[: -len(ending)]
            break
    for ending in _RU_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= _MIN_STEM:
            return word[: -len(ending)]
    return word


def _stem_en(word: str) -> str:
    # Plurals first, then one verbal suffix, then a silent final e, so that
    # "places", "placed", "placing" and "place" all become "plac".
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 4 and word.endswith(("sses", "ches", "shes", "xes", "zes")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    if len(word) > 4 and word.endswith("e"):
        word = word[:-1]
    return word


def stem(word: str) -> str:
    """Return the search key of one normalised word (Russian/Ukrainian or English)."""
    if word.isdigit():
        return word
    return _stem_ru(word) if _is_cyrillic(word) else _stem_en(word)


def terms(text: str) -> list[str]:
    """Return the stemmed content words of `text`, in order, stopwords removed."""
    return [stem(w) for w in words(text) if w not in STOPWORDS]


def damerau_levenshtein(a: str, b: str, limit: int) -> int:
    """Return the edit distance (with adjacent swaps) of `a` and `b`, capped at `limit + 1`.

    Typos are insertions, deletions, substitutions and swapped neighbours ("braker",
    "инструемнт"); the cap lets the caller stop as soon as a pair is clearly too far.
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        row_min = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, prev2[j - 2] + 1)
            cur[j] = value
            row_min = min(row_min, value)
        if row_min > limit:
            return limit + 1
        prev2, prev = prev, cur
    return min(prev[len(b)], limit + 1)


# Similarity floor: one edit in a 4-letter word (0.75) passes, two edits in a
# 6-letter word (0.67) do not, which keeps "tie"/"die" and "лес"/"лис" apart.
MIN_SIMILARITY = 0.7
# A typed word that is the start of an indexed one ("инструм") or vice versa.
PREFIX_SIMILARITY = 0.8
MIN_PREFIX = 4
_MIN_FUZZY = 3
MAX_EDITS = 2


def similarity(query: str, term: str) -> float:
    """Return how well a query stem matches an indexed stem, from 0.0 to 1.0."""
    if query == term:
        return 1.0
    shorter, longer = sorted((query, term), key=len)
    if len(shorter) < _MIN_FUZZY or query.isdigit() or term.isdigit():
        return 0.0
    if len(shorter) >= MIN_PREFIX and longer.startswith(shorter):
        return PREFIX_SIMILARITY
    distance = damerau_levenshtein(query, term, MAX_EDITS)
    if distance > MAX_EDITS:
        return 0.0
    score = 1.0 - distance / len(longer)
    return score if score >= MIN_SIMILARITY else 0.0
