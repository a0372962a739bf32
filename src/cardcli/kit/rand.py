"""Random draws for the hot path, each exactly the draw ``random.Random``'s
own method would make from the same generator.

``rng.randrange(n)`` runs three Python frames (``randrange``,
``_randbelow``, then ``getrandbits`` in C) and ``rng.shuffle`` two per card;
a simulated game makes thousands of such draws.  These make the same calls
to ``getrandbits`` in fewer frames, so a seed gives the very same games.
(``tests/test_rand.py`` holds them to ``random.Random``'s results.)
"""

from __future__ import annotations

import _random
import random
from collections.abc import Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_Random = random.Random
_new = _Random.__new__
_seed = _random.Random.seed  # the C generator's own seeding, under Random.seed


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``: a uniform integer in ``[0, n)``."""
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def pick(items: Sequence[T], rng: random.Random) -> T:
    """``items[rng.randrange(len(items))]``, drawing nothing for a single item
    (as the built-in CPUs always have)."""
    n = len(items)
    if n == 1:
        return items[0]
    getrandbits = rng.getrandbits
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return items[r]


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``, in place."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def _seeded(seed: int) -> random.Random:
    rng = _new(_Random)
    _seed(rng, seed)
    rng.gauss_next = None  # type: ignore[attr-defined]  # what Random.__init__ sets beside seeding
    return rng


def _same_as_random() -> bool:
    try:
        return all(_seeded(seed).getstate() == _Random(seed).getstate() for seed in (0, 1, 2**62 + 7))
    except Exception:
        return False


def seeded(seed: int) -> random.Random:
    """``random.Random(seed)`` for an integer ``seed``, seeded once in C
    rather than through ``Random.seed`` in Python (half the cost; a game
    seeds a generator for its dealer, its chance events and each CPU)."""
    return _Random(seed)


if _same_as_random():  # always in CPython; otherwise the plain constructor above
    seeded = _seeded
