"""What the decision modules share: the option and label builders, and the keys of animal sets."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.caverna.components import FARM_ANIMALS
from engine.caverna.feeding import conversion_food, decode, encode, step_of
from engine.caverna.state import CavernaState, HomeBoardStep
from engine.core.prompts import BACK, Label, Option, only_choice
from engine.core.steps import Step

DONE = Option("done", Label("cav.opt.done"))


def back_to(options_there: list[Option]) -> list[Option]:
    """The step back, when the choice it returns to (offering ``options_there``) is a
    real one; none when that choice would be taken by the engine again at once (see
    :mod:`engine.caverna.forced`): a back button must not undo nothing."""
    return [BACK] if only_choice(options_there) is None else []


def opt(key: str, code: str, **args: Any) -> Option:
    """An option whose label is ``cav.opt.<code>`` with ``args``."""
    return Option(key, Label(f"cav.opt.{code}", args))


def animals_key(animals: Mapping[str, int]) -> str:
    """The key of a set of animals (``none`` for no animal at all)."""
    text = encode({k: n for k, n in animals.items() if n})
    return text or "none"


def animals_of(text: str) -> dict[str, int] | None:
    """The set of farm animals ``text`` names, or None."""
    if text == "none":
        return {}
    conv = decode(text)
    if conv is None or any(k not in FARM_ANIMALS for k in conv):
        return None
    return conv


FEW_WAYS = 3  # cheapest ways offered for a payment or a feeding


def convert_opt(have: Mapping[str, int], kind: str, short: int, bonus: int) -> Option:
    """Converting one step of ``kind`` (``bonus``: the extra food per farm animal),
    labelled with what it takes and gives (gold and donkeys go more than one at a time):
    the label of a whole conversion that takes the same (:func:`conversion_opt`), so the
    two are one option."""
    count, food = step_of(have, kind, short, bonus)
    return opt(f"conv:{kind}", "convert", converted={kind: count}, food=food)


def conversion_opt(key: str, conversion: Mapping[str, int], bonus: int) -> Option:
    """Turning ``conversion`` into food: what it takes and the food it gives (``bonus``:
    the extra food per farm animal)."""
    return opt(key, "convert", converted=dict(conversion),
               food=conversion_food(conversion, bonus))


def kind_label(state: CavernaState, step: Step) -> Label:
    """The question of a step that mentions nothing but its kind."""
    return Label(f"cav.prompt.{step.kind}", {})


def board_label(state: CavernaState, step: HomeBoardStep) -> Label:
    """The question of a home-board step: which one, and its arguments set so far."""
    return Label("cav.prompt.board", {"what": step.what, **step.args.model_dump()})
