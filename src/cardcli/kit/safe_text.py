"""Text from records and rulesets, made safe to show at a terminal.

A record or a ruleset may come from anyone, and a terminal obeys the control
characters in what it prints: a player named ``"\\x1b]0;pwned\\x07"`` would set
the window title, ``"\\x1b[2J"`` would clear the screen, a right-to-left
override would reorder the line.  Every piece of such text goes through
:func:`printable` before it reaches a terminal, so it shows as the escapes
you would type (``\\x1b]0;pwned\\x07``) and does nothing.
"""

from __future__ import annotations

import unicodedata

#: Characters that change how the rest of a line is laid out without being
#: control characters: bidirectional embeddings, overrides and isolates.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"


def printable(text: str, *, newlines: bool = False) -> str:
    """``text`` with control characters (C0, DEL, C1), line and paragraph
    separators and bidirectional controls written as escapes (``\\x1b``).

    ``newlines=True`` keeps ``\\n`` (for a message of several lines that
    cardcli itself wrote); a name or a value never needs one.
    """
    if text.isprintable() and not _BIDI.intersection(text):
        return text  # the common case, at C speed
    out = []
    for char in text:
        if char == "\n" and newlines:
            out.append(char)
        elif char in _BIDI or unicodedata.category(char) in ("Cc", "Zl", "Zp"):
            out.append(_escape(char))
        else:
            out.append(char)
    return "".join(out)
