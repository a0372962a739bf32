"""Who sits at the table: the player interface, CPU players and the ``--players`` spec.

A player is anything with ``act(state, seat, legal) -> action``.  CPU players
wrap a variant's policy; the human player (:mod:`cardcli.cpu.players.human`) asks
at the terminal through the same interface, so the game loop never cares
which is which.
"""

from __future__ import annotations

from collections.abc import Iterable

from ...contract.options import seat_count_problem
from ...contract.variant import Variant
from ...engine.driver import Player, PolicyPlayer
from ...engine.game import derive_seed
from ...kit.errors import CardcliError
from ...kit.grammar import listed
from ...kit.language import core as _
from ...kit.rand import seeded
from ...kit.record_format import SeatInfo
from .hard import Budget, HardPlayer


class CpuPlayer(PolicyPlayer):
    """A CPU of a given strength: the variant's policy with its own random source."""

    def __init__(self, variant: Variant, level: str, seed: int, seat: int):
        super().__init__(variant.cpu_policy(level), seeded(derive_seed(seed, "cpu", seat)))
        self.level = level


def split_level(level: str) -> tuple[str, str | None]:
    """``"hard=2000"`` -> ``("hard", "2000")``; ``"normal"`` -> ``("normal", None)``."""
    base, _equals, parameter = level.partition("=")
    return base, parameter or None


def levels_of(variant: Variant) -> tuple[str, ...]:
    """Every CPU strength a variant offers: its own policies plus the core's ``hard``."""
    return (*variant.cpu_levels, "hard")


def make_cpu(variant: Variant, level: str, seed: int, seat: int) -> Player:
    """The CPU player for a strength from a ``--players`` spec."""
    base, parameter = split_level(level)
    if base == "hard":
        return HardPlayer(variant, derive_seed(seed, "hard"), seat, Budget.parse(parameter))
    if parameter is not None:
        raise PlayersError(only_hard_takes_a_budget(level))
    return CpuPlayer(variant, base, seed, seat)


def only_hard_takes_a_budget(level: str) -> str:
    """The refusal of a budget given to a CPU strength other than ``hard``."""
    return _("CPU strength {level}: only hard takes a budget (hard=2000 or hard=1.5s)").format(
        level=repr(level))


class PlayersError(CardcliError):
    """A ``--players`` spec that cannot be seated."""


def default_seats(variant: Variant, count: int | None = None, human: str | None = "you",
                  level: str = "normal") -> list[SeatInfo]:
    count = count or default_count(variant)
    if count > variant.max_players:  # refused before a seat is made: --players 999999999999
        raise PlayersError(_("{count} players, but {variant} is for {low} to {high} players").format(
            count=count, variant=variant.name, low=variant.min_players, high=variant.max_players))
    seats = [] if human is None else [SeatInfo(human, "human")]
    while len(seats) < count:
        seats.append(SeatInfo("cpu", f"cpu:{level}"))
    return _number_cpus(seats)


def default_count(variant: Variant) -> int:
    return max(variant.min_players, min(variant.max_players, variant.default_players))


def _number_cpus(seats: list[SeatInfo]) -> list[SeatInfo]:
    """Name each CPU called ``cpu`` as the default table does, ``cpu1``,
    ``cpu2``, ... by its place among the CPUs; a number already taken by a
    CPU named so (``--players you,cpu2``) is skipped."""
    cpus = [s for s in seats if not s.is_human]
    taken = {seat.name for seat in cpus if is_cpu_name(seat.name)}
    number = 0
    for place, seat in enumerate(cpus, start=1):
        if seat.name != "cpu":
            continue
        number = max(number + 1, place)
        while f"cpu{number}" in taken:
            number += 1
        seat.name = f"cpu{number}"
        taken.add(seat.name)
    return seats


def is_cpu_name(name: str) -> bool:
    """``cpu1``, ``cpu2``, ...: the names the default table gives its CPUs."""
    return name.startswith("cpu") and name[3:].isdigit()


def parse_players(spec: str, variant: Variant, *, default_level: str = "normal",
                  human: str | None = None, cpu_names: bool = False) -> list[SeatInfo]:
    """Seats from ``you,cpu:normal,cpu:easy``: humans by name, CPUs by strength.

    A bare number seats that many players: ``human`` (if given: ``you`` at
    ``cardcli play``) and CPUs of ``default_level`` for the rest.  ``cpu``
    alone means ``cpu:normal``; ``cpu:easy:Alice`` names a CPU.  With
    ``cpu_names``, ``cpu1``, ``cpu2``, ... (the names the default table
    shows) are CPUs of ``default_level`` by those names, never people.
    """
    spec = spec.strip()
    if spec.isdigit():
        return default_seats(variant, int(spec), human=human if int(spec) else None, level=default_level)
    seats: list[SeatInfo] = []
    for raw in spec.split(","):
        item = raw.strip()
        if not item:
            raise PlayersError(_("--players {spec}: empty entry (write e.g. you,cpu:normal,cpu:easy)").format(
                spec=repr(spec)))
        if item.lower() == "cpu" or item.lower().startswith("cpu:"):
            parts = item.split(":")
            level = parts[1].lower() if len(parts) > 1 and parts[1] else default_level
            check_level(variant, level)
            name = parts[2] if len(parts) > 2 and parts[2] else "cpu"
            seats.append(SeatInfo(name, f"cpu:{level}"))
        elif cpu_names and is_cpu_name(item.lower()):
            check_level(variant, default_level)
            seats.append(SeatInfo(item.lower(), f"cpu:{default_level}"))
        else:
            seats.append(SeatInfo(item, "human"))
    _number_cpus(seats)
    names = [s.name for s in seats]
    for name in names:
        if names.count(name) > 1:
            raise PlayersError(_("--players: the name {name} is used twice").format(name=repr(name)))
    return seats


def check_level(variant: Variant, level: str) -> None:
    base, parameter = split_level(level)
    if base not in levels_of(variant):
        raise PlayersError(_("unknown CPU strength {level} for {variant} (choose from {levels})").format(
            level=repr(level), variant=variant.name, levels=listed(levels_of(variant))))
    if base == "hard":
        Budget.parse(parameter)
    elif parameter is not None:
        raise PlayersError(only_hard_takes_a_budget(level))


def check_count(seats: list[SeatInfo], rules: dict, variant: Variant, source: str | None = None,
                stated: Iterable[str] | None = None) -> None:
    """The table must seat as many players as the rules allow; the message
    names the option that refuses them and where it was set (``source``: the
    ruleset file, or ``None`` for the variant's default rules; ``stated``:
    the options the file sets, when known)."""
    problem = seat_count_problem(len(seats), rules, variant.name, (variant.min_players, variant.max_players),
                                 source, stated)
    if problem:
        raise PlayersError(problem)
