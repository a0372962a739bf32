"""A served game killed with SIGKILL mid-game and resumed: nothing lost, the same link works."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys

from cardcli.testing import validate_bytes

from .helpers import LIMIT, Bot


async def _start(*args: str) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-c", "from cardcli.cli import main; main()", "serve", *args]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    loop = asyncio.get_running_loop()
    seen = []
    while True:
        line = await loop.run_in_executor(None, process.stdout.readline)  # type: ignore[union-attr]
        if not line:
            raise AssertionError("serve ended early:\n" + "".join(seen))
        seen.append(line)
        found = re.search(r"Invite for friend1: (\S+)", line)
        if found:
            return process, found.group(1)


def test_kill_9_then_resume_with_the_same_link(tmp_path):
    record = tmp_path / "game.jsonl"

    async def scenario():
        process, link = await _start("matching", "--players", "friend,cpu:easy", "--port", "0", "--seed", "3",
                                     "--record", str(record), "--no-qr")
        port = int(link.split(":")[2].split("/")[0])
        token = link.rsplit("/", 1)[1]
        ann = await Bot(port, token, seed=1).open()
        while ann.over is None and len([u for u in ann.updates() if u["moves"]]) < 4:
            await ann.next("update")
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        await ann.close()
        lines_before = record.read_text().splitlines()
        resumed, again = await _start("--resume", str(record), "--no-qr")
        assert again == link, "the same link after --resume"
        back = await Bot(port, token, seed=2).open()
        over = await back.until_over()
        await back.close()
        await asyncio.get_running_loop().run_in_executor(None, resumed.wait, LIMIT)
        return lines_before, over, resumed

    lines_before, over, resumed = asyncio.run(asyncio.wait_for(scenario(), LIMIT))
    text = record.read_text()
    assert text.startswith("\n".join(lines_before))  # nothing written before the kill was lost
    report = validate_bytes(text.encode())
    assert report.valid, report.error
    assert "Ranking:" in over["text"] and resumed.returncode == 0
