"""Text as Telegram stores it: HTML parsed (the way tdlib does) into plain text and
entities with UTF-16 offsets, then trimmed."""

from __future__ import annotations

import re

from tests.adapters.telegram.fake_api.errors import bad_request
from tests.adapters.telegram.fake_api.world import JSONDict

_TAG_OR_ENTITY = re.compile(r"[<&]")


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of Telegram entity offsets."""
    if text.isascii():  # most runs of a message; CPython knows this without a scan
        return len(text)
    return len(text.encode("utf-16-le")) // 2


class HtmlParseError(Exception):
    pass


_HTML_ENTITY_TYPES = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "code": "code",
    "pre": "pre",
    "a": "text_link",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}

_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


def _decode_html_entity(src: str, i: int) -> tuple[str, int] | None:
    """Decode an HTML entity at ``src[i] == '&'`` like tdlib; None if it is not one."""
    n = len(src)
    j = i + 1
    if j < n and src[j] == "#":
        j += 1
        base = 10
        if j < n and src[j] in "xX":
            base = 16
            j += 1
        start = j
        digits = "0123456789abcdefABCDEF" if base == 16 else "0123456789"
        while j < n and src[j] in digits:
            j += 1
        if j == start or j - start > 8:
            return None
        code = int(src[start:j], base)
        if code == 0 or code > 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            return None
        char = chr(code)
    else:
        start = j
        while j < n and src[j].isascii() and src[j].isalpha():
            j += 1
        decoded = _NAMED_ENTITIES.get(src[start:j])
        if decoded is None:
            return None
        char = decoded
    if j < n and src[j] == ";":
        j += 1
    return char, j


def parse_html(src: str) -> tuple[str, list[JSONDict]]:
    """Parse Telegram's HTML subset into (plain text, entities) or raise HtmlParseError.

    Error messages follow tdlib, e.g. ``Unsupported start tag "br" at byte offset 5``.
    """
    out: list[str] = []
    pos16 = 0  # current plain-text offset in UTF-16 units
    stack: list[tuple[str, int, dict[str, str]]] = []  # (tag, start offset, attributes)
    entities: list[JSONDict] = []
    i, n = 0, len(src)

    def emit(text: str) -> None:
        nonlocal pos16
        out.append(text)
        pos16 += utf16_len(text)

    def where(k: int) -> int:  # tdlib's errors count UTF-8 bytes
        return len(src[:k].encode("utf-8"))

    while i < n:
        c = src[i]
        if c == "&":
            decoded = _decode_html_entity(src, i)
            if decoded is not None:
                emit(decoded[0])
                i = decoded[1]
                continue
            emit("&")
            i += 1
            continue
        if c != "<":
            # The run of plain text up to the next tag or entity, at once: emitted a
            # character at a time, the fake's parsing of a long table message cost the
            # bench (which runs the fake in the bot's process) more CPU than the bot's
            # own rendering of it.
            special = _TAG_OR_ENTITY.search(src, i)
            stop = special.start() if special else n
            emit(src[i:stop])
            i = stop
            continue
        tag_at = i  # in errors as a UTF-8 byte offset, worked out only then (for every
        # tag it made parsing a long message quadratic)
        if i + 1 < n and src[i + 1] == "/":
            end = src.find(">", i + 2)
            if end == -1:
                raise HtmlParseError(f"Unclosed end tag at byte offset {where(tag_at)}")
            name = src[i + 2 : end].strip().lower()
            if not stack:
                raise HtmlParseError(f"Unexpected end tag at byte offset {where(tag_at)}")
            open_name, start16, open_attrs = stack.pop()
            if name and name != open_name:
                raise HtmlParseError(
                    f'Unmatched end tag at byte offset {where(tag_at)}, expected "</{open_name}>", '
                    f'found "</{name}>"'
                )
            length = pos16 - start16
            if length > 0:
                if (
                    open_name == "code"
                    and stack
                    and stack[-1][0] == "pre"
                    and open_attrs.get("class", "").startswith("language-")
                ):
                    stack[-1][2]["__language"] = open_attrs["class"][len("language-") :]
                else:
                    entity: JSONDict = {
                        "type": _HTML_ENTITY_TYPES[open_name],
                        "offset": start16,
                        "length": length,
                    }
                    if open_name == "a":
                        href = open_attrs.get("href", "")
                        if not href:
                            entity = {}
                        else:
                            entity["url"] = href
                    elif open_name == "pre" and "__language" in open_attrs:
                        entity["language"] = open_attrs["__language"]
                    elif open_name == "blockquote" and "expandable" in open_attrs:
                        entity["type"] = "expandable_blockquote"
                    elif open_name == "tg-emoji":
                        entity["custom_emoji_id"] = open_attrs.get("emoji-id", "")
                    if entity:
                        entities.append(entity)
            i = end + 1
            continue
        # start tag
        j = i + 1
        while j < n and (src[j].isascii() and (src[j].isalnum() or src[j] == "-")):
            j += 1
        name = src[i + 1 : j].lower()
        if name not in _HTML_ENTITY_TYPES:
            raise HtmlParseError(
                f'Unsupported start tag "{name}" at byte offset {where(tag_at)}'
            )
        attrs: dict[str, str] = {}
        while True:
            while j < n and src[j].isspace():
                j += 1
            if j >= n:
                raise HtmlParseError(f"Unclosed start tag at byte offset {where(tag_at)}")
            if src[j] == ">":
                j += 1
                break
            k = j
            while k < n and src[k].isascii() and (src[k].isalnum() or src[k] in "-_"):
                k += 1
            attr = src[j:k].lower()
            if not attr:
                raise HtmlParseError(
                    f'Empty attribute name in the tag "{name}" at byte offset {where(tag_at)}'
                )
            j = k
            while j < n and src[j].isspace():
                j += 1
            value = ""
            if j < n and src[j] == "=":
                j += 1
                while j < n and src[j].isspace():
                    j += 1
                if j >= n:
                    raise HtmlParseError(f"Unclosed start tag at byte offset {where(tag_at)}")
                if src[j] in "\"'":
                    quote = src[j]
                    close = src.find(quote, j + 1)
                    if close == -1:
                        raise HtmlParseError(f"Unclosed start tag at byte offset {where(tag_at)}")
                    raw = src[j + 1 : close]
                    j = close + 1
                else:
                    k = j
                    while k < n and not src[k].isspace() and src[k] != ">":
                        k += 1
                    raw = src[j:k]
                    j = k
                value = parse_html_attribute(raw)
            attrs[attr] = value
        if name == "span" and attrs.get("class") != "tg-spoiler":
            raise HtmlParseError(
                f'Tag "span" must have class "tg-spoiler" at byte offset {where(tag_at)}'
            )
        stack.append((name, pos16, attrs))
        i = j
    if stack:
        raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(out), entities


def parse_html_attribute(raw: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(raw):
        if raw[i] == "&":
            decoded = _decode_html_entity(raw, i)
            if decoded is not None:
                out.append(decoded[0])
                i = decoded[1]
                continue
        out.append(raw[i])
        i += 1
    return "".join(out)


def trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """Strip leading/trailing whitespace like Telegram does, keeping entities aligned."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = utf16_len(text[: len(text) - len(text.lstrip())])
    end = lead + utf16_len(stripped)
    kept: list[JSONDict] = []
    for entity in entities:
        start = max(entity["offset"], lead)
        stop = min(entity["offset"] + entity["length"], end)
        if stop > start:
            kept.append({**entity, "offset": start - lead, "length": stop - start})
    return stripped, kept


def format_text(
    text: str, parse_mode: str | None, what: str = "text"
) -> tuple[str, list[JSONDict]]:
    """Turn sent text into (plain text, entities) the way Telegram would, or raise ApiError."""
    # A bot sends the same texts again and again (prompts, a table message shown anew):
    # each is parsed once. Entities are copied out, so no caller changes the kept ones.
    if not isinstance(parse_mode, str | None):  # refused below; nothing to keep
        return _format_text(text, parse_mode)
    key = (text, parse_mode)
    known = _FORMATTED.get(key)
    if known is None:
        known = _format_text(text, parse_mode)
        if len(_FORMATTED) >= _FORMATTED_MAX:
            _FORMATTED.clear()
        _FORMATTED[key] = known
    return known[0], [dict(entity) for entity in known[1]]


_FORMATTED: dict[tuple[str, str | None], tuple[str, list[JSONDict]]] = {}
_FORMATTED_MAX = 4096


def _format_text(text: str, parse_mode: str | None) -> tuple[str, list[JSONDict]]:
    entities: list[JSONDict] = []
    plain = text
    if parse_mode is not None and parse_mode.upper() == "HTML":
        try:
            plain, entities = parse_html(text)
        except HtmlParseError as exc:
            raise bad_request(f"can't parse entities: {exc}") from None
    elif parse_mode not in (None, "", "Markdown", "MarkdownV2"):
        raise bad_request(f"unsupported parse_mode {parse_mode!r}")
    return trim(plain, entities)
