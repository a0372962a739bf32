"""What a house rule changes: several rulesets of one variant on the same seeds.

Game ``i`` of every ruleset is played from the same seed (common random
numbers): the same dealer, the same stream of chance (so, with the same pack,
the same shuffle before the deal) and the same CPU randomness.  Each measure
is therefore known per game for every ruleset, and a difference between two
rulesets is estimated from the per-game differences, which vary far less
than the games themselves.

The games are played by :func:`cardcli.cpu.simulate.play_games` (every seat at
one CPU strength: game length, who wins from which seat) and
:func:`cardcli.cpu.arena.play_games` (a stronger CPU against weaker ones, seats
rotated: how much skill matters), on any backend.  The method is written up
in ``docs/compare.md``.
"""

from __future__ import annotations

import math
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..contract.options import Value
from ..contract.variant import Variant
from ..engine.game import choose_dealer
from ..kit.language import N_
from ..kit.language import core as _
from ..kit.record_format import SeatInfo
from . import arena, simulate
from .arena import wilson_interval
from .parallel import Backend
from .stats import Estimate, bonferroni_z, paired_difference, paired_ratio, quantile, rank_quantile

#: The skill pairings measured: (stronger, weaker).  ``hard`` only on request.
SKILL_EASY = ("normal", "easy")
SKILL_HARD = ("hard", "normal")


@dataclass
class Arm:
    """One ruleset being compared: a label for people and the resolved options."""

    label: str
    options: dict[str, Value]
    name: str = ""
    changes: dict[str, Value] = field(default_factory=dict)


@dataclass
class Skill:
    """One stronger CPU against ``players - 1`` weaker ones, per game: did it
    win, did nobody win, and its score (its share of the game's one point)."""

    stronger: str
    weaker: str
    won: list[int]
    #: 1 when nobody won the game (a tie for first, a deal called off).
    nobody: list[int]
    #: 1 for a win, ``1/k`` for a first place shared by ``k`` players, else 0.
    score: list[float]

    @property
    def games(self) -> int:
        return len(self.won)


def game_score(game: arena.ArenaGame, player: int) -> float:
    """``player``'s share of the game's one point: all of it for a win; a first
    place shared by ``k`` players (nobody won) gives each of them ``1/k``, as a
    draw gives each player half a point in chess; nothing otherwise.  The
    shares of a game add up to 1, so a player with no edge over the others
    scores ``1/P`` on average, however many games nobody wins."""
    seat = game.order.index(player)
    if game.winner is not None:
        return float(game.winner == seat)
    best = min(game.places)
    first = [s for s, place in enumerate(game.places) if place == best]
    return 1 / len(first) if seat in first else 0.0


def play_skill(variant: Variant, options: dict[str, Value], players: int, games: int, seed: int,
               stronger: str, weaker: str, backend: Backend,
               progress: Callable[[int], None] | None = None) -> Skill:
    """``games`` arena games of one ``stronger`` CPU against ``players - 1``
    ``weaker`` ones, seats rotated, from ``seed`` (as ``cardcli arena``)."""
    table = [SeatInfo("stronger", f"cpu:{stronger}")]
    table += [SeatInfo(f"weaker{i}", f"cpu:{weaker}") for i in range(1, players)]
    played = arena.play_games(variant, options, table, games, seed, backend=backend, progress=progress)
    return Skill(stronger, weaker, [int(g.winner is not None and g.order[g.winner] == 0) for g in played],
                 [int(g.winner is None) for g in played], [game_score(g, 0) for g in played])


@dataclass
class ArmResult:
    """Per-game measures of one ruleset, in game order."""

    arm: Arm
    moves: list[int]
    rounds: list[int] | None
    nobody_won: list[int]
    #: How the games nobody won ended (the variant's words) and how many ended so.
    nobody_why: dict[str, int]
    #: ``won_from[k][i]`` is 1 when game ``i`` was won by the seat ``k``
    #: places after the (first) dealer.
    won_from: list[list[int]]
    skill: list[Skill]

    def as_dict(self, players: int) -> dict[str, Any]:
        games = len(self.moves)
        decided = games - sum(self.nobody_won)
        seats = []
        for k, wins in enumerate(self.won_from):
            won = sum(wins)
            low, high = wilson_interval(won, games)
            seats.append({"position": position_name(k), "wins": won, "win_rate": round(won / games, 4),
                          "win_rate_ci95": [round(low, 4), round(high, 4)]})
        nobody = sum(self.nobody_won)
        low, high = wilson_interval(nobody, games)
        data: dict[str, Any] = {
            "label": self.arm.label,
            "ruleset": self.arm.name,
            "changes": self.arm.changes,
            "options": self.arm.options,
            "moves": spread(self.moves),
            "rounds": spread(self.rounds) if self.rounds is not None else None,
            "nobody_won": {"games": nobody, "share": round(nobody / games, 4),
                           "ci95": [round(low, 4), round(high, 4)], "reasons": self.nobody_why},
            "seats": seats,
            "seat_advantage": seat_advantage(self.won_from, decided),
            "skill": [skill_dict(s, players) for s in self.skill],
        }
        return data


def position_name(k: int) -> str:
    """``dealer`` for the dealer's seat, ``dealer+k`` for the seat ``k`` after it."""
    return "dealer" if k == 0 else f"dealer+{k}"


def position_words(position: str) -> str:
    """A :func:`position_name` (data, English) as a person reads it, in the chosen language."""
    after = position.removeprefix("dealer+")
    if after != position and after.isdigit():
        # Translators: the seat {count} places after the dealer's, in a table ("dealer+1").
        return _("dealer+{count}").format(count=int(after))
    return _("dealer") if position == "dealer" else position


#: The label of the defaults a single ``--set`` is compared with.
DEFAULTS = N_("defaults")
#: How a game nobody won ended, when the variant gave no reason.
NO_REASON = N_("(no reason given)")


def label_words(label: str) -> str:
    """A ruleset's label as a person reads it: the defaults in the chosen language,
    any other as it was typed (a ruleset's name, a ``--set``)."""
    return _(DEFAULTS) if label == DEFAULTS else label


def spread(values: Sequence[int]) -> dict[str, float]:
    return {"mean": round(statistics.fmean(values), 2), "median": round(quantile(values, 0.5), 2),
            "p90": rank_quantile(values, 0.9), "max": max(values)}


def seat_advantage(won_from: list[list[int]], decided: int) -> list[dict[str, Any]]:
    """Seats whose share of the decided games differs from an even share,
    with intervals that hold for all seats together (Bonferroni): a list of
    ``{"position", "share", "ci"}``, empty when no seat stands out."""
    n = len(won_from)
    if decided == 0:
        return []
    z = bonferroni_z(n)
    found = []
    for k, wins in enumerate(won_from):
        low, high = wilson_interval(sum(wins), decided, z)
        if not low <= 1 / n <= high:
            found.append({"position": position_name(k), "share": round(sum(wins) / decided, 4),
                          "ci": [round(low, 4), round(high, 4)]})
    return found


def skill_dict(skill: Skill, players: int) -> dict[str, Any]:
    """The skill measure: the stronger CPU's ``score`` (against ``even_share``,
    what a player with no edge scores), with its win rate and the games
    nobody won beside it."""
    games = skill.games
    wins, nobody, points = sum(skill.won), sum(skill.nobody), math.fsum(skill.score)
    win_low, win_high = wilson_interval(wins, games)
    nobody_low, nobody_high = wilson_interval(nobody, games)
    # Wilson's interval for a share, applied to a mean score in [0, 1]: a score
    # varies no more than a win or loss with the same mean, so it is no
    # narrower than it should be (and exactly the win rate's with no ties).
    low, high = wilson_interval(points, games)
    return {"stronger": skill.stronger, "weaker": skill.weaker, "games": games,
            "score": round(points / games, 4), "score_ci95": [round(low, 4), round(high, 4)],
            "even_share": round(1 / players, 4),
            "wins": wins, "win_rate": round(wins / games, 4),
            "win_rate_ci95": [round(win_low, 4), round(win_high, 4)],
            "nobody_won": {"games": nobody, "share": round(nobody / games, 4),
                           "ci95": [round(nobody_low, 4), round(nobody_high, 4)]}}


@dataclass
class Comparison:
    variant: str
    players: int
    cpu: str
    games: int
    seed: int
    workers: int
    backend: str
    seconds: float
    results: list[ArmResult]

    def differences(self) -> list[dict[str, Any]]:
        """Every ruleset after the first against the first (the baseline)."""
        base = self.results[0]
        return [difference(result, base, self.players) for result in self.results[1:]]

    def as_dict(self) -> dict[str, Any]:
        return {"variant": self.variant, "players": self.players, "cpu": self.cpu, "games": self.games,
                "seed": self.seed, "workers": self.workers, "backend": self.backend,
                "seconds": round(self.seconds, 3),
                "rulesets": [r.as_dict(self.players) for r in self.results],
                "differences": self.differences()}


def estimate_dict(estimate: Estimate | None, digits: int = 4) -> dict[str, Any] | None:
    if estimate is None:
        return None
    return {"value": round(estimate.value, digits), "ci95": estimate.as_list(digits),
            "clear": estimate.excludes_zero}


def share_difference(first: Sequence[float], second: Sequence[float], z: float | None = None) -> Estimate:
    """The paired difference of two shares (per-game values from 0 to 1: a win,
    a score), its interval kept within [-1, 1]."""
    estimate = paired_difference(first, second) if z is None else paired_difference(first, second, z)
    return Estimate(estimate.value, max(-1.0, estimate.low), min(1.0, estimate.high))


def difference(result: ArmResult, base: ArmResult, players: int) -> dict[str, Any]:
    """``result`` against ``base``, game by game, with a verdict in words."""
    n = len(base.won_from)
    seat_z = bonferroni_z(n)
    seats = []
    for k in range(n):
        both = share_difference(result.won_from[k], base.won_from[k])
        wide = share_difference(result.won_from[k], base.won_from[k], seat_z)
        seats.append({"position": position_name(k), **estimate_dict(both),  # type: ignore[dict-item]
                      "clear": wide.excludes_zero})
    data: dict[str, Any] = {
        "label": result.arm.label,
        "baseline": base.arm.label,
        "moves": {"difference": estimate_dict(paired_difference(result.moves, base.moves), 2),
                  "relative": estimate_dict(paired_ratio(result.moves, base.moves))},
        "rounds": None,
        "nobody_won": estimate_dict(share_difference(result.nobody_won, base.nobody_won)),
        "seats": seats,
        "skill": [],
    }
    if result.rounds is not None and base.rounds is not None:
        data["rounds"] = {"difference": estimate_dict(paired_difference(result.rounds, base.rounds), 2),
                          "relative": estimate_dict(paired_ratio(result.rounds, base.rounds))}
    for mine, theirs in zip(result.skill, base.skill):
        data["skill"].append({"stronger": mine.stronger, "weaker": mine.weaker,  # the scores' difference
                              **estimate_dict(share_difference(mine.score, theirs.score))})  # type: ignore[dict-item]
    data["verdict"] = verdict(data, result, base, players)
    return data


def _percent(value: float) -> str:
    return f"{100 * value:.0f}%" if abs(value) >= 0.095 else f"{100 * value:.1f}%"


def _interval(data: dict[str, Any], scale: float = 100, unit: str = "%") -> str:
    low, high = data["ci95"]
    digits = 0 if max(abs(low), abs(high)) * scale >= 9.5 else 1

    def bound(value: float) -> str:
        for places in range(digits, 3):  # never "-0" for a bound that is not zero: one more digit
            text = f"{scale * value:+.{places}f}"
            if not value or float(text):
                break
        return text + unit

    return f"[{bound(low)}, {bound(high)}]"


def clauses(parts: Sequence[str]) -> str:
    """A verdict's clauses, each a sentence, as one: ``a; b; c``."""
    text = parts[0]
    for part in parts[1:]:
        # Translators: one more clause of a verdict; each clause is a whole sentence.
        text = _("{clauses}; {clause}").format(clauses=text, clause=part)
    return text


def verdict(data: dict[str, Any], result: ArmResult, base: ArmResult, players: int) -> str:
    """One sentence per measure, joined with semicolons, in plain words."""
    label, other = label_words(result.arm.label), label_words(base.arm.label)
    parts = []
    relative = data["moves"]["relative"]
    if relative is None or (relative["value"] == 0 and relative["ci95"] == [0, 0]):
        parts.append(_("{label} gives games of the same length as {other}").format(label=label, other=other))
    elif relative["clear"] and relative["ci95"][0] >= 1:
        low, high = (1 + x for x in relative["ci95"])
        said = _("{label} makes games {ratio:.1f} times as long [{low:.1f}, {high:.1f}] as {other}")
        parts.append(said.format(label=label, ratio=1 + relative["value"], low=low, high=high, other=other))
    elif relative["clear"]:
        said = (_("{label} makes games {change} longer [{low}, {high}] than {other}") if relative["value"] > 0
                else _("{label} makes games {change} shorter [{low}, {high}] than {other}"))
        low, high = sorted(abs(x) for x in relative["ci95"])
        parts.append(said.format(label=label, change=_percent(abs(relative["value"])), low=_percent(low),
                                 high=_percent(high), other=other))
    else:
        change = ("+" if relative["value"] >= 0 else "-") + _percent(abs(relative["value"]))
        parts.append(_("no clear difference in game length ({change} {interval})").format(
            change=change, interval=_interval(relative)))
    rounds = data["rounds"]
    if rounds is not None and rounds["relative"] is not None and rounds["relative"]["clear"]:
        said = (_("{clause}, with {change} more rounds") if rounds["relative"]["value"] > 0
                else _("{clause}, with {change} fewer rounds"))
        parts[-1] = said.format(clause=parts[-1], change=_percent(abs(rounds["relative"]["value"])))
    nobody = data["nobody_won"]
    if sum(result.nobody_won) or sum(base.nobody_won):
        share, base_share = statistics.fmean(result.nobody_won), statistics.fmean(base.nobody_won)
        if nobody["clear"]:
            parts.append(_("nobody wins {share} of games against {other_share} ({points:+.1f} points "
                           "{interval})").format(share=_percent(share), other_share=_percent(base_share),
                                                 points=100 * nobody["value"],
                                                 interval=_interval(nobody, unit="")))
        else:
            parts.append(_("games nobody wins: no clear difference ({share} against {other_share})").format(
                share=_percent(share), other_share=_percent(base_share)))
    parts.append(_seat_words(data, result, base))
    level = ""
    for skill in data["skill"]:
        # Translators: a skill pairing, CPU strengths as typed: "normal against easy".
        who = _("{stronger} against {weaker}").format(stronger=skill["stronger"], weaker=skill["weaker"])
        if skill["clear"]:
            said = (_("skill matters more: {who} scores {points:.1f} points more {interval}")
                    if skill["value"] > 0 else
                    _("skill matters less: {who} scores {points:.1f} points less {interval}"))
            parts.append(said.format(who=who, points=100 * abs(skill["value"]),
                                     interval=_interval(skill, unit="")))
        else:
            measured = _("{who}: {points:+.1f} points {interval}").format(
                who=who, points=100 * skill["value"], interval=_interval(skill, unit=""))
            # Translators: one more skill pairing in a list, inside the brackets of a clause.
            level = measured if not level else _("{pairings}; {pairing}").format(pairings=level,
                                                                                   pairing=measured)
    if level:
        parts.append(_("skill matters about as much ({pairings})").format(pairings=level))
    return clauses(parts)


def _seat_words(data: dict[str, Any], result: ArmResult, base: ArmResult) -> str:
    n = len(result.won_from)
    mine = {s["position"]: s["share"] for s in
            seat_advantage(result.won_from, len(result.moves) - sum(result.nobody_won))}
    theirs = {s["position"]: s["share"] for s in
              seat_advantage(base.won_from, len(base.moves) - sum(base.nobody_won))}
    changed = [s for s in data["seats"] if s["clear"]]
    if not mine and not theirs and not changed:
        return _("no seat advantage either way")
    even = _percent(1 / n)

    def edge(position: str, shares: list[float]) -> str:
        ahead = shares[0] > 1 / n
        fields = {"position": position_words(position), "share": _percent(shares[0]), "even": even}
        if len(shares) == 1:
            said = (_("{position} has an edge ({share} of decided games, an even share being {even})")
                    if ahead else
                    _("{position} is behind ({share} of decided games, an even share being {even})"))
            return said.format(**fields)
        said = (_("{position} has an edge ({share} and {other_share} of decided games, an even share being "
                  "{even})") if ahead else
                _("{position} is behind ({share} and {other_share} of decided games, an even share being "
                  "{even})"))
        return said.format(other_share=_percent(shares[1]), **fields)

    def edges(found: list[str]) -> str:
        text = found[0]
        for more in found[1:]:
            # Translators: one more seat's edge in a list ("dealer has an edge (...), dealer+1 ...").
            text = _("{edges}, {edge}").format(edges=text, edge=more)
        return text

    words = []
    both = [p for p in mine if p in theirs]
    if both:
        shared = edges([edge(p, [mine[p], theirs[p]]) for p in both])
        words.append(_("under both, {edges}").format(edges=shared))
    for name, found in ((result.arm.label, mine), (base.arm.label, theirs)):
        alone = [p for p in found if p not in both]
        if alone:
            words.append(_("under {label} {edges}").format(label=label_words(name),
                                                           edges=edges([edge(p, [found[p]]) for p in alone])))
    for seat in changed:
        said = (_("{position} wins {points:.1f} points more often under {label} {interval}")
                if seat["value"] > 0 else
                _("{position} wins {points:.1f} points less often under {label} {interval}"))
        words.append(said.format(position=position_words(seat["position"]), points=100 * abs(seat["value"]),
                                 label=label_words(result.arm.label), interval=_interval(seat, unit="")))
    return clauses(words)


def measure(variant: Variant, arm: Arm, players: int, games: int, seed: int, cpu: str,
            skills: Sequence[tuple[str, str]], backend: Backend,
            progress: Callable[[int], None] | None = None) -> ArmResult:
    """Play one ruleset's games: ``games`` at ``cpu`` strength, then ``games``
    for each skill pairing, all from the run's ``seed``."""
    seats = [SeatInfo(f"cpu{i + 1}", f"cpu:{cpu}") for i in range(players)]
    outcomes = simulate.play_games(variant, arm.options, seats, games, seed, backend=backend,
                                   progress=progress)
    won_from = [[0] * games for _ in range(players)]
    for i, outcome in enumerate(outcomes):
        if outcome.winner is not None:
            won_from[(outcome.winner - choose_dealer(outcome.seed, players)) % players][i] = 1
    rounds = [o.rounds for o in outcomes]
    skill = [play_skill(variant, arm.options, players, games, seed, stronger, weaker, backend, progress)
             for stronger, weaker in skills]
    why = Counter(o.reason or NO_REASON for o in outcomes if o.winner is None)
    return ArmResult(arm, [o.decisions for o in outcomes],
                     None if any(r is None for r in rounds) else [r for r in rounds if r is not None],
                     [int(o.winner is None) for o in outcomes], dict(why.most_common()), won_from, skill)


def run(variant: Variant, arms: Sequence[Arm], players: int, games: int, seed: int, *, cpu: str = "normal",
        skills: Sequence[tuple[str, str]] = (SKILL_EASY,), backend: Backend,
        progress: Callable[[int], None] | None = None) -> Comparison:
    """Every ruleset on the same seeds; the first is the baseline of the differences."""
    started = time.perf_counter()
    results = [measure(variant, arm, players, games, seed, cpu, skills, backend, progress) for arm in arms]
    return Comparison(variant.name, players, cpu, games, seed, backend.workers, backend.name,
                      time.perf_counter() - started, results)


def total_games(arms: int, games: int, skills: int) -> int:
    """How many games a comparison plays (for a progress bar)."""
    return arms * games * (1 + skills)

