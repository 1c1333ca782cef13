"""Commands packed by hiredis: the same bytes redis-py would send, the same errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from redis.asyncio.connection import Connection, UnixDomainSocketConnection
from redis.exceptions import DataError

from adapters.store.client import connect
from adapters.store.embedded import EmbeddedRedis
from adapters.store.packing import hiredis_packing, packed

ARGUMENTS: list[tuple[Any, ...]] = [
    ("GET", "k"),
    ("SET", "ключ", "значение ✓", "PX", 1500),
    ("EVALSHA", "a" * 40, 2, "k1", "k2", 0, -7, 10**30, 0.1, 1e20, 1 / 3, b"\x00\xff"),
    ("SCRIPT LOAD", "return 1"),           # a name of two words is sent as two
    (b"CLIENT SETNAME", b"campfire"),
    ("SET", "k", memoryview(b"view"), bytearray(b"array")),
    ("RPUSH", "q", *(f"item {i}" for i in range(200)), "x" * 10_000),  # past the chunk size
]


@pytest.mark.parametrize("args", ARGUMENTS, ids=lambda args: str(args[0]))
def test_packed_bytes_are_redis_pys(args: tuple[Any, ...]) -> None:
    python = b"".join(Connection().pack_command(*args))
    assert b"".join(packed(*args)) == python


@pytest.mark.parametrize("bad", [True, None, object(), [1, 2]])
def test_what_redis_py_refuses_is_refused_alike(bad: object) -> None:
    with pytest.raises(DataError):
        Connection().pack_command("SET", "k", bad)
    with pytest.raises(DataError):
        packed("SET", "k", bad)


def test_the_packing_class_keeps_its_transport() -> None:
    packing = hiredis_packing(UnixDomainSocketConnection)
    assert issubclass(packing, UnixDomainSocketConnection)
    assert packing.__name__ == "HiredisUnixDomainSocketConnection"
    connection = packing(path="/nowhere")
    assert connection.pack_command("GET", "k") == packed("GET", "k")


async def test_the_stores_client_packs_in_c_and_round_trips(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path) as server:
        client = connect(server.url)
        try:
            pool_class = client.connection_pool.connection_class
            assert pool_class.pack_command is not UnixDomainSocketConnection.pack_command
            assert issubclass(pool_class, UnixDomainSocketConnection)
            values = ["ключ ✓", "x" * 10_000, "", "0.1"]
            await client.rpush("q", *values)
            assert await client.lrange("q", 0, -1) == values
            assert await client.eval("return #ARGV", 0, *range(300)) == 300
        finally:
            await client.aclose()
