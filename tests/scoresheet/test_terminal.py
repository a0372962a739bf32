"""``cardcli scoresheet`` at a real terminal (a pseudo-terminal, pexpect): the
prompts say whose line is next, a refused entry is answered with the rule
and asked again, undo and help, quit keeps the sheet."""

from __future__ import annotations

import io
import json
import os
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


def test_ctrl_c_keeps_the_sheet_and_says_how_to_go_on(tmp_path: Path):
    path = tmp_path / "sheet.jsonl"
    env = dict(os.environ, TERM="xterm-256color", LANG="C", NO_COLOR="1")
    child = pexpect.spawn(CARDCLI, ["scoresheet", "endofpage", "--players", "mom,me", "--save", str(path)],
                          env=env, encoding="utf-8", timeout=30)
    child.expect_exact("round 1 (mom deals), wild> ")
    child.sendline("wild 9C")
    child.expect_exact("round 1, me> ")
    child.sendintr()
    child.expect_exact(f"The sheet is kept: go on with it with cardcli scoresheet --resume {path}")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert json.loads(path.read_text().splitlines()[-1]) == {"entry": "wild 9C"}
