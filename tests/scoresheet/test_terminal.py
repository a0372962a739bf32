"""``cardcli scoresheet`` at a real terminal (a pseudo-terminal, pexpect): the
prompts say whose line is next, a refused entry is answered with the rule
and asked again, undo and help, quit keeps the sheet."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
from pathlib import Path

import pexpect
import pytest

CARDCLI = shutil.which("cardcli")
pytestmark = pytest.mark.skipif(CARDCLI is None, reason="the cardcli command is not on PATH")


def test_a_round_kept_at_the_terminal(tmp_path: Path):
    path = tmp_path / "sheet.jsonl"
    env = {key: value for key, value in os.environ.items() if key not in ("LC_ALL", "LC_CTYPE", "COLUMNS")}
    env.update(TERM="xterm-256color", LANG="C", NO_COLOR="1")
    seen = io.StringIO()
    child = pexpect.spawn(CARDCLI, ["scoresheet", "endofpage", "--players", "mom,me", "--dealer", "me",
                                    "--page-lines", "3", "--save", str(path)],
                          env=env, encoding="utf-8", dimensions=(50, 140), timeout=30)
    child.logfile_read = seen
    child.expect_exact("End of the Page: mom and me, 3 rounds on the page")
    child.expect_exact("round 1 (me deals), wild> ")
    child.sendline("3H")
    child.expect_exact("Round 1: me deals, 3s wild.")
    child.expect_exact("round 1, mom> ")
    child.sendline("meld 4S 4H 5D, hand 7D")
    child.expect_exact("Not accepted: round 1: mom's meld 4S 4H 5D: not a set (different ranks)")
    child.expect_exact("round 1, mom> ")
    child.sendline("meld 4S 4H 3D=4, hand 7D")
    child.expect_exact("mom: 105 in round 1 (110 on the table - 5 in hand)")
    child.expect_exact("round 1, me> ")
    child.sendline("help")
    child.expect_exact("undo                     take back the last entry")
    child.expect_exact("off 3S=4 on mom 1")
    child.expect_exact("round 1, me> ")
    child.sendline("meld 4C 3H=5C 6C, off 3S=4 on mom, out")
    child.expect_exact("Round 1 is scored.")
    child.expect_exact("me leads by 105.")
    child.expect_exact("round 2 (mom deals), wild> ")
    child.sendline("undo")
    child.expect_exact("Took back: me meld 4C 3H=5C 6C, off 3S=4 on mom, out")
    child.expect_exact("round 1, me> ")
    child.sendline("me score 200")
    child.expect_exact("me: 200 in round 1 (entered by hand, not checked)")
    child.expect_exact("round 2 (mom deals), wild> ")
    child.sendline("quit")
    child.expect_exact("? entered by hand, not checked")
    child.expect_exact(f"The sheet is kept in {path}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, seen.getvalue()
    entries = [json.loads(line).get("entry") for line in path.read_text().splitlines()[1:]]
    assert entries == ["wild 3H", "mom meld 4S 4H 3D=4, hand 7D", "me meld 4C 3H=5C 6C, off 3S=4 on mom, out",
                       "undo", "me score 200"]


def spaced(text: str) -> str:
    """A pattern for ``text`` as a terminal may show it, wrapped at any of its spaces."""
    return r"\s+".join(re.escape(word) for word in text.split())


def test_ctrl_c_keeps_the_sheet_and_says_how_to_go_on(tmp_path: Path):
    """At 80 columns, with a sheet's path as long as a real one: every line
    fits, wrapped at spaces (the path and the command to copy whole)."""
    path = Path("cardcli-sheets-of-the-family", "20250105-201403-endofpage-sheet.jsonl")  # ~/.local/... long
    (tmp_path / path.parent).mkdir()
    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES")}
    env.update(TERM="xterm-256color", LANG="C", NO_COLOR="1")
    seen = io.StringIO()
    child = pexpect.spawn(CARDCLI, ["scoresheet", "endofpage", "--players", "mom,me", "--save", str(path)],
                          env=env, encoding="utf-8", dimensions=(24, 80), timeout=30, cwd=tmp_path)
    child.logfile_read = seen
    child.expect(spaced("Type each round's entries; help lists the words. The sheet is kept in") + r"\s+"
                 + re.escape(f"{path}."))
    child.expect_exact("round 1 (mom deals), wild> ")
    child.sendline("wild 9C")
    child.expect_exact("round 1, me> ")
    child.sendintr()
    child.expect(spaced("The sheet is kept: go on with it with cardcli scoresheet --resume") + r"\s+"
                 + re.escape(str(path)))
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    wide = [line for line in seen.getvalue().replace("\r", "").split("\n") if len(line) > 80]
    assert not wide, wide
    assert json.loads((tmp_path / path).read_text().splitlines()[-1]) == {"entry": "wild 9C"}


def board_now(link: str) -> dict:
    """The board a page opening ``link`` now is sent first (a real client)."""
    from websockets.sync.client import connect

    from cardcli.serve.protocol import PROTOCOL

    base, token = link.split("/t/")
    with connect(base.replace("http://", "ws://") + "/ws", open_timeout=10) as socket:
        socket.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
        return json.loads(socket.recv(timeout=10))


def test_the_served_page_follows_the_terminal_and_a_resumed_sheet(tmp_path: Path):
    """``--serve`` while the entries are typed: the page shows each change,
    ``edit`` included; ``--resume --serve`` shows the sheet as it was kept."""
    path = tmp_path / "sheet.jsonl"
    env = dict(os.environ, TERM="xterm-256color", LANG="C", NO_COLOR="1")
    args = ["--serve", "--port", "0", "--no-qr"]
    child = pexpect.spawn(CARDCLI, ["scoresheet", "endofpage", "--players", "mom,me", "--dealer", "me",
                                    "--save", str(path), *args], env=env, encoding="utf-8", timeout=30)
    child.expect(spaced("The sheet, live and read-only, for this machine only (--lan shares it with your "
                        "Wi-Fi):") + r"\s+(http://127\.0\.0\.1:\d+/t/\S+)")
    link = child.match.group(1)
    child.expect_exact("round 1 (me deals), wild> ")
    assert board_now(link)["headline"].startswith("Round 1 of 10")
    for line, prompt in [("3H", "round 1, mom> "), ("meld 4S 4H 3D=4, hand 7D", "round 1, me> "),
                         ("meld 4C 3H=5C 6C, off 3S=4 on mom, out", "round 2 (mom deals), wild> "),
                         ("edit 1", "round 1 (correcting)")]:
        child.sendline(line)
        child.expect_exact(prompt)
    shown = board_now(link)
    assert shown["sheet"]["totals"] == [105, 210] and shown["status"] == "me leads by 105."
    child.sendline("mom score 300")
    child.expect_exact("mom: 300 in round 1 (entered by hand, not checked)")
    child.sendline("done")
    child.expect_exact("round 2 (mom deals), wild> ")
    shown = board_now(link)
    assert shown["sheet"]["totals"] == [300, 210] and shown["sheet"]["rows"][0]["marks"] == ["?", "~"]
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    again = pexpect.spawn(CARDCLI, ["scoresheet", "--resume", str(path), *args], env=env, encoding="utf-8",
                          timeout=30)
    again.expect(spaced("for this machine only (--lan shares it with your Wi-Fi):") + r"\s+(http://\S+)")
    link = again.match.group(1)
    again.expect_exact("round 2 (mom deals), wild> ")
    shown = board_now(link)
    assert shown["sheet"]["totals"] == [300, 210] and shown["status"] == "mom leads by 90."
    again.sendline("quit")
    again.expect(pexpect.EOF)
    again.close()
    assert again.exitstatus == 0


def japanese(tmp_path: Path, seen: io.StringIO) -> tuple[pexpect.spawn, Path]:
    """``cardcli --lang ja scoresheet`` at a terminal, mom and me, me dealing first."""
    path = tmp_path / "sheet.jsonl"
    env = {key: value for key, value in os.environ.items() if key not in ("LC_ALL", "LC_CTYPE", "COLUMNS")}
    env.update(TERM="xterm-256color", LANG="C", NO_COLOR="1")
    child = pexpect.spawn(CARDCLI, ["--lang", "ja", "scoresheet", "endofpage", "--players", "mom,me",
                                    "--dealer", "me", "--page-lines", "3", "--save", str(path)],
                          env=env, encoding="utf-8", dimensions=(50, 140), timeout=30)
    child.logfile_read = seen
    return child, path


def test_in_japanese_help_and_quit_are_the_japanese_words_too_at_every_prompt(tmp_path: Path):
    seen = io.StringIO()
    child, path = japanese(tmp_path, seen)
    child.expect_exact("第1ラウンド(親はme)、ワイルド> ")
    child.sendline("ヘルプ")
    child.expect_exact("直前の入力を取り消す")
    child.expect_exact("第1ラウンド(親はme)、ワイルド> ")
    child.sendline("ハート3")
    child.expect_exact("第1ラウンド、mom> ")
    child.sendline("ヘルプ")
    child.expect_exact("直前の入力を取り消す")
    child.expect_exact("第1ラウンド、mom> ")
    child.sendline("終了")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, seen.getvalue()
    assert "受け付けられません" not in seen.getvalue()
    entries = [json.loads(line).get("entry") for line in path.read_text().splitlines()[1:]]
    assert entries == ["wild 3h"]


def test_in_japanese_an_entry_is_said_back_as_it_was_typed(tmp_path: Path):
    """Japanese entry words are read as the English ones (the file keeps those), but
    undo and a refusal say the entry as typed, the name put in where it was left out."""
    seen = io.StringIO()
    child, path = japanese(tmp_path, seen)
    child.expect_exact("第1ラウンド(親はme)、")
    child.sendline("ハート3")
    child.expect_exact("第1ラウンド、mom> ")
    child.sendline("mom 得点 15")
    child.expect_exact("第1ラウンド、me> ")
    child.sendline("取り消し")
    child.expect_exact("取り消しました: mom 得点 15\r\n")
    child.expect_exact("第1ラウンド、mom> ")
    child.sendline("得点 15")
    child.expect_exact("第1ラウンド、me> ")
    child.sendline("zzz 上がり")
    child.expect_exact("'zzz 上がり' ")
    child.expect_exact("第1ラウンド、me> ")
    child.sendline("undo")
    child.expect_exact("取り消しました: mom 得点 15\r\n")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, seen.getvalue()
    entries = [json.loads(line).get("entry") for line in path.read_text().splitlines()[1:]]
    assert entries == ["wild 3h", "mom score 15", "undo", "mom score 15", "undo"]
