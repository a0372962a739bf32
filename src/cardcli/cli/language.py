"""The language of a run, chosen before any command module or plugin is imported.

``cardcli --lang ja play matching``: the top-level ``--lang`` is read from the
command line before Click parses it (so Click's own usage errors are already in
the chosen language), then ``$CARDCLI_LANG``, then gettext's variables
(:func:`cardcli.kit.language.choose`).

Click words its messages with the global gettext domain; cardcli never binds
that domain.  Instead, once a language other than English is chosen, each Click
module's ``_`` and ``ngettext`` are pointed at cardcli's catalog of Click's
messages (domain ``click`` in ``cardcli/words/locale``), and its help
formatter measures terminal cells (a Japanese character takes two).  In
English nothing is touched.
"""

from __future__ import annotations

import gettext
import importlib
from collections.abc import Sequence

import click._textwrap
import click.formatting

from ..kit.fit import line_pieces, visible_width
from ..kit.language import N_, Catalog, choose
from ..kit.language import core as _

#: Click's messages, translated by cardcli (Click ships none).
CLICK = Catalog("click", "cardcli", "words/locale")

#: Click's messages that Babel cannot find in Click's code (``_(extra["required"])``):
#: cardcli's own catalog holds them.
CLICK_UNSEEN = (N_("required"),)


def click_gettext(message: str) -> str:
    """A message of Click's in the chosen language: from the catalog of Click's messages,
    else from cardcli's own (:data:`CLICK_UNSEEN`)."""
    said = CLICK.gettext(message)
    return said if said != message else _(message)

_CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "termui", "types", "utils",
                  "shell_completion")


def lang_argument(args: Sequence[str]) -> str | None:
    """The value of a top-level ``--lang`` (before the command's name), or None."""
    items = iter(args)
    for arg in items:
        if arg == "--lang":
            return next(items, "")
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
        if arg == "--" or not arg.startswith("-"):
            return None
    return None


def start(args: Sequence[str]) -> str:
    """Choose the run's language from ``args`` and the environment; Click speaks it too.

    Raises :class:`ValueError` naming a language cardcli does not speak.
    """
    language = choose(lang_argument(args))
    _speak_click(language != "en")
    return language


_ClickWrapper = click._textwrap.TextWrapper
_click_term_len = click.formatting.term_len


class CellWrapper(click._textwrap.TextWrapper):
    """Click's help wrapper measuring terminal cells, not code points: a Japanese
    character takes two, and a line breaks between them (Japanese has no spaces)."""

    def _split(self, text: str) -> list[str]:
        return [piece for chunk in super()._split(text) for piece in line_pieces(chunk)]

    def _wrap_chunks(self, chunks: list[str]) -> list[str]:
        lines: list[str] = []
        chunks.reverse()
        while chunks:
            indent = self.subsequent_indent if lines else self.initial_indent
            room = self.width - visible_width(indent)
            if self.drop_whitespace and lines and not chunks[-1].strip():
                chunks.pop()
            line: list[str] = []
            used = 0
            # A piece wider than the whole line stands alone on it (never an endless loop).
            while chunks and (not line or used + visible_width(chunks[-1]) <= room):
                used += visible_width(chunks[-1])
                line.append(chunks.pop())
            if self.drop_whitespace and line and not line[-1].strip():
                line.pop()
            if line:
                lines.append(indent + "".join(line))
        return lines


def _speak_click(translated: bool) -> None:
    """Point Click's words and wrapper at cardcli's (``translated``), or back at Click's own."""
    click._textwrap.TextWrapper = CellWrapper if translated else _ClickWrapper  # type: ignore[misc]
    click.formatting.term_len = visible_width if translated else _click_term_len  # type: ignore[assignment]
    for name in _CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        for attr, original, ours in (("_", gettext.gettext, click_gettext),
                                     ("ngettext", gettext.ngettext, CLICK.ngettext)):
            if getattr(module, attr, None) in (original, ours):
                setattr(module, attr, ours if translated else original)


__all__ = ["CLICK", "CLICK_UNSEEN", "click_gettext", "lang_argument", "start"]
