"""How sure a hint is: the same position searched again with other seeds.

The hint (``?`` in ``cardcli play``) rates each move by a search of 600
playouts, and says, for every move after the first, the search's noise in
its gap to the first (``cardcli.terminal.session.search_noise``: two standard errors
of the paired gap, with a floor).  This measures whether that noise is
honest: positions of games between ``normal`` CPUs, each searched ``SEARCHES``
times with other seeds; for each move, how often one search's gap lands
within the noise that search states of the gap's mean over all of them, and
how often one search's first move is not the move the searches agree on.

    python -m tests.hint_noise                 # every game, heads-up and at four
    python -m tests.hint_noise endofpage 2     # one game and table size

``tests/test_hint_noise.py`` runs a quick mode of it.
"""

from __future__ import annotations

import random
import statistics
import sys
from dataclasses import dataclass

from cardcli.contract.variant import State
from cardcli.cpu.players import CpuPlayer
from cardcli.cpu.players.hard import Budget, HardPlayer
from cardcli.engine.plugins import get_registry
from cardcli.engine.rulesets import default_ruleset
from cardcli.terminal.session import search_noise

#: Searches of each position, and the hint's own budget (playouts only, so
#: that a busy machine does not change what is measured).
SEARCHES = 8
PLAYOUTS = 600


@dataclass
class Noise:
    """What the searches of some positions showed."""

    positions: int = 0
    searches: int = 0
    #: Searches whose first move was not the move with the best mean over all.
    first_differs: int = 0
    #: (search, move) pairs, and those whose gap was within the stated noise.
    gaps: int = 0
    within: int = 0

    def line(self, what: str) -> str:
        return (f"{what}: {self.positions} positions x {self.searches // max(1, self.positions)} searches "
                f"of {PLAYOUTS} playouts; a search's gap within its stated noise "
                f"{self.within / self.gaps:.1%} of {self.gaps}; its first move not the agreed one in "
                f"{self.first_differs} of {self.searches}")


def positions(variant_name: str, players: int, count: int) -> list[State]:
    """Positions where seat 0 has three moves or more (in End of the Page,
    a meld or a discard to choose), from games of ``normal`` CPUs."""
    variant = get_registry().get(variant_name)
    rules = default_ruleset(variant).options
    found: list[State] = []
    game = 0
    while len(found) < count:
        game += 1
        rng = random.Random(game)
        state = variant.new_state(rules, players, game % players)
        cpus = [CpuPlayer(variant, "normal", game, seat) for seat in range(players)]
        for _event in range(3000):
            if state.is_terminal():
                break
            seat = state.current_player()
            if seat < 0:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_actions()
            # End of the Page: a turn with a meld and a discard to weigh (the issue of the hint).
            choice = variant_name != "endofpage" or len({action[0] for action in legal}) > 1
            if seat == 0 and len(legal) >= 3 and choice and rng.random() < 0.3:
                found.append(state.clone())
                break
            state.apply(cpus[seat].act(state, seat, legal))
    return found


def measure(variant_name: str, players: int, count: int, searches: int = SEARCHES) -> Noise:
    variant = get_registry().get(variant_name)
    noise = Noise()
    for state in positions(variant_name, players, count):
        legal = state.legal_actions()
        runs = [HardPlayer(variant, 1000 + k, 0, Budget(PLAYOUTS, None)).rate(state, 0, legal)
                for k in range(searches)]
        means = [statistics.fmean(run[i].value for run in runs) for i in range(len(legal))]
        agreed = max(range(len(legal)), key=lambda i: means[i])
        noise.positions += 1
        noise.searches += len(runs)
        noise.first_differs += sum(max(range(len(legal)), key=lambda i: run[i].value) != agreed
                                   for run in runs)
        for i in range(len(legal)):
            if i == agreed:
                continue
            gaps = [run[agreed].value - run[i].value for run in runs]
            center = statistics.fmean(gaps)
            for run, gap in zip(runs, gaps):
                stated = search_noise(run[agreed], run[i])
                if stated == stated:  # (nan: too few shared deals)
                    noise.gaps += 1
                    noise.within += abs(gap - center) <= stated
    return noise


def main(argv: list[str]) -> None:
    tables = [(argv[0], int(argv[1]))] if len(argv) >= 2 else \
        [(name, players) for name in ("endofpage", "matching", "trick") for players in (2, 4)]
    for name, players in tables:
        print(measure(name, players, 16 if players == 2 else 12).line(f"{name} at {players}"), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
