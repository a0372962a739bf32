"""``cardcli.kit.cloning``: copy functions written from a state class's slots."""

from __future__ import annotations

from cardcli.kit import cloning


class _Match:
    """A state whose slots change kind between deals, as trick's do in a match."""

    __slots__ = ("hands", "places", "scores")

    def __init__(self, hands: list[list[int]], places: list[int] | None, scores: list[list[int]] | list[int]):
        self.hands = hands
        self.places = places
        self.scores = scores


def test_a_slot_that_held_a_list_and_holds_none_now_is_copied() -> None:
    first = cloning.clone(_Match([[1, 2], [3]], [2, 1], [[5]]))  # the copy function is written here
    assert first.places == [2, 1]
    later = _Match([[4], [5, 6]], None, [[7]])  # the next game of the same worker: no places yet
    copy = cloning.clone(later)
    assert copy.places is None and copy.hands == [[4], [5, 6]] and copy.hands[1] is not later.hands[1]
    again = _Match([[8]], [1, 2], [[9]])
    copy = cloning.clone(again)
    assert copy.places == [1, 2] and copy.places is not again.places

