"""An action's parts: ``part:<i>`` (the i-th printed part of the group), ``stop``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from engine.caverna.decisions.options import opt
from engine.caverna.flow import do_part
from engine.caverna.listing import was_listed
from engine.caverna.spaces import eligible, group_at
from engine.caverna.state import CavernaState, GroupStep
from engine.core.errors import IllegalMove
from engine.core.keys import parse_number
from engine.core.prompts import Event, Label, Option, one_per_label
from engine.core.steps import StepRules


@lru_cache(maxsize=1024)
def _part_option(space: str, path: tuple[int, ...], index: int) -> Option:
    """Choosing part ``index`` of the group at ``path`` of ``space``'s action: printed
    data only, so made once and shared (options and labels are frozen, and nothing
    changes a label's arguments)."""
    part = group_at(space, list(path)).parts[index]
    return opt(f"part:{index}", "part", space=space, **_part_args(part))


def _part_args(part: Any) -> dict[str, Any]:
    """What a part does, for its words: its kind, goods, tiles and level, and a nested
    group's parts each with theirs (Sustenance's "take, and get 1 grain")."""
    args: dict[str, Any] = {"do": part.do}
    if part.goods:
        args["goods"] = dict(part.goods)
    if part.kinds:
        args["kinds"] = list(part.kinds)
    if part.level:
        args["level"] = part.level
    if part.group is not None:
        args["parts"] = [_part_args(p) for p in part.group.parts]
    return args


def _group_options(state: CavernaState, step: GroupStep) -> list[Option]:
    # Two identical parts (Adventure's two level-1 expeditions) are one choice: the first
    # of them is done, and the other stays open after it.
    path = tuple(step.path)
    opts = one_per_label([_part_option(step.space, path, i) for i in eligible(state, step)])
    if step.done:
        opts.append(opt("stop", "stop"))
    return opts


def _apply_group(state: CavernaState, step: GroupStep, key: str, events: list[Event]) -> None:
    if key == "stop" and step.done:
        state.pop(step.seat)
        return
    head, _, arg = key.partition(":")
    index = parse_number(arg)
    if head != "part" or index is None or (
            not was_listed(state, step, key) and index not in eligible(state, step)):
        raise IllegalMove("part_not_open", key=key)
    do_part(state, step, index, events)


def _group_label(state: CavernaState, step: GroupStep) -> Label:
    return Label("cav.prompt.group", {"space": step.space, "imitated": step.imitated})


STEPS: dict[str, StepRules[CavernaState, Any]] = {
    "group": StepRules(_group_options, _apply_group, _group_label),
}
