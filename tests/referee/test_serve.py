"""``cardcli referee --serve`` as people use it: the command running as its
own process, entries typed into it one by one, and a real WebSocket client
at the watch link it prints, on 127.0.0.1, following the table live."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

from websockets.asyncio.client import connect

from cardcli.kit.cards import NAME
from cardcli.serve.protocol import PROTOCOL

from .test_referee import public_lines
from .words import referee_words

DOCS = Path(__file__).resolve().parents[2] / "docs" / "referee"
CARDCLI = [sys.executable, "-c", "from cardcli.cli import main; main()"]
#: The entries a page shows, the last first.
SHOWN = 8
#: Seconds to wait for the page to follow one entry before the test fails.
LIMIT = 30


def entries(name: str) -> list[str]:
    text = (DOCS / f"{name}.txt").read_text()
    return [line for line in text.splitlines() if line and not line.startswith("#")]


def start(tmp_path: Path, players: str = "ann,bob,mom", dealer: str = "mom",
          more: tuple[str, ...] = ()) -> tuple[subprocess.Popen[str], int, str]:
    command = [*CARDCLI, "referee", "matching", "--players", players, "--dealer", dealer, *more,
               "--serve", "--port", "0", "--no-qr", "--record", str(tmp_path / "r.jsonl")]
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


#: A card's name as a page writes it, in letters or with a suit sign.
CARD = re.compile(r"\b(10|[2-9JQKA])([SHDC\u2660\u2665\u2666\u2663])")
SIGNS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}


def cards_named(data: object) -> set[str]:
    text = json.dumps(data, ensure_ascii=False).upper()  # a typed entry writes 7h
    return {rank + SIGNS.get(suit, suit) for rank, suit in CARD.findall(text)}


def test_a_served_referee_with_a_seat_shows_none_of_that_seats_own_cards(tmp_path):
    seat_view = public_lines("matching", None, 3, 3, viewer=0)
    public = public_lines("matching", None, 3, 3)
    names = [player["name"] for player in seat_view[0]["players"]]
    typed = referee_words(seat_view)
    private = cards_named(seat_view[1:]) - cards_named(public[1:])  # ann's cards the table never saw
    assert private, "the game keeps some of the seat's cards from the table"
    process, port, token = start(tmp_path, ",".join(names), names[seat_view[0]["dealer"]],
                                 ("--seat", names[0]))
    assert process.stdin is not None

    async def next_board(socket) -> dict:
        while True:
            board = json.loads(await asyncio.wait_for(socket.recv(), LIMIT))
            if board["type"] == "board":
                return board

    async def follow() -> list[dict]:
        socket = await watch(port, token)
        boards = [await next_board(socket)]
        try:
            for entry in typed:  # each entry accepted is published once
                process.stdin.write(entry + "\n")
                process.stdin.flush()
                boards.append(await next_board(socket))
                assert boards[-1]["version"] > boards[-2]["version"]
        finally:
            await socket.close()
        return boards

    try:
        boards = asyncio.run(follow())
        process.stdin.close()
        assert process.wait(LIMIT) == 0
    finally:
        process.kill()
    assert boards and boards[-1]["over"]
    for board in boards:
        assert board["table"]["hand"] == []
        assert not cards_named(board) & private, cards_named(board) & private
    assert any(line.startswith(f"{names[0]} gets 7 cards") for board in boards for line in board["lines"])
    written = [json.loads(line) for line in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert written[0]["view"] == "seat 0" and written[1:] == seat_view[1:]
