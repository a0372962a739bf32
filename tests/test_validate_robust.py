"""Whatever a person (or an attacker) hands it, cardcli answers with one clear
message: no internal error, no hang, no unbounded memory, nothing sent to the
terminal that it would obey."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import selectors
import signal
import subprocess
import sys

import pytest
from click.testing import CliRunner

from cardcli.cli import cli
from cardcli.testing import play_game, record_lines, write_record

#: Generous: only there so that a regression fails instead of hanging the suite.
DEADLINE = 120
CARDCLI = [sys.executable, "-c", "from cardcli.cli import main; main()"]
#: Address space for a cardcli process in these tests: ample for any record.
MEMORY_CAP = 2 << 30
ESC = "\x1b"


@contextlib.contextmanager
def no_hang(seconds=DEADLINE):
    """Fail, rather than wait forever, if the command inside hangs."""
    def stop(*_):
        raise TimeoutError(f"still running after {seconds} s: a hang")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(*args, input=None):
    with no_hang():
        result = CliRunner().invoke(cli, [str(a) for a in args], input=input)
    assert "Traceback" not in result.output
    assert "internal error" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _limits(close_stdin: bool):
    """In the child: cap its memory (a regression must fail, not fill the
    machine's memory) and, if asked, close its standard input."""
    def setup() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_CAP, MEMORY_CAP))
        if close_stdin:
            os.close(0)
    return setup


def cardcli(*args, stdin=None, close_stdin=False, input=None):
    """``cardcli ARGS`` in a real process (for pipes, FIFOs, devices, closed stdin)."""
    result = subprocess.run([*CARDCLI, *map(str, args)], input=input, stdin=stdin, capture_output=True,
                            text=True, timeout=DEADLINE, preexec_fn=_limits(close_stdin))
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result.stderr
    return result


@pytest.fixture(scope="module")
def game_lines():
    _game, buffer = play_game("matching", players=3, seed=11)
    return record_lines(buffer)


@pytest.fixture
def good(tmp_path, game_lines):
    return write_record(tmp_path / "good.jsonl", game_lines)


# ------------------------------------------------------- several files at once
def test_one_bad_file_never_hides_the_others(tmp_path, good, game_lines):
    bad = write_record(tmp_path / "bad.jsonl", [game_lines[0], '{"seat": ' + "9" * 5000 + "}"])
    other = write_record(tmp_path / "c.jsonl", game_lines)
    result = run("validate", good, bad, tmp_path, other)
    assert result.exit_code == 1
    assert result.stdout.count("valid (every card known): matching game") == 2
    assert "bad.jsonl:2: not valid JSON: a number with too many digits" in result.stderr
    assert f"{tmp_path}: is a folder, not a record" in result.stderr
    lines = [json.loads(line) for line in run("validate", "--json", good, bad, other).stdout.splitlines()]
    assert [line.get("file") for line in lines] == [str(good), str(bad), str(other), None]
    assert [line.get("valid") for line in lines[:3]] == [True, False, True]
    assert lines[1]["error"]["kind"] == "syntax" and lines[1]["error"]["line"] == 2
    assert lines[3] == {"summary": {"records": 3, "valid": 2, "unfinished": 0, "invalid": 1,
                                    "all_valid": False}}


def test_a_bug_inside_one_record_is_reported_and_the_others_still_checked(tmp_path, good, monkeypatch):
    import cardcli.cli.validate as command

    real = command.validate_stream

    def broken(stream, source, registry, **kwargs):
        if source.endswith("boom.jsonl"):
            raise ZeroDivisionError("a bug")
        return real(stream, source, registry, **kwargs)

    monkeypatch.setattr(command, "validate_stream", broken)
    monkeypatch.delenv("CARDCLI_DEBUG", raising=False)
    boom = tmp_path / "boom.jsonl"
    boom.write_bytes(good.read_bytes())
    result = CliRunner().invoke(cli, ["validate", "--json", str(boom), str(good)])
    assert result.exit_code == 1
    first, second, summary = map(json.loads, result.stdout.splitlines())
    assert first["error"]["kind"] == "internal"
    assert "ZeroDivisionError: a bug" in first["error"]["message"]
    assert second["valid"] is True
    assert summary["summary"]["invalid"] == 1


def test_a_bug_in_the_variant_is_reported_at_its_line(tmp_path, good, game_lines, monkeypatch):
    from cardcli.engine.plugins import get_registry

    variant = get_registry().get("matching")
    real = variant.decode_action

    def decode(state, data):
        if data.get("move") == "play":
            raise KeyError("a bug")
        return real(state, data)

    monkeypatch.setattr(variant, "decode_action", decode)
    monkeypatch.delenv("CARDCLI_DEBUG", raising=False)
    line = next(number for number, data in enumerate(game_lines, start=1) if data.get("move") == "play")
    result = CliRunner().invoke(cli, ["validate", "--json", str(good), str(good)])
    first, second, _summary = map(json.loads, result.stdout.splitlines())
    assert first["error"]["kind"] == "internal" and first["error"]["line"] == line
    assert "internal error: KeyError: 'a bug'" in first["error"]["message"]
    assert second["file"] == str(good) and second["error"]["kind"] == "internal"
    result = CliRunner().invoke(cli, ["play", "--resume", str(good)])
    assert result.exit_code == 1 and f"cannot resume: {good}:{line}: internal error" in result.output


def test_each_record_is_reported_as_soon_as_it_is_checked(good):
    """The first file's verdict arrives while the second (a pipe) is still open."""
    for args in ((), ("--json",)):
        process = subprocess.Popen([*CARDCLI, "validate", *args, str(good), "-"],
                                   stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            with selectors.DefaultSelector() as selector:
                selector.register(process.stdout, selectors.EVENT_READ)
                assert selector.select(timeout=DEADLINE), "no report before the last record ended"
            first = process.stdout.readline().decode()
            assert str(good) in first and ("valid (every card known): matching game" in first
                                           or '"valid": true' in first)
        finally:
            process.communicate(b"", timeout=DEADLINE)
        assert process.returncode == 1  # the empty standard input is no record


# -------------------------------------------------------- input at the limits
def test_numbers_too_long_for_python(tmp_path, game_lines):
    huge = "1" * 4400
    header = json.dumps(game_lines[0])[:-1] + f', "seed": {huge}' + "}"
    header = header.replace(f'"seed": {game_lines[0]["seed"]}, ', "")
    path = write_record(tmp_path / "big.jsonl", [header, *game_lines[1:]])
    result = run("validate", path)
    assert result.exit_code == 1
    assert "big.jsonl:1: not valid JSON: a number with too many digits" in result.output
    assert "cannot resume" in run("play", "--resume", path).output
    assert "cannot replay" in run("replay", path).output


def test_nan_and_infinity_are_not_json(tmp_path, game_lines):
    path = write_record(tmp_path / "nan.jsonl", [game_lines[0], '{"chance": "deal", "hands": NaN}'])
    assert "nan.jsonl:2: not valid JSON: NaN is not a JSON number" in run("validate", path).output


def test_a_line_with_no_end_is_cut_at_the_cap(tmp_path):
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"{" + b" " * ((1 << 20) + 10))
    result = run("validate", path)
    assert result.exit_code == 1
    assert "long.jsonl:1: line too long (more than 1,048,576 bytes with no line end)" in result.output


def test_standard_input_with_no_line_end(tmp_path):
    """``/dev/zero`` on standard input: read up to the cap, then one message."""
    with open("/dev/zero", "rb") as zeros:
        result = cardcli("validate", "-", stdin=zeros)
    assert result.returncode == 1
    assert "<stdin>:1: line too long" in result.stderr


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_or_a_fifo_is_not_a_record(tmp_path, good):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    result = cardcli("validate", "/dev/zero", fifo, good)
    assert result.returncode == 1
    assert "/dev/zero: is a device, not a record file" in result.stderr
    assert f"{fifo}: is a FIFO (named pipe), not a record file" in result.stderr
    assert "valid (every card known): matching game" in result.stdout
    for command in (("replay", fifo), ("play", "--resume", fifo)):  # no hang: it is never read
        result = run(*command)
        assert result.exit_code == 1 and "is a FIFO (named pipe)" in result.output


def ruleset(tmp_path, body):
    path = tmp_path / "house.toml"
    path.write_text('variant = "matching"\n[options]\n' + body + "\n")
    return path


@pytest.mark.parametrize(("body", "message"), [
    ("hand_size = " + "7" * 4400, "not valid TOML: a number with too many digits"),
    ("hand_size = " + "[" * 500 + "]" * 500, "not valid TOML: nested too deeply"),
    ("hand_size = " + "{a = " * 500 + "1" + "}" * 500, "not valid TOML: nested too deeply"),
])
def test_rulesets_at_the_limits(tmp_path, body, message):
    path = ruleset(tmp_path, body)
    for command in (("rules", "--ruleset", path), ("play", "matching", "--ruleset", path),
                    ("simulate", "matching", "-n", "1", "--ruleset", path)):
        result = run(*command)
        assert result.exit_code == 1
        assert f"{path}: {message}" in result.output


def test_a_huge_ruleset_file_is_refused_unread(tmp_path):
    path = ruleset(tmp_path, "# " + "x" * (2 << 20))
    result = run("rules", "--ruleset", path)
    assert result.exit_code == 1 and "is this a ruleset?" in result.output


# --------------------------------------------------------- standard input closed
def test_validate_and_replay_with_stdin_closed(good):
    result = cardcli("validate", "-", good, close_stdin=True)
    assert result.returncode == 1
    assert "<stdin>: cannot read standard input: it is closed" in result.stderr
    assert "valid (every card known): matching game" in result.stdout
    result = cardcli("replay", "-", close_stdin=True)
    assert result.returncode == 1 and "cannot read standard input: it is closed" in result.stderr
    result = cardcli("replay", good, close_stdin=True)
    assert result.returncode == 1 and "give --to N" in result.stderr


def test_play_stdin_closed(tmp_path):
    record = tmp_path / "game.jsonl"
    result = cardcli("play", "matching", "--record", record, close_stdin=True)
    assert result.returncode == 1
    assert "standard input is closed, and 'you' is a human player" in result.stderr
    assert not record.exists()


def test_play_stdin_closed_reports_a_ruleset_error_first(tmp_path):
    path = ruleset(tmp_path, "hand_size = 99")
    result = cardcli("play", "matching", "--ruleset", path, close_stdin=True)
    assert result.returncode == 1
    assert "option 'hand_size'" in result.stderr and "standard input" not in result.stderr


def test_cpu_only_play_needs_no_input(tmp_path):
    record = tmp_path / "game.jsonl"
    result = cardcli("play", "matching", "--players", "cpu,cpu", "--seed", "3", "--record", record,
                     close_stdin=True)
    assert result.returncode == 0, result.stderr
    assert run("validate", record).exit_code == 0


# ----------------------------------------------------------- resuming CPU seats
def with_kind(game_lines, kind, events=4):
    header = {**game_lines[0], "players": [dict(p) for p in game_lines[0]["players"]]}
    header["players"][1]["kind"] = kind
    return [header, *game_lines[1:1 + events]]


@pytest.mark.parametrize(("kind", "message"), [
    ("cpu:brutal", "seat 1 (cpu2) is 'cpu:brutal': unknown CPU strength 'brutal' for matching"),
    ("cpu:hard=100000000", "at most 100,000"),
    ("cpu:normal=5", "only hard takes a budget"),
])
def test_resume_refuses_a_cpu_it_cannot_seat(tmp_path, game_lines, kind, message):
    path = write_record(tmp_path / "game.jsonl", with_kind(game_lines, kind))
    before = path.read_bytes()
    result = run("play", "--resume", path, input="1\n" * 50)
    assert result.exit_code == 1
    assert f"cannot resume {path}: " in result.output and message in result.output
    assert path.read_bytes() == before


def test_resume_refuses_an_absurd_budget(tmp_path, game_lines):
    path = write_record(tmp_path / "game.jsonl", with_kind(game_lines, "cpu:hard=100000000s"))
    result = cardcli("play", "--resume", path)  # a process: an uncapped budget would hang here
    assert result.returncode == 1
    assert f"cannot resume {path}: seat 1 (cpu2) is 'cpu:hard=100000000s': hard CPU budget" in result.stderr


@pytest.mark.parametrize("level", ["hard=100000000s", "hard=0.5e9s", "hard=200000", "hard=nans"])
def test_budgets_are_capped_on_the_command_line(level):
    result = run("play", "matching", "--players", f"you,cpu:{level}")
    assert result.exit_code == 1 and "hard CPU budget" in result.output


# --------------------------------------------------------- text from a record
NASTY = ["\x1b]0;pwned\x07", "\x1b[2J\x1b[H", "a\u202eb", "tab\there", "line\nbreak", "c1\x9b31m"]


def test_printable_escapes_what_a_terminal_would_obey():
    from cardcli.kit.safe_text import printable

    for text in NASTY:
        shown = printable(text)
        assert shown.isprintable(), shown
        assert "\u202e" not in shown
    assert printable("\x1b[2J") == "\\x1b[2J"
    assert printable("a\u202eb") == "a\\u202eb"
    assert printable("two\nlines\x07", newlines=True) == "two\nlines\\x07"
    for plain in ("ann", "Zoë", "李", "🂡", "O'Brien", "a b"):
        assert printable(plain) == plain


def test_player_names_from_a_record_are_shown_escaped(tmp_path, game_lines):
    header = {**game_lines[0], "players": [{"name": name, "kind": "cpu:easy"} for name in NASTY[:3]]}
    path = write_record(tmp_path / "names.jsonl", [header, *game_lines[1:]])
    assert run("validate", path).exit_code == 0
    for command in (("replay", path, "--to", "3"), ("replay", path, "--to", "0", "--seat", "1")):
        result = run(*command)
        assert result.exit_code == 0
        assert ESC not in result.output and "\u202e" not in result.output and "\x07" not in result.output
        assert "\\x1b]0;pwned\\x07" in result.output or "\\x1b[2J" in result.output
    unfinished = write_record(tmp_path / "resume.jsonl", [header, *game_lines[1:6]])
    result = run("play", "--resume", unfinished)
    assert result.exit_code == 0
    assert "Ranking:" in result.output and "\\x1b[2J\\x1b[H" in result.output
    assert ESC not in result.output and "\u202e" not in result.output


def test_text_in_errors_and_rulesets_is_shown_escaped(tmp_path, game_lines):
    header = {**game_lines[0], "variant": "x\x1b[2J"}
    path = write_record(tmp_path / "variant.jsonl", [header, *game_lines[1:]])
    result = run("validate", path)
    assert result.exit_code == 1 and ESC not in result.output and "unknown variant" in result.output
    deal = {"chance": "deal", "hands": [["\x1b]0;x\x07"]]}
    path = write_record(tmp_path / "card.jsonl", [game_lines[0], deal])
    result = run("validate", path)
    assert result.exit_code == 1 and ESC not in result.output and "\x07" not in result.output
    toml = tmp_path / "house.toml"
    toml.write_text('name = "House\\u001b]0;pwned\\u0007"\ndescription = "clear\\u001b[2J"\n'
                    'variant = "matching"\n')
    result = run("rules", "--ruleset", toml)
    assert result.exit_code == 0 and ESC not in result.output and "\\x1b]0;pwned" in result.output
    toml.write_text('variant = "matching"\n[options]\n"bad\\u001b[2J" = 1\n')
    result = run("play", "matching", "--ruleset", toml)
    assert result.exit_code == 1 and ESC not in result.output and "unknown option" in result.output


# ------------------------------------------------------------- table sizes
def test_players_outside_the_rulesets_range_name_the_file_and_option(tmp_path):
    path = tmp_path / "small.toml"
    path.write_text('variant = "matching"\n[options]\nmax_players = 3\n')
    for command in ("play", "simulate"):
        result = run(command, "matching", "--ruleset", path, "--players", "cpu,cpu,cpu,cpu")
        assert result.exit_code == 1
        assert ("4 players, but matching with these rules is for 2 to 3 players "
                f"(option max_players = 3 in {path})") in result.output
    result = run("play", "matching", "--players", "you")
    assert "(option min_players = 2 in matching's default rules)" in result.output
    result = run("arena", "matching", "--ruleset", path, "--players", "cpu,cpu,cpu,cpu")
    assert result.exit_code != 0 and "option max_players = 3 in" in result.output
    result = run("compare", "matching", "standard", "american", "--players", "1", "-n", "2")
    assert "standard: 1 player" in result.output and "by default, the fewest matching seats; not set in" \
        in result.output
    result = run("compare", "matching", path, "standard", "--players", "4", "-n", "2")
    assert f"{path}: 4 players, but matching with these rules is for 2 to 3 players" in result.output
    assert f"(option max_players = 3 in {path})" in result.output
    result = run("compare", "matching", "standard", "american", "--players", "9", "-n", "2")
    assert result.output.strip() == "Error: 9 players, but matching is for 2 to 6 players"


def test_a_limit_the_ruleset_leaves_at_its_default_is_not_said_to_be_set_there(tmp_path):
    path = tmp_path / "house.toml"
    path.write_text('variant = "trick"\n[options]\nhand_size = 5\n')
    result = run("simulate", "trick", "--ruleset", path, "--players", ",".join(["cpu"] * 7))
    assert result.exit_code == 1
    assert ("7 players, but trick with these rules is for 2 to 6 players (option max_players = 6 by "
            f"default; not set in {path})") in result.output
    path.write_text('variant = "matching"\n')
    result = run("play", "matching", "--ruleset", path, "--players", ",".join(["cpu"] * 7))
    assert ("(option max_players = 6 by default, the most matching seats; not set in "
            f"{path})") in result.output


def test_the_join_client_escapes_what_a_server_sends(capsys):
    from cardcli.serve.client import JoinClient

    client = JoinClient("http://127.0.0.1:1/t/token")
    client.out("\x1b]0;pwned\x07 joined\nnext line")
    printed = capsys.readouterr().out
    assert ESC not in printed and "\\x1b]0;pwned\\x07 joined\nnext line" in printed


def test_a_served_table_shows_names_escaped():
    from cardcli.serve.table import Table
    from cardcli.testing import play_game

    game, _buffer = play_game("matching", players=2, seed=1)
    game.seats[0].name = "\x1b[2Jann"
    table = Table.for_game(game, ["cpu", "cpu"])
    assert table.seats[0].name == "\\x1b[2Jann"


def test_a_huge_number_of_players_is_refused_before_any_seat_is_made():
    for command in (("simulate", "-n", "1"), ("play",), ("arena", "-n", "1")):
        result = run(*command, "matching", "--players", "999999999999")
        assert result.exit_code == 1, result.output
        assert ("999,999,999,999 players, but matching with these rules is for 2 to 6 players (option "
                "max_players = 6 in matching's default rules)") in " ".join(result.output.split())


def test_serve_with_a_host_seat_and_stdin_closed(tmp_path):
    record = tmp_path / "table.jsonl"
    result = cardcli("serve", "matching", "--players", "you,friend", "--record", record, close_stdin=True)
    assert result.returncode == 1
    assert "standard input is closed, but you have a seat at this table" in result.stderr
    assert not record.exists()


def test_join_with_stdin_closed_ends_its_input(monkeypatch):
    import asyncio

    from cardcli.serve.client import JoinClient

    monkeypatch.setattr(sys, "stdin", None)
    client = JoinClient("http://127.0.0.1:1/t/token")

    async def first_line():
        client.start_reader(asyncio.get_running_loop())
        return await asyncio.wait_for(client.lines.get(), DEADLINE)

    assert asyncio.run(first_line()) is None


def test_a_folder_a_fifo_or_a_device_is_not_a_ruleset(tmp_path):
    fifo = tmp_path / "house.toml"
    os.mkfifo(fifo)
    folder = tmp_path / "folder"
    folder.mkdir()
    for name, what in ((fifo, "a FIFO (named pipe)"), (folder, "a folder"), ("/dev/null", "a device")):
        for command in (("rules", "--ruleset", name), ("play", "matching", "--ruleset", name)):
            result = run(*command)  # never opened: a FIFO would wait for a writer
            assert result.exit_code == 1
            assert f"{name}: is {what}, not a ruleset file" in result.output


def test_a_fifo_among_the_shipped_rulesets_is_passed_over(tmp_path):
    os.mkfifo(tmp_path / "matching-fifo.toml")
    environment = {**os.environ, "CARDCLI_RULESETS": str(tmp_path)}
    result = subprocess.run([*CARDCLI, "rules", "matching"], capture_output=True, text=True,
                            timeout=30, env=environment, stdin=subprocess.DEVNULL)  # no wait for a writer
    assert result.returncode == 0 and "matching-standard" in result.stdout


# ------------------------------------------------- records of a real table
PUBLIC = {"format": "cardcli-record", "version": 1, "variant": "matching", "rules": {"hand_size": 3},
          "players": ["ann", "bob"], "dealer": 1, "view": "public"}


def _public(tmp_path, *lines, header=PUBLIC):
    return write_record(tmp_path / "public.jsonl", [header, *lines])


def test_a_turn_up_before_the_deal_is_refused_for_what_it_is(tmp_path):
    # with a view as without one: the deal is expected (it was an internal error)
    path = _public(tmp_path, {"chance": "turn_up", "card": "7S"}, {"chance": "deal", "hands": [3, 3]})
    result = run("validate", path)
    assert result.exit_code == 1
    assert result.output.strip().endswith(":2: after move 0, turned up 7S: expected the deal")


def test_a_draw_before_the_deal_names_no_seat_minus_one(tmp_path):
    path = _public(tmp_path, {"chance": "draw", "seat": 0, "cards": ["??"]})
    result = run("validate", path)
    assert result.exit_code == 1 and "seat -1" not in result.output
    assert "a seat drew ??: expected the deal" in result.output


@pytest.mark.parametrize("view", ["seat 01", "seat 1.0", "seat ٣"])
def test_a_view_names_a_seat_as_a_plain_number(tmp_path, view):
    path = _public(tmp_path, {"chance": "deal", "hands": [3, 3]}, header={**PUBLIC, "view": view})
    result = run("validate", path)
    assert result.exit_code == 1 and "'view' must be \"public\" or \"seat N\"" in result.output


def test_a_drawer_written_2_0_is_not_seat_2(tmp_path):
    header = {"format": "cardcli-record", "version": 1, "variant": "endofpage", "rules": {"page_lines": 1},
              "players": ["ann", "bob"], "dealer": 0, "view": "public"}
    lines = [{"chance": "deal", "seat": 1, "cards": ["3C", "??", "??"]},
             {"chance": "deal", "seat": 0, "cards": ["5S", "??", "??", "??", "??"], "wild": "5S"},
             {"chance": "turn_up", "card": "JH"}, {"seat": 1, "move": "draw"},
             {"chance": "draw", "seat": 1.0, "cards": ["??"]}]
    result = run("validate", write_record(tmp_path / "e.jsonl", [header, *lines]))
    assert result.exit_code == 1 and "the card drawn now is seat 1's, not seat 1.0's" in result.output


def test_a_record_that_cannot_be_read_is_said_so(tmp_path):
    if not os.path.exists("/proc/self/mem"):
        pytest.skip("no /proc/self/mem here")
    result = cardcli("validate", "/proc/self/mem")
    assert result.returncode == 1
    assert "cannot read /proc/self/mem" in result.stderr + result.stdout


def test_export_refuses_a_finished_game_without_its_result_line(tmp_path, game_lines):
    path = write_record(tmp_path / "nores.jsonl", game_lines[:-1])
    result = run("export", path, "--public")
    assert result.exit_code == 1
    assert "the game is over but the record has no result line" in result.output
    assert '"view"' not in result.output  # nothing was exported
