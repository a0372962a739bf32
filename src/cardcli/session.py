"""An interactive game at the terminal: humans and CPUs around one engine.

The game's driver does the playing, as for every use of the engine: chance
comes from the game's seeded random source, CPUs from their policies, humans
from the variant's dialogue (a person is a player whose ``act`` waits for
input).  A hook shows each human their table and the events from their seat;
every event is written to the record before anyone sees its effect.
"""

from __future__ import annotations

from .driver import Driver, Hook
from .game import Game, derive_seed
from .players import Player, make_cpu
from .players.hard import Budget, HardPlayer, supports_hard
from .players.human import HumanPlayer
from .ui import TerminalUI
from .variant import Action, State

#: Events shown to a human before their turn (the record keeps them all).
LOG_LINES = 20


class Session:
    """Plays ``game`` to the end (or until the person stops), showing each
    human what they may see."""

    def __init__(self, game: Game, ui: TerminalUI):
        self.game = game
        self.ui = ui
        seed = game.seed if game.seed is not None else 0
        self.players: list[Player] = []
        for seat, info in enumerate(game.seats):
            if info.is_human:
                self.players.append(HumanPlayer(game.variant, ui))
            else:
                self.players.append(make_cpu(game.variant, info.cpu_level or "normal", seed, seat))
        self.humans = [seat for seat, info in enumerate(game.seats) if info.is_human]
        self.hints = bool(self.humans) and supports_hard(game.variant, game.state)
        self.logs: dict[int, list[str]] = {seat: [] for seat in self.humans}
        self.on_screen: int | None = None
        game.players = self.players
        if self.humans:
            game.hooks.append(_TableView(self))

    def log(self, action: Action) -> None:
        """Describe an event to every human, from their own seat."""
        game = self.game
        state = game.state
        player = state.current_player()
        names = game.names
        for seat in self.humans:
            text = game.variant.describe(state, action, viewer=seat, names=names)
            if player >= 0:
                text = f"{names[player]} {text}"
            self.logs[seat].append(text)

    def show_table(self, seat: int) -> None:
        game = self.game
        hot_seat = len(self.humans) > 1
        if hot_seat and self.on_screen != seat:
            self.ui.clear()
            self.ui.pause(f"Pass to {game.names[seat]}, press Enter")
            self.ui.clear()
        self.on_screen = seat
        lines = self.logs[seat]
        if lines:
            self.ui.show("")
            if len(lines) > LOG_LINES:
                self.ui.show(f"  ({len(lines) - LOG_LINES} earlier events not shown; "
                             "`cardcli replay` the record for all of them)")
            for line in lines[-LOG_LINES:]:
                self.ui.show("  " + line)
            lines.clear()
        self.ui.show("")
        self.ui.show(game.variant.render(game.state, viewer=seat, names=game.names))
        hint = " (Type ? for a hint.)" if self.hints else ""
        self.ui.show(f"{game.names[seat]}, it is your turn.{hint}")

    def run(self) -> dict | None:
        """Play on to the end (every seat has a player); write and return the result."""
        try:
            self.game.advance()
        finally:
            self.ui.hint = None
        return self.game.finish()

    def hint_text(self, state: State, seat: int, legal: list[Action]) -> str:
        """What the hard CPU would do here, from what ``seat`` can see (never more)."""
        game = self.game
        searcher = HardPlayer(game.variant, derive_seed(game.seed or 0, "hint", game.events), seat,
                              Budget())
        ratings = sorted(searcher.rate(state, seat, legal), key=lambda r: -r.value)
        lines = [f"Hint - the hard CPU's view from your seat ({searcher.budget.describe()}; "
                 "100 = sure first place, 0 = sure last):"]
        for rating in ratings[:10]:
            text = game.variant.describe(state, rating.action, viewer=seat, names=game.names)
            lines.append(f"  {rating.value * 100:5.1f}  {text}")
        if len(ratings) > 10:
            lines.append(f"  ... and {len(ratings) - 10} more")
        return "\n".join(lines)

    def show_end(self, result: dict) -> None:
        game = self.game
        names = game.names
        if self.humans:
            viewer = self.humans[0] if len(self.humans) == 1 else None
            if viewer is not None and self.logs[viewer]:
                self.ui.show("")
                for line in self.logs[viewer]:
                    self.ui.show("  " + line)
        self.ui.show("")
        self.ui.show(game.variant.render(game.state, viewer=None, names=names))
        self.ui.show("")
        reason = result.get("reason", "")
        for seat in sorted(range(len(names)), reverse=True):  # "seat 12" before "seat 1"
            reason = reason.replace(f"seat {seat}", names[seat])
        self.ui.show("Game over" + (f": {reason}" if reason else "") + ".")
        self.ui.show(ranking_text(result, names, game.variant.score_label))


class _TableView(Hook):
    """What the humans at the table see: their table before they decide (with
    the hint on offer), and every event described from their own seat."""

    def __init__(self, session: Session):
        self.session = session

    def deciding(self, driver: Driver, seat: int, legal: list[Action]) -> None:
        session = self.session
        if seat in session.logs:
            session.show_table(seat)
            if session.hints:
                state = driver.state
                session.ui.hint = lambda: session.hint_text(state, seat, legal)

    def before(self, driver: Driver, seat: int, action: Action) -> None:
        self.session.ui.hint = None
        self.session.log(action)


def ranking_text(result: dict, names: list[str], score_label: str = "points") -> str:
    places = result["places"]
    order = sorted(range(len(places)), key=lambda seat: (places[seat], seat))
    lines = ["Ranking:"]
    scores = result.get("scores")
    for seat in order:
        score = f"  {scores[seat]} {score_label}" if scores is not None else ""
        lines.append(f"  {places[seat]}. {names[seat]}{score}")
    if result.get("winner") is None:
        lines.append("  No single winner.")
    else:
        lines.append(f"  {names[result['winner']]} wins!")
    return "\n".join(lines)
