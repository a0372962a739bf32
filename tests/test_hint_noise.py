"""The hint's stated noise is honest, in a quick mode of ``tests/hint_noise.py``
(which measures it in full): searched again with other seeds, a gap between
two moves lands within the noise one search states most of the time."""

from __future__ import annotations

from tests.hint_noise import measure


def test_a_search_gap_lands_within_the_noise_it_states():
    noise = measure("endofpage", 2, count=2, searches=4)
    assert noise.positions == 2 and noise.gaps >= 10
    assert noise.within / noise.gaps >= 0.8, noise.line("endofpage at 2")
