"""Reading the data files games and the bot ship (YAML), the same fast way everywhere."""

from __future__ import annotations

from typing import Any

import yaml

# libyaml's loader when PyYAML was built with it: the same safe subset, several times
# faster (the catalogs, rules books and component files are read at every start).
_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """The data in a YAML text, with only plain types (like ``yaml.safe_load``)."""
    return yaml.load(text, Loader=_LOADER)
