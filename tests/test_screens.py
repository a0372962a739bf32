"""Every screen at a standard 80x24 terminal, in a real one (tmux): no line
wider than the terminal (which would wrap it in the middle of a word), and
what a player needs at the prompt still on the screen.

The commands' screens are one test; a whole game of each variant, played
as a person plays it, is one more each (a few seconds: CPUs of normal
strength, and the terminal read back only at each prompt).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.tmux import ENDED, TMUX, Tmux

CARDCLI = shutil.which("cardcli")
pytestmark = [
    pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH (README's install)"),
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it)"),
]
SIZE = (80, 24)


def environment(tmp_path: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "LC_ALL", "LC_CTYPE", "CI", "COLUMNS", "LINES", "TMUX")}
    # A home like a player's: the games folder is ~/.local/share/cardcli/games.
    env.update(TERM="xterm-256color", LANG="C.UTF-8", HOME=str(tmp_path / "home"))
    env.pop("CARDCLI_GAMES", None)
    env.pop("XDG_DATA_HOME", None)
    return env


def wide_lines_by_command(shown: str, width: int) -> dict[str, list[str]]:
    """The lines wider than ``width``, under the ``=== command`` line that printed them."""
    found: dict[str, list[str]] = {}
    command = "(before the first command)"
    for line in shown.split("\n"):
        if line.startswith("=== "):
            command = line[4:]
        elif len(line.rstrip()) > width:
            found.setdefault(command, []).append(line.rstrip())
    return found


def test_every_command_fits_80_columns(tmp_path):
    """The commands a new player runs first, with outputs as wide as they get:
    long player lists, every option of each variant, rulesets that change
    many options, tables of several CPUs, a game explained move by move."""
    home = tmp_path / "home"
    home.mkdir()
    # Files by name in the folder the commands run in, as a player names them.
    record, exported, relabelled = "game.jsonl", "seen-by-the-table.jsonl", "relabelled.jsonl"
    # A matching record relabelled as trick: every one of its options unknown to trick.
    golden = (Path(__file__).parent / "golden" / "matching" / "matching-4p-seed2.jsonl").read_text()
    (home / relabelled).write_text(golden.replace('"variant": "matching"', '"variant": "trick"', 1))
    commands = [
        "cardcli --help", "cardcli play --help", "cardcli simulate --help", "cardcli replay --help",
        "cardcli compare --help", "cardcli arena --help", "cardcli variants",
        "cardcli rules matching", "cardcli rules trick", "cardcli rules endofpage",
        "cardcli rules --ruleset american",
        "cardcli play trick --players cpu:easy,cpu:easy,cpu:normal,cpu:normal --seed 2",
        f"cardcli play matching --players cpu:normal,cpu:easy,cpu:easy,cpu:easy --seed 3 --record {record}",
        "cardcli games",
        f"cardcli validate {record}",
        f"cardcli export {record} --public -o {exported}",
        f"cardcli validate {exported} {relabelled}",
        f"cardcli replay {exported} --to 8",
        "cardcli export --help", "cardcli validate --help",
        f"cardcli replay {record} --to 6 --seat 1 --explain",
        "cardcli simulate matching -n 300 --seed 1 -w 1",
        "cardcli compare matching standard american -n 20 --seed 1 -w 1",
        "cardcli compare matching --set stack_twos=false -n 20 --seed 1 -w 1",
        "cardcli arena endofpage --players cpu:normal,cpu:easy,cpu:easy -n 3 --seed 1 -w 1",
        "cardcli arena trick --players cpu:normal,cpu:easy --ruleset best-of-five -n 2 --seed 1 -w 1",
        "cardcli new-variant toy",
    ]
    script = f"cd {shlex.quote(str(home))}; "
    script += "; ".join(f"echo {shlex.quote('=== ' + c)}; {c.replace('cardcli', str(CARDCLI), 1)} </dev/null"
                       for c in commands)
    term = Tmux(tmp_path, script, environment(tmp_path), SIZE)
    try:
        shown = term.wait_for(ENDED, seconds=240)
        for command in commands:
            assert f"=== {command}" in shown
        assert "Traceback" not in shown and "Ranking:" in shown and "games per ruleset" in shown
        assert "consistent with what the table saw (public view)" in shown and "unknown option" in shown
        wide = wide_lines_by_command(shown, SIZE[0])
        assert not wide, "\n".join(f"{c}:\n  {line}" for c, found in wide.items()
                                     for line in found)
    finally:
        term.close()


# ------------------------------------------------------------------ games
PROMPTS = {
    "move": r"Your move \(.*\)>$",
    "suit": r"Name the next suit>$",
    "draw": r"^Draw from>$",
    "turn": r"\? \(help, \? for a hint\)>$",
    "wild": r"What does the wild stand for\?>$",
    "round": r"Press Enter for the next deal\.$",
    "table": r"Press Enter for the table\.$",
    "end": r"Press Enter for the (end of the game|end of the round|ranking)\.$",
    "ended": ENDED,
}


class Player:
    """Plays a game at the terminal as a simple person would, checking every
    screen as it goes: nothing wider than the terminal, and what the screen
    must keep in view."""

    def __init__(self, term: Tmux):
        self.term = term
        self.kinds = list(PROMPTS)
        self.seen: dict[str, int] = {}
        self.hinted = self.helped = False
        self.mark = 0  # the lines of the pane when the last answer was typed
        self.paused = False  # a pause before the table since then
        self.end: list[str] = []  # the end of the game, as the last screen shows it

    def prompt(self, moves: bool = True) -> tuple[str, str]:
        """The next prompt, once the screen shows it; ``moves``: check that the
        moves since the last answer are in view (not after a hint or help)."""
        index, line = self.term.wait_for_prompt(list(PROMPTS.values()), seconds=120)
        kind = self.kinds[index]
        self.seen[kind] = self.seen.get(kind, 0) + 1
        wide = self.term.too_wide()
        assert not wide, f"lines wider than {self.term.columns} columns at a {kind!r} prompt: {wide}"
        if moves and (kind in ("table", "end") or (kind in ("draw", "move") and not self.paused)):
            self.moves_in_view(kind)
        if kind == "ended":
            self.end_in_view()
        self.paused = self.paused or kind in ("table", "end")
        return kind, line

    def end_in_view(self) -> None:
        """The end of the game, since the last answer or the last pause (the
        final table or the last round's summary, how the game ended, the
        ranking, the record), is on the screen whole."""
        new = self.term.everything().rstrip("\n").split("\n")[self.mark:]
        pauses = [i for i, line in enumerate(new) if re.search(PROMPTS["end"], line.rstrip())]
        shown = [line.rstrip() for line in new[pauses[-1] + 1 if pauses else 0:] if line.strip()]
        assert "Ranking:" in shown and any(line.startswith("Record:") for line in shown), shown
        screen = [row.rstrip() for row in self.term.screen(joined=True)]
        missing = [line for line in shown if line not in screen]
        assert not missing, f"the end of the game pushed off the screen: {missing}"
        self.end = shown

    def moves_in_view(self, kind: str) -> None:
        """The moves told since the last answer are all on the screen."""
        new = self.term.everything().rstrip("\n").split("\n")[self.mark:]
        if "" not in new:
            return
        start = new.index("") + 1
        end = new.index("", start) if "" in new[start:] else len(new)
        told = [line.rstrip() for line in new[start:end] if line.startswith("  ")]
        screen = [row.rstrip() for row in self.term.screen(joined=True)]
        missing = [line for line in told if line not in screen]
        assert not missing, f"at a {kind!r} prompt, moves pushed off the screen: {missing}"

    def send(self, text: str) -> None:
        self.mark = len(self.term.everything().rstrip("\n").split("\n"))
        self.paused = False
        self.term.answer(text)

    def play(self, moves: int = 400) -> dict[str, int]:
        for _ in range(moves):
            kind, _line = self.prompt()
            if kind == "ended":
                return self.seen
            self.answer(kind)
        raise AssertionError("the game did not end")

    def answer(self, kind: str) -> None:
        term = self.term
        if kind == "ended":
            return
        if kind == "table":
            term.answer("")  # the moves stay in the scrollback, read
        elif kind in ("round", "end"):
            self.send("")
        elif kind == "turn":
            self.end_of_the_page_turn()
        else:
            if kind == "move" and not self.hinted:
                self.ask_for_a_hint()
            self.send("1")

    def ask_for_a_hint(self) -> None:
        """``?``: the hint, then the choices, all on the screen together when
        the prompt comes back, under the table (not drawn again below it)."""
        self.hinted = True
        before = self.term.screen()
        self.term.answer("?")
        self.prompt(moves=False)
        screen = self.term.screen()
        top = next(i for i, row in enumerate(screen) if row.startswith("Hint - "))
        assert "(100 = sure first place, 0 = sure last)" in "\n".join(screen[top:])
        menu = [row for row in before if re.match(r"\s+\[1\]", row)]
        assert all(row in screen[top:] for row in menu), "the choices are shown again below the hint"
        assert not any(row.startswith(" > ") for row in screen[top:]), "the table is not drawn again"

    def end_of_the_page_turn(self) -> None:
        """Discard the first card; a last card that plays is laid off."""
        term = self.term
        if not self.helped:
            self.helped = True
            term.answer("help")
            self.prompt(moves=False)
            assert any(row.startswith("Commands:") for row in term.screen())
        if not self.hinted:
            self.ask_for_a_hint()
        self.send("d 1")
        kind, _line = self.prompt()
        refused = [row for row in term.screen() if row.startswith("You can't discard: your last card")]
        if kind != "turn" or not refused:
            self.answer(kind)
            return
        card = re.search(r"your last card (\S+) plays", refused[-1]).group(1)
        term.answer("list")
        self.prompt(moves=False)
        listed = "\n".join(term.screen())
        meld = re.findall(rf"lay off {re.escape(card)}\S* (?:as \S+ )?on meld (\d+)", listed)
        self.send(f"l {card} {meld[0]}")


def play_a_game(tmp_path: Path, args: str) -> dict[str, int]:
    return play_to_the_end(tmp_path, args).seen


def play_to_the_end(tmp_path: Path, args: str, size: tuple[int, int] = SIZE) -> Player:
    (tmp_path / "home").mkdir(exist_ok=True)
    term = Tmux(tmp_path, f"{CARDCLI} play {args}", environment(tmp_path), size)
    try:
        player = Player(term)
        player.play()
        shown = term.everything()
        assert "Ranking:" in shown and "Traceback" not in shown
        return player
    finally:
        term.close()


def test_a_game_of_matching_fits_80x24(tmp_path):
    seen = play_a_game(tmp_path, "matching --players you,cpu:normal,cpu:normal,cpu:normal --seed 3")
    assert seen.get("move", 0) >= 3


def test_a_game_of_trick_fits_80x24(tmp_path):
    seen = play_a_game(tmp_path, "trick --players you,cpu:normal,cpu:normal,cpu:normal --seed 4")
    assert seen.get("move", 0) >= 2


def test_a_game_of_end_of_the_page_fits_80x24_and_keeps_the_moves_in_view(tmp_path):
    """Four players: busy CPU turns.  At each turn the moves since the last
    one are on the screen together, at the prompt or at a pause before the
    table that would push them off."""
    rules = tmp_path / "two-rounds.toml"
    rules.write_text('name = "Two rounds"\nvariant = "endofpage"\n[options]\npage_lines = 2\n')
    seen = play_a_game(tmp_path, f"endofpage --players you,cpu:normal,cpu:normal,cpu:normal --seed 6 "
                                 f"--ruleset {rules}")
    assert seen["draw"] >= 4 and seen["turn"] >= 4 and seen.get("round", 0) == 1


def test_the_end_of_a_game_of_matching_is_on_the_screen_whole(tmp_path):
    """Seed 11: the last moves and the final table would not fit with the
    ranking; the game waits before the final table, so the last screen
    holds all of it, and the moves before it were read whole."""
    player = play_to_the_end(tmp_path, "matching --seed 11")
    assert player.seen.get("end", 0) >= 1
    assert any(line.startswith("Top card:") for line in player.end)
    assert "Game over: cpu1 went out." in player.end


def test_the_end_of_end_of_the_page_shows_the_last_round_and_the_whole_score_sheet(tmp_path):
    """``--ruleset short --seed 4``: the last round's on-the-table-minus-in-hand
    breakdown and the whole score sheet (its header, every round, the totals)
    are on the last screen with the ranking."""
    player = play_to_the_end(tmp_path, "endofpage --ruleset short --seed 4")
    end = player.end
    assert any(line.startswith("Round 3 of 3 is over:") for line in end), end
    assert sum(1 for line in end if re.search(r" on the table - +\d+ in hand = ", line)) == 2, end
    sheet = end.index("Score sheet:")
    assert end[sheet + 1].split() == ["round", "you", "cpu1"]
    assert [line.split()[0] for line in end[sheet + 2:sheet + 6]] == ["1", "2", "3", "total"]


# ------------------------------------------------------- stopping and ending
def test_ctrl_c_says_how_to_resume_in_80_columns_and_the_command_works(tmp_path):
    """The hint after Ctrl-C fits the terminal whole (a command wrapped by
    the terminal in the middle of a word cannot be read, nor pasted), and
    typed as shown it continues the game."""
    (tmp_path / "home").mkdir()
    env = environment(tmp_path)
    with Tmux(tmp_path, f"{CARDCLI} play matching --players you,cpu:easy --seed 5", env, SIZE) as term:
        term.wait_for_prompt([PROMPTS["move"]])
        term.type("C-c")
        shown = term.wait_for(ENDED)
        assert not term.too_wide(), term.too_wide()
    said = " ".join(shown[shown.index("Game saved."):shown.index(ENDED)].replace("\\\n", " ").split())
    found = re.match(r"Game saved\. Continue it with: (cardcli play --resume \S+)$", said)
    assert found, said
    command = found.group(1).replace("cardcli", str(CARDCLI), 1)
    with Tmux(tmp_path, f"cd /; {command}", env, SIZE) as term:
        term.wait_for_prompt([PROMPTS["move"]])
        assert "Resuming Page One (matching) after move" in term.everything()
        term.type("C-c")
        term.wait_for(ENDED)


def test_the_record_line_at_the_end_fits_80_columns_with_a_long_path(tmp_path):
    """A record's path too long for a line of 80 columns: said as its name,
    then its folder on a line of its own, at the start and at the end."""
    home = tmp_path / "home"
    folder = "~/card-games/kept-from-the-evenings-at-the-kitchen-table/with-friends"
    name = "tonight-at-home.jsonl"
    assert len(f"  {folder}/{name}") > SIZE[0] >= len(f"  {folder}")
    record = home / folder[2:] / name
    record.parent.mkdir(parents=True)
    command = f"{CARDCLI} play trick --players cpu:easy,cpu:easy --seed 2 --record {record}"
    with Tmux(tmp_path, command, environment(tmp_path), SIZE) as term:
        everything = term.wait_for(ENDED)
        assert not term.too_wide(), term.too_wide()
    assert f"Seed 2. Recording to {name}, in the folder\n  {folder}\n" in everything
    assert f"Record: {name}, in the folder\n  {folder}\n" in everything


# ------------------------------------------------------ a turn at a prompt
@pytest.mark.parametrize(("args", "top", "prompt", "answers"), [
    ("matching --players you,cpu:normal,cpu:normal,cpu:normal --seed 3", "Top card:", "move", ["1"]),
    ("endofpage --players you,cpu:normal,cpu:normal,cpu:normal --seed 6", "Round 1 of", "turn", ["1"]),
])
def test_the_hand_is_shown_once_and_the_table_stays_in_view_after_a_hint_and_typos(tmp_path, args, top,
                                                                                     prompt, answers):
    """At a turn the hand is on the screen once (in the table), and however
    many typos and hints the player types, the table's top (the top card,
    the round and the wild) and the menu stay on the screen with the prompt."""
    (tmp_path / "home").mkdir()
    with Tmux(tmp_path, f"{CARDCLI} play {args}", environment(tmp_path), SIZE) as term:
        for answer in answers:  # End of the Page: the draw first
            term.wait_for_prompt([PROMPTS["draw"] if prompt == "turn" else PROMPTS[prompt]])
            term.answer(answer)
        term.wait_for_prompt([PROMPTS[prompt]])
        screen = "\n".join(term.screen())
        turn = screen[screen.rindex(top):]  # this turn's table and menu
        hand = (re.search(r"^Your hand: (.+)$", turn, re.M)
                or re.search(r"^ > 0 you +\d+ cards +(?:\(dealer\) +)?(\S.+)$", turn, re.M))
        assert hand, screen
        cards = re.findall(r"(?:10|[2-9JQKA])[♠♥♦♣]", hand.group(1))
        # The hand once: the cards in the order it shows them are nowhere else in the turn.
        assert len(cards) >= 3 and len(re.findall(".*".join(cards), turn)) == 1, screen
        for typed in ["?", "zz", "qq", "?", "7x", "", "zz", "??", "xyzzy", "zz"]:
            term.answer(typed)
            term.wait_for_prompt([PROMPTS[prompt]])
            rows = term.screen()
            assert any(top in row for row in rows), f"the table's top scrolled off after {typed!r}:\n" + \
                "\n".join(rows)
            assert any(re.match(r"\s+\[1\]", row) for row in rows) or prompt == "turn", "\n".join(rows)
            assert not term.too_wide(), term.too_wide()
        term.type("C-c")
        term.wait_for(ENDED)


#: less as cardcli opens it (no PAGER, no LESS): at the foot of a page, then of the last, how to go on.
PAGER_MORE, PAGER_END = r"^Space: more; q: go on$", r"^\(END\) q: go on$"


def test_a_list_too_long_for_the_screen_is_paged_and_the_table_comes_back(tmp_path):
    """End of the Page's ``list`` with 22 melds: shown whole through the
    pager (every line reachable), and leaving it gives the turn back with
    the table on the screen."""
    (tmp_path / "home").mkdir()
    env = environment(tmp_path)
    env.pop("PAGER", None)
    env.pop("LESS", None)
    with Tmux(tmp_path, f"{CARDCLI} play endofpage --players you,cpu:normal --seed 8", env, SIZE) as term:
        term.wait_for_prompt([PROMPTS["draw"]])
        term.answer("1")
        term.wait_for_prompt([PROMPTS["turn"]])
        before = term.screen()
        term.answer("list")
        if term.wait_for_prompt([PAGER_MORE, PAGER_END])[0] == 0:  # less, waiting
            term.type("G")  # to the end of the list
            term.wait_for_prompt([r"\(END\)"])
        paged = [row.strip() for row in term.screen()]
        listed = [row for row in paged if row.startswith(("meld ", "lay off "))]
        assert len(set(listed)) >= 22 and not any("more" in row for row in paged), paged
        term.type("q")
        term.wait_for_prompt([PROMPTS["turn"]])
        after = term.screen()
        # The screen as it was (the table, the menu), the answer, and the prompt again.
        assert after[:-2] == before[1:-1] and after[-2].endswith("> list"), after
        assert any(row.startswith("Round 1 of") for row in after), after
        term.type("C-c")
        term.wait_for(ENDED)


@pytest.mark.parametrize(("command", "first"), [
    ("cardcli --help", "Usage: cardcli [OPTIONS] COMMAND [ARGS]..."),
    ("cardcli rules matching", "Page One (matching) - variant 'matching'"),
    ("cardcli games", "started"),
])
def test_output_taller_than_the_terminal_is_paged_from_its_start(tmp_path, command, first):
    """At a terminal, output taller than the screen opens in the pager at its
    first line (nothing scrolls away unread); piped, it is printed whole."""
    home = tmp_path / "home"
    home.mkdir()
    env = environment(tmp_path)
    env.pop("PAGER", None)
    env.pop("LESS", None)
    games = home / ".local" / "share" / "cardcli" / "games"
    script = f"{CARDCLI} simulate matching -n 20 --seed 1 -w 1 --records {games} >/dev/null; clear; " \
        if command == "cardcli games" else ""
    script += command.replace("cardcli", str(CARDCLI), 1)
    with Tmux(tmp_path, script, env, SIZE) as term:
        term.wait_for_prompt([PAGER_MORE], seconds=120)  # less, waiting at its first page, saying how on
        assert term.screen()[0].startswith(first), term.screen()
        term.type("q")
        term.wait_for(ENDED)
    piped = subprocess.run([*command.replace("cardcli", str(CARDCLI), 1).split()], env=env, text=True,
                           capture_output=True, stdin=subprocess.DEVNULL)
    assert piped.returncode == 0 and piped.stdout.startswith(first)
    assert len(piped.stdout.splitlines()) > SIZE[1]


@pytest.mark.parametrize(("seed", "short", "cut"), [(5, True, False), (13, False, True)])
def test_a_busy_table_of_six_keeps_the_round_and_the_discard_pile_in_view_at_the_draw(tmp_path, seed, short,
                                                                                      cut):
    """Six players with two decks, round 1: eleven melds (seed 5) or twelve
    ways to draw (seed 13) would push the table's top off the screen.  At
    every draw the round and the wild, the discard pile and the prompt are
    on the screen together: a table too tall is drawn short (its melds
    packed), a menu too long lists what fits and ``more`` lists every
    choice."""
    (tmp_path / "home").mkdir()
    env = environment(tmp_path)
    env.pop("PAGER", None)
    env.pop("LESS", None)
    kinds = {**PROMPTS, "pager": PAGER_MORE}
    names = list(kinds)
    draws = listed = packed = 0
    command = f"{CARDCLI} play endofpage --players 6 --ruleset two-decks --seed {seed}"
    with Tmux(tmp_path, command, env, SIZE) as term:
        while True:
            kind = names[term.wait_for_prompt(list(kinds.values()), seconds=120)[0]]
            if kind in ("round", "pager", "ended"):  # the end of round 1
                if kind == "pager":  # its summary, taller than the screen
                    term.type("q")
                    term.wait_for_prompt([PROMPTS["round"]])
                break
            rows = [row.rstrip() for row in term.screen()]
            if kind == "draw":
                draws += 1
                assert any(row.startswith("Round 1 of 10 | WILD: ") for row in rows), "\n".join(rows)
                assert any(row.startswith("Discard pile: ") for row in rows), "\n".join(rows)
                assert not term.too_wide(), term.too_wide()
                packed += any(re.match(r"  1\. \w+: .+  2\. \w+: ", row) for row in rows)  # the melds, short
                said = r"  \(and \d+ more choices: type more to list them all\)"
                more = [row for row in rows if re.fullmatch(said, row)]
                if more and not listed:  # every choice, paged, then the screen as it was
                    listed = int(more[0].split()[1])
                    shown = sum(1 for row in rows if re.match(r"  \[\d+\] ", row))
                    term.answer("more")
                    if term.wait_for_prompt([PAGER_MORE, PAGER_END, PROMPTS["draw"]])[0] < 2:
                        term.type("G")
                        term.wait_for_prompt([r"\(END\)"])
                        assert f"[{shown + listed}] pick up" in "\n".join(term.screen()), term.screen()
                        term.type("q")
                        term.wait_for_prompt([PROMPTS["draw"]])
                    assert any(row.startswith("Round 1 of 10 | WILD: ") for row in term.screen())
            term.answer({"turn": "d 1", "table": "", "end": ""}.get(kind, "1"))
        term.type("C-c")
        term.wait_for(ENDED)
    assert draws and bool(packed) == short and bool(listed) == cut
