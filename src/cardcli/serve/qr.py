"""An invite link as a QR code in the terminal, so a phone can scan it.

Encoding is segno's (pure Python, no dependencies); this module only draws
the modules with half blocks, two rows per line, with the quiet zone a
scanner needs around the symbol.  A scanner needs dark modules on a light
ground, and a terminal's own colours may be either way round:

* with colour (a terminal, unless ``NO_COLOR``; ``--color`` forces it) the
  code is drawn in black on white, whatever the terminal's background;
* without, the blocks are drawn in the terminal's text colour as the *light*
  modules, which is right on a dark background (most terminals); on a light
  one, ``--color`` gives the black-on-white drawing.
"""

from __future__ import annotations

import re

import segno

#: Modules of light border around the symbol (the standard asks for 4; 2 scans
#: reliably on a screen and keeps the code small).
QUIET = 2
#: Black text on a bright white ground, and back to the terminal's colours.
BLACK_ON_WHITE, RESET = "\x1b[30;107m", "\x1b[0m"
#: (top module dark, bottom module dark) -> the glyph.  Plain: the glyph's ink
#: is the light modules.  Coloured: its ink (black) is the dark ones.
_PLAIN = {(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580", (True, True): " "}
_INKED = {(True, True): "\u2588", (True, False): "\u2580", (False, True): "\u2584", (False, False): " "}
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def matrix(text: str) -> list[list[bool]]:
    """The QR symbol of ``text`` as rows of dark (True) modules, without border."""
    code = segno.make(text, error="l", micro=False)
    return [[bool(module) for module in row] for row in code.matrix]


def terminal_lines(text: str, colour: bool = False) -> list[str]:
    """``text``'s QR code drawn with block characters (see the module's docstring)."""
    rows = matrix(text)
    width = len(rows[0]) + 2 * QUIET
    padded = [[False] * width for _ in range(QUIET)]
    padded += [[False] * QUIET + row + [False] * QUIET for row in rows]
    padded += [[False] * width for _ in range(QUIET)]
    if len(padded) % 2:
        padded.append([False] * width)
    glyphs = _INKED if colour else _PLAIN
    lines = ["".join(glyphs[(top, bottom)] for top, bottom in zip(padded[y], padded[y + 1]))
             for y in range(0, len(padded), 2)]
    return [BLACK_ON_WHITE + line + RESET for line in lines] if colour else lines


def seen(lines: list[str], background: str) -> list[list[bool]]:
    """The modules a scanner sees dark in :func:`terminal_lines`' drawing on a
    terminal with a ``"dark"`` (light text) or ``"light"`` (dark text)
    background: its inverse, for tests."""
    rows: list[list[bool]] = []
    for line in lines:
        coloured = BLACK_ON_WHITE in line
        plain = _SGR.sub("", line)
        # A glyph's ink and the ground around it, as dark (True) or light.
        ink, ground = (True, False) if coloured else (background == "light", background == "dark")
        top, bottom = [], []
        for glyph in plain:
            upper = glyph in "\u2588\u2580"
            lower = glyph in "\u2588\u2584"
            top.append(ink if upper else ground)
            bottom.append(ink if lower else ground)
        rows += [top, bottom]
    return rows
