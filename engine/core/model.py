"""The base of the engines' stored models whose fields the rules write on every move.

pydantic's own ``__setattr__`` runs Python code for each assignment (it may validate,
refuse a frozen model or note which fields were set). The engines ask for none of
that: they assign values of the declared types, no model is frozen, and nothing reads
which fields were set. So an assignment here is the plain object one, which costs no
Python call at all; a search makes hundreds of thousands of them a decision.
Validation is unchanged where the data comes in: building a model and loading JSON.
"""

from __future__ import annotations

from pydantic import BaseModel


class EngineModel(BaseModel):
    """A pydantic model whose field assignments store the value as it is."""

    # Only fields are assigned after a model is built (private attributes are set in
    # pydantic's __init__ and copies), so the plain assignment is enough.
    __setattr__ = object.__setattr__
