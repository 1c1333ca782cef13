"""Buttons and selects whose custom_id carries the core's signed token.

Both are ``DynamicItem``s: discord.py matches an incoming custom_id against their
template, so a button keeps working after a restart and on every worker without any
view being stored. The token is checked by the core (``bot.ui.tokens``): a custom_id that
fits the template but not the signature is refused there like any forged token.

A button's custom_id is ``cf:<token>``. A select's is ``cfs:<n>:<table>`` and each of its
options' values is a token (Discord gives option values up to 100 characters, custom_ids
up to 100 bytes; tokens stay within 64).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

BUTTON_PREFIX = "cf:"
SELECT_PREFIX = "cfs:"
CUSTOM_ID_BYTES = 100


class PressHandler(Protocol):
    """What a client that hosts these items offers: one entry point for presses."""

    async def on_token(self, interaction: discord.Interaction[Any], token: str) -> None:
        """Handle a press that carries ``token``."""


def _handler(interaction: discord.Interaction[Any]) -> Callable[..., Awaitable[None]]:
    client = interaction.client
    handle: Callable[..., Awaitable[None]] = client.on_token
    return handle


class TokenButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"cf:(?P<token>[\x21-\x7e]{1,97})"):
    """A button whose custom_id is ``cf:<token>``."""

    def __init__(self, token: str, label: str = "\u200b",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        """A button sending ``token`` back when pressed."""
        super().__init__(discord.ui.Button(label=label, style=style,
                                           custom_id=BUTTON_PREFIX + token))
        self.token = token

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> TokenButton:
        """Rebuild the button from a press (after a restart too)."""
        return cls(match["token"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the press to the client."""
        await _handler(interaction)(interaction, self.token)


class TokenSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=r"cfs:(?P<n>[0-9]{1,2}):(?P<table>[0-9a-z]{0,16})"):
    """A select menu whose options' values are tokens."""

    def __init__(self, n: int, table: str,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        """The ``n``-th select of a message about ``table``."""
        super().__init__(discord.ui.Select(custom_id=f"{SELECT_PREFIX}{n}:{table}",
                                           options=options or [], placeholder=placeholder,
                                           min_values=1, max_values=1))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: Any) -> TokenSelect:
        """Rebuild the select from a choice."""
        return cls(int(match["n"]), match["table"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Hand the chosen option's token to the client."""
        data: Any = interaction.data or {}
        values = data.get("values") or [""]
        await _handler(interaction)(interaction, str(values[0]))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (TokenButton, TokenSelect)
