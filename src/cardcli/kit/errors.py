"""Typed errors.  The library raises these; only the CLI turns them into
messages and exit statuses, so no traceback ever reaches a person."""

from __future__ import annotations

import errno
import functools
from enum import StrEnum

from .language import N_
from .language import core as _

#: The system's words for the file and network problems people meet most (C's
#: ``strerror``, which speaks English), said in the language chosen.
_SYSTEM_WORDS = {
    errno.ENOENT: N_("No such file or directory"),
    errno.EACCES: N_("Permission denied"),
    errno.EPERM: N_("Operation not permitted"),
    errno.EISDIR: N_("Is a directory"),
    errno.ENOTDIR: N_("Not a directory"),
    errno.ENOSPC: N_("No space left on device"),
    errno.EEXIST: N_("File exists"),
    errno.EROFS: N_("Read-only file system"),
    errno.ENAMETOOLONG: N_("File name too long"),
    errno.EADDRINUSE: N_("Address already in use"),
    errno.EADDRNOTAVAIL: N_("Cannot assign requested address"),
    errno.ECONNREFUSED: N_("Connection refused"),
}


def system_words(error: OSError) -> str:
    """What went wrong with a file or an address, for people: the system's own
    words (``strerror``), in the language chosen where cardcli knows them."""
    said = error.strerror or str(error)
    known = _SYSTEM_WORDS.get(error.errno or 0)
    return _(known) if known == said else said


class CardcliError(Exception):
    """Base of every error cardcli reports to a person."""


class CardError(CardcliError, ValueError):
    """A card name, rank or suit that cannot be parsed."""


class RulesetError(CardcliError):
    """A ruleset (or a set of options) that is not valid for its variant.

    A ruleset is checked whole, so one error can hold several ``problems``,
    each a sentence; ``source`` (the file, or "rules" for a record header) is
    named once in front of them.
    """

    def __init__(self, *problems: str, source: str | None = None):
        super().__init__(*problems)
        self.problems = list(problems)
        self.source = source

    def one_line(self) -> str:
        """Every problem on one line, for messages that must stay one line."""
        text = "; ".join(self.problems)
        return f"{self.source}: {text}" if self.source else text

    def __str__(self) -> str:
        if len(self.problems) <= 1:
            return self.one_line()
        listed = "\n".join(f"  - {problem}" for problem in self.problems)
        head = f"{self.source}: " if self.source else ""
        count = len(self.problems)
        mistakes = _.ngettext("{count} mistake:", "{count} mistakes:", count).format(count=count)
        return f"{head}{mistakes}\n{listed}"


class PluginError(CardcliError):
    """A variant that is not installed, or a plugin that broke its contract."""


class IllegalMove(CardcliError):
    """An action the rules do not allow in this state.

    ``rule`` is a short human explanation ("no rank or suit match");
    ``alternatives`` names what was allowed instead, where that helps.
    """

    def __init__(self, rule: str, alternatives: str | None = None):
        super().__init__(rule)
        self.rule = rule
        self.alternatives = alternatives

    def __str__(self) -> str:
        if self.alternatives:
            # Translators: a refusal and what was allowed instead ("no match (could play 7H or draw)").
            return _("{rule} ({alternatives})").format(rule=self.rule, alternatives=self.alternatives)
        return self.rule


class Kind(StrEnum):
    """What is wrong with a record, as ``validate --json`` names it (``kind``).

    A ``StrEnum``: each kind is also its string (``Kind.ILLEGAL == "illegal"``).
    """

    #: The file cannot be opened or read (missing, a folder, a FIFO).
    IO = "io"
    #: A line that is not a JSON object, or an event with a field it cannot have.
    SYNTAX = "syntax"
    #: The last line was cut short, as a write interrupted leaves it.
    TORN_LINE = "torn-line"
    #: A header that is missing, malformed, or names rules that cannot be.
    HEADER = "header"
    #: Lines in an order no game has (an event after the result, say).
    STRUCTURE = "structure"
    #: A move where the rules want a chance event (a deal, a draw).
    MISSING_EVENT = "missing-event"
    #: A chance event where a seat must move.
    UNEXPECTED_EVENT = "unexpected-event"
    #: A move by a seat whose turn it is not.
    WRONG_PLAYER = "wrong-player"
    #: A move or a chance outcome the rules forbid.
    ILLEGAL = "illegal"
    #: Cards not conserved: a card in two places, or missing.
    CARDS = "cards"
    #: A result line that is not the result the rules give.
    WRONG_RESULT = "wrong-result"
    #: A checkpoint that stands in the wrong place or states the wrong values.
    WRONG_CHECKPOINT = "wrong-checkpoint"
    #: A finished game whose record has no result line.
    MISSING_RESULT = "missing-result"
    #: A game that stops before its end (not an error in itself).
    UNFINISHED = "unfinished"
    #: Unseen cards that no deal explains: a record of a real table that could not have happened.
    IMPOSSIBLE = "impossible"
    #: A bug met while reading (in cardcli or the variant), not the record's fault.
    INTERNAL = "internal"
    #: Any other problem.
    INVALID = "invalid"


class RecordError(CardcliError):
    """A game record that cannot be read or does not follow the rules.

    Carries where the problem is: the file, the line, the move number and the
    seat, so the message can say exactly which move broke which rule.
    """

    def __init__(self, message: str, *, source: str = "<record>", line: int | None = None,
                 move: int | None = None, seat: int | None = None, kind: Kind | str = Kind.INVALID):
        super().__init__(message)
        self.message = message
        self.source = source
        self.line = line
        self.move = move
        self.seat = seat
        self.kind = Kind(kind)

    def __reduce__(self) -> tuple:
        # Keep where it happened when the error crosses a process boundary.
        return (functools.partial(type(self), self.message, source=self.source, line=self.line,
                                  move=self.move, seat=self.seat, kind=self.kind), ())

    def __str__(self) -> str:
        where = self.source if self.line is None else f"{self.source}:{self.line}"
        return f"{where}: {self.message}"

    def as_dict(self) -> dict:
        return {"file": self.source, "line": self.line, "move": self.move, "seat": self.seat,
                "kind": str(self.kind), "message": self.message}
