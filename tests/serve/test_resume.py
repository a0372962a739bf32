"""A served evening killed with SIGKILL, mid-game and between games, and resumed:
nothing lost, the same link works, the tally goes on, each game's record is valid."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import subprocess
import sys

from cardcli.serve.links import table_file
from cardcli.testing import validate_bytes

from .helpers import LIMIT, Bot


async def _start(*args: str) -> tuple[subprocess.Popen, str, list[str]]:
    command = [sys.executable, "-c", "from cardcli.cli import main; main()", "serve", *args]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    loop = asyncio.get_running_loop()
    seen: list[str] = []
    while True:
        line = await loop.run_in_executor(None, process.stdout.readline)  # type: ignore[union-attr]
        if not line:
            raise AssertionError("serve ended early:\n" + "".join(seen))
        seen.append(line)
        found = re.search(r"Invite for friend1: (\S+)", line)
        if found:
            return process, found.group(1), seen


def _kill(process: subprocess.Popen) -> None:
    os.kill(process.pid, signal.SIGKILL)
    process.wait()


def test_an_evening_survives_kill_9_in_a_game_and_between_games(tmp_path):
    record = tmp_path / "game.jsonl"
    second = tmp_path / "game.game2.jsonl"

    async def scenario():
        process, link, _ = await _start("matching", "--players", "friend,cpu:easy", "--port", "0",
                                        "--seed", "3", "--record", str(record), "--no-qr")
        port = int(link.split(":")[2].split("/")[0])
        token = link.rsplit("/", 1)[1]
        ann = await Bot(port, token, seed=1).open()
        while ann.over is None and len([u for u in ann.updates() if u["moves"]]) < 4:
            await ann.next("update")
        _kill(process)  # in the middle of game 1
        await ann.close()
        lines_before = record.read_text().splitlines()
        resumed, again, _ = await _start("--resume", str(record), "--no-qr")
        assert again == link, "the same link after --resume"
        back = await Bot(port, token, seed=2).open()
        welcome = await back.next("welcome")
        assert welcome["game"] == 1 and welcome["log"], "after a resume the page shows the last moves"
        over = await back.until_over()
        evening = await back.next("evening")
        assert evening["tally"]["games"] == 1 and evening["next"]["starts"] == "all"
        _kill(resumed)  # between game 1 and game 2
        await back.close()
        between, again, seen = await _start("--resume", str(record), "--no-qr")
        assert again == link and any("between games" in line for line in seen)
        third = await Bot(port, token, seed=3).open()
        welcome = await third.next("welcome")
        assert welcome["between"] and welcome["tally"]["games"] == 1
        lobby = await third.next("evening")
        assert lobby["tally"] == evening["tally"] and lobby["last"]["result"] == over["result"]
        await third.send({"type": "again"})  # the only person at the table: game 2 starts
        welcome = await third.next("welcome")
        assert welcome["game"] == 2 and not welcome["between"]
        third.over = None
        over2 = await third.until_over()
        evening2 = await third.next("evening")
        between.send_signal(signal.SIGINT)
        status = await asyncio.get_running_loop().run_in_executor(None, between.wait, LIMIT)
        await third.close()
        return lines_before, over, over2, evening2, status

    lines_before, over, over2, evening, status = asyncio.run(asyncio.wait_for(scenario(), LIMIT * 2))
    text = record.read_text()
    assert text.startswith("\n".join(lines_before))  # nothing written before the kill was lost
    first_report = validate_bytes(text.encode())
    second_report = validate_bytes(second.read_bytes())
    assert first_report.valid, first_report.error
    assert second_report.valid, second_report.error
    assert status == 130
    # The tally: one row per game, the winner of each counted.
    tally = evening["tally"]
    assert tally["games"] == 2 and [p["name"] for p in tally["players"]] == ["friend1", "cpu1"]
    for seat, player in enumerate(tally["players"]):
        assert player["wins"] == sum(o["result"]["places"][seat] == 1 for o in (over, over2))
        assert player["games"] == 2
    # The dealer moved on; each game has its own seed; the evening is kept beside the first record.
    headers = [json.loads(path.read_text().splitlines()[0]) for path in (record, second)]
    assert headers[1]["dealer"] == (headers[0]["dealer"] + 1) % 2
    assert headers[0]["seed"] == 3 and headers[1]["seed"] != 3
    saved = json.loads(table_file(second).read_text())
    assert table_file(second) == table_file(record)
    assert [g["record"] for g in saved["evening"]["games"]] == [record.name, second.name]
    assert saved["evening"]["again"] == "host"  # "all" only while served from a terminal nobody types at
