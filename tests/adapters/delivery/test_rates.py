"""Rate windows from a platform's declared limits (adapters/delivery/rates.py)."""

from __future__ import annotations

from adapters.delivery.platform import PlatformLimits
from adapters.delivery.rates import no_limits, platform_windows
from bot.ui.message import Message, Outgoing, ToChat, ToUser
from tests.adapters.delivery.memory_platform import MemoryPlatform


def test_private_chats_and_groups_count_in_windows_of_their_own_size() -> None:
    platform = MemoryPlatform(limits=PlatformLimits(private_per_window=1, private_window_s=1.0,
                                                    group_per_window=20, group_window_s=60.0))
    window = platform_windows(platform)
    assert window(Outgoing(ToUser("mem:u"), Message("x"))) == ("chat:mem:u", 1, 1.0)
    assert window(Outgoing(ToChat("mem:g"), Message("x"))) == ("chat:mem:g", 20, 60.0)


def test_no_limits_is_a_window_per_chat_nobody_fills() -> None:
    key, per, _ = no_limits(Outgoing(ToChat("mem:g"), Message("x")))
    assert key == "chat:mem:g" and per >= 1_000_000
