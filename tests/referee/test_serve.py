"""``cardcli referee --serve`` as people use it: the command running as its
own process, entries typed into it one by one, and a real WebSocket client
at the watch link it prints, on 127.0.0.1, following the table live."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from websockets.asyncio.client import connect

from cardcli.cards import NAME
from cardcli.serve.protocol import PROTOCOL

DOCS = Path(__file__).resolve().parents[2] / "docs" / "referee"
CARDCLI = [sys.executable, "-c", "from cardcli.cli import main; main()"]
#: The entries a page shows, the last first.
SHOWN = 8
#: Seconds to wait for the page to follow one entry before the test fails.
LIMIT = 30


def entries(name: str) -> list[str]:
    text = (DOCS / f"{name}.txt").read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def start(tmp_path: Path) -> tuple[subprocess.Popen[str], int, str]:
    command = [*CARDCLI, "referee", "matching", "--players", "ann,bob,mom",
               "--dealer", "mom", "--serve", "--port", "0", "--no-qr", "--record", str(tmp_path / "r.jsonl")]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, cwd=tmp_path,
                               env={**os.environ, "NO_COLOR": "1"})
    assert process.stdout is not None
    first = process.stdout.readline()
    assert first.startswith("The table, live and read-only, for this machine only"), first
    link = first.split()[-1]
    port = int(link.split("/")[2].rsplit(":", 1)[1])
    # What it prints after each entry is read away, so that a full pipe never stops it.
    threading.Thread(target=process.stdout.read, daemon=True).start()
    return process, port, link.rsplit("/", 1)[1]


async def watch(port: int, token: str):
    socket = await connect(f"ws://127.0.0.1:{port}/ws")
    await socket.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": token}))
    return socket


async def board_after(socket, said: list[str]) -> dict:
    """The next board that shows ``said`` as its last entries."""
    while True:
        board = json.loads(await asyncio.wait_for(socket.recv(), LIMIT))
        if board["type"] == "board" and board["lines"] == said[-SHOWN:]:
            return board


def cards_in(table: dict) -> set[str]:
    named = set(table["hand"])
    for pile in table["piles"]:
        named.update(pile["cards"])
    for meld in table["melds"]:
        named.update(meld["cards"])
    return named


def test_a_served_referee_follows_each_entry_live_and_shows_only_what_the_table_saw(tmp_path):
    process, port, token = start(tmp_path)
    assert process.stdin is not None
    typed = entries("matching")
    every_card = {name.upper() for name in NAME}

    async def follow() -> tuple[list[dict], dict]:
        socket = await watch(port, token)
        said: list[str] = []
        boards = [await board_after(socket, said)]
        undone = {}
        try:
            for count, entry in enumerate(typed, start=1):
                process.stdin.write(entry + "\n")
                process.stdin.flush()
                said.append(entry)
                board = await board_after(socket, said)
                assert board["version"] > boards[-1]["version"]
                boards.append(board)
                if count == 10:  # take it back, then make it again
                    process.stdin.write("undo\n")
                    process.stdin.flush()
                    said.append("undo")
                    undone = await board_after(socket, said)
                    process.stdin.write(entry + "\n")
                    process.stdin.flush()
                    said.append(entry)
                    assert (await board_after(socket, said))["table"] == board["table"]
        finally:
            await socket.close()
        return boards, undone

    try:
        boards, undone = asyncio.run(follow())
        process.stdin.close()
        assert process.wait(LIMIT) == 0  # the game is over: the referee says so and stops
    finally:
        process.kill()
    said = " ".join(typed).upper().split()
    for board in boards:
        table = board["table"]
        assert table["hand"] == []  # a referee's page is the public table: nobody's hand
        shown = cards_in(table) & every_card
        assert shown <= set(said), shown - set(said)  # no card the table did not see
        assert "??" not in json.dumps(table["piles"])
    # The page followed the game: the turn moved and the top card changed with the plays.
    assert {0, 1, 2} <= {board["table"]["turn"] for board in boards}
    assert len({json.dumps(board["table"]["piles"][0]) for board in boards[2:]}) > 5
    # Undo took the page back to the table before the tenth entry.
    assert undone["table"] == boards[9]["table"] != boards[10]["table"]
    assert boards[-1]["over"]

    async def closed() -> bool:
        try:
            await asyncio.wait_for(watch(port, token), 5)
        except OSError:
            return True
        return False

    assert asyncio.run(closed())  # the end of the game stopped the server too
    validated = subprocess.run([*CARDCLI, "validate", str(tmp_path / "r.jsonl")],
                               capture_output=True, text=True)
    assert validated.returncode == 0, validated.stdout + validated.stderr
