"""Short table ids ("a7k2") derived from a Redis counter.

A counter (INCR) is atomic across processes and never hands out the same number
twice, so ids are unique without a check-and-retry loop and are never reused after
an archived game expires (a months-old button can never hit a newer game). Each
number is scrambled so that consecutive tables do not get look-alike ids.
"""

from __future__ import annotations

# Crockford-style lowercase base32: no i, l, o, u, so ids survive being read aloud
# or retyped from a screenshot.
ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"
MIN_WIDTH = 4
# Odd, so multiplying by it is a bijection modulo every power of two (32**w = 2**5w).
_MULTIPLIER = 0x5DEECE66D
_OFFSET = 0x2F1A7


def encode_table_id(n: int) -> str:
    """Map counter value ``n`` (>= 0) to a unique id of at least four characters.

    Numbers are split into blocks by width (first 32**4 numbers get four characters,
    the next 32**5 five, ...); within a block the map is a bijection, and different
    blocks give different lengths, so the whole map is injective.
    """
    if n < 0:
        raise ValueError("table counter must be non-negative")
    width = MIN_WIDTH
    while n >= len(ALPHABET) ** width:
        n -= len(ALPHABET) ** width
        width += 1
    modulus = len(ALPHABET) ** width
    scrambled = (n * _MULTIPLIER + _OFFSET) % modulus
    chars = []
    for _ in range(width):
        scrambled, digit = divmod(scrambled, len(ALPHABET))
        chars.append(ALPHABET[digit])
    return "".join(chars)
