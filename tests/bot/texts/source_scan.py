"""Reading a game engine's source for the codes it can produce, so a code added without
a text fails a test even if no random game happens to meet it."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from bot.i18n.catalog import Catalog


def engine_trees(*packages: ModuleType) -> Iterator[tuple[Path, ast.Module]]:
    """Every module of the given packages, parsed."""
    for package in packages:
        for path in sorted(Path(next(iter(package.__path__))).glob("*.py")):
            yield path, ast.parse(path.read_text(encoding="utf-8"))


def string_patterns(node: ast.AST) -> set[str]:
    """Regular expressions for every string an expression can evaluate to.

    Handles constants, ``"a" if x else "b"`` and f-strings (whose holes match any
    word); anything else (a call, a variable) contributes nothing.
    """
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {re.escape(node.value)}
    if isinstance(node, ast.IfExp):
        return string_patterns(node.body) | string_patterns(node.orelse)
    if isinstance(node, ast.JoinedStr):
        parts = [
            re.escape(v.value)
            if isinstance(v, ast.Constant) and isinstance(v.value, str)
            else "[a-z_]+"
            for v in node.values
        ]
        return {"".join(parts)}
    return set()


def first_arg_strings(packages: tuple[ModuleType, ...], name: str) -> set[str]:
    """Patterns of the first argument of every call to ``name`` (``IllegalMove``, ``Event``)."""
    found: set[str] = set()
    for _, tree in engine_trees(*packages):
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == name and node.args):
                found |= string_patterns(node.args[0])
    return found


def has_code_or_variants(catalog: Catalog, pattern: str) -> bool:
    """A code matching ``pattern`` (or a variant ``<code>.<variant>``) is in both languages."""
    codes = catalog.codes("en") & catalog.codes("ru")
    full = re.compile(f"{pattern}(?:\\.[a-z_]+)?")
    return any(full.fullmatch(c) for c in codes)
