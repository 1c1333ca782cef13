"""The arithmetic of the seeded generator (:class:`engine.core.rng.SeededRandom`): value
number ``pos`` of a seed, a splitmix64 hash of the two. A module of its own so that it
can be compiled (:mod:`engine.compiled`) while the generator stays a pydantic model."""

from __future__ import annotations

from typing import Final

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15


def splitmix64(x: int) -> int:
    """The splitmix64 hash of a 64-bit ``x``."""
    z = (x + _GAMMA) & _MASK
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def draw(seed: int, pos: int, lo: int, hi: int) -> int:
    """Value number ``pos`` of ``seed``, as a uniform integer in ``[lo, hi]``."""
    value = splitmix64((seed * _GAMMA + pos) & _MASK)
    # Multiply-shift keeps the bias below 2**-58 for any span a game uses.
    return lo + ((value * (hi - lo + 1)) >> 64)
