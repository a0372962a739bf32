"""A person's turn at trick-taking Page One: numbered choices or typed cards (``qh``, ``jk``)."""

from __future__ import annotations

from cardcli.contract.variant import UI, Action, Variant
from cardcli.kit.cards import SUIT, parse_card, sorted_hand, suit_words
from cardcli.kit.grammar import join_or
from cardcli.words.prompts import Other, card_turn, split_call, typed_move

from .language import N_, _
from .state import DRAW_ACTION, P_FORCED, PLAY, PLAYS, TrickState

#: The turn's help, shown as ``_(HELP)``.
HELP = N_("Follow the suit led if you can; the joker wins any trick. With no card of the suit led, draw "
          "until one comes and play it. Type a number or a card (7h, 10s, jk).")

#: The words that draw.
DRAW_WORDS = ("d", "draw")


class TrickPrompts(Variant[TrickState]):
    def parse_move(self, state: TrickState, text: str, legal: list[Action]) -> Action | None:
        """Typed moves: ``7h``, ``jk``, ``qh!`` or ``p qh`` (with the Page One call), ``draw``/``d``."""
        call, words = split_call(text)
        return typed_move(words, legal, dict.fromkeys(DRAW_WORDS, DRAW_ACTION),
                          lambda words: PLAYS[parse_card(words[0])][call] if len(words) == 1 else None)

    def human_turn(self, state: TrickState, seat: int, legal: list[Action], ui: UI) -> Action:
        """Only legal moves are offered; the Page One call is not pressed for you: forgetting it is part
        of the game."""
        cards = sorted((a[1] for a in legal if a[0] == PLAY and not a[2]), key=lambda c: (c // 13, c))
        keys = {PLAYS[card][call]: str(n) for n, card in enumerate(cards, start=1) for call in (0, 1)}
        return card_turn(
            ui, state, legal, hand=sorted_hand(state.hands[seat]), cards=cards, keys=keys,
            play=lambda card, called, rest: None if rest else PLAYS[card][called],  # "qh x" is no move
            why_not=lambda card: state.why_illegal(PLAYS[card][False]), help=_(HELP),
            others=[Other(_("draw from the stock"), DRAW_ACTION, DRAW_WORDS,
                          _("{key} to draw").format(key="d"))],
            can_call=any(a[0] == PLAY and a[2] for a in legal),
            above=_situation(state, cards, DRAW_ACTION in legal),
            parse=lambda text: self.parse_move(state, text, legal),
            # What to type: cards the parser reads, joined in the chosen language ("qh or jk").
            example=join_or(["qh", "jk"]) if state.cfg.jokers else "qh")


def _situation(state: TrickState, cards: list[int], can_draw: bool) -> list[str]:
    """What the turn is about, said once before the choices (the table names a drawn card to play)."""
    if state.phase == P_FORCED:
        return []
    if not state.trick:
        return [_("You lead: any card.")]
    if state.suit < 0:
        return [_("The joker was led: play any card; its suit is the one to follow.")]
    if can_draw and not any(SUIT[c] == state.suit for c in cards):
        suits = suit_words(state.suit)
        if not state.can_draw():
            return [_("You have no {suits} and nothing is left to draw: play the joker, "
                      "or draw and the hand is called off.").format(suits=suits)]
        return [(_("You have no {suits}: play the joker, or draw until one comes.") if cards else
                 _("You have no {suits}: draw until one comes, and play it.")).format(suits=suits)]
    return []
