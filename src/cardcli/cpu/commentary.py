"""A replay that teaches (``cardcli replay --explain``): the rule behind each
move, and what the hard CPU thought of the watched seat's alternatives.

The rule comes from the variant (``Variant.rule_behind``, public knowledge
only, with a generic default), so a third party's game is commented too.  The
ratings come from the core's hard CPU searching from the watched seat's view
alone, exactly as it would have to decide there: it never reads a hidden card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..contract.variant import Action, State
from ..engine.game import Game, derive_seed
from ..kit.grammar import possessive
from ..kit.language import core as _
from ..words.narration import rule_behind
from ..words.view import move_view
from .players.hard import SCALE, Budget, HardPlayer, supports_hard

#: Alternatives listed per decision (the move played is always listed).
SHOWN = 8


def frame_commentary(game: Game[Any], events: Sequence[tuple[State, Action]], viewer: int | None,
                  budget: Budget | None = None) -> list[str]:
    """Lines explaining ``events`` (each with the table before it): "why:"
    and the rule, for every event the variant explains; for the decisions of
    seat ``viewer``, the hard CPU's rating of every alternative from that
    seat, the move played marked."""
    variant, names = game.variant, game.names
    lines: list[str] = []
    for state, action in events:
        text = rule_behind(variant, state, action, names)
        seat = state.current_player()
        if text:
            lines.append(_("why: {reason}").format(reason=text))
        if viewer is not None and seat == viewer and supports_hard(variant, state):
            lines.extend(_ratings(game, state, seat, action, budget or Budget()))
    return lines


def _ratings(game: Game[Any], state: State, seat: int, played: Action, budget: Budget) -> list[str]:
    legal = state.legal_actions()
    if len(legal) < 2:
        return []
    names = game.names
    searcher = HardPlayer(game.variant, derive_seed(game.seed or 0, "explain", _position(state)), seat,
                          budget)
    ratings = sorted(searcher.rate(state, seat, legal), key=lambda r: -r.value)
    # Translators: {whose} is a possessive ("ann's", "your"): "the hard CPU's view from ann's seat".
    lines = [_("the hard CPU's view from {whose} seat ({budget}):").format(
        whose=possessive(names[seat]), budget=budget.describe())]
    shown = ratings[:SHOWN]
    if played in legal and all(r.action != played for r in shown):
        shown.append(next(r for r in ratings if r.action == played))
    for rating in shown:
        label = move_view(game.variant, state, seat, rating.action, names).label
        mark = "  " + _("<- played") if rating.action == played else ""
        lines.append(f"  {label}: {rating.value * 100:.1f}{mark}")
    if len(ratings) > len(shown):
        lines.append("  " + _("... and {count} more").format(count=len(ratings) - len(shown)))
    if played not in legal:
        label = move_view(game.variant, state, seat, played, names).label
        said = _("played: {move} (a longer form of a listed move, not rated)")
        lines.append("  " + said.format(move=label))
    lines.append(_(SCALE))
    return lines


def _position(state: State) -> str:
    """A stable name for a position, to seed its search (the same replay rates alike)."""
    return repr(sorted((name, len(cards)) for name, cards in state.card_zones().items()))
