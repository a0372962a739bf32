"""Text that fits the terminal: its width, lines wrapped at spaces, tables
whose widest column gives way.

Every screen cardcli prints (a game's table and prompts, ``games``,
``compare``, ``arena``, ``rules``, ...) goes through these, so at an 80x24
terminal no line is wider than the screen and none is cut in the middle of
a word by the terminal.  Widths are what the terminal shows, measured by
wcwidth: colour escapes take no room, wide characters (Japanese) two columns,
and East Asian "ambiguous" characters (the suit symbols) one, or two where
``CARDCLI_AMBIGUOUS_WIDE=1`` says the terminal draws them wide.  Text without
spaces (Japanese) is broken between characters, never before a closing mark
such as 。 or 」.  ``--json`` keeps the full data for scripts.
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import IO

import click

from .language import core as _

#: The width when there is no terminal to ask (output to a file or a pipe).
DEFAULT_WIDTH = 80
DEFAULT_ROWS = 24
#: Narrower than this and tables stop giving way (a line is then cut by the terminal).
NARROWEST = 40

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def terminal_size(stream: IO[str] | None = None) -> tuple[int, int]:
    """The terminal's columns and rows: ``COLUMNS``/``LINES`` where set, else
    the terminal ``stream`` (stdout) writes to, else 80x24."""
    stream = stream if stream is not None else sys.stdout
    columns = rows = 0
    try:
        if stream is not None and stream.isatty():
            columns, rows = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        pass
    columns = _env_number("COLUMNS") or columns or DEFAULT_WIDTH
    rows = _env_number("LINES") or rows or DEFAULT_ROWS
    return max(columns, NARROWEST), max(rows, 10)


def terminal_width(stream: IO[str] | None = None) -> int:
    """The columns a line may use (see :func:`terminal_size`)."""
    return terminal_size(stream)[0]


def _env_number(name: str) -> int:
    value = os.environ.get(name, "")
    return int(value) if value.isdigit() else 0


def visible_width(text: str) -> int:
    """The columns ``text`` takes on a terminal: escapes none, wide characters two."""
    text = _ESCAPE.sub("", text)
    if text.isascii():
        return len(text)
    from wcwidth import wcswidth, wcwidth  # here: its tables cost start-up, and ASCII needs none

    ambiguous = ambiguous_width()
    width = wcswidth(text, ambiguous_width=ambiguous)
    if width < 0:  # a control character somewhere: count the rest, the control as nothing
        width = sum(max(0, wcwidth(ch, ambiguous_width=ambiguous)) for ch in text)
    return width


def ambiguous_width() -> int:
    """How wide the terminal draws East Asian "ambiguous" characters (♠♥♦♣): 1, or 2 when
    ``CARDCLI_AMBIGUOUS_WIDE=1`` (a terminal set to draw them wide, common in Japan)."""
    return 2 if os.environ.get("CARDCLI_AMBIGUOUS_WIDE", "") not in ("", "0") else 1


#: Marks a line may not start with (kinsoku): they stay with the character before them.
_CLOSING = set("、。，．,.）)]」』】〕〉》・ー！？!?：:；;ぁぃぅぇぉっゃゅょァィゥェォッャュョ〜…")  # noqa: RUF001 - full-width marks on purpose
#: Marks a line may not end with: they stay with the character after them.
_OPENING = set("（([「『【〔〈《")  # noqa: RUF001


def line_pieces(word: str) -> list[str]:
    """``word`` cut where a line may break: between wide characters (Japanese has no
    spaces), never before a closing mark or after an opening one; a run of narrow
    characters (``ja``, ``7h``, ``--lang``) stays whole."""
    if word.isascii():
        return [word]
    from wcwidth import wcwidth

    pieces: list[str] = []
    for ch in word:
        wide = wcwidth(ch) == 2
        before = pieces[-1][-1] if pieces else ""
        # Never broken: before a closing mark, after an opening one, inside a run of narrow
        # characters, nor between a number or card name and the word it goes with ("9手目", "ASを").
        if pieces and (ch in _CLOSING or before in _OPENING
                       or (wcwidth(before) != 2 and (not wide or before.isalnum()))):
            pieces[-1] += ch
        else:
            pieces.append(ch)
    return pieces


def wrap(text: str, width: int, indent: int | None = None) -> list[str]:
    """``text`` (one or more lines) as lines of at most ``width`` columns,
    broken at spaces; a word longer than a line stays whole.  A line carried
    on is indented ``indent`` columns, by default two more than the line it
    continues."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines.extend(_wrap_line(line, width, indent))
    return lines


def _wrap_line(line: str, width: int, indent: int | None) -> list[str]:
    if visible_width(line) <= width:
        return [line]
    body = line.lstrip(" ")
    lead = line[:len(line) - len(body)]
    carry = " " * min(len(lead) + 2 if indent is None else indent, width // 2)
    out: list[str] = []
    current, used = lead, len(lead)
    for whole, space in re.findall(r"(\S+)( *)", body):
        pieces = line_pieces(whole)
        for word in pieces:
            size = visible_width(word)
            if current.strip() and used + size > width:
                out.append(current.rstrip(" "))
                current, used = carry, len(carry)
            current += word
            used += size
        current += space
        used += len(space)
    if current.strip():
        out.append(current.rstrip(" "))
    return out


def shorten(text: str, width: int, mark: str = "...") -> str:
    """``text`` cut to ``width`` columns (with ``mark`` where it was cut)."""
    if visible_width(text) <= width:
        return text
    cut = text
    while cut and visible_width(cut) + len(mark) > width:
        cut = cut[:-1]
    return cut.rstrip() + mark


def table(heads: Sequence[str], rows: Sequence[Sequence[str]], width: int, *,
          right: Sequence[int] = (), give: Sequence[int] = (), gap: int = 2, indent: int = 0) -> list[str]:
    """``rows`` under ``heads`` in aligned columns, the whole no wider than
    ``width``: where it would be, the columns in ``give`` (by default the
    widest) are narrowed, their cells wrapped onto more lines.  Columns in
    ``right`` are aligned right (numbers)."""
    count = len(heads)
    cells = [list(heads), *[list(row) + [""] * (count - len(row)) for row in rows]]
    widths = [max(visible_width(row[i]) for row in cells) for i in range(count)]
    room = width - indent - gap * (count - 1)
    flexible = list(give) or [max(range(count), key=lambda i: widths[i])]
    while sum(widths) > room:
        column = max(flexible, key=lambda i: widths[i])
        least = max((visible_width(piece) for row in cells for word in row[column].split()
                     for piece in line_pieces(word)), default=1)
        if widths[column] <= least:
            if len(flexible) == 1:
                break
            flexible.remove(column)
            continue
        widths[column] -= 1
    lines: list[str] = []
    for row in cells:
        parts = [wrap(cell, widths[i], indent=0) or [""] for i, cell in enumerate(row)]
        for depth in range(max(len(part) for part in parts)):
            pieces = []
            for i, part in enumerate(parts):
                text = part[depth] if depth < len(part) else ""
                pad = " " * (widths[i] - visible_width(text))
                pieces.append(pad + text if i in right else text + pad)
            lines.append((" " * indent + (" " * gap).join(pieces)).rstrip())
    return lines


def lead_in(text: str, rest: str, width: int) -> str:
    """``text rest`` on one line where it fits, else ``rest`` on a line of
    its own under ``text`` (a command to copy is never broken)."""
    if visible_width(text) + 1 + visible_width(rest) <= width:
        return f"{text} {rest}"
    return f"{text}\n  {rest}"


def path_text(text: str, path: str, width: int) -> str:
    """``text`` and a file's ``path`` as :func:`lead_in` puts them; a path
    too long for a line of its own is said as its name, then the folder it
    is in on the next line (a path is never broken)."""
    folder, _slash, name = path.rpartition("/")
    if visible_width(path) + 2 <= width or not folder or not name:
        return lead_in(text, path, width)
    # Translators: a file named on one line, its folder on the next: "Record: game.jsonl, in the folder".
    return _("{line}, in the folder").format(line=lead_in(text, name, width)) + f"\n  {folder}"


def command_text(text: str, words: Sequence[str], width: int) -> str:
    """``text`` and a shell command to copy (``words``, already quoted) on
    one line where it fits; else the command on lines of its own, two
    columns in, broken between words with the shell's `` \\`` so that it
    still pastes as one command (a word wider than a line stays whole)."""
    command = " ".join(words)
    if visible_width(text) + 1 + visible_width(command) <= width:
        return f"{text} {command}"
    lines = [text]
    current = " "
    for word in words:
        if current.strip() and visible_width(current) + 1 + visible_width(word) + 2 > width:
            lines.append(current + " \\")
            current = "   "
        current += " " + word
    lines.append(current)
    return "\n".join(lines)


def both_ends_a_terminal() -> bool:
    """Whether a person reads the output and types the input: where paging
    (or pausing) makes sense.  A pipe, a file or CI gets the text as it is."""
    try:
        return bool(sys.stdin and sys.stdin.isatty() and sys.stdout and sys.stdout.isatty())
    except (AttributeError, ValueError):
        return False


def rows_of(text: str, width: int) -> int:
    """The terminal rows ``text`` takes at ``width`` columns, wrapped."""
    return len(wrap(text, width))


def taller_than_the_terminal(text: str) -> bool:
    """Whether ``text`` would scroll its first lines off the terminal (the
    last row is the prompt's, after it)."""
    columns, rows = terminal_size()
    return rows_of(text, columns) > rows - 1


def page(text: str, *, color: bool | None = None) -> None:
    """Print ``text``; where it is taller than the terminal and a person is
    at both ends, through Click's pager (``$PAGER``, else ``less``), so its
    start can be read.  A pipe, a file or CI gets it as it is."""
    if both_ends_a_terminal() and taller_than_the_terminal(text):
        via_pager(text, color=color)
    else:
        click.echo(text, color=color)


def _less_text(text: str) -> str:
    """``text`` as it stands in a prompt of less: its marks (``? : . %``
    and the backslash) taken as they are, and never the ``$`` that would
    end the prompt in ``LESS``."""
    return re.sub(r"([?:.%\\])", r"\\\1", text.replace("$", ""))


def via_pager(text: str, *, color: bool | None = None) -> None:
    """``text`` through Click's pager.  Where the reader has set neither
    ``PAGER`` nor ``LESS``, less says at the foot of each page how to go on
    (its own bare ``:`` tells a newcomer nothing, and only q leaves it)."""
    if os.environ.get("PAGER") or "LESS" in os.environ:
        click.echo_via_pager(text, color=color)
        return
    more = _less_text(_("Space: more; q: go on"))
    end = _less_text(_("(END) q: go on"))
    # (-R: colours as Click would ask where it sets LESS itself; a prompt in LESS ends at a $.)
    os.environ["LESS"] = f"{'' if color is False else '-R '}-Ps?e{end}:{more}.$-Pm?e{end}:{more}.$"
    try:
        click.echo_via_pager(text, color=color)
    finally:
        del os.environ["LESS"]


class _Kept(io.StringIO):
    """What a command writes while :func:`paged` holds it: a terminal's
    width and colour still apply (it answers as the terminal it stands for)."""

    def __init__(self, terminal: IO[str]):
        super().__init__()
        self.terminal = terminal

    def isatty(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.terminal.fileno()


@contextmanager
def paged() -> Iterator[None]:
    """What a command prints inside, held, then given to :func:`page`:
    through the pager where it is taller than the terminal (a person at
    both ends); printed as it is, and as it comes, anywhere else."""
    if not both_ends_a_terminal():
        yield
        return
    terminal = sys.stdout
    kept = _Kept(terminal)
    sys.stdout = kept
    try:
        yield
    finally:
        sys.stdout = terminal
    page(kept.getvalue().removesuffix("\n"))


def echo(text: str = "", *, err: bool = False) -> None:
    """Print ``text`` wrapped to the width of the terminal it goes to."""
    stream = sys.stderr if err else sys.stdout
    click.echo("\n".join(wrap(text, terminal_width(stream))), err=err)


def tell(text: str, *, err: bool = False, indent: int | None = 2) -> None:
    """Print a message (a record's verdict, an error): wrapped at a terminal,
    whole in a pipe or a file, where one line is one message to grep."""
    stream = sys.stderr if err else sys.stdout
    try:
        terminal = stream.isatty()
    except (AttributeError, ValueError):
        terminal = False
    if terminal:
        text = "\n".join(wrap(text, terminal_width(stream), indent))
    click.echo(text, err=err)
