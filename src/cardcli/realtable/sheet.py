"""The page of a game kept by hand: its rounds, the totals, who leads, and the words that change it.

Each accepted entry changes the sheet and is what the sheet's file keeps, in
the words it was typed in (with the name or word it left out put in), so
reading the file again gives the same sheet.  The words:

* ``wild 3H``: the next round starts, with what the variant opens a round
  with (:attr:`RoundScores.opening_word`; End of the Page: the dealer's
  wild card).  The dealer moves left each round.
* ``mom meld 4S 4H 3D=4, hand 7D``: a player's line for the round, in the
  variant's words (a line entered again replaces it).  ``mom score 105``:
  the score alone, by hand, accepted and marked unchecked.  When the words
  start with neither a name nor a word of the sheet, they are the opening of
  a round that needs one, else the line of the next player (from the
  dealer's left) who has none.
* ``undo`` takes back the last entry; ``edit 2`` makes the next entries
  correct round 2 (its opening, any player's line) until ``done``.

A round is complete when every player has a line; then it counts, and the
next one can start.  The variant says when the game is over (End of the
Page: the page's rounds are played, or a total reached the target); then no
round starts, but entries can still be corrected.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..contract.round_scores import BY_HAND, EntryError, RoundScores, ScoredRound
from ..contract.variant import Variant
from ..kit.errors import CardcliError
from ..kit.grammar import join_and
from ..kit.language import core as _
from ..kit.results import Result
from .entry_words import SHEET_WORDS as ENTRY_WORDS
from .entry_words import sheet_entry

#: Words of the sheet itself, never a player's name.  ``help``, ``sheet`` and
#: ``quit`` are the command's (they change nothing, so no file keeps them).
SHEET_WORDS = ("undo", "edit", "done", "score", "help", "sheet", "quit")


class SheetError(CardcliError):
    """An entry the sheet refuses: the rules' reason, or why it does not fit the page now."""


@dataclass(frozen=True)
class Line:
    """One player's line of a round: their words, or a score entered by hand."""

    seat: int
    words: str | None  # None: scored by hand
    by_hand: int | None = None


@dataclass(frozen=True)
class Round:
    """A round on the sheet, once its opening is entered."""

    number: int
    dealer: int
    opening: str
    scored: ScoredRound
    lines: tuple[Line, ...] = ()

    def line(self, seat: int) -> Line | None:
        return next((line for line in self.lines if line.seat == seat), None)

    def complete(self, players: int) -> bool:
        return len(self.lines) == players

    def score(self, seat: int) -> int | None:
        """``seat``'s score this round (``None``: not entered yet)."""
        line = self.line(seat)
        if line is None:
            return None
        if line.by_hand is not None:
            return line.by_hand
        return self.scored.players[seat].score

    def checked(self, seat: int) -> str | None:
        """What was checked of ``seat``'s score (:data:`~cardcli.contract.round_scores.MELDS`, ...)."""
        line = self.line(seat)
        if line is None:
            return None
        return BY_HAND if line.by_hand is not None else self.scored.players[seat].checked


@dataclass(frozen=True)
class Entry:
    """One entry, read: ``kind`` is ``opening``, ``line``, ``score``, ``undo``,
    ``edit`` or ``done``; ``text`` the words a file keeps for it."""

    kind: str
    text: str
    seat: int | None = None
    words: str = ""  # a player's words, or what follows the opening word
    number: int = 0  # the round to correct (edit), or the score entered by hand
    #: A line whose player was not named: the next one without a line.
    guessed: bool = False
    #: The entry as typed, where its words were read as others (Japanese entry words), with the name
    #: or word it left out put in; ``""``: ``text`` is what was typed.
    typed: str = ""

    @property
    def said(self) -> str:
        """The entry as the person typed it, to say back (``text`` is what a file keeps)."""
        return self.typed or self.text


class Sheet:
    """A game's score sheet, changed one entry at a time (see the module docstring)."""

    def __init__(self, variant: Variant, rules: Mapping[str, Any], names: Sequence[str], dealer: int = 0):
        if not isinstance(variant, RoundScores):
            raise SheetError(_("{variant} keeps no score sheet (its plugin does not say how to score a round "
                               "from the table)").format(variant=variant.name))
        check_names(names, variant.opening_word)
        if not 0 <= dealer < len(names):
            raise SheetError(_("no player {dealer} to deal").format(dealer=dealer))
        self.variant = variant
        self.game: RoundScores = variant
        self.rules = dict(rules)
        self.names = list(names)
        self.dealer = dealer
        self.rounds: tuple[Round, ...] = ()
        #: The round (index) the entries correct after ``edit N``, until ``done``.
        self.editing: int | None = None
        self._before: list[tuple[tuple[Round, ...], int | None]] = []

    # ------------------------------------------------------------ the page
    @property
    def players(self) -> int:
        return len(self.names)

    def complete_rounds(self) -> list[Round]:
        return [r for r in self.rounds if r.complete(self.players)]

    @property
    def current(self) -> Round | None:
        """The round being entered (not yet complete), if any."""
        if self.rounds and not self.rounds[-1].complete(self.players):
            return self.rounds[-1]
        return None

    def running(self) -> list[list[int]]:
        """The totals after each complete round."""
        totals = [0] * self.players
        out = []
        for played in self.complete_rounds():
            totals = [total + (played.score(seat) or 0) for seat, total in enumerate(totals)]
            out.append(totals)
        return out

    def totals(self) -> list[int]:
        running = self.running()
        return running[-1] if running else [0] * self.players

    def leaders(self) -> list[int]:
        """The seats leading (every seat before any round counts)."""
        totals = self.totals()
        best = min(totals) if self.game.lower_wins else max(totals)
        return [seat for seat, total in enumerate(totals) if total == best]

    def over(self) -> str | None:
        """Why the game is over, or ``None`` while rounds remain."""
        if self.current is not None or not self.rounds:
            return None
        return self.game.sheet_over(self.rules, self.players, self.totals(), len(self.rounds))

    def result(self) -> Result | None:
        reason = self.over()
        if reason is None:
            return None
        rows = [[r.score(seat) or 0 for seat in range(self.players)] for r in self.rounds]
        return Result.ranked(self.totals(), reason, lower_is_better=self.game.lower_wins, rounds=rows)

    def page_size(self) -> int | None:
        """The rounds the page holds, where the rules say."""
        option = self.game.rounds_option
        value = self.rules.get(option) if option else None
        return value if isinstance(value, int) else None

    def opening_prompt(self) -> str:
        """What a round opens with, as the variant says it (``the dealer's wild card``), in the
        chosen language where the variant's catalog has it."""
        return self.variant.words(self.game.opening_prompt)

    def next_dealer(self) -> int:
        return (self.dealer + len(self.rounds)) % self.players

    def next_seat(self, played: Round) -> int | None:
        """The first player from the dealer's left without a line in ``played``."""
        for step in range(1, self.players + 1):
            seat = (played.dealer + step) % self.players
            if played.line(seat) is None:
                return seat
        return None

    def target(self) -> Round | None:
        """The round the next player's line goes to: the one being edited, else the current one."""
        if self.editing is not None:
            return self.rounds[self.editing]
        return self.current

    # ------------------------------------------------------------ the words
    def parse(self, text: str) -> Entry | None:
        """An entry in the sheet's words (``None`` for a blank line or a
        ``#`` comment); :class:`SheetError` says why a line is none.  Japanese
        entry words are read as the English ones (:mod:`.entry_words`), the entry
        said back as typed (:attr:`Entry.said`)."""
        kept = text.split("#", 1)[0]
        read = sheet_entry(kept)  # ``kept`` itself where nothing in it is Japanese
        entry = self._parse(" ".join(read.split()))
        if entry is None or read == kept:
            return entry
        return replace(entry, typed=self._as_typed(entry, " ".join(kept.split()), " ".join(read.split())))

    def _as_typed(self, entry: Entry, typed: str, read: str) -> str:
        """``entry`` in the words ``typed`` (``read`` as the sheet's English words), with the name or
        the opening word it left out put in."""
        if entry.kind == "opening" and read.partition(" ")[0].lower() != self.game.opening_word:
            return f"{in_japanese(self.game.opening_word)} {typed}"
        if entry.kind in ("line", "score") and entry.seat is not None and self._named(read)[0] is None:
            return f"{self.names[entry.seat]} {typed}"
        return typed

    def _parse(self, text: str) -> Entry | None:
        if not text:
            return None
        first, _space, rest = text.partition(" ")
        word = first.lower()
        if word == "undo" and not rest:
            return Entry("undo", "undo")
        if word == "done" and not rest:
            return Entry("done", "done")
        if word == "edit":
            if not rest.isdecimal():
                # Translators: "edit 2" is an entry (the words typed to correct round 2).
                raise SheetError(_("say which round to correct: edit 2"))
            return Entry("edit", f"edit {int(rest)}", number=int(rest))
        if word in ("undo", "done"):
            # Translators: {word} is an entry word ("undo", "done").
            raise SheetError(_("{word} takes nothing after it").format(word=word))
        opening = self.game.opening_word
        if word == opening:
            if not rest:
                # Translators: {word} is the word typed to open a round ("wild"), {what} what follows it
                # ("the dealer's wild card"), {example} an entry ("wild 3H").
                raise SheetError(_("{word} needs {what}: {example}").format(
                    word=opening, what=self.opening_prompt(), example=self.game.opening_example))
            return Entry("opening", f"{opening} {rest}", words=rest)
        seat, words = self._named(text)
        if seat is not None:
            return self._line(seat, words)
        target = self.target()
        if target is None:
            return Entry("opening", f"{opening} {text}", words=text)
        if self.editing is not None:
            raise SheetError(_("say whose line it is ({name} ...): round {number} is being corrected").format(
                name=self.names[0], number=target.number))
        seat = self.next_seat(target)
        assert seat is not None  # the round being entered is not complete
        return self._line(seat, text, guessed=True)

    def _named(self, text: str) -> tuple[int | None, str]:
        """The player a line starts with (the longest name that fits, a colon
        after it allowed), and the rest."""
        lowered = text.lower()
        for seat in sorted(range(self.players), key=lambda s: -len(self.names[s])):
            name = self.names[seat].lower()
            if lowered == name or lowered.startswith((name + " ", name + ":")):
                return seat, text[len(name):].lstrip(":").strip()
        return None, text

    def _line(self, seat: int, words: str, guessed: bool = False) -> Entry:
        name = self.names[seat]
        if not words:
            raise SheetError(_("say what {name} has on the table and in hand (help shows the words)").format(
                name=name))
        first, _space, rest = words.partition(" ")
        if first.lower() == "score":
            try:
                score = int(rest.strip())
            except ValueError:
                # Translators: "{name} score 105" is an entry ("score" is the word typed).
                raise SheetError(_("{name} score takes a whole number, e.g. {name} score 105").format(
                    name=name)) from None
            return Entry("score", f"{name} score {score}", seat=seat, number=score)
        return Entry("line", f"{name} {words}", seat=seat, words=words, guessed=guessed)

    def enter(self, text: str) -> Entry | None:
        """Read and apply one entry; the entry (``None``: nothing to apply)."""
        entry = self.parse(text)
        if entry is not None:
            self.apply(entry)
        return entry

    def apply(self, entry: Entry) -> None:
        """Change the sheet by ``entry``, or raise :class:`SheetError` leaving it as it was."""
        if entry.kind == "undo":
            if not self._before:
                raise SheetError(_("nothing to undo"))
            self.rounds, self.editing = self._before.pop()
            return
        rounds, editing = self._changed(entry)
        self._check_end(rounds)
        self._before.append((self.rounds, self.editing))
        self.rounds, self.editing = rounds, editing

    def _changed(self, entry: Entry) -> tuple[tuple[Round, ...], int | None]:
        rounds = list(self.rounds)
        if entry.kind == "edit":
            if not 1 <= entry.number <= len(rounds):
                if len(rounds) > 1:
                    said = _("there is no round {number} to correct (the sheet has rounds 1 to {count})")
                elif rounds:
                    said = _("there is no round {number} to correct (the sheet has round 1)")
                else:
                    said = _("there is no round {number} to correct (the sheet has no round yet)")
                raise SheetError(said.format(number=entry.number, count=len(rounds)))
            return self.rounds, entry.number - 1
        if entry.kind == "done":
            if self.editing is None:
                raise SheetError(_("nothing is being corrected (edit N corrects round N)"))
            return self.rounds, None
        if entry.kind == "opening":
            if self.editing is not None:
                old = rounds[self.editing]
                rounds[self.editing] = self._scored(replace(old, opening=entry.words))
                return tuple(rounds), self.editing
            current = self.current
            if current is not None:
                missing = [self.names[s] for s in range(self.players) if current.line(s) is None]
                # Translators: {what} is what opens a round ("the dealer's wild card"), {opening} the
                # round's ("3H"); "edit 1" and "undo" are entries.
                said = _("round {number} is not complete ({players} to enter): edit {number} changes {what} "
                         "({opening}), undo takes back the last entry")
                raise SheetError(said.format(number=current.number, players=join_and(missing),
                                             what=self.opening_prompt(), opening=current.scored.opening))
            over = self.over()
            if over is not None:
                raise SheetError(_("the game is over ({reason}): edit N corrects a round, undo takes back "
                                   "the last entry").format(reason=over))
            number = len(rounds) + 1
            rounds.append(self._scored(Round(number, self.next_dealer(), entry.words, _EMPTY)))
            return tuple(rounds), None
        # A player's line or score.
        assert entry.seat is not None
        target = self.target()
        if target is None:
            over = self.over()
            if over is not None:
                raise SheetError(_("the game is over ({reason}): edit N corrects a round").format(
                    reason=over))
            # Translators: {what} is what opens a round ("the dealer's wild card"), {example} an entry
            # ("wild 3H").
            raise SheetError(_("round {number} starts with {what} ({dealer} deals): {example}").format(
                number=len(rounds) + 1, what=self.opening_prompt(), dealer=self.names[self.next_dealer()],
                example=self.game.opening_example))
        by_hand = entry.kind == "score"
        line = Line(entry.seat, None, entry.number) if by_hand else Line(entry.seat, entry.words)
        lines = list(target.lines)
        where = next((i for i, old in enumerate(lines) if old.seat == entry.seat), None)
        if where is None:
            lines.append(line)
        else:
            lines[where] = line
        index = target.number - 1
        try:
            rounds[index] = self._scored(replace(target, lines=tuple(lines)))
        except SheetError as problem:
            raise SheetError(self._typo(entry, self._in_typed_words(entry, str(problem)))) from None
        return tuple(rounds), self.editing

    def _in_typed_words(self, entry: Entry, problem: str) -> str:
        """``problem`` with the parts of a line typed in Japanese quoted as typed, not as read."""
        if entry.kind != "line" or not entry.typed:
            return problem
        typed = self._named(entry.typed)[1]
        read = [part.strip() for part in entry.words.replace(";", ",").split(",") if part.strip()]
        said = [part.strip() for part in re.split(r"[、,;\uff0c\uff1b]", typed) if part.strip()]
        if len(read) != len(said):
            return problem
        for part, as_typed in zip(read, said, strict=True):
            problem = problem.replace(repr(part), repr(as_typed))
        return problem

    def _scored(self, played: Round) -> Round:
        """``played`` read and scored anew by the variant, from its opening and every line."""
        lines = {line.seat: line.words for line in played.lines}
        try:
            scored = self.game.score_round(self.rules, self.names, played.dealer, played.opening, lines)
        except EntryError as problem:
            raise SheetError(_("round {number}: {problem}").format(number=played.number,
                                                                   problem=problem.message)) from None
        return replace(played, scored=scored)

    def _typo(self, entry: Entry, problem: str) -> str:
        """``problem``, and for a line taken as the next player's, a first word
        that looks like a misspelt name."""
        if entry.kind != "line" or not entry.guessed:
            return problem
        first = entry.words.split()[0]
        names = {name.lower(): name for name in self.names}
        close = difflib.get_close_matches(first.lower(), list(names), n=1, cutoff=0.6)
        if not close:
            return problem
        return _("{problem} (is {word} a misspelt {name}?)").format(problem=problem, word=repr(first),
                                                                     name=names[close[0]])

    def _check_end(self, rounds: tuple[Round, ...]) -> None:
        """Refuse a change after which the game would have ended before the last round on the sheet."""
        totals = [0] * self.players
        for played in rounds:
            if not played.complete(self.players):
                break
            totals = [total + (played.score(seat) or 0) for seat, total in enumerate(totals)]
            reason = self.game.sheet_over(self.rules, self.players, totals, played.number)
            if reason is not None and played.number < len(rounds):
                raise SheetError(_("after that the game would end after round {number} ({reason}), but the "
                                   "sheet goes on to round {last}: correct or undo the rounds after it first")
                                 .format(number=played.number, reason=reason, last=len(rounds)))


_EMPTY = ScoredRound("", "", {})


def opening_word_said(word: str) -> str:
    """The word that opens a round (``wild``) as the chosen language types it
    (``ワイルド``, an entry word the sheet reads), where it has one."""
    from ..kit.language import current

    return in_japanese(word) if current() == "ja" else word


def in_japanese(word: str) -> str:
    """A word of the sheet as the Japanese entry words type it (``wild``: ``ワイルド``), where one does."""
    return next((japanese for japanese, english in ENTRY_WORDS if english == word), word)


def check_names(names: Sequence[str], opening: str) -> None:
    """Players' names the sheet's words can tell apart: none empty, none a
    word of the sheet, no two the same (in any case)."""
    if not names:
        raise SheetError(_("name the players: --players mom,me"))
    seen: set[str] = set()
    for name in names:
        lowered = name.lower()
        if not name.strip() or name != name.strip():
            raise SheetError(_("{name}: a player's name may not be empty or start or end with a space")
                             .format(name=repr(name)))
        if lowered in (*SHEET_WORDS, opening):
            raise SheetError(_("a player may not be called {name}: it is a word of the sheet").format(
                name=repr(name)))
        if any(char in name for char in ",:#"):
            raise SheetError(_("{name}: a player's name may not hold a comma, a colon or #").format(
                name=repr(name)))
        if lowered in seen:
            raise SheetError(_("two players are called {name}: give each a name of their own").format(
                name=repr(name)))
        seen.add(lowered)
