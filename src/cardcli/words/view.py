"""What one seat sees, as data: the table and its choices for clients that are not a terminal.

The terminal shows :meth:`Variant.render`'s text.  A phone's browser needs the
same table as structure (its hand as cards to tap, the piles, everyone's card
count, melds, scores) and the legal moves with the hand cards each one uses.
:class:`TableView` and :class:`MoveView` are that structure.  A variant
whose ``table_view`` and ``move_view`` say more fills them itself; for any
other the core fills them from what every variant already has (``card_zones``,
``hidden_zones``, ``render``, ``encode_action``), so a third party's variant
is playable from a browser untouched.  The core asks through
:func:`table_view` and :func:`move_view`, and fills a view's ``text`` with
``render``'s.  One presentation is enough: a variant whose ``render`` is
:func:`render_from_view` has its text drawn from its view.

A view is built for one viewer and holds only what that viewer may see: the
server sends nothing else.  ``cardcli.testing.VariantConformance`` checks it
by dealing every card the viewer cannot see anew and comparing the views.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..contract.hidden import HiddenInfo, hidden_to_anyone
from ..contract.views import SPECTATOR, MoveView, Pile, PlayerView, TableView
from ..kit.cards import NAME, sorted_hand
from ..kit.grammar import seat_names
from ..kit.language import core as _
from .table_text import hands_shown, view_text

if TYPE_CHECKING:
    from ..contract.variant import Action, State, Variant


def viewer_hand(hands: Sequence[Sequence[int]], viewer: int | None) -> Sequence[int]:
    """The hand of ``viewer`` where it is a seat, else none (a spectator)."""
    return hands[viewer] if viewer is not None and 0 <= viewer < len(hands) else ()


def viewer_cards(hands: Sequence[Sequence[int]], viewer: int | None) -> list[str]:
    """The hand of ``viewer``, sorted and named, as a view's ``hand`` (none for a spectator)."""
    return [NAME[card] for card in sorted_hand(viewer_hand(hands, viewer))]


def seat_views(hands: Sequence[Sequence[int]], names: Sequence[str], dealer: int,
               notes: Callable[[int, Sequence[int]], list[str]] = lambda seat, hand: [],
               score: Callable[[int], str] = lambda seat: "") -> list[PlayerView]:
    """Each seat as the table shows it: its name, the count of its cards,
    "dealer" first among its notes; ``notes(seat, hand)`` and ``score(seat)``
    add the variant's own ("Page One", "total 12")."""
    # Translators: the note beside the dealer's seat in the table.
    dealt = [_("dealer")]
    return [PlayerView(seat, names[seat], len(hand), dealt * (seat == dealer) + notes(seat, hand),
                       score(seat)) for seat, hand in enumerate(hands)]


def hand_zone(state: State, seat: int) -> list[int] | None:
    """``seat``'s hand, by the ``"hand N"`` zone every built-in variant uses."""
    if not 0 <= seat < state.num_players:
        return None
    return state.card_zones().get(f"hand {seat}")


def table_view(variant: Variant[Any], state: State, viewer: int | None, names: Sequence[str]) -> TableView:
    """The table as ``viewer`` sees it, as data: the variant's own, or the
    core's; its ``text`` is ``render``'s where the view has none."""
    view = _view(variant, state, viewer, names)
    if not view.text:
        view.text = variant.render(state, viewer=viewer, names=names)
    return view


def _view(variant: Variant[Any], state: State, viewer: int | None, names: Sequence[str]) -> TableView:
    """The variant's view, or one from its zones, as they come (their ``text`` perhaps empty)."""
    view = variant.table_view(state, viewer, names)
    return view if view is not None else zones_view(state, viewer, names)


def render_from_view(variant: Variant[Any], state: State, viewer: int | None = None,
                     names: Sequence[str] | None = None) -> str:
    """The table as text drawn from its view (:func:`~cardcli.words.table_text.view_text`):
    a variant that assigns it as its ``render`` (``render = render_from_view``)
    writes one presentation, its ``table_view`` (whose ``text`` it leaves
    empty), for the page and the terminal.  A viewer of ``None`` sees every
    ``"hand N"`` zone beside its seat."""
    view = _view(variant, state, viewer, seat_names(names, state.num_players))
    if viewer is None:
        zones = state.card_zones()
        shown = hands_shown([zones.get(f"hand {seat}", []) for seat in range(state.num_players)], None)
    else:
        shown = {viewer: " ".join(view.hand)} if view.hand else {}
    return view_text(view, shown)


def move_view(variant: Variant[Any], state: State, seat: int, action: Action,
              names: Sequence[str]) -> MoveView:
    """How ``seat`` picks ``action``: the variant's own words, or the core's."""
    view = variant.move_view(state, seat, action, names)
    return view if view is not None else generic_move_view(variant, state, seat, action, names)


def hidden_to(state: State, viewer: int | None) -> set[str] | None:
    """The zones ``viewer`` cannot see (a spectator: any zone hidden from some
    seat), or ``None`` when the variant does not say."""
    if viewer is None:
        return set()
    if not isinstance(state, HiddenInfo):
        return None
    if 0 <= viewer < state.num_players:
        return set(state.hidden_zones(viewer))
    return hidden_to_anyone(state, state.num_players)


def zones_view(state: State, viewer: int | None, names: Sequence[str]) -> TableView:
    """A view from the zones alone: hands as counts, the viewer's own hand as
    cards, every other zone as a count, with its cards where they are face up."""
    zones = state.card_zones()
    player = state.current_player()
    players = [PlayerView(seat, names[seat], len(zones[f"hand {seat}"]) if f"hand {seat}" in zones else None)
               for seat in range(state.num_players)]
    own = f"hand {viewer}" if viewer is not None else None
    hidden = hidden_to(state, viewer)
    piles = []
    for name, cards in zones.items():
        if name.startswith("hand ") or not cards:
            continue
        shown = hidden is not None and name not in hidden
        if viewer is None:
            shown = True
        # A zone's order is the variant's business: a count, plus the cards
        # (sorted, so nothing is read into their order) where they are face up.
        piles.append(Pile(name, [NAME[c] for c in sorted_hand(cards)] if shown else [], len(cards)))
    hand: list[str] = []
    if own is not None and own in zones:
        hand = [NAME[c] for c in sorted_hand(zones[own])]
    return TableView(viewer=viewer, turn=player if player >= 0 else None, players=players, hand=hand,
                     piles=piles)


def _card_names(value: Any) -> list[str]:
    """Card names in a record field: ``"7H"``, ``["4S", "3H=5S"]`` (the card before ``=``)."""
    items = value if isinstance(value, list) else [value]
    return [item.split("=", 1)[0].upper() for item in items if isinstance(item, str)]


def move_words(fields: Mapping[str, Any]) -> str:
    """A decision's record fields as a command, in the present tense: "play
    7H", "meld 4S 4H 4D", "play 8C (suit H, call)"."""
    rest = dict(fields)
    words = [str(rest.pop("move", None) or rest.pop("chance", None) or "move")]
    rest.pop("seat", None)
    for key in ("card", "cards"):
        value = rest.pop(key, None)
        words.extend(str(v) for v in (value if isinstance(value, list) else [value]) if v is not None)
    notes = []
    for key, value in rest.items():
        if value is True:
            notes.append(key)
        elif value is not False and value is not None:
            shown = " ".join(str(v) for v in value) if isinstance(value, list) else str(value)
            notes.append(f"{key} {shown}")
    return " ".join(words) + (f" ({', '.join(notes)})" if notes else "")


def generic_move_view(variant: Variant, state: State, seat: int, action: Action,
                      names: Sequence[str]) -> MoveView:
    """A move from its record fields: its label says them as a command ("play
    7H"), and the cards it names that are in the seat's hand are the cards it
    uses."""
    fields = variant.encode_action(state, action)
    label = move_words(fields)
    hand = hand_zone(state, seat)
    cards: list[str] = []
    if hand is not None:
        left = Counter(NAME[c] for c in hand)
        for key in ("card", "cards"):
            for name in _card_names(fields.get(key)):
                if left[name] > 0:
                    left[name] -= 1
                    cards.append(name)
    return MoveView(kind=str(fields.get("move", "move")), label=label, cards=cards)


def moves_for(variant: Variant, state: State, seat: int, legal: Sequence[Action],
              names: Sequence[str]) -> list[MoveView]:
    """Every legal move of ``seat`` as a :class:`MoveView`, in ``legal``'s order."""
    return [move_view(variant, state, seat, action, names) for action in legal]


def played_cards(variant: Variant, state: State, action: Action) -> list[str]:
    """The cards a decision (about to be applied to ``state``) puts on the
    table: those its record fields name that are in the actor's hand.  Empty
    for a chance event or a move that plays no card (a draw, a take)."""
    seat = state.current_player()
    if seat < 0:
        return []
    fields = variant.encode_action(state, action)
    named = [name for key in ("card", "cards", "meld") for name in _card_names(fields.get(key))]
    hand = hand_zone(state, seat)
    if hand is None or not named:
        return named
    left = [NAME[c] for c in hand]
    cards = []
    for name in named:
        if name in left:
            left.remove(name)
            cards.append(name)
    return cards


def public_table(variant: Any, state: Any, names: Sequence[str]) -> TableView:
    """The table everyone may see (no hand): what a board of a game shows."""
    return table_view(variant, state, SPECTATOR, names)
