"""An interactive game at the terminal: humans and CPUs around one engine.

The game's driver does the playing, as for every use of the engine: chance
comes from the game's seeded random source, CPUs from their policies, humans
from the variant's dialogue (a person is a player whose ``act`` waits for
input).  A hook shows each human their table and the events from their seat;
every event is written to the record before anyone sees its effect.

What each human sees is the same for every variant too: the events since
their last turn in their own words (``Variant.describe_events``), a header
naming the house rules, the table (``Variant.render``) styled for the
terminal, and, when a round ends, its final table and scores
(``Variant.round_summary``) with a pause.  Two or more people at one
terminal (hot seat) play on the terminal's alternate screen, and each turn
starts with a "pass to NAME" screen that clears the screen and the
scrollback, so nobody can scroll back to a hand that is not theirs.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from ..contract.variant import Action, State, Variant
from ..contract.views import SPECTATOR
from ..cpu.players import Player, make_cpu
from ..cpu.players.hard import SCALE, Budget, HardPlayer, Rating, supports_hard
from ..cpu.players.human import HumanPlayer
from ..cpu.players.ismcts import paired_gap
from ..engine.driver import Driver, Hook
from ..engine.game import Game, derive_seed
from ..engine.rulesets import ruleset_text
from ..kit.fit import visible_width, wrap
from ..kit.grammar import is_you, spoken_name
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.safe_text import printable
from ..words.narration import last_round_summary, reason_said, round_summary, rules_summary, turn_lines
from ..words.view import move_view, played_cards
from .ui import Part, TerminalUI

#: Events shown to a human before their turn (the record keeps them all).
LOG_LINES = 20
#: Moves recapped when a game is resumed.
RECAP_MOVES = 6
#: The terminal lines a turn takes below the table: whose turn it is, the
#: hand, the choices and the prompt.
PROMPT_ROWS = 5


class Session:
    """Plays ``game`` to the end (or until the person stops), showing each
    human what they may see.  A move the rules force on a human is made for
    them (and told with the moves before their next turn) unless
    ``confirm_forced``."""

    def __init__(self, game: Game, ui: TerminalUI, *, confirm_forced: bool = False):
        self.game = game
        self.ui = ui
        seed = game.seed if game.seed is not None else 0
        self.players: list[Player] = []
        for seat, info in enumerate(game.seats):
            if info.is_human:
                self.players.append(HumanPlayer(game.variant, ui, confirm_forced=confirm_forced))
            else:
                self.players.append(make_cpu(game.variant, info.cpu_level or "normal", seed, seat))
        self.humans = [seat for seat, info in enumerate(game.seats) if info.is_human]
        self.hot_seat = len(self.humans) > 1
        self.hints = bool(self.humans) and supports_hard(game.variant, game.state)
        #: The events each human has not been shown yet: (state before, action).
        self.logs: dict[int, list[tuple[State, Action]]] = {seat: [] for seat in self.humans}
        self.on_screen: int | None = None
        #: The cards of the last decision that put cards on the table.
        self.played: list[str] = []
        self.header = table_header(game.variant, game.rules, game.ruleset)
        self._round_end: str | None = None
        self._recap: list[str] = []
        #: The last event (the table before it, and it): the one that ends the game, at its end.
        self._last_event: tuple[State, Action] | None = None
        game.players = self.players
        if self.humans:
            game.hooks.append(_TableView(self))

    # ------------------------------------------------------------- events
    def log(self, action: Action) -> None:
        """Note an event (about to be applied) for every human, to be told
        from their own seat before their next turn.  A round that the last
        event ended is shown first, and play waits for Enter."""
        if not self.humans:
            return
        self.show_round_end()
        game = self.game
        state = game.state
        before = state.clone()
        for seat in self.humans:
            self.logs[seat].append((before, action))
        self._last_event = (before, action)
        cards = played_cards(game.variant, state, action)
        if cards:
            self.played = cards
        summary = round_summary(game.variant, state, action, game.names)
        if summary:
            self._round_end = summary

    def show_round_end(self) -> None:
        """A round that has just ended, shown to everyone; play waits for Enter."""
        if self._round_end is None:
            return
        summary, self._round_end = self._round_end, None
        self.played = []
        if not self.humans or self.game.state.is_terminal():
            return
        ui = self.ui
        if self.hot_seat:
            ui.clear()
            self.on_screen = None
            moves = []
        else:
            moves = self.log_lines(self.humans[0])
        # Each whole on the screen: the moves, then the summary (paged when taller than the screen).
        ui.show_parts([Part("", moves, self.played),
                       Part(_("Press Enter for the end of the round."), ["", summary])])
        ui.pause(_("Press Enter for the next deal."))

    # -------------------------------------------------------------- screen
    def show_log(self, seat: int) -> int:
        """The events ``seat`` has not seen yet, in its own words (a line per
        player's turn); the terminal lines they took."""
        shown = self.log_lines(seat)
        for line in shown:
            self.ui.show(line, played=self.played)
        return sum(len(wrap(line, self.ui.width)) for line in shown)

    def log_lines(self, seat: int) -> list[str]:
        """The lines of :meth:`show_log`, which ``seat`` has then seen."""
        events = self.logs[seat]
        if not events:
            return []
        game = self.game
        lines = turn_lines(game.variant, events, viewer=seat, names=game.names)
        events.clear()
        shown = [""]
        if len(lines) > LOG_LINES:
            hidden = len(lines) - LOG_LINES
            shown.append("  " + _.ngettext(
                "({count:,} earlier turn not shown; `cardcli replay` the record for all of them)",
                "({count:,} earlier turns not shown; `cardcli replay` the record for all of them)",
                hidden).format(count=hidden))
        shown.extend("  " + line for line in lines[-LOG_LINES:])
        return shown

    def show_table(self, seat: int) -> None:
        """``seat``'s turn: (in hot seat, the pass screen first) the events
        since its last turn, the header and the table.  The menu the dialogue
        offers next is its own: the last one's keys are forgotten."""
        game = self.game
        name = game.names[seat]
        self.show_round_end()
        self.ui.menu = {}
        if self.hot_seat and self.on_screen != seat:
            self.ui.clear()
            self._show_recap()
            self.ui.pause(_("Pass to {name}, press Enter").format(name=name))
            self.ui.clear()
        self.on_screen = seat
        self._show_recap()
        told = self.show_log(seat)
        table = game.variant.render(game.state, viewer=seat, names=game.names)
        turn = self.turn_rows(table)
        if self.ui.interactive and turn > self.ui.rows:  # its top would scroll off: the shorter table
            short = game.variant.render_short(game.state, viewer=seat, names=game.names)
            if short is not None:
                table, turn = short, self.turn_rows(short)
        if told and self.ui.interactive and told + turn > self.ui.rows:
            # The table would push the moves off the screen before they are read.
            self.ui.pause(_("Press Enter for the table."))
        played = list(self.played)
        self.ui.show_table(lambda: show_turn(self.ui, self.header, table, name, played, self.hints),
                           hand=True)

    def turn_rows(self, table: str) -> int:
        """The rows a turn takes with ``table``: the header, the table, and what comes under it."""
        return sum(len(wrap(text, self.ui.width)) for text in (self.header, table)) + PROMPT_ROWS

    def recap(self, moves: int = RECAP_MOVES) -> None:
        """Before a resumed game's first table: its last few moves, rebuilt
        from the game's history and told as the human saw them (in hot seat,
        only what everyone saw)."""
        game = self.game
        if not self.humans or not game.history:
            return
        events = last_moves(game, moves)
        viewer = self.humans[0] if not self.hot_seat else SPECTATOR
        lines = turn_lines(game.variant, events, viewer=viewer, names=game.names)
        played: list[str] = []
        for before, action in events:
            played = played_cards(game.variant, before, action) or played
        self.played = played
        told = sum(1 for before, _action in events if before.current_player() >= 0)
        if told >= moves:
            title = _.ngettext("The last {count:,} move before the game stopped:",
                               "The last {count:,} moves before the game stopped:", moves).format(count=moves)
        else:
            title = _("The game so far:")
        self._recap = ["", title, *("  " + line for line in lines[-LOG_LINES:])]

    def _show_recap(self) -> None:
        """The recap of a resumed game, once, before the first table (in hot
        seat, on the first pass screen: it shows only what everyone saw)."""
        for line in self._recap:
            self.ui.show(line, played=self.played)
        self._recap = []

    # ---------------------------------------------------------------- play
    def run(self) -> dict | None:
        """Play on to the end (every seat has a player); write and return the result."""
        try:
            self.game.advance()
        finally:
            self.ui.hint = None
        return self.game.finish()

    def screen(self) -> AbstractContextManager[None]:
        """Where the game is played: in hot seat, the terminal's alternate
        screen (no scrollback), left again when the game ends or stops."""
        return self.ui.private_screen() if self.hot_seat else nullcontext()

    def hint_text(self, state: State, seat: int, legal: list[Action],
                  menu: Mapping[Action, str] | None = None) -> str:
        """What the hard CPU would do here, from what ``seat`` can see (never
        more), numbered as the menu on screen."""
        return hint_text(self.game, state, seat, legal, self.ui.menu if menu is None else menu,
                         rows=self.ui.hint_room, width=self.ui.width)

    def show_end(self, result: dict, record: str = "") -> None:
        """The end of the game, each part of it whole on the screen: the moves
        since the last turn; the last round's summary (in a game of rounds:
        its final table, what each player scored, the score sheet) or the
        final table; how the game ended, the ranking and ``record`` (where
        the record is).  At a terminal, a part that would push the one
        before it off the screen waits for Enter, and a part taller than the
        screen is shown in the pager first (``TerminalUI.show_parts``)."""
        game = self.game
        moves = self.log_lines(self.humans[0]) if self.humans and not self.hot_seat else []
        summary = None if self._last_event is None else \
            last_round_summary(game.variant, *self._last_event, game.names)
        table = summary if summary is not None else game.variant.render(game.state, viewer=None,
                                                                          names=game.names)
        ranking = ranking_text(result, game.names, game.variant.words(game.variant.score_label))
        self.ui.show_parts([Part("", moves, self.played),
                            Part(_("Press Enter for the end of the game."), ["", table], with_next=True),
                            Part(_("Press Enter for the ranking."),
                                 ["", over_text(result, game.names, game.variant), ranking],
                                 plain=["", record] if record else [])])


class _TableView(Hook):
    """What the humans at the table see: their table before they decide (with
    the hint on offer), and every event described from their own seat."""

    def __init__(self, session: Session):
        self.session = session

    def deciding(self, driver: Driver, seat: int, legal: list[Action]) -> None:
        session = self.session
        player = session.players[seat]
        if seat in session.logs and isinstance(player, HumanPlayer) and player.asks(legal):
            session.show_table(seat)
            if session.hints:
                state = driver.state
                session.ui.hint = lambda: session.hint_text(state, seat, legal)

    def before(self, driver: Driver, seat: int, action: Action) -> None:
        self.session.ui.hint = None
        self.session.ui.forget_table()
        self.session.log(action)


def last_moves(game: Game[Any], moves: int) -> list[tuple[State, Action]]:
    """The events of ``game``'s last ``moves`` decisions (and the chance
    events after them), each with the table as it was before it."""
    walk = game.walk()
    decisions = walk.decisions()
    start = decisions[-moves] if len(decisions) >= moves else 0
    return walk.events(start)


def show_turn(ui: TerminalUI, header: str, table: str, name: str, played: Collection[str],
              hints: bool) -> None:
    """A person's turn as a terminal shows it (``cardcli play``, and the
    host's turns at ``cardcli serve``): the header, the table with their row
    and the cards just played standing out, and whose turn it is."""
    ui.show("")
    ui.show(header)
    ui.show(table, played=played)
    turn = _("{name}, it is your turn. (Type ? for a hint.)") if hints else _("{name}, it is your turn.")
    ui.show(turn.format(name=spoken_name(name)), bold=True)


def hint_text(game: Game, state: State, seat: int, legal: list[Action],
              menu: Mapping[Action, str] | None = None, *, rows: int | None = None, width: int = 80) -> str:
    """The hard CPU's view of ``seat``'s options from that seat (never more):
    each move as the menu offers it ("[2] play 4D: 32.8"), best first, a
    move the search cannot tell apart from the first marked "a near-tie".
    With a single legal move there is nothing to weigh: it says so, at once.
    ``rows``: the most rows of ``width`` columns it may take (as many moves
    as fit, at least three)."""
    menu = menu or {}
    if len(legal) == 1:
        label = move_view(game.variant, state, seat, legal[0], game.names).label
        key = menu.get(legal[0])
        return _("Hint - there is only one move: {move}.").format(move=f"[{key}] {label}" if key else label)
    searcher = HardPlayer(game.variant, derive_seed(game.seed or 0, "hint", game.events), seat, Budget())
    ratings = sorted(searcher.rate(state, seat, legal), key=lambda r: -r.value)
    moves = []
    for rating in ratings:
        label = move_view(game.variant, state, seat, rating.action, game.names).label
        key = menu.get(rating.action)
        move = f"[{key}] {label}" if key else label
        value = rating.value * 100
        line = f"  {move}: {value:.1f}"
        if rating is not ratings[0]:
            noise = search_noise(ratings[0], rating)
            if not math.isnan(noise):  # (too few shared deals to say)
                if ratings[0].value - rating.value <= noise:
                    line = "  " + _("{move}: {value:.1f} ±{noise:.1f}, a near-tie").format(
                        move=move, value=value, noise=noise * 100)
                else:
                    line += f" ±{noise * 100:.1f}"
        moves.append(line)
    title = _("Hint - the hard CPU's view from your seat ({budget}):").format(
        budget=searcher.budget.describe())
    scale = [_(SCALE), "  " + _(NOISE)]
    shown = min(len(moves), 10)
    while True:
        more = ["  " + _("... and {count} more").format(count=len(moves) - shown)] \
            if shown < len(moves) else []
        lines = [title, *moves[:shown], *more, *scale]
        if rows is None or shown <= 3 or sum(len(wrap(line, width)) for line in lines) <= rows:
            return "\n".join(lines)
        shown -= 1


#: The search's noise in the gap between two moves: two standard errors of
#: the paired gap, with :data:`NOISE_FLOOR` for moves whose playouts never
#: differed.  Measured (docs/cpu.md, "How sure a hint is"): the same
#: positions searched again with other seeds put the gap within it 90% to
#: 99% of the time, by game and table size.
NOISE_ERRORS = 2.0
#: Added to the squared deviations of the paired gap: the error of one deal
#: differing by about a third of the scale (in trick a third of the pairs
#: of moves tied on every shared deal, yet differed on other deals).
NOISE_FLOOR = 0.1
#: The hint's last line, under the scale (shown two columns in).
NOISE = N_("(±: the search's noise in the gap to the first; a near-tie is within it)")


def search_noise(first: Rating, other: Rating) -> float:
    """The search's noise in how far ``other`` trails ``first``:
    :data:`NOISE_ERRORS` standard errors of the gap on the imagined deals
    both were played out from (their luck cancels); nan with too few deals."""
    _gap, error, _deals = paired_gap(first.values, other.values, NOISE_FLOOR)
    return NOISE_ERRORS * error


def table_header(variant: Variant, rules: Mapping[str, Any], ruleset: str | None) -> str:
    """The line above the table: the ruleset's name (the variant's title
    without one) and the house rules that differ from the defaults."""
    changed = [text for text in rules_summary(variant, _at_the_table(variant, rules)) if text]
    title = printable(_ruleset_title(variant, ruleset)) if ruleset else variant.words(variant.title)
    if changed:
        return f"{title}: {', '.join(changed)}"
    return _("{title}: the standard rules").format(title=title)


def _ruleset_title(variant: Variant, ruleset: str) -> str:
    """A ruleset's name in the chosen language (a shipped one's; any other as written), also
    where the lobby's ``set`` follows it (``<name or the variant's title> + OPTION=VALUE``)."""
    said = ruleset_text(variant, ruleset)
    head, plus, rest = ruleset.partition(" + ")
    if said != ruleset or not plus:
        return said
    return (variant.words(head) if head == variant.title else ruleset_text(variant, head)) + plus + rest


def _at_the_table(variant: Variant, rules: Mapping[str, Any]) -> dict[str, Any]:
    """``rules`` without the table sizes: at a table, the number of players is settled."""
    return {key: value for key, value in rules.items() if key not in ("min_players", "max_players")}


def end_text(variant: Variant, state: State, result: Mapping[str, Any], names: Sequence[str]) -> str:
    """The end of a game: the final table with every hand, how it ended and
    the ranking (the same at the terminal, in a replay and at a served table)."""
    return "\n".join([variant.render(state, viewer=None, names=names), "", over_text(result, names, variant),
                      ranking_text(result, names, variant.words(variant.score_label))])


def over_text(result: Mapping[str, Any], names: Sequence[str], variant: Variant | None = None) -> str:
    """``Game over: ann played their last card.``, in the players' names and the chosen language
    (:func:`~cardcli.words.narration.reason_said`)."""
    reason = reason_said(variant, str(result.get("reason", "")), names)
    return _("Game over: {reason}.").format(reason=reason) if reason else _("Game over.")


def ranking_text(result: Mapping[str, Any], names: Sequence[str], score_label: str = "points") -> str:
    """The final ranking, one aligned row per player, best first, then who won."""
    places = result["places"]
    order = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
    scores = result.get("scores")
    shown = [spoken_name(name) for name in names]
    name_width = max(visible_width(shown[seat]) for seat in order)
    score_width = max((len(str(s)) for s in scores), default=0) if scores is not None else 0
    place_width = max(len(str(p)) for p in places)
    lines = [_("Ranking:")]
    for seat in order:
        padding = " " * (name_width - visible_width(shown[seat]))
        row = f"  {places[seat]:>{place_width}}. {shown[seat]}{padding}"
        if scores is not None:
            row += f"  {scores[seat]:>{score_width}} {score_word(scores[seat], score_label)}"
        lines.append(row.rstrip())
    winner = result.get("winner")
    if winner is None:
        lines.append("  " + _("No single winner."))
    elif is_you(names[winner]):
        # Translators: the winner is the player named "you" ("you win!").
        lines.append("  " + _("{name} win!").format(name=spoken_name(names[winner])))
    else:
        lines.append("  " + _("{name} wins!").format(name=spoken_name(names[winner])))
    return "\n".join(lines)


def score_word(count: int, label: str) -> str:
    """``label`` (a plural: "points", "deals won") for ``count``: "1 point", "1 deal won"."""
    if abs(count) != 1:
        return label
    first, _, rest = label.partition(" ")
    if first.endswith("s"):
        first = first[:-1]
    return f"{first} {rest}".rstrip()
