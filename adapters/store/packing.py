"""Redis commands packed by hiredis (C) instead of redis-py's asyncio connection (Python).

redis-py's synchronous client packs with hiredis when it is installed; its asyncio
connection always packs in Python, re-joining the buffer once per argument. Our scripts
take dozens of arguments (a commit's checks, an outbox item's eleven fields each), so
that packing was the largest single cost of a button press inside redis-py (see
bench/telegram_updates.py). The wire bytes are the same: hiredis formats ``int`` and
``float`` as ``repr`` does and encodes ``str`` as UTF-8, which is what the client's
encoder does with ``decode_responses`` and the default encoding.
"""

from __future__ import annotations

from typing import Any

from hiredis import pack_command as _hiredis_pack  # a dependency: redis[hiredis]
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import DataError


def _split_name(args: tuple[Any, ...]) -> tuple[Any, ...]:
    """A command name of several words (``"SCRIPT LOAD"``) as separate arguments, as
    redis-py sends it."""
    name = args[0]
    if isinstance(name, str):
        return (*name.encode().split(), *args[1:])
    if b" " in name:
        return (*name.split(), *args[1:])
    return args


def packed(*args: Any) -> list[bytes]:
    """One command in the Redis protocol, as redis-py's ``pack_command`` returns it."""
    parts = _split_name(args)
    try:
        return [_hiredis_pack(parts)]
    except TypeError:
        pass
    # hiredis takes str, bytes, int and float (not bool, as redis-py's encoder does not);
    # redis-py also sends buffers, as bytes. Checked only after a refusal: a command has
    # dozens of arguments, and a loop over them in Python is what packing in C saves.
    parts = tuple(bytes(arg) if isinstance(arg, (bytearray, memoryview)) else arg
                  for arg in parts)
    try:
        return [_hiredis_pack(parts)]
    except TypeError as exc:  # None, a bool, an object of no wire type: redis-py's error
        raise DataError(f"Invalid input: {exc}") from exc


def hiredis_packing(connection_class: type[AbstractConnection]) -> type[AbstractConnection]:
    """``connection_class`` packing its commands with hiredis."""
    class Packing(connection_class):  # type: ignore[valid-type,misc]
        def pack_command(self, *args: Any) -> list[bytes]:
            """The command in the Redis protocol, packed by hiredis."""
            return packed(*args)

    Packing.__name__ = Packing.__qualname__ = f"Hiredis{connection_class.__name__}"
    return Packing
