"""Tools: the three tool tiles on a player board and one-use tool cards.

Progression (rulebook, "tool maker"): the first three tools are new tiles of value 1;
after that the lowest tile goes up by one (1→2, then 2→3 by swapping tiles, then 3→4),
so a board holds at most three tiles of value 4 (12 in all).
"""

from __future__ import annotations

from engine.stone_age.components import components
from engine.stone_age.state import Player


def gain_tool(player: Player) -> bool:
    """Give one tool step; False when all tiles are already at the top value.

    The tile raised is one of the lowest. When several share the lowest value and some
    of them were turned aside this round, an unused one goes up: the player turns the
    tile that is still ready, and the used ones stay used. Equal tiles are alike, so
    the raised value goes to the leftmost slot of that group (the slots stay in
    falling order) and the used marks move with the tiles.
    """
    tools, used = player.tools, player.tools_used
    if 0 in tools:
        tools[tools.index(0)] = 1
        return True
    low = min(tools)
    if low >= components().max_tool_value:
        return False
    group = [i for i, v in enumerate(tools) if v == low]
    ready = [i for i in group if not used[i]]
    raised = ready[0] if ready else group[0]
    # Swap the leftmost tile of the group with the one raised: their marks trade places.
    left = group[0]
    used[left], used[raised] = used[raised], used[left]
    tools[left] = low + 1
    return True


def tool_total(player: Player) -> int:
    """Sum of the tool tiles' values (one-use cards are cards, not tiles)."""
    return sum(player.tools)


def ready_tools(player: Player) -> list[int]:
    """Slots of tool tiles not yet used this round."""
    return [i for i, v in enumerate(player.tools) if v > 0 and not player.tools_used[i]]


def reset_tools(player: Player) -> None:
    """Turn every tile back at the start of a round."""
    player.tools_used = [False] * len(player.tools)


def best_bonus(player: Player) -> int:
    """The most a roll can still gain from tools: every ready tile and one-use card."""
    return sum(player.tools[i] for i in ready_tools(player)) + sum(player.one_use_tools)
