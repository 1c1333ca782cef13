"""``value``: the decorator of the engines' small value classes (labels, options, prompts,
events): a dataclass the type checker treats as frozen, built without the frozen check.

A frozen dataclass sets each field through ``object.__setattr__`` in its ``__init__``,
which costs about twice a plain one; every prompt and event of every move is built, and
a search builds millions. mypy still refuses any assignment to a field of these
classes (``frozen_default``), so nothing changes them once built, as before. Neither
this module nor a module of value classes may be compiled (engine/compiled.py): mypyc
does not see the decorator make a dataclass, so compiled code would compare two values
by identity; and a compiled function takes no attributes, which the transform sets.
Compiled code builds and reads these classes as the interpreter does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar, dataclass_transform

T = TypeVar("T")


@dataclass_transform(frozen_default=True, field_specifiers=(field,))
def value(cls: type[T]) -> type[T]:
    """``cls`` as a slotted dataclass, frozen to the type checker only."""
    return dataclass(slots=True)(cls)
