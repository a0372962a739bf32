"""The record-field helpers every variant's ``decode_action`` shares, and
the declaration of a variant's record events its codec comes from."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from cardcli.contract.record_fields import (
    Card,
    Cards,
    Custom,
    Drawn,
    Event,
    Flag,
    Hands,
    RecordEvents,
    Reshuffle,
    Seat,
    Stated,
    Suit,
    card_field,
    flag_field,
    hands_field,
    join_or,
    only_fields,
)
from cardcli.contract.variant import Variant
from cardcli.kit.cards import NAME, UNSEEN
from cardcli.kit.errors import PluginError


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


# ------------------------------------------------- the declared record events
PLAY, PASS, CALL, DEAL, DRAWN, RESHUFFLE, GIVE, SPREAD, TAKE = range(9)
PASS_ACTION = (PASS,)
BUILT = [[(CALL, card, said) for said in (False, True)] for card in range(54)]


def _no_joker(value):
    card = card_field(value)
    if card >= 52:
        raise ValueError("no joker here")
    return card


def _spread_names(cards, state):
    return [NAME[card] for card in cards]


def _spread(values, state):
    return tuple(card_field(value) for value in values)


def _dealer_refused(dealer, stated):
    return f"the dealer is seat {dealer}, not {stated!r}"


EVENTS = RecordEvents(
    "toy",
    moves={"play": (PLAY, Card(_no_joker), Suit(), Flag("call")), "pass": PASS_ACTION,
           "call": Event(CALL, Card(), Flag("said"), built=BUILT),
           "take": (TAKE, Card(absent="top")),
           "spread": (SPREAD, Custom("cards", _spread_names, _spread))},
    chances={"deal": (DEAL, Stated("dealer", "dealer", _dealer_refused), Hands(size="cfg.hand_size")),
             "draw": (DRAWN, Drawn(seat="drawer", drawing=lambda state: state.drawing)),
             "reshuffle": (RESHUFFLE, Reshuffle(lambda state: len(state.discard) - 1)),
             "give": (GIVE, Seat(refuse=lambda: "name the seat given to"),
                      Cards(refuse=lambda: "list the cards given"), Card(key="wild", optional=True))})


def _state(**more):
    state = dict(dealer=1, cfg=SimpleNamespace(hand_size=2), drawer=2, drawing=True, discard=[1, 2, 3], top=7)
    state.update(more)
    return SimpleNamespace(**state)


def _card(name):
    return card_field(name)


@pytest.mark.parametrize("action, fields", [
    ((PLAY, _card("8C"), -1, False), {"move": "play", "card": "8C"}),
    ((PLAY, _card("8C"), 1, True), {"move": "play", "card": "8C", "suit": "H", "call": True}),
    ((PLAY, _card("8C"), -1, True), {"move": "play", "card": "8C", "call": True}),
    (PASS_ACTION, {"move": "pass"}),
    (BUILT[_card("QS")][True], {"move": "call", "card": "QS", "said": True}),
    ((TAKE, _card("9D")), {"move": "take", "card": "9D"}),
    ((SPREAD, (_card("2C"), _card("3C"))), {"move": "spread", "cards": ["2C", "3C"]}),
    ((DEAL, ((_card("AS"), _card("KS")), (_card("2H"), _card("3H")))),
     {"chance": "deal", "dealer": 1, "hands": [["AS", "KS"], ["2H", "3H"]]}),
    ((DRAWN, (_card("4D"),)), {"chance": "draw", "seat": 2, "cards": ["4D"]}),
    ((RESHUFFLE,), {"chance": "reshuffle", "cards": 2}),
    ((GIVE, 3, (_card("5S"), _card("6S")), -1), {"chance": "give", "seat": 3, "cards": ["5S", "6S"]}),
    ((GIVE, 0, (_card("5S"),), _card("JK")), {"chance": "give", "seat": 0, "cards": ["5S"], "wild": "JK"}),
])
def test_the_declaration_writes_each_event_and_reads_it_back(action, fields):
    """Keys in the declared order, a suit of -1 and a false flag left out,
    and the line read back to the same action."""
    state = _state()
    written = EVENTS.encode(state, action)
    assert written == fields and list(written) == list(fields)
    with_seat = {"seat": 0, **written} if "move" in written else written
    assert EVENTS.decode(state, with_seat) == action


def test_the_declaration_reads_the_actions_made_ahead_as_those_very_tuples():
    state = _state()
    assert EVENTS.decode(state, {"move": "pass"}) is PASS_ACTION
    assert EVENTS.decode(state, {"move": "call", "card": "QS", "said": True}) is BUILT[_card("QS")][True]
    assert EVENTS.decode(state, {"move": "call", "card": "QS"}) is BUILT[_card("QS")][False]
    assert EVENTS.decode(state, {"chance": "reshuffle"}) == (RESHUFFLE,)


def test_what_the_state_says_fills_in_and_checks_a_line():
    state = _state()
    assert EVENTS.decode(state, {"move": "take"}) == (TAKE, 7)  # absent: the state's top card
    with pytest.raises(ValueError, match=r"the dealer is seat 1, not 0"):
        EVENTS.decode(state, {"chance": "deal", "dealer": 0, "hands": [["AS", "KS"], ["2H", "3H"]]})
    with pytest.raises(ValueError, match="seat 1 was dealt 3 cards nobody saw, but the rules deal 2"):
        EVENTS.decode(state, {"chance": "deal", "hands": [["AS", "KS"], 3]})
    with pytest.raises(ValueError, match=r"the cards drawn now are seat 2's, not seat 1's"):
        EVENTS.decode(state, {"chance": "draw", "seat": 1, "cards": ["4D"]})
    assert EVENTS.decode(_state(drawing=False), {"chance": "draw", "seat": 1, "cards": ["4D"]}) == (
        DRAWN, (_card("4D"),))  # not drawing now: the rules refuse it, in their words
    with pytest.raises(ValueError, match=r"the reshuffle makes a stock of 2 cards, not 5"):
        EVENTS.decode(state, {"chance": "reshuffle", "cards": 5})


def test_the_declaration_refuses_in_the_same_words_for_every_variant():
    state = _state()
    refusals = [
        ({"move": "jump"}, "unknown move 'jump' (toy moves: play, pass, call, take, spread)"),
        ({"move": ["play"]}, "unknown move ['play'] (toy moves: play, pass, call, take, spread)"),
        ({"chance": "flip"}, "unknown chance event 'flip' (toy: deal, draw, reshuffle, give)"),
        ({"seat": 0}, "unknown chance event None (toy: deal, draw, reshuffle, give)"),
        ({"move": "pass", "card": "7H"}, "unknown field 'card' in a pass event (allowed: move, seat)"),
        ({"move": None, "chance": "reshuffle"},
         "unknown field 'move' in a reshuffle event (allowed: cards, chance)"),
        ({"move": "play", "card": "JK"}, "no joker here"),
        ({"move": "play", "card": "7H", "suit": 3}, "suit must be S, H, D or C, got 3"),
        ({"move": "play", "card": "7H", "call": "yes"}, "call must be true or false, got 'yes'"),
        ({"chance": "give", "seat": True, "cards": ["5S"]}, "name the seat given to"),
        ({"chance": "give", "seat": 1, "cards": []}, "list the cards given"),
        ({"chance": "give", "seat": 1, "cards": ["5S"], "wild": 7},
         'card must be a card name like "7H", got 7'),
    ]
    for line, said in refusals:
        with pytest.raises(ValueError) as refused:
            EVENTS.decode(state, line)
        assert str(refused.value) == said
    with pytest.raises(ValueError, match=r"not a toy action: \(99, 1\)"):
        EVENTS.encode(state, (99, 1))


def test_an_event_whose_rule_is_special_writes_and_reads_itself():
    def encode(state, action):
        return {"move": "lay", "card": NAME[action[2]], "meld": action[1] + 1}

    def decode(state, data):
        return (PLAY, data["meld"] - 1, card_field(data["card"]))

    events = RecordEvents("toy", moves={"lay": Event(PLAY, "card", "meld", encode=encode, decode=decode)},
                          chances={})
    assert events.encode(None, (PLAY, 0, _card("4D"))) == {"move": "lay", "card": "4D", "meld": 1}
    assert events.decode(None, {"move": "lay", "card": "4D", "meld": 1}) == (PLAY, 0, _card("4D"))
    with pytest.raises(ValueError, match=r"unknown field 'as' in a lay event \(allowed: card, meld, move"):
        events.decode(None, {"move": "lay", "card": "4D", "meld": 1, "as": "5"})


def test_a_declaration_that_cannot_work_is_refused_when_made():
    with pytest.raises(TypeError, match="field 'as' is named only: give the event its own decode"):
        RecordEvents("toy", moves={"lay": (PLAY, Card(), "as")}, chances={})
    with pytest.raises(TypeError, match="kind 0 is declared twice"):
        RecordEvents("toy", moves={"play": (PLAY, Card())}, chances={"deal": (PLAY, Hands())})
    with pytest.raises(ValueError, match="not an attribute of the state"):
        RecordEvents("toy", moves={}, chances={"deal": (DEAL, Hands(size="cfg.hand_size()"))})


class _Base(Variant):
    name = "toy"
    title = description = "toy"
    min_players = max_players = 2
    options = ()

    def new_state(self, rules, num_players, dealer): return _state()
    def deck(self, rules, num_players): return []
    def describe(self, state, action, viewer=None, names=None): return ""
    def render(self, state, viewer=None, names=None): return ""


class _Toy(_Base):
    events = EVENTS


def test_a_variant_that_declares_its_events_has_their_codec_as_its_own():
    variant = _Toy()
    assert variant.encode_action is EVENTS.encode  # the declaration's, with no call between
    assert variant.decode_action is EVENTS.decode
    assert variant.decode_action(_state(), {"seat": 0, "move": "pass"}) is PASS_ACTION

    class Own(_Toy):
        def decode_action(self, state, data):
            return PASS_ACTION

    assert Own().decode_action(_state(), {"move": "play"}) is PASS_ACTION
    assert Own().encode_action(_state(), PASS_ACTION) == {"move": "pass"}

    with pytest.raises(PluginError, match="toy neither declares its record events"):
        _Base().decode_action(_state(), {"move": "pass"})


def test_the_declaration_says_which_hidden_cards_an_event_takes_and_who_sees_them():
    state = _state()
    ace, king, two, three = (_card(name) for name in ("AS", "KS", "2H", "3H"))
    deal = (DEAL, ((ace, king), (two, three)))
    assert EVENTS.cards_taken(state, (PLAY, ace, 1, True)) == (ace,)
    assert EVENTS.cards_taken(state, BUILT[ace][False]) == (ace,)
    assert EVENTS.cards_taken(state, PASS_ACTION) == ()
    assert EVENTS.cards_taken(state, deal) == (ace, king, two, three)
    assert EVENTS.cards_taken(state, (DRAWN, (two,))) == (two,)
    assert list(EVENTS.cards_taken(state, (GIVE, 1, (two, three), ace))) == [two, three]  # the wild: shown
    assert EVENTS.seen_by(state, (PLAY, ace, 1, True), 1) == (PLAY, ace, 1, True)  # a decision: by all
    assert EVENTS.seen_by(state, deal, 1) == (DEAL, ((UNSEEN, UNSEEN), (two, three)))
    assert EVENTS.seen_by(state, deal, None) == (DEAL, ((UNSEEN, UNSEEN), (UNSEEN, UNSEEN)))
    drawn = (DRAWN, (two, three))
    assert EVENTS.seen_by(state, drawn, 2) is drawn  # state.drawer's own
    assert EVENTS.seen_by(state, drawn, 0) == (DRAWN, (UNSEEN, UNSEEN))
    assert EVENTS.seen_by(state, (RESHUFFLE,), 0) == (RESHUFFLE,)
    with pytest.raises(NotImplementedError, match=r"must write cards_taken: its toy events do not say"):
        EVENTS.cards_taken(state, (SPREAD, (two,)))  # a custom item: the state says it
    with pytest.raises(NotImplementedError, match=r"must write seen_by"):
        EVENTS.seen_by(state, (GIVE, 1, (two,), -1), 0)  # whose cards? the state says it
    taken_aside = RecordEvents("toy", moves={"take": (TAKE, Card(taken=False))}, chances={})
    assert taken_aside.cards_taken(state, (TAKE, ace)) == ()  # from the discards, seen by all


@pytest.mark.parametrize("players, seed", [(2, 1), (4, 2), (5, 7)])
def test_trick_states_say_what_its_declaration_says(players, seed):
    """Trick's ``cards_taken`` and ``seen_by`` are what its record events say:
    a state that names them (``events``) may leave both to the default."""
    from cardcli.testing import play_game

    game, _record = play_game("trick", players=players, seed=seed)
    events = game.variant.events
    state = game.variant.new_state(game.rules, players, game.dealer)
    for action in game.history:
        assert list(events.cards_taken(state, action)) == list(state.cards_taken(action))
        for viewer in (None, *range(players)):
            assert events.seen_by(state, action, viewer) == state.seen_by(action, viewer)
        state.apply(action)


def test_a_state_with_unseen_cards_reads_what_an_event_takes_from_its_declared_events():
    from cardcli.contract.unseen import UnseenCards

    class Declared(UnseenCards):
        events = EVENTS
        dealer, drawer, drawing = 1, 2, True

    class Undeclared(UnseenCards):
        pass

    ace, two = _card("AS"), _card("2H")
    state = Declared()
    assert state.cards_taken((PLAY, ace, 1, True)) == (ace,)
    assert state.seen_by((DRAWN, (two,)), 0) == (DRAWN, (UNSEEN,))
    assert state.seen_by((DRAWN, (two,)), 2) == (DRAWN, (two,))  # the drawer's own
    with pytest.raises(NotImplementedError, match=r"must write cards_taken: its toy events do not say"):
        state.cards_taken((SPREAD, (two,)))
    with pytest.raises(NotImplementedError, match=r"must write seen_by: its toy events"):
        state.seen_by((GIVE, 1, (two,), -1), 0)
    with pytest.raises(NotImplementedError, match=r"Undeclared must write cards_taken or name its record"):
        Undeclared().cards_taken((PLAY, ace, 1, True))
    with pytest.raises(NotImplementedError, match=r"Undeclared must write seen_by or name its record"):
        Undeclared().seen_by((DRAWN, (two,)), 0)
