"""``cardcli play`` in a real terminal, answered as a person answers it.

The longer ones are marked slow; CI runs them (``.ci/run``).

Each test runs the installed ``cardcli`` in a pseudo-terminal (pexpect), so
colour, symbols, prompts and pauses are what a player sees.  The hot-seat
privacy test runs it inside tmux, a real terminal emulator with scrollback,
and reads back everything the terminal holds (``capture-pane -S -``), as
does a long game's end, whose score sheet opens in the pager;
``tests/test_screens.py`` plays every screen at 80x24 there.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import uuid
from pathlib import Path

import pexpect
import pytest

from tests.test_screens import PROMPTS
from tests.test_screens import SIZE as SCREEN
from tests.test_screens import environment as screen_environment
from tests.tmux import ENDED, TMUX, Tmux

CARDCLI = shutil.which("cardcli")
pytestmark = pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH (README's "
                                                         "install puts it there)")
SYMBOLS = "\u2660\u2665\u2666\u2663"
RED = "\x1b[31m"
BOLD = "\x1b[1m"


def terminal_env(tmp_path: Path, **changes: str | None) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("NO_COLOR", "LC_ALL", "LC_CTYPE", "CI", "COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", LANG="C.UTF-8", CARDCLI_GAMES=str(tmp_path / "games"))
    for key, value in changes.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return env


def spawn(args: list[str], env: dict[str, str]) -> tuple[pexpect.spawn, io.StringIO]:
    seen = io.StringIO()
    child = pexpect.spawn(CARDCLI, args, env=env, encoding="utf-8", dimensions=(60, 160), timeout=60)
    child.logfile_read = seen
    return child, seen


def first_turn(tmp_path: Path, *flags: str, **env: str | None) -> tuple[str, Path]:
    """Start a game, read up to the first prompt, stop it (end of input); what
    the terminal was sent, and the record."""
    record = tmp_path / f"game-{uuid.uuid4().hex}.jsonl"
    child, seen = spawn(["play", "matching", "--players", "you,cpu:easy", "--seed", "5",
                         "--record", str(record), *flags], terminal_env(tmp_path, **env))
    child.expect_exact("Your move")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert "Game saved. Continue it with: cardcli play --resume" in seen.getvalue()
    return seen.getvalue(), record


# ------------------------------------------------------------------ colour
def test_a_terminal_gets_colour_and_suit_symbols_and_the_record_stays_plain(tmp_path):
    shown, record = first_turn(tmp_path)
    assert RED in shown and any(symbol in shown for symbol in SYMBOLS)
    assert BOLD + " > 0 you" in shown  # the player to move
    text = record.read_text()
    assert "\x1b" not in text and not any(symbol in text for symbol in SYMBOLS)
    hand = json.loads(text.splitlines()[1])["hands"][0]
    assert all(re.fullmatch(r"(10|[2-9JQKA])[SHDC]", card) for card in hand)


@pytest.mark.parametrize("how", ["NO_COLOR", pytest.param("--no-color", marks=pytest.mark.slow)])
def test_colour_off(tmp_path, how):
    shown, _ = first_turn(tmp_path, *(["--no-color"] if how == "--no-color" else []),
                          **({"NO_COLOR": "1"} if how == "NO_COLOR" else {}))
    assert RED not in shown and BOLD not in shown
    assert any(symbol in shown for symbol in SYMBOLS)  # symbols are not colour


@pytest.mark.slow
def test_color_forces_colour_and_a_c_locale_gets_plain_cards(tmp_path):
    shown, _ = first_turn(tmp_path, "--color", NO_COLOR="1", LANG="C")
    assert RED in shown
    assert not any(symbol in shown for symbol in SYMBOLS)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", shown)
    assert re.search(r" > 0 you +\d+ cards +(\(dealer\) +)?((10|[2-9JQKA])[SHDC]\S* ?)+", plain)  # the hand


# ------------------------------------------------------------- saved games
@pytest.mark.slow
def test_resume_recaps_the_last_moves_and_resume_last_finds_the_game(tmp_path):
    env = terminal_env(tmp_path)
    child, seen = spawn(["play", "matching", "--players", "you,cpu:normal", "--seed", "4"], env)
    moves = 0
    while moves < 5:
        if child.expect(["Your move", "Name the next suit"]) == 0:
            moves += 1
        if moves < 5:
            child.sendline("1")
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    # The hint names the saved game as cardcli games does, and that name resumes it.
    saved = re.search(r"cardcli play --resume (\d{8}-\d{6}-matching-4)\r?$", seen.getvalue(), re.M)
    assert saved, seen.getvalue()
    for args in (["play", "--resume", saved.group(1)], ["play", "--resume"], ["play", "--resume", "last"]):
        child, seen = spawn(args, env)
        child.expect_exact("it is your turn")
        child.sendeof()
        child.expect(pexpect.EOF)
        child.close()
        text = re.sub(r"\x1b\[[0-9;]*m", "", seen.getvalue())
        assert f"Recording to {tmp_path / 'games' / saved.group(1)}.jsonl" in text
        recap = text[text.index("The last 6 moves before the game stopped:"):text.index("it is your turn")]
        assert "  you played" in recap and "  cpu1 " in recap
        assert recap.index("The last 6 moves") < recap.index("stock:")  # the recap, then the table


# ------------------------------------------------------------ round pause
def play_end_of_the_page_until_a_round_ends(child: pexpect.spawn) -> str:
    """Answer End of the Page as a simple player (draw from the stock,
    discard the first card, lay off a last card that must be played) until
    the round's pause; return what was shown."""
    prompts = ["Draw from", r"\? \(help, \? for a hint\)> ", "Press Enter for the next deal.",
               r"You can't discard: your last card (\S+) plays", "What does the wild stand for"]
    while True:
        which = child.expect(prompts)
        if which == 0:
            child.sendline("1")
        elif which == 1:
            child.sendline("d 1")
        elif which == 2:
            return child.before
        elif which == 3:
            card = child.match.group(1)
            child.expect(r"> ")
            child.sendline("list")
            child.expect(rf"lay off {re.escape(card)}\S* (?:as \S+ )?on meld (\d+)")
            child.sendline(f"l {card} {child.match.group(1)}")
        else:
            child.sendline("1")


@pytest.mark.slow
def test_end_of_the_page_shows_the_rounds_table_and_scores_and_waits_for_enter(tmp_path):
    rules = tmp_path / "two-rounds.toml"
    rules.write_text('name = "Two rounds"\nvariant = "endofpage"\n[options]\npage_lines = 2\n')
    env = terminal_env(tmp_path, NO_COLOR="1")
    child, _seen = spawn(["play", "endofpage", "--players", "you,cpu:normal", "--seed", "6",
                         "--ruleset", str(rules)], env)
    before = play_end_of_the_page_until_a_round_ends(child)
    summary = before[before.rindex("Round 1 of 2 is over"):]
    assert "The table as the round ended:" in summary
    assert re.search(r"  you +-?\d+ on the table - +\d+ in hand = +-?\d+   hand: ", summary)
    assert re.search(r"  cpu1 +-?\d+ on the table", summary)
    assert "Score sheet:" in summary and "total" in summary
    # The game waits: nothing more comes until Enter.
    assert child.expect(["it is your turn", pexpect.TIMEOUT], timeout=2) == 1
    child.sendline("")
    child.expect_exact("Round 2 of 2")
    child.expect_exact("it is your turn")
    child.sendeof()
    child.expect(pexpect.EOF)


@pytest.mark.slow
def test_matching_rounds_pause_too(tmp_path):
    env = terminal_env(tmp_path, NO_COLOR="1")
    child, _seen = spawn(["play", "matching", "--players", "you,cpu:easy", "--seed", "7", "--ruleset",
                         "american"], env)
    while child.expect(["Your move", "Name the next suit", "Press Enter for the next deal."]) != 2:
        child.sendline("1")
    assert "Round 1 of 5 is over:" in child.before and "Cards left in hand count against" in child.before
    child.sendline("")
    child.expect_exact("Round 2 of 5")
    child.sendeof()
    child.expect(pexpect.EOF)


def test_the_stop_call_is_offered_with_the_last_card_and_taken(tmp_path):
    """American Page One as Japanese tables play it: the menu offers "Page
    One!" with two cards in hand and "Stop!" with one; pressing s calls it
    and the last card goes out (a round of five ends: the CPU went out of
    the first)."""
    record = tmp_path / "game.jsonl"
    child, seen = spawn(["play", "matching", "--players", "you,cpu:normal", "--ruleset", "japanese", "--seed",
                         "1", "--record", str(record)], terminal_env(tmp_path, NO_COLOR="1"))
    calls = {"p": 0, "s": 0}
    while True:
        found = child.expect([r'\[s\] call "Stop!"', r'\[p\] call "Page One!"', "Your move",
                              "Name the next suit", "Press Enter for the next deal."])
        if found == 4:
            if calls["s"]:
                break
            child.sendline("")  # the next deal
            continue
        if found < 2:
            key, name = ("s", "Stop") if found == 0 else ("p", "Page One")
            child.expect_exact(f"Your move (number, a card like 8s, {key} to call {name})")
            child.sendline(key)
            child.expect_exact(f'"{name}!" - now choose your card.')
            child.expect_exact("Your move")
            calls[key] += 1
        child.sendline("1")
    assert calls["p"] >= 1 and calls["s"] == 1
    shown = seen.getvalue()
    assert 'you called "Stop!" and played ' in shown and "is over: you went out." in shown
    child.sendeof()
    child.expect(pexpect.EOF)
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    last = [line for line in lines if line.get("move") == "play" and line["seat"] == 0][-1]
    assert last["call"] is True


# ---------------------------------------------------------------- hot seat
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it: apt-get install tmux)")
def test_hot_seat_leaves_no_hand_in_the_scrollback(tmp_path):
    env = terminal_env(tmp_path)
    env.pop("TMUX", None)
    command = f"seq 1 80 | sed 's/^/EARLIER OUTPUT /'; {CARDCLI} play matching --players ann,bob --seed 3"
    term = Tmux(tmp_path, command, env)
    try:
        hands: dict[str, str] = {}
        for _turn in range(4):
            term.wait_for_prompt([r"press Enter"])
            shown = term.everything()
            player = re.findall(r"Pass to (\w+), press Enter", shown)[-1]
            # The pass screen: nothing of anyone's hand is left in the terminal, scrollback included.
            assert "Your hand:" not in shown and not re.search(r"^ > \d", shown, re.M)
            for name, hand in hands.items():
                assert hand not in shown, f"{name}'s hand is in the terminal at {player}'s pass screen"
            term.type("Enter")
            # The turn's screen is complete once its prompt is at the bottom (not when it starts).
            term.wait_for_prompt([r"Your move \(.*\)>$"])
            shown = term.everything()
            for name, hand in hands.items():
                assert hand not in shown, f"{player} can see {name}'s hand"
            # The player's row of the table: " > 0 ann   7 cards  (dealer)  2S 9S ..."
            row = re.findall(rf"^ > \d {player} +\d+ cards? +(?:\(.*?\) +)?(.+)$", shown, re.M)
            hands[player] = row[-1].strip()
            term.answer("1")
            while term.wait_for_prompt([r"press Enter", r"Name the next suit>$"])[0] == 1:  # an 8
                term.answer("1")
        assert set(hands) == {"ann", "bob"}
        term.type("C-c")
        # The game left the alternate screen: the screen from before it is back, no hand is.
        shown = term.wait_for(ENDED)
        assert "Game saved. Continue it with" in shown
        for hand in hands.values():
            assert hand not in shown
    finally:
        term.close()


# ------------------------------------------------------------ game end
@pytest.mark.slow
@pytest.mark.skipif(TMUX is None, reason="tmux is not installed (.ci/run installs it: apt-get install tmux)")
def test_a_score_sheet_taller_than_the_screen_is_paged_whole_at_the_end(tmp_path):
    """Twelve rounds: the last round's summary and the score sheet take more
    than the screen, so they open in the pager from their first line (every
    round of the sheet can be read), and the last screen still holds how
    the game ended, the ranking and the record."""
    rules = tmp_path / "twelve.toml"
    rules.write_text('name = "Twelve rounds"\nvariant = "endofpage"\n[options]\npage_lines = 12\n')
    (tmp_path / "home").mkdir()
    env = screen_environment(tmp_path)
    env.pop("PAGER", None)
    env.pop("LESS", None)
    args = f"endofpage --players you,cpu:normal --seed 5 --ruleset {rules}"
    with Tmux(tmp_path, f"{CARDCLI} play {args}", env, SCREEN) as term:
        kinds = {**PROMPTS, "pager": r"^Space: more; q: go on$|^\(END\) q: go on$"}  # less: a page, the end
        names = list(kinds)
        for _ in range(2000):
            kind = names[term.wait_for_prompt(list(kinds.values()), seconds=120)[0]]
            first = [row.rstrip() for row in term.screen()]
            if kind == "pager" and first[0].startswith("Round 12 of 12 is over:"):
                break
            if kind == "pager":  # a round's summary taller than the screen, before the last
                assert re.match(r"Round \d+ of 12 is over:", first[0]), first
                term.type("q")
                term.wait_for_prompt([PROMPTS["round"]])
                continue
            term.answer({"turn": "d 1", "round": "", "table": "", "end": ""}.get(kind, "1"))
        else:
            raise AssertionError("the game did not end")
        term.type("G")
        term.wait_for_prompt([r"\(END\)"])
        last = [row.rstrip() for row in term.screen()]
        sheet = [row for row in first + last if re.match(r" +\d+ +-?\d+ +-?\d+", row)]
        assert sorted({int(row.split()[0]) for row in sheet}) == list(range(1, 13))  # (pages may overlap)
        assert any(row.startswith("  total") for row in last)
        term.type("q")
        term.wait_for_prompt([PROMPTS["end"]])  # the sheet's end in view, and the ranking next
        term.answer("")
        term.wait_for(ENDED)
        screen = [row.rstrip() for row in term.screen()]
        assert "Ranking:" in screen and any(row.startswith("Record:") for row in screen)
        assert not term.too_wide()
