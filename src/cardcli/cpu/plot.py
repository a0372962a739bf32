"""``compare --plot FILE``: the comparison as a picture (PNG or SVG).

Drawn with matplotlib, an optional extra (``cardcli[plot]``) imported only
here and only when a plot is asked for (``scoresheet --plot`` is written by
:func:`save_figure` too).  Three panels side by side: how long
games last under each ruleset (the share of games still going after so many
moves), each seat's win rate with its 95% interval, and the stronger CPU's
score (how often it wins, a first place shared when nobody won counting its
share).
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path
from typing import Any

from ..kit.errors import CardcliError, system_words
from ..kit.language import N_, current, speaking
from ..kit.language import core as _
from .compare import label_words, position_words

FORMATS = (".png", ".svg")
INSTALL_HINT = N_("--plot needs matplotlib, which is not installed: "
                  "python -m pip install 'cardcli[plot]' "
                  "(from a checkout: python -m pip install -e '.[plot]')")


class PlotError(CardcliError):
    """A plot that cannot be drawn: matplotlib missing, a format not offered."""


def check_target(path: Path) -> None:
    """Refuse a file type we cannot write, a folder that is not there, or a
    missing matplotlib, before any game is played (a long run must not be
    lost to a mistyped path)."""
    if path.suffix.lower() not in FORMATS:
        raise PlotError(_("--plot {path}: write a .png or .svg file").format(path=path))
    folder = path.parent
    if not folder.is_dir():
        raise PlotError(_("--plot {path}: no folder {folder}").format(path=path, folder=folder))
    pyplot()


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only; :class:`PlotError` when it is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # files only: never open a window
        matplotlib.rcParams["svg.hashsalt"] = "cardcli"  # stable ids inside an SVG
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError(_(INSTALL_HINT)) from None
    language = current()
    if language != "en" and language not in _can_draw:
        font = script_font(language)
        _can_draw[language] = font is not None
        if font is not None:  # after matplotlib's own, which draws the Latin letters and digits
            matplotlib.rcParams["font.family"] = [*matplotlib.rcParams["font.family"], font]
    return plt


#: Fonts with the glyphs of a language's script, in the order looked for: a
#: plot's words are in that language only where matplotlib has one of them.
SCRIPT_FONTS: dict[str, tuple[str, ...]] = {
    "ja": ("Noto Sans CJK JP", "Noto Sans JP", "Source Han Sans JP", "IPAexGothic", "IPAGothic", "IPAPGothic",
           "Hiragino Sans", "Hiragino Kaku Gothic ProN", "Yu Gothic", "Meiryo", "MS Gothic", "TakaoGothic",
           "VL Gothic"),
}
#: Words in the file names of those fonts: matplotlib's list of fonts is
#: cached, and a font installed after it was made is found by its file.
_FONT_FILES: dict[str, tuple[str, ...]] = {
    "ja": ("cjk", "notosansjp", "sourcehan", "ipa", "japanese", "hiragino", "yugoth", "meiryo", "msgothic",
           "takao", "vl-gothic", "vlgothic"),
}
#: Whether matplotlib can draw each language asked for so far in this run.
_can_draw: dict[str, bool] = {}


def script_font(language: str) -> str | None:
    """The name of a font matplotlib has (or is given, found among the system's
    fonts) that draws ``language``'s script, or None."""
    from matplotlib import font_manager

    wanted = SCRIPT_FONTS.get(language, ())

    def known() -> str | None:
        names = {entry.name for entry in font_manager.fontManager.ttflist}
        return next((name for name in wanted if name in names), None)

    found = known()
    if found is None and wanted:
        hints = _FONT_FILES.get(language, ())
        for file in font_manager.findSystemFonts():
            if any(hint in Path(file).name.lower() for hint in hints):
                try:
                    font_manager.fontManager.addfont(file)
                except (OSError, RuntimeError, ValueError):
                    continue
        found = known()
    return found


def speaks_language() -> bool:
    """Whether a plot can be drawn in the chosen language (after :func:`pyplot`):
    English always, another language where a font of its script was found."""
    language = current()
    return language == "en" or _can_draw.get(language, False)


def draw(data: dict[str, Any], lengths: list[list[int]], path: Path) -> None:
    """Write the picture of ``data`` (a comparison's ``as_dict``) to ``path``.

    ``lengths[j]`` are the moves of every game of ruleset ``j``.
    """
    save_figure(lambda plt: _figure(plt, data, lengths), path)


def save_figure(build: Callable[[Any], Any], path: Path) -> None:
    """Write the figure ``build(plt)`` draws to ``path``: its words in the chosen
    language where matplotlib has a font for it, else in English (a Japanese word
    without a font would be drawn as boxes).  :class:`PlotError` if it cannot be written."""
    plt = pyplot()
    with nullcontext() if speaks_language() else speaking("en"):
        figure = build(plt)
    try:
        figure.savefig(path, metadata=metadata(path))
    except OSError as error:
        said = _("--plot {path}: cannot write: {reason}")
        raise PlotError(said.format(path=path, reason=system_words(error))) from None
    finally:
        plt.close(figure)


def _figure(plt: Any, data: dict[str, Any], lengths: list[list[int]]) -> Any:
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
        label = _("{label} (median {median:g})").format(label=label_words(ruleset["label"]),
                                                         median=ruleset["moves"]["median"])
        survival.step(xs, ys, where="post", color=colours[j], label=label)
    # Translators: the plot's axis of game lengths, counted in moves.
    survival.set_xlabel(_("moves"))
    survival.set_ylabel(_("share of games still going"))
    survival.set_title(_("Game length"))
    survival.set_ylim(0, 1.02)
    survival.legend(fontsize="small")

    seats = axes[1]
    positions = [position_words(s["position"]) for s in rulesets[0]["seats"]]
    top = _grouped_bars(seats, rulesets, "seats", positions, colours)
    for share, colour, label in even_shares(rulesets, colours):
        seats.axhline(share, color=colour, linestyle="--", linewidth=1, label=label)
    seats.set_ylim(0, top * 1.4)  # room above the bars for the legend
    seats.set_ylabel(_("win rate (95% interval)"))
    title = _("Wins by seat ({players} x cpu:{cpu})")
    seats.set_title(title.format(players=data["players"], cpu=data["cpu"]))
    seats.legend(fontsize="small", loc="upper center", ncols=2)

    if skill:
        chart = axes[2]
        pairings = [_("{stronger} vs {weaker}").format(stronger=s["stronger"], weaker=s["weaker"])
                    for s in rulesets[0]["skill"]]
        _grouped_bars(chart, rulesets, "skill", pairings, colours, value="score")
        chart.axhline(1 / data["players"], color="grey", linestyle="--", linewidth=1, label=_("no edge"))
        chart.set_xlim(-0.75, len(pairings) - 0.25)
        chart.set_ylim(0, 1)
        chart.set_ylabel(_("stronger CPU's score (95% interval)"))
        chart.set_title(_("How much skill matters"))
        chart.legend(fontsize="small")

    figure.suptitle(_("{variant}: {games} games per ruleset, seed {seed}").format(
        variant=data["variant"], games=data["games"], seed=data["seed"]))
    return figure


def even_shares(rulesets: list[dict[str, Any]], colours: list[str]) -> list[tuple[float, str, str]]:
    """Where each ruleset's seats would stand if no seat had an edge, as
    ``(win rate, colour, label)``: an even share of the games someone won,
    so a ruleset with more games nobody won has its own, lower line."""
    seats = len(rulesets[0]["seats"])
    groups: dict[float, list[int]] = {}
    for j, ruleset in enumerate(rulesets):
        groups.setdefault(round((1 - ruleset["nobody_won"]["share"]) / seats, 6), []).append(j)
    if len(groups) == 1:
        return [(next(iter(groups)), "grey", _("even share"))]
    lines = []
    for share, members in groups.items():
        names = label_words(rulesets[members[0]]["label"])
        for j in members[1:]:
            # Translators: one more ruleset sharing a line of the plot ("standard and no-stacking").
            names = _("{rulesets} and {ruleset}").format(rulesets=names,
                                                        ruleset=label_words(rulesets[j]["label"]))
        lines.append((share, colours[members[0]] if len(members) == 1 else "grey",
                      _("even share, {rulesets}").format(rulesets=names)))
    return lines


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
        axis.bar(xs, rates, width, yerr=errors, capsize=3, color=colours[j],
                 label=label_words(ruleset["label"]))
    axis.set_xticks(range(len(names)), names)
    return max(entry[interval][1] for ruleset in rulesets for entry in ruleset[key])


def metadata(path: Path) -> dict[str, Any]:
    """No creation date in the file, so the same data draws the same bytes."""
    if path.suffix.lower() == ".svg":
        return {"Date": None}
    return {}
