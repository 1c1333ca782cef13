"""The base of every engine's view model: what one seat (or an onlooker) may see.

Each engine subclasses :class:`View` with typed fields, and the bot reads those fields
instead of digging in dictionaries. ``view.model_dump(mode="json")`` is the view as
JSON, the form a web page or a log receives; the conformance suite checks that it
round-trips to an equal model and that it holds no secret.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class View(BaseModel):
    """A seat's view of a game. Frozen, because a view is a snapshot: code that wants
    another picture of the table asks the engine again. Unknown fields are refused so
    that a renamed field fails loudly where the view is built."""

    model_config = ConfigDict(frozen=True, extra="forbid")
