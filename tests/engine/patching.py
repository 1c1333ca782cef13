"""Patching an engine module's function for a test, only where the patch can work.

A compiled module (engine/compiled.py) calls its own functions directly, so a patched
module attribute would go unseen and a test comparing "with the patch" and "without"
would pass without testing anything. Tests that patch are marked ``interpreted``:
tests/conftest.py skips them while the engines run compiled, and run-tests runs them
again on the engines' source (CAMPFIRE_ENGINES=python)."""

from __future__ import annotations

import importlib
from contextlib import AbstractContextManager
from typing import Any
from unittest import mock

import pytest

from engine.compiled import compiled


def patch_source(target: str, new: Any) -> AbstractContextManager[Any]:
    """``mock.patch(target, new)``, failing the test if ``target``'s module is compiled."""
    module = importlib.import_module(target.rpartition(".")[0])
    if compiled(module):
        pytest.fail(f"{module.__name__} runs compiled: mark the test `interpreted`")
    return mock.patch(target, new)
