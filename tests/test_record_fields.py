"""The record-field helpers every variant's ``decode_action`` shares."""

from __future__ import annotations

import pytest

from cardcli.contract.record_fields import card_field, flag_field, hands_field, join_or, only_fields


def test_flag_field_defaults_to_false_and_refuses_other_types():
    assert flag_field({}, "call") is False
    assert flag_field({"call": True}, "call") is True
    with pytest.raises(ValueError, match="call must be true or false, got 'true'"):
        flag_field({"call": "true"}, "call")
    with pytest.raises(ValueError, match="got 0"):
        flag_field({"call": 0}, "call")


def test_hands_field_reads_each_card_with_the_given_reader():
    assert hands_field({"hands": [["9H"], []]}) == ((card_field("9H"),), ())

    def no_hearts(value):
        card = card_field(value)
        if value.endswith("H"):
            raise ValueError("no hearts here")
        return card

    with pytest.raises(ValueError, match="no hearts here"):
        hands_field({"hands": [["9S", "9H"]]}, no_hearts)
    for bad in (None, "9H", [["9H"], "9S"], {"0": ["9H"]}):
        with pytest.raises(ValueError, match="'hands' must be a list of card lists, one per seat"):
            hands_field({"hands": bad})


def test_only_fields_names_the_stranger_and_what_is_allowed():
    only_fields({"move": "draw"}, {"move", "seat"}, "draw")
    with pytest.raises(ValueError, match=r"unknown field 'suit' in a draw event \(allowed: move, seat\)"):
        only_fields({"move": "draw", "suit": "H"}, {"move", "seat"}, "draw")


def test_card_field_and_join_or():
    with pytest.raises(ValueError, match='card must be a card name like "7H", got 7'):
        card_field(7)
    assert join_or([]) == "" and join_or(["9C"]) == "9C"
    assert join_or(["9C", "8D", "draw"]) == "9C, 8D or draw"
