"""How the terminal shows a game: suit symbols, colour, the player to move, the card just played.

Variants write cards in the plain notation everywhere (``10H``, ``QS``,
``JK``), in their tables, descriptions and prompts alike, and the
record keeps it.  Only at the terminal, as the last step before text is
printed, a :class:`Style` turns each card name into its symbol form
(``10♥``), colours hearts and diamonds red, highlights the rows of the
player to move and makes the card just played stand out.  The core does
this to whatever text a variant produces, so every variant, a third party's
included, gets it without a line of its own.

Colour is on for a terminal and off when ``NO_COLOR`` is set (to anything),
when ``TERM`` is ``dumb``, when the output is not a terminal, or with
``--no-color``; ``--color`` forces it.  Symbols need a terminal whose
encoding and locale can show them (a UTF-8 locale); elsewhere the plain
form stays, so ``LANG=C`` gives plain ASCII.
"""

from __future__ import annotations

import codecs
import os
import re
import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import IO

from ..kit.cards import SUIT_SYMBOLS, SUITS
from ..words.table_text import ACTING

#: A card name in the plain notation, standing alone: ``7H``, ``10S``, ``JK``
#: (and ``3H`` in ``3H=5C``, a wild's meaning in a meld).  Not inside a word.
CARD_TOKEN = re.compile(r"(?<![A-Za-z0-9])(?:(10|[2-9JQKA])([SHDC])|JK)(?![A-Za-z0-9])")

RESET = "\x1b[0m"
BOLD = "\x1b[1m"
RED = "\x1b[31m"
REVERSE = "\x1b[7m"
MAGENTA = "\x1b[35m"
UNBOLD = "\x1b[22m"

_RED_SUITS = frozenset("HD")
#: What Python sets ``LC_CTYPE`` to when it starts in the C locale (PEP 538).
_COERCED = frozenset({"C.UTF-8", "C.utf8", "UTF-8"})


def wants_colour(forced: bool | None = None, stream: IO[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> bool:
    """Whether to colour output to ``stream``: ``forced`` (``--color`` /
    ``--no-color``) decides if given; otherwise a terminal, unless
    ``NO_COLOR`` is set or ``TERM`` is ``dumb``."""
    if forced is not None:
        return forced
    env = os.environ if environ is None else environ
    if env.get("NO_COLOR") or env.get("TERM") == "dumb":
        return False
    stream = stream if stream is not None else sys.stdout
    return _isatty(stream)


def can_show_symbols(stream: IO[str] | None = None, environ: Mapping[str, str] | None = None,
                     *, terminal: bool | None = None) -> bool:
    """Whether ``stream`` (a terminal, unless ``terminal`` says otherwise) can
    show ``♠♥♦♣``: its encoding must encode them and the locale (``LC_ALL``,
    ``LC_CTYPE`` or ``LANG``, the first set) must be UTF-8.  No locale at all
    is the C locale: ASCII."""
    stream = stream if stream is not None else sys.stdout
    if not (_isatty(stream) if terminal is None else terminal):
        return False
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "".join(SUIT_SYMBOLS).encode(codecs.lookup(encoding).name)
    except (LookupError, UnicodeEncodeError):
        return False
    env = os.environ if environ is None else environ
    names = ["LC_ALL", "LC_CTYPE", "LANG"]
    if not env.get("LC_ALL") and env.get("LC_CTYPE") in _COERCED and env.get("LANG", "C") in ("C", "POSIX"):
        names.remove("LC_CTYPE")  # Python's own coercion of the C locale (PEP 538): the terminal's is C
    for name in names:
        value = env.get(name)
        if value:
            value = value.lower().replace("-", "")
            return "utf8" in value
    return False


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


@dataclass(frozen=True)
class Style:
    """What the terminal can show: colour (ANSI escapes) and suit symbols.

    ``Style()`` is plain text: every method returns its input unchanged, so
    code that styles text need not ask whether it should.
    """

    colour: bool = False
    symbols: bool = False

    @classmethod
    def for_stream(cls, forced: bool | None = None, stream: IO[str] | None = None,
                   environ: Mapping[str, str] | None = None) -> Style:
        """The style for output to ``stream`` (stdout): see the module's docstring."""
        stream = stream if stream is not None else sys.stdout
        colour = wants_colour(forced, stream, environ)
        symbols = can_show_symbols(stream, environ, terminal=_isatty(stream) or bool(forced))
        return cls(colour=colour, symbols=symbols)

    @property
    def plain(self) -> bool:
        return not (self.colour or self.symbols)

    def card(self, name: str, *, emphasis: bool = False) -> str:
        """One card name (``10H``, ``JK``) as the terminal shows it."""
        if name == "JK":
            text = name
            return f"{MAGENTA}{REVERSE if emphasis else ''}{text}{RESET}" if self.colour else text
        rank, suit = name[:-1], name[-1]
        text = rank + SUIT_SYMBOLS[SUITS.index(suit)] if self.symbols else name
        if not self.colour:
            return text
        codes = (RED if suit in _RED_SUITS else "") + (REVERSE + BOLD if emphasis else "")
        return f"{codes}{text}{RESET}" if codes else text

    def text(self, text: str, *, bold: bool = False, played: Collection[str] = ()) -> str:
        """``text`` with its card names styled, the cards in ``played``
        reversed, and in bold the row of the player to move (a line that
        starts with :data:`cardcli.words.table_text.ACTING`, as the rows that
        :func:`~cardcli.words.table_text.seat_rows` writes do), or every line with
        ``bold`` ("ann, it is your turn.")."""
        if self.plain:
            return text
        emphasis = set(played) if self.colour else set()

        def card(match: re.Match[str]) -> str:
            name = match.group(0)
            return self.card(name, emphasis=name in emphasis)

        if not self.colour or (not bold and ACTING not in text):
            return CARD_TOKEN.sub(card, text)
        lines = []
        for line in text.split("\n"):
            styled = CARD_TOKEN.sub(card, line)
            if bold or line.startswith(ACTING):
                # Bold survives the cards' own resets: bold again after each.
                styled = BOLD + styled.replace(RESET, RESET + BOLD) + RESET
            lines.append(styled)
        return "\n".join(lines)


def strip_styles(text: str) -> str:
    """``text`` without ANSI escapes (tests and widths)."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


PLAIN = Style()
