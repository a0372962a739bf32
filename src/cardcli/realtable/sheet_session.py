"""Keeping a sheet at the terminal, or from a file of entries in the same words.

At a terminal each entry is answered at once (a refused one with the reason,
and the prompt again); from a file or a pipe the entries are read in order and
the first one refused stops the run with its line number and the reason, the
sheet kept as it stood.  Every accepted entry goes to the sheet's file as it
is accepted and, with ``--serve``, to the live page.
"""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING

from ..contract.round_scores import CARDS
from ..kit.errors import CardcliError
from ..kit.grammar import listed
from ..kit.language import N_
from ..kit.language import core as _
from .entry_words import sheet_entry
from .sheet import Entry, Round, Sheet, SheetError, opening_word_said
from .sheet_export import board_view, page, round_text, standing
from .sheet_files import MAX_LINE, SheetFile

if TYPE_CHECKING:
    from ..contract.variant import Variant
    from ..contract.views import BoardView

#: The sheet's own words, for ``help`` (the variant adds a player's).
# Translators: the score sheet's help: the left column is what a person types (keep those words, or
# give the Japanese entry words the sheet reads as them); {opening} is the word that opens a round
# and what follows it ("wild ..."), {prompt} what that is ("the dealer's wild card"), {word} the word
# alone ("wild").
HELP = N_("""\
Each entry is one line. The words of the sheet:
  {opening:<24} start the next round: {prompt} (at its prompt, the card alone)
  NAME WORDS               a player's line for the round (entered again, it replaces the first);
                           at a player's prompt the words alone
  undo                     take back the last entry
  edit N                   correct round N (its lines, its {word}), until done
  done                     stop correcting
  sheet                    show the page
  quit                     stop (the sheet is kept: --resume goes on with it)
A player's words:""")


#: The most a file of entries may hold: an evening's sheet is a few kilobytes.
MAX_INPUT = 16 << 20


def entry_lines(stream: IO[bytes], source: str, limit: int | None = None) -> Iterator[str]:
    """The lines of ``stream`` as text, each at most :data:`MAX_LINE` bytes
    (a stream with no line ends, ``/dev/zero``, is refused, not read whole),
    the whole at most ``limit``.  :class:`CardcliError` names the line."""
    read = 0
    for number in itertools.count(1):
        raw = stream.readline(MAX_LINE + 1)
        if not raw:
            return
        read += len(raw)
        if len(raw) > MAX_LINE:
            raise CardcliError(_("{source}:{number}: the line is too long (more than {limit:,} bytes): an "
                                 "entry is one short line").format(source=source, number=number,
                                                                   limit=MAX_LINE))
        if limit is not None and read > limit:
            raise CardcliError(_("{source}: more than {limit:,} bytes: not a sheet's entries").format(
                source=source, limit=limit))
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            raise CardcliError(_("{source}:{number}: not text (UTF-8)").format(source=source,
                                                                              number=number)) from None


class SheetSession:
    """One run of ``cardcli scoresheet``: entries in, the page out."""

    def __init__(self, sheet: Sheet, file: SheetFile, say: Callable[[str], None],
                 publish: Callable[[BoardView], None] | None = None):
        self.sheet = sheet
        self.file = file
        self.say = say
        self.publish_view = publish
        self.applied: list[str] = []  # the entries the undo stack holds, newest last
        self.completed: Round | None = None
        self.lines: deque[str] = deque(maxlen=12)  # the live page's latest lines

    # -------------------------------------------------------------- entries
    def enter(self, text: str) -> list[str] | None:
        """Apply one line; what to show for it (``None``: the line was not an
        entry).  :class:`SheetError` for one the sheet refuses."""
        entry = self.sheet.parse(text)
        if entry is None:
            return None
        entering = self.sheet.editing is None and self.sheet.current is not None
        self.sheet.apply(entry)
        self.file.entry(entry.text)
        # The round this entry completed, if it did.
        self.completed = (self.sheet.rounds[-1] if entering and entry.kind in ("line", "score")
                          and self.sheet.current is None else None)
        if entry.kind == "undo":
            taken = self.applied.pop() if self.applied else "?"
            told = [_("Took back: {entry}").format(entry=taken)]
        else:
            self.applied.append(entry.said)  # said back as typed
            told = self._told(entry)
        self.lines.extend(line for line in told[:1])
        self.publish()
        return told

    def _told(self, entry: Entry) -> list[str]:
        sheet = self.sheet
        if entry.kind == "opening":
            played = sheet.rounds[sheet.editing] if sheet.editing is not None else sheet.rounds[-1]
            if sheet.editing is not None:
                # Translators: {what} is what opens a round ("the dealer's wild card"), {opening} the
                # round's now ("3H"), {note} what it means ("3s wild").
                return [_("Round {number}: {what} is now {opening} ({note}).").format(
                    number=played.number, what=sheet.opening_prompt(), opening=played.scored.opening,
                    note=played.scored.shown)]
            return [_("Round {number}: {dealer} deals, {note}.").format(
                number=played.number, dealer=sheet.names[played.dealer], note=played.scored.shown)]
        if entry.kind == "edit":
            played = sheet.rounds[entry.number - 1]
            # Translators: "NAME ...", "{word} ..." and "done" are entries ("wild ...").
            said = _("Correcting round {number}: enter any player's line again (NAME ...) or {word} ..., "
                     "then done.")
            return [said.format(number=played.number, word=opening_word_said(sheet.game.opening_word)),
                    round_text(sheet, played)]
        if entry.kind == "done":
            return [_("Done correcting."), *self.page_if_complete()]
        assert entry.seat is not None
        played = sheet.target() or sheet.rounds[-1]
        name = sheet.names[entry.seat]
        score = played.score(entry.seat)
        if entry.kind == "score":
            told = [_("{name}: {score} in round {number} (entered by hand, not checked)").format(
                name=name, score=score, number=played.number)]
        else:
            # Translators: {detail} is how the score was reached ("110 on the table - 5 in hand").
            said = _("{name}: {score} in round {number} ({detail}) (melds not checked)") \
                if played.checked(entry.seat) == CARDS else _("{name}: {score} in round {number} ({detail})")
            told = [said.format(name=name, score=score, number=played.number,
                                detail=played.scored.players[entry.seat].said)]
        if self.completed is not None:
            told += ["", _("Round {number} is scored.").format(number=played.number), *page(sheet)]
            over = sheet.over()
            if over is not None:
                # Translators: "undo", "edit N" and "quit" are entries.
                told.append(_("The game is over: {reason}. (undo or edit N still correct it; quit to "
                              "finish.)").format(reason=over))
        elif sheet.editing is not None and played.complete(sheet.players):
            scores = listed([f"{n} {played.score(s)}" for s, n in enumerate(sheet.names)])
            # Translators: {scores} is each player's score this round ("mom 105, me -20"); {standing}
            # who leads ("mom leads by 125."), or nothing.
            told.append(_("Round {number} now: {scores}. {standing}").format(
                number=played.number, scores=scores, standing=standing(sheet)).rstrip())
        return told

    def page_if_complete(self) -> list[str]:
        return page(self.sheet) if self.sheet.complete_rounds() else []

    def publish(self) -> None:
        if self.publish_view is not None:
            self.publish_view(board_view(self.sheet, list(self.lines)))

    # ---------------------------------------------------------------- runs
    def prompt(self) -> str:
        """What the terminal asks now: which round, and whose line or what opens it."""
        sheet = self.sheet
        if sheet.editing is not None:
            # Translators: the prompt while a round is corrected (before "> ").
            return _("round {number} (correcting)").format(number=sheet.editing + 1)
        current = sheet.current
        if current is not None:
            seat = sheet.next_seat(current)
            assert seat is not None
            # Translators: the prompt for a player's line (before "> ").
            return _("round {number}, {name}").format(number=current.number, name=sheet.names[seat])
        if sheet.over() is not None:
            # Translators: the prompt once the game is over (before "> "): the page can still be corrected.
            return _("sheet")
        number = len(sheet.rounds) + 1
        # Translators: the prompt for a round's opening (before "> "); {word} is the word typed ("wild").
        return _("round {number} ({dealer} deals), {word}").format(
            number=number, dealer=sheet.names[sheet.next_dealer()],
            word=opening_word_said(sheet.game.opening_word))

    def help(self) -> list[str]:
        sheet = self.sheet
        game = sheet.game
        intro = _(HELP).format(opening=f"{game.opening_word} ...", prompt=sheet.opening_prompt(),
                               word=game.opening_word)
        words = [*intro.splitlines(), *("  " + line for line in line_help(sheet.variant, game.line_help))]
        if any(line.split(" ", 1)[0] == "score" for line in game.line_help):
            return words  # the variant's help lists the sheet's own word already: once is enough
        # Translators: a line of the score sheet's help: "score 105" is an entry; translate the explanation.
        score = _("score 105                the score alone, entered by hand (accepted, marked unchecked)")
        return [*words, "  " + score]

    def command(self, text: str) -> list[str] | None:
        """The words that change nothing (help, sheet), or ``None``."""
        word = _word(text)
        if word in ("help", "?"):
            return self.help()
        if word in ("sheet", "page"):
            return page(self.sheet)
        return None

    def interactive(self, read: Callable[[str], str]) -> None:
        """Prompt until ``quit`` or the end of input (``read`` raises ``EOFError``)."""
        self.say(_("Type each round's entries; help lists the words. The sheet is kept in {path}.").format(
            path=self.file.path))
        while True:
            try:
                text = read(self.prompt() + "> ")
            except EOFError:
                self.say("")
                return
            if _word(text) in ("quit", "exit"):
                return
            shown = self.command(text)
            try:
                shown = shown if shown is not None else self.enter(text)
            except SheetError as problem:
                shown = [_("Not accepted: {problem}").format(problem=problem)]
            for line in shown or ():
                self.say(line)

    def from_lines(self, lines: Iterable[str], source: str) -> None:
        """Apply each line of ``source`` in turn; the first refused stops the run."""
        for number, text in enumerate(lines, start=1):
            if _word(text) in ("quit", "exit"):
                return
            if self.command(text) is not None:
                continue
            try:
                told = self.enter(text)
            except SheetError as problem:
                said = _("{source}:{number}: {problem} (the sheet is kept as it stood before this line, in "
                         "{path})")
                raise CardcliError(said.format(source=source, number=number, problem=problem,
                                               path=self.file.path)) from None
            if told and self.completed is not None:
                self.say(round_text(self.sheet, self.completed))


def _word(text: str) -> str:
    """A line as the sheet's English words, lowered (``ヘルプ``: ``help``, ``終了``: ``quit``)."""
    return sheet_entry(text).strip().lower()


def line_help(variant: Variant, lines: Sequence[str]) -> list[str]:
    """A variant's help for a player's words (its ``line_help``) in the chosen
    language: the lines as one message where its catalog has them so (the
    table translated whole), else each line as its own message."""
    if not lines:
        return []
    table = "\n".join(lines)
    said = variant.words(table)
    if said == table:
        said = "\n".join(variant.words(line) if line else line for line in lines)
    return said.splitlines()
