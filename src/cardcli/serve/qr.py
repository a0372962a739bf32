"""An invite link as a QR code in the terminal, so a phone can scan it.

Encoding is segno's (pure Python, no dependencies); this module only draws
the modules with half blocks, two rows per line, dark on light with the quiet
zone the standard asks for, so it scans from a dark or a light terminal.
"""

from __future__ import annotations

import segno

#: Modules of light border around the symbol (the standard asks for 4; 2 scans
#: reliably on a screen and keeps the code small).
QUIET = 2
_GLYPHS = {(False, False): "\u2588", (True, False): "\u2584", (False, True): "\u2580", (True, True): " "}


def matrix(text: str) -> list[list[bool]]:
    """The QR symbol of ``text`` as rows of dark (True) modules, without border."""
    code = segno.make(text, error="l", micro=False)
    return [[bool(module) for module in row] for row in code.matrix]


def terminal_lines(text: str) -> list[str]:
    """``text``'s QR code drawn with block characters: light is a full block, so
    the code reads as dark modules on a light square whatever the terminal."""
    rows = matrix(text)
    width = len(rows[0]) + 2 * QUIET
    padded = [[False] * width for _ in range(QUIET)]
    padded += [[False] * QUIET + row + [False] * QUIET for row in rows]
    padded += [[False] * width for _ in range(QUIET)]
    if len(padded) % 2:
        padded.append([False] * width)
    return ["".join(_GLYPHS[(top, bottom)] for top, bottom in zip(padded[y], padded[y + 1]))
            for y in range(0, len(padded), 2)]


def read_lines(lines: list[str]) -> list[list[bool]]:
    """The modules drawn by :func:`terminal_lines` (quiet zone included): its inverse, for tests."""
    back = {glyph: pair for pair, glyph in _GLYPHS.items()}
    rows: list[list[bool]] = []
    for line in lines:
        pairs = [back[glyph] for glyph in line]
        rows.append([top for top, _ in pairs])
        rows.append([bottom for _, bottom in pairs])
    return rows
