"""Every open decision as a prompt, and carrying out a chosen option: Caverna's machine.

Each module of this package holds the steps of one part of the rules (the work phase,
an action's parts, imitation, payment, forging, the expedition, the weekly market, ore
trading, animals, the any-time trades, the harvest, the solo game, the home board), and
in its ``STEPS`` the row of each of its step kinds: the options it lists, how a key is
applied, the question it asks. A key that is not listed is refused with a reason code;
every apply function checks the whole key before its first change to the state.

Keys (stable, short):

- work phase: ``go:<space>`` (the next dwarf in weapon order), ``dwarf:<i>`` (another
  dwarf, for 1 ruby), ``ruby`` (spend rubies); after ``dwarf:<i>``: ``go:<space>``;
- an action's parts: ``part:<i>`` (the i-th printed part), ``stop``;
- ``copy:<space>`` (imitate), ``pay:<conversion>`` (``grain*1+sheep*2``; the cheapest
  ways first) or ``conv:<kind>`` (one good at a time) or ``exchange`` (the any-time
  trades that keep the bill payable), ``forge:<strength>``, ``loot:<item>`` (a toggle:
  take it, or put back a taken item offered as a "back" option; ``done`` confirms),
  ``buy:<good>``, ``trade:<times>``,
  ``keep:<animals>`` / ``young:<animals>`` (``none`` for nothing), ``skip:field`` /
  ``skip:breed``, ``keep:<space>`` / ``clear`` (solo), ``done``, ``back``;
- feeding: ``cover:<conversion>``, ``conv:<kind>``, ``work:<good>``, ``beg``;
- the home board: ``lay:<tile>:<where>`` (``"2,3+1,3"`` for a twin), or first
  ``at:<x,y>`` (the square of the tile's first half, when it can be laid from there in
  several ways) then ``lay:``; ``tile:<id>`` (options grouped dwelling / green / yellow
  by their label's ``group``) then ``at:<x,y>`` (furnishing),
  ``sow:<grain fields>:<vegetable fields>``,
  ``small:<x,y>`` / ``large:<x,y+x,y>`` (fences), ``stable:<x,y>``.
"""

from __future__ import annotations

from typing import Any

from engine.caverna.decisions import (
    action_parts,
    animals,
    exchanges,
    expedition,
    forge,
    harvest,
    home_board,
    imitation,
    market,
    ore_trading,
    payment,
    solo,
    work,
)
from engine.caverna.listing import keeping
from engine.caverna.state import CavernaState
from engine.core.machine import Machine
from engine.core.prompts import Prompt
from engine.core.stacks import stack_depth
from engine.core.steps import Step, StepRules, Turn

# Each kind of step: its options, how a key is applied, its question. ``work`` is the
# first step of a turn in the work phase (a ``Turn``: placing the next dwarf).
MODULES = (work, action_parts, imitation, payment, forge, expedition, market, ore_trading,
           animals, exchanges, harvest, solo, home_board)
# Each kind's options are listed once per state (kept on it until a key is applied:
# ``engine.caverna.listing``).
RULES: dict[str, StepRules[CavernaState, Any]] = {
    kind: keeping(rules) for module in MODULES for kind, rules in module.STEPS.items()}


def _deciding(state: CavernaState) -> list[int]:
    """Seats with a decision open now."""
    if state.phase == "over":
        return []
    if state.stacks:
        return sorted(state.stacks)
    if state.phase == "work":
        return [state.turn]
    return []


def _current(state: CavernaState, seat: int) -> Step:
    """The step ``seat`` faces: its open step, else placing its next dwarf."""
    frame = state.top(seat)
    return Turn("work", seat) if frame is None else frame


def _depth(state: CavernaState, step: Step) -> int:
    """In the work phase the stack sits on top of the turn's own first step."""
    return stack_depth(state.stacks, step, 1 if state.phase == "work" else 0)


def _over(state: CavernaState) -> bool:
    return state.phase == "over"


MACHINE: Machine[CavernaState] = Machine(
    rules=RULES, over=_over, deciding=_deciding, current=_current, depth=_depth,
)


def pending(state: CavernaState) -> list[Prompt]:
    """Every open decision."""
    return MACHINE.pending(state)
