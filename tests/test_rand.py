"""cardcli.kit.rand draws exactly what random.Random's own methods draw, so the
same seed gives the same games however the draws are made."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from cardcli.kit.rand import below, pick, seeded, shuffle

seeds = st.integers(min_value=0, max_value=2**63 - 1)


@given(seeds)
def test_seeded_is_random_random(seed):
    assert seeded(seed).getstate() == random.Random(seed).getstate()
    assert type(seeded(seed)) is random.Random


@given(seeds, st.lists(st.integers(min_value=1, max_value=10**6), min_size=1, max_size=20))
def test_below_is_randrange(seed, sizes):
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [below(ours, n) for n in sizes] == [theirs.randrange(n) for n in sizes]
    assert ours.getstate() == theirs.getstate()


@given(seeds, st.lists(st.integers(min_value=1, max_value=60), min_size=1, max_size=20))
def test_pick_is_indexing_by_randrange(seed, sizes):
    ours, theirs = random.Random(seed), random.Random(seed)
    for n in sizes:
        items = list(range(n))
        want = items[theirs.randrange(n)] if n > 1 else items[0]
        assert pick(items, ours) == want
    assert ours.getstate() == theirs.getstate()


@given(seeds, st.lists(st.integers(), max_size=120))
def test_shuffle_is_random_shuffle(seed, items):
    ours, theirs = items[:], items[:]
    mine, other = random.Random(seed), random.Random(seed)
    shuffle(mine, ours)
    other.shuffle(theirs)
    assert ours == theirs
    assert mine.getstate() == other.getstate()
