"""Fixtures shared by the Caverna engine tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

# tests/engine/caverna/<this file> -> repository root -> ../shared/reference
REFERENCE = Path(__file__).resolve().parents[4] / "shared" / "reference" / "caverna.yaml"


@pytest.fixture(scope="module")
def reference() -> dict[str, Any]:
    """The cross-check data of ../shared/reference/caverna.yaml (skips where absent, as
    in CI)."""
    if not REFERENCE.exists():
        pytest.skip("../shared is absent")
    data: dict[str, Any] = yaml.safe_load(REFERENCE.read_text(encoding="utf-8"))
    return data
