"""Discord settings read from the environment (``DiscordEnv``, adapters/discord/service.py)."""

from __future__ import annotations

import pytest

from adapters.discord.service import DiscordSettings


def test_a_token_is_required() -> None:
    with pytest.raises(ValueError, match=r"^DISCORD_TOKEN is not set$"):
        DiscordSettings.from_env({"DISCORD_SHARDS": "2"})


def test_shards_are_read_as_operators_write_them() -> None:
    settings = DiscordSettings.from_env({"DISCORD_TOKEN": "t", "DISCORD_SHARDS": "4",
                                         "DISCORD_SHARD_IDS": "0, 2"})
    assert (settings.token, settings.shard_count, settings.shard_ids) == ("t", 4, (0, 2))


def test_empty_shards_mean_discords_choice() -> None:
    settings = DiscordSettings.from_env({"DISCORD_TOKEN": "t", "DISCORD_SHARDS": "",
                                         "DISCORD_SHARD_IDS": " "})
    assert (settings.shard_count, settings.shard_ids) == (None, None)


@pytest.mark.parametrize(("name", "value"), [("DISCORD_SHARDS", "two"),
                                             ("DISCORD_SHARD_IDS", "0,x")])
def test_a_garbled_number_is_named(name: str, value: str) -> None:
    with pytest.raises(ValueError, match=f"^{name} must be a number"):
        DiscordSettings.from_env({"DISCORD_TOKEN": "t", name: value})


def test_the_process_environment_is_read_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "from-env")
    monkeypatch.delenv("DISCORD_SHARDS", raising=False)
    monkeypatch.delenv("DISCORD_SHARD_IDS", raising=False)
    assert DiscordSettings.from_env().token == "from-env"
