"""``CAMPFIRE_OPS_*``: where the operator's endpoints listen (unset: nowhere) and how
patient readiness is; a wrong value stops the bot with one line naming the variable."""

from __future__ import annotations

import pytest

from adapters.edge.settings import OpsEnv


def test_unset_serves_no_endpoints() -> None:
    assert OpsEnv.read({}).address is None


@pytest.mark.parametrize(("listen", "address"), [
    ("0.0.0.0:9100", ("0.0.0.0", 9100)),
    ("127.0.0.1:0", ("127.0.0.1", 0)),
    ("[::1]:9100", ("::1", 9100)),
])
def test_listen_is_host_and_port(listen: str, address: tuple[str, int]) -> None:
    assert OpsEnv.read({"CAMPFIRE_OPS_LISTEN": listen}).address == address


@pytest.mark.parametrize("listen", ["9100", ":9100", "host:", "host:http", "host:70000"])
def test_a_wrong_listen_is_named(listen: str) -> None:
    with pytest.raises(ValueError, match="CAMPFIRE_OPS_LISTEN: must be host:port"):
        OpsEnv.read({"CAMPFIRE_OPS_LISTEN": listen})


def test_thresholds_are_read_and_checked() -> None:
    ops = OpsEnv.read({"CAMPFIRE_OPS_STALE_S": "30", "CAMPFIRE_OPS_PING_TIMEOUT_S": "0.5"})
    assert (ops.stale_s, ops.ping_timeout_s) == (30.0, 0.5)
    with pytest.raises(ValueError, match="CAMPFIRE_OPS_STALE_S"):
        OpsEnv.read({"CAMPFIRE_OPS_STALE_S": "0"})
