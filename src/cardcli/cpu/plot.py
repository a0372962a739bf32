"""``compare --plot FILE``: the comparison as a picture (PNG or SVG).

Drawn with matplotlib, an optional extra (``cardcli[plot]``) imported only
here and only when a plot is asked for (``scoresheet --plot`` draws through
:func:`pyplot` and :func:`metadata` too).  Three panels side by side: how long
games last under each ruleset (the share of games still going after so many
moves), each seat's win rate with its 95% interval, and the stronger CPU's
score (how often it wins, a first place shared when nobody won counting its
share).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..kit.errors import CardcliError

FORMATS = (".png", ".svg")
INSTALL_HINT = ("--plot needs matplotlib, which is not installed: "
                "python -m pip install 'cardcli[plot]' (from a checkout: python -m pip install -e '.[plot]')")


class PlotError(CardcliError):
    """A plot that cannot be drawn: matplotlib missing, a format not offered."""


def check_target(path: Path) -> None:
    """Refuse a file type we cannot write, a folder that is not there, or a
    missing matplotlib, before any game is played (a long run must not be
    lost to a mistyped path)."""
    if path.suffix.lower() not in FORMATS:
        raise PlotError(f"--plot {path}: write a .png or .svg file")
    folder = path.parent
    if not folder.is_dir():
        raise PlotError(f"--plot {path}: no folder {folder}")
    pyplot()


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only; :class:`PlotError` when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never open a window
        matplotlib.rcParams["svg.hashsalt"] = "cardcli"  # stable ids inside an SVG
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(INSTALL_HINT) from None
    return plt


def draw(data: dict[str, Any], lengths: list[list[int]], path: Path) -> None:
    """Write the picture of ``data`` (a comparison's ``as_dict``) to ``path``.

    ``lengths[j]`` are the moves of every game of ruleset ``j``.
    """
    plt = pyplot()
    rulesets = data["rulesets"]
    skill = any(r["skill"] for r in rulesets)
    panels = 3 if skill else 2
    figure, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 4.4), layout="constrained")
    colours = [f"C{j}" for j in range(len(rulesets))]

    survival = axes[0]
    for j, (ruleset, moves) in enumerate(zip(rulesets, lengths)):
        ordered = sorted(moves)
        n = len(ordered)
        xs: list[float] = [0, *ordered]
        ys = [1.0, *[1 - (i + 1) / n for i in range(n)]]
        survival.step(xs, ys, where="post", color=colours[j],
                      label=f"{ruleset['label']} (median {ruleset['moves']['median']:g})")
    survival.set_xlabel("moves")
    survival.set_ylabel("share of games still going")
    survival.set_title("Game length")
    survival.set_ylim(0, 1.02)
    survival.legend(fontsize="small")

    seats = axes[1]
    positions = [s["position"] for s in rulesets[0]["seats"]]
    top = _grouped_bars(seats, rulesets, "seats", positions, colours)
    for share, colour, label in even_shares(rulesets, colours):
        seats.axhline(share, color=colour, linestyle="--", linewidth=1, label=label)
    seats.set_ylim(0, top * 1.4)  # room above the bars for the legend
    seats.set_ylabel("win rate (95% interval)")
    seats.set_title(f"Wins by seat ({data['players']} x cpu:{data['cpu']})")
    seats.legend(fontsize="small", loc="upper center", ncols=2)

    if skill:
        chart = axes[2]
        pairings = [f"{s['stronger']} vs {s['weaker']}" for s in rulesets[0]["skill"]]
        _grouped_bars(chart, rulesets, "skill", pairings, colours, value="score")
        chart.axhline(1 / data["players"], color="grey", linestyle="--", linewidth=1, label="no edge")
        chart.set_xlim(-0.75, len(pairings) - 0.25)
        chart.set_ylim(0, 1)
        chart.set_ylabel("stronger CPU's score (95% interval)")
        chart.set_title("How much skill matters")
        chart.legend(fontsize="small")

    figure.suptitle(f"{data['variant']}: {data['games']} games per ruleset, seed {data['seed']}")
    try:
        figure.savefig(path, metadata=metadata(path))
    except OSError as error:
        raise PlotError(f"--plot {path}: cannot write: {error.strerror or error}") from None
    finally:
        plt.close(figure)


def even_shares(rulesets: list[dict[str, Any]], colours: list[str]) -> list[tuple[float, str, str]]:
    """Where each ruleset's seats would stand if no seat had an edge, as
    ``(win rate, colour, label)``: an even share of the games someone won,
    so a ruleset with more games nobody won has its own, lower line."""
    seats = len(rulesets[0]["seats"])
    groups: dict[float, list[int]] = {}
    for j, ruleset in enumerate(rulesets):
        groups.setdefault(round((1 - ruleset["nobody_won"]["share"]) / seats, 6), []).append(j)
    if len(groups) == 1:
        return [(next(iter(groups)), "grey", "even share")]
    return [(share, colours[members[0]] if len(members) == 1 else "grey",
             "even share, " + " and ".join(rulesets[j]["label"] for j in members))
            for share, members in groups.items()]


def _grouped_bars(axis: Any, rulesets: list[dict[str, Any]], key: str, names: list[str],
                  colours: list[str], value: str = "win_rate") -> float:
    """One group of bars per name, one bar per ruleset: ``ruleset[key][k]``'s
    ``value`` (a win rate, a score) with its 95% interval as an error bar.
    Returns the highest interval's top."""
    width = 0.8 / len(rulesets)
    interval = f"{value}_ci95"
    for j, ruleset in enumerate(rulesets):
        xs = [k + (j - (len(rulesets) - 1) / 2) * width for k in range(len(names))]
        rates = [entry[value] for entry in ruleset[key]]
        errors = [[r - entry[interval][0] for r, entry in zip(rates, ruleset[key])],
                  [entry[interval][1] - r for r, entry in zip(rates, ruleset[key])]]
        axis.bar(xs, rates, width, yerr=errors, capsize=3, color=colours[j], label=ruleset["label"])
    axis.set_xticks(range(len(names)), names)
    return max(entry[interval][1] for ruleset in rulesets for entry in ruleset[key])


def metadata(path: Path) -> dict[str, Any]:
    """No creation date in the file, so the same data draws the same bytes."""
    if path.suffix.lower() == ".svg":
        return {"Date": None}
    return {}
