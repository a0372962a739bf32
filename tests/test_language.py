"""cardcli in Japanese: the choice of language, the catalogs, and the commands as a person runs them.

Each command runs in a real process, as a user starts it: the language is
chosen before any command module or plugin is imported, so it is never tested
by switching languages inside one process.
"""

from __future__ import annotations

import filecmp
import os
import re
import subprocess
import sys
import tempfile
import tokenize
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from cardcli.kit import language
from cardcli.kit.fit import visible_width, wrap

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import build_catalogs  # noqa: E402 - the build step, at the project's root

#: Each distribution's package folder and the catalogs it ships (domain -> where its messages come from).
PACKAGES = {
    ROOT / "src" / "cardcli": ("cardcli", "click", "page"),
    ROOT / "plugins" / "matching" / "cardcli_matching": ("cardcli-matching",),
    ROOT / "plugins" / "trick" / "cardcli_trick": ("cardcli-trick",),
    ROOT / "plugins" / "endofpage" / "cardcli_endofpage": ("cardcli-endofpage",),
}
PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\(\w+\)[a-z]|%[sdr]")


def cardcli(*args: str, lang_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``cardcli ARGS`` in a real process, with the gettext variables cleared and then ``lang_env``."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", language.ENV)}
    env.update({"COLUMNS": "80", "LINES": "24", "PAGER": "cat"}, **(lang_env or {}))
    result = subprocess.run([sys.executable, "-c", "from cardcli.cli import main; main()", *args],
                            capture_output=True, text=True, env=env, timeout=120)
    assert "Traceback" not in result.stderr, result.stderr
    return result


JAPANESE = [{"LANG": "ja_JP.UTF-8"}, {"CARDCLI_LANG": "ja"}]
COMMAND_NAMES = ["variants", "rules", "play", "validate", "replay", "export", "games", "simulate", "arena",
                 "compare", "serve", "join", "referee", "scoresheet", "new-variant"]


# ------------------------------------------------------------- the choice
@pytest.fixture
def environment(monkeypatch):
    """No language variable set; the language chosen again after the test."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG", language.ENV):
        monkeypatch.delenv(name, raising=False)
    yield monkeypatch
    monkeypatch.undo()
    language.choose("en")


def test_english_is_the_default(environment):
    assert language.choose() == "en"
    environment.setenv("LANG", "C.UTF-8")
    assert language.choose() == "en"
    environment.setenv("LANG", "fr_FR.UTF-8")  # a language cardcli does not speak: English
    assert language.choose() == "en"


def test_gettext_variables_in_gettext_order(environment):
    environment.setenv("LANG", "ja_JP.UTF-8")
    assert language.choose() == "ja"
    environment.setenv("LC_MESSAGES", "en_US.UTF-8")
    assert language.choose() == "en"
    environment.setenv("LC_ALL", "ja_JP.UTF-8")
    assert language.choose() == "ja"
    environment.setenv("LANGUAGE", "fr:en")
    assert language.choose() == "en"  # fr is skipped, en is the first cardcli speaks
    environment.setenv("LANGUAGE", "C:ja")
    assert language.choose() == "en"  # gettext stops at C


def test_cardcli_lang_and_the_option_override_the_locale(environment):
    environment.setenv("LANG", "ja_JP.UTF-8")
    environment.setenv(language.ENV, "en")
    assert language.choose() == "en"
    assert language.choose("ja") == "ja"  # --lang wins over everything
    environment.setenv(language.ENV, "ja_JP.UTF-8")
    environment.setenv("LANG", "en_US.UTF-8")
    assert language.choose() == "ja"


def test_a_language_cardcli_does_not_speak_is_refused_when_asked_for(environment):
    with pytest.raises(ValueError, match=r"--lang: cardcli does not speak 'xx' \(it speaks: en, ja\)"):
        language.choose("xx")
    environment.setenv(language.ENV, "fr")
    with pytest.raises(ValueError, match="CARDCLI_LANG: cardcli does not speak 'fr'"):
        language.choose()


def test_a_package_without_a_catalog_speaks_english(environment):
    language.choose("ja")
    assert language.Catalog("cardcli-nosuch", "json").gettext("Play again") == "Play again"
    assert language.Catalog("cardcli-nosuch", "no_such_package").gettext("Play again") == "Play again"
    assert language.core.gettext("value") == "値"


def test_a_variant_without_a_catalog_shows_its_own_words_and_the_cores(environment):
    from cardcli.engine.plugins import get_registry

    variant = get_registry().get("matching")
    language.choose("ja")
    assert variant.words(variant.title).startswith("アメリカンページワン")
    type(variant).catalog, saved = None, type(variant).catalog
    try:
        assert variant.words(variant.title) == "Page One (matching)"  # a third-party plugin: English
        assert variant.words("fewest players at the table") == "卓の最少人数"  # the core's shared option
    finally:
        type(variant).catalog = saved


# ----------------------------------------------------------- the catalogs
def _catalog(folder: Path, domain: str) -> Path:
    [po] = [po for po in build_catalogs.catalogs(folder) if po.stem == domain]
    return po


@pytest.mark.parametrize("folder, domain", [(folder, domain) for folder, domains in PACKAGES.items()
                                            for domain in domains], ids=lambda x: getattr(x, "name", x))
def test_every_message_of_the_code_has_a_japanese_entry(folder, domain):
    """No untranslated, fuzzy or stale message in ``ja``; placeholders kept."""
    if domain in build_catalogs.LIBRARIES:
        import importlib.util

        origin = importlib.util.find_spec(domain).origin
        template = build_catalogs.extract(Path(origin).parent)
    elif domain in build_catalogs.PAGE_DOMAINS:
        template = build_catalogs.extract_pages(folder)
    else:
        template = build_catalogs.extract(folder)
    with _catalog(folder, domain).open("rb") as source:
        catalog = read_po(source)
    wanted = {message.id for message in template if message.id}
    present = {message.id for message in catalog if message.id}
    if domain in build_catalogs.LIBRARIES:
        # Another project's messages, for the version installed here: a release
        # may add or drop a few (they speak English until the catalog is updated).
        assert len(wanted & present) >= 0.9 * len(wanted), sorted(map(str, wanted - present))
    else:
        assert wanted - present == set(), f"not in the catalog (run: python build_catalogs.py update): " \
                                          f"{sorted(map(str, wanted - present))}"
        assert present - wanted == set(), "no longer in the code (run: python build_catalogs.py update)"
    for message in catalog:
        if not message.id:
            continue
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(forms), f"untranslated: {message.id!r}"
        assert not message.fuzzy, f"fuzzy: {message.id!r}"
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        for form in forms:
            assert set(PLACEHOLDER.findall(form)) == set(PLACEHOLDER.findall(ids[-1])), message.id


@pytest.mark.parametrize("folder", list(PACKAGES), ids=lambda folder: folder.name)
def test_the_catalogs_compile(folder, tmp_path):
    for po in build_catalogs.catalogs(folder):
        mo = tmp_path / po.with_suffix(".mo").name
        build_catalogs.compile_catalog(po, mo)
        assert mo.stat().st_size > 100


def test_no_message_hides_in_an_f_string():
    """Babel (on Python 3.11) cannot see ``_("...")`` inside an f-string: such a message
    would never reach the catalog.  Make the text first, then put it in."""
    hidden = []
    for folder in PACKAGES:
        for path in folder.rglob("*.py"):
            with path.open("rb") as source:
                for token in tokenize.tokenize(source.readline):
                    if token.type == tokenize.STRING and re.match(r"[rbRB]*[fF]", token.string) \
                            and re.search(r"\b(_|N_|ngettext)\(", token.string):
                        hidden.append(f"{path.relative_to(ROOT)}:{token.start[0]}")
    assert hidden == []


def test_every_distribution_builds_with_the_same_catalog_step():
    """A build cannot import another distribution, so each carries build_catalogs.py: the same file."""
    for variant in ("matching", "trick", "endofpage"):
        assert filecmp.cmp(ROOT / "build_catalogs.py", ROOT / "plugins" / variant / "build_catalogs.py",
                           shallow=False)
    scaffold = ROOT / "src" / "cardcli" / "cli" / "scaffold" / "template" / "build_catalogs.py.tmpl"
    assert filecmp.cmp(ROOT / "build_catalogs.py", scaffold, shallow=False)


# ------------------------------------------------------ text that measures
def test_japanese_wraps_between_characters_in_cells():
    text = "1ディールで山札を作り直せる回数。超えるとそのディールは引き分けで打ち切り(none: 無制限)"
    lines = wrap(text, 30)
    assert all(visible_width(line) <= 30 for line in lines)
    assert "".join("".join(lines).split()) == "".join(text.split())  # nothing lost
    assert not any(line.lstrip()[0] in "。、)」" for line in lines[1:])  # never starts a line
    assert len(lines) > 1


def test_english_wraps_as_before():
    text = "a draw penalty may be passed on with another 2 (or 3), growing"
    assert wrap(text, 30) == ["a draw penalty may be passed", "  on with another 2 (or 3),", "  growing"]


def test_ambiguous_width_is_a_setting(monkeypatch):
    monkeypatch.delenv("CARDCLI_AMBIGUOUS_WIDE", raising=False)
    assert visible_width("7♥ 8♠") == 5
    monkeypatch.setenv("CARDCLI_AMBIGUOUS_WIDE", "1")
    assert visible_width("7♥ 8♠") == 7
    assert visible_width("手札") == 4


# ------------------------------------------------- the commands, in Japanese
@pytest.mark.parametrize("env", JAPANESE, ids=["LANG", "CARDCLI_LANG"])
def test_help_in_japanese_fits_80_columns(env):
    result = cardcli("--help", lang_env=env)
    assert result.returncode == 0
    for words in ("使い方:", "オプション:", "コマンド:", "このメッセージを表示して終了します。",
                  "バージョンを表示して終了します。", "アメリカンページワン"):
        assert words in result.stdout
    assert max(visible_width(line) for line in result.stdout.splitlines()) <= 80


@pytest.mark.parametrize("name", COMMAND_NAMES)
def test_every_commands_help_in_japanese(name):
    """Each command's help, its options' help and Click's headings are Japanese, and fit
    a real 80x24 terminal; the command lines and option names stay as they are typed."""
    from click.testing import CliRunner

    from cardcli.cli import cli

    lines = at_80x24(name, "--help")
    assert [line for line in lines if visible_width(line) > 80] == []
    text = "\n".join(lines)
    assert text.startswith("使い方: ") and "オプション:" in text
    assert "このメッセージを表示して終了します。" in text
    english = CliRunner().invoke(cli, [name, "--help"]).output
    description = english.split("\n\n")[1].strip()
    assert description not in text  # the first paragraph is translated
    for option in re.findall(r"^  (?:-\w, )?(--[\w-]+)", english, re.M):
        assert option in text


def test_the_option_chooses_over_the_locale():
    assert "Usage:" in cardcli("--lang", "en", "--help", lang_env={"LANG": "ja_JP.UTF-8"}).stdout
    assert "使い方:" in cardcli("--lang", "ja", "--help", lang_env={"LANG": "en_US.UTF-8"}).stdout
    assert "使い方:" in cardcli("--lang=ja", "--help").stdout


def test_a_bad_language_is_one_line_and_exit_2():
    result = cardcli("--lang", "xx", "variants")
    assert result.returncode == 2
    assert result.stderr == "cardcli: --lang: cardcli does not speak 'xx' (it speaks: en, ja)\n"
    result = cardcli("variants", lang_env={"CARDCLI_LANG": "klingon"})
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "CARDCLI_LANG" in result.stderr


def test_the_version_in_japanese():
    from cardcli import __version__

    assert cardcli("--version").stdout == f"cardcli, version {__version__}\n"
    assert cardcli("--lang", "ja", "-V").stdout == f"cardcli バージョン {__version__}\n"


def test_clicks_own_errors_in_japanese():
    result = cardcli("--lang", "ja", "nosuch")
    assert result.returncode == 2
    assert "エラー:" in result.stderr and "nosuch" in result.stderr
    result = cardcli("--lang", "ja", "rules", "--bogus")
    assert result.returncode == 2 and "--bogus" in result.stderr and "エラー:" in result.stderr


@pytest.mark.parametrize("env", JAPANESE, ids=["LANG", "CARDCLI_LANG"])
def test_variants_in_japanese_names_the_games_both_ways(env):
    result = cardcli("variants", lang_env=env)
    assert result.returncode == 0
    said = result.stdout
    for name in ("アメリカンページワン (Page One, matching)", "ページワン (Page One, trick-taking)",
                 "エンド・オブ・ザ・ページ (End of the Page)", "2〜6人", "2〜8人", "台札"):
        assert "".join(name.split()) in "".join(said.split())
    assert max(visible_width(line) for line in said.splitlines()) <= 80
    assert cardcli("variants", "--json", lang_env=env).stdout == cardcli("variants", "--json").stdout


@pytest.mark.parametrize("variant, words", [
    ("matching", ("手札", "台札", "役札", "「ページワン」", "「ストップ」", "マーク")),
    ("trick", ("ジョーカー", "親", "山札", "「ページワン」")),
    ("endofpage", ("捨て札", "ワイルドカード", "得点表")),
])
def test_rules_in_japanese_keeps_the_option_names(variant, words):
    result = cardcli("--lang", "ja", "rules", variant)
    assert result.returncode == 0
    flat = "".join(result.stdout.split())
    headings = ("オプション", "既定値", "取りうる値/意味", "オプション間の決まり:", "同梱のルールセット")
    for word in (*words, *headings):
        assert "".join(word.split()) in flat, word
    from cardcli.engine.plugins import get_registry

    names = [option.name for option in get_registry().get(variant).options]
    assert all(re.search(rf"^  {name} ", result.stdout, re.M) for name in names)
    assert max(visible_width(line) for line in result.stdout.splitlines()) <= 80
    assert cardcli("--lang", "ja", "rules", variant, "--json").stdout == cardcli("rules", variant,
                                                                                 "--json").stdout


def test_english_is_byte_identical_whatever_the_locale_says_when_it_is_not_spoken():
    for args in (["--help"], ["variants"], ["rules", "matching"], ["rules", "--ruleset", "american"]):
        plain = cardcli(*args)
        assert cardcli(*args, lang_env={"LANG": "fr_FR.UTF-8"}).stdout == plain.stdout
        assert cardcli("--lang", "en", *args, lang_env={"LANG": "ja_JP.UTF-8"}).stdout == plain.stdout


def test_the_language_never_reaches_a_record(tmp_path):
    # The hard CPU reads the others' moves by how they are told (describe()): its play,
    # and so the record, must not depend on the language either.
    for lang in ("en", "ja"):
        result = cardcli("--lang", lang, "simulate", "matching", "--games", "2", "--seed", "4",
                         "--players", "cpu:hard=100,cpu:normal,cpu:hard=100", "--workers", "1",
                         "--records", str(tmp_path / lang))
        assert result.returncode == 0, result.stderr
    english = sorted((tmp_path / "en").iterdir())
    japanese = sorted((tmp_path / "ja").iterdir())
    assert [path.name for path in english] == [path.name for path in japanese]
    for a, b in zip(english, japanese, strict=True):
        assert a.read_bytes() == b.read_bytes()


# ------------------------------------------- at an 80x24 terminal, in cells
@pytest.mark.parametrize("args", [["--help"], ["variants"], ["rules", "matching"], ["rules", "trick"],
                                  ["rules", "endofpage"], ["rules", "--ruleset", "matching-japanese"]],
                         ids=" ".join)
def test_no_line_is_wider_than_the_terminal_in_japanese(args):
    """In a real pseudo-terminal of 80x24 (through the pager, ``cat`` here): every
    line the terminal is sent fits 80 cells, a Japanese character counted as two."""
    lines = at_80x24(*args)
    assert any(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in lines)  # it is Japanese
    assert [line for line in lines if visible_width(line) > 80] == []


def at_80x24(*args: str) -> list[str]:
    """The lines ``cardcli ARGS`` sends a real 80x24 pseudo-terminal under ``LANG=ja_JP.UTF-8``."""
    import pexpect

    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", language.ENV)}
    env.update(PAGER="cat", LANG="ja_JP.UTF-8", TERM="xterm")
    child = pexpect.spawn(sys.executable, ["-c", "from cardcli.cli import main; main()", *args], env=env,
                          encoding="utf-8", dimensions=(24, 80), timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0, child.before
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", child.before)
    return text.replace("\r\n", "\n").split("\n")


def test_validate_json_stays_english(tmp_path):
    """``--json`` is an interface: its messages are English whatever the language
    (the list words of a refusal, "could play 7H or draw", included)."""
    import json

    golden = ROOT / "tests" / "golden" / "matching" / "matching-2p-seed1.jsonl"
    lines = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    play = next(i for i, line in enumerate(lines) if line.get("move") == "play" and i > 3)
    lines[play]["card"] = "KD" if lines[play]["card"] != "KD" else "QC"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    english = cardcli("validate", "--json", str(bad))
    japanese = cardcli("--lang", "ja", "validate", "--json", str(bad))
    assert english.returncode == japanese.returncode == 1
    assert japanese.stdout == english.stdout and '"message"' in english.stdout


@pytest.mark.parametrize("variant, extra, words", [
    ("matching", [], ("あなたの番です", "台札", "山札", "順位:", "の勝ち!")),
    ("trick", [], ("あなたの番です", "山札", "リード", "順位:")),
    pytest.param("endofpage", ["--ruleset", "short"], ("あなたの番です", "山札", "捨て札", "ラウンド"),
                 marks=pytest.mark.slow),
])
def test_a_game_in_japanese_fits_80x24(variant, extra, words):
    """A whole game at a real 80x24 terminal in Japanese, the first move taken at
    every prompt: the screens are Japanese, and no line is wider than 80 cells."""
    import pexpect

    env = {key: value for key, value in os.environ.items() if key not in ("COLUMNS", "LINES", language.ENV)}
    env.update(PAGER="cat", LANG="ja_JP.UTF-8", TERM="xterm", NO_COLOR="1")
    with tempfile.TemporaryDirectory() as folder:
        child = pexpect.spawn(sys.executable, ["-c", "from cardcli.cli import main; main()", "play",
                                               variant, "--players", "you,cpu1", "--seed", "5", *extra,
                                               "--record", f"{folder}/game.jsonl"],
                              env=env, encoding="utf-8", dimensions=(24, 80), timeout=30)
        seen = []
        for _ in range(3000):
            at = child.expect([r"> $", pexpect.EOF])
            seen.append(child.before)
            if at == 1:
                break
            child.send("1\r")
        child.close()
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", "".join(seen)).replace("\r\n", "\n")
    lines = text.split("\n")
    for word in words:
        assert word in text, word
    assert [line for line in lines if visible_width(line) > 80] == []


def test_matching_refusals_in_japanese(environment):
    """Matching Page One's refusals, what a record must do next and a broken ruleset
    are said in Japanese under ``ja``; English stays as it was."""
    from cardcli.contract.options import resolve
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.cards import parse_card
    from cardcli.kit.errors import IllegalMove, RulesetError
    from cardcli_matching import state as s
    from cardcli_matching.config import OPTIONS, check_rules

    variant = get_registry().get("matching")

    def said(code: str) -> list[str]:
        language.choose(code)
        hands = ("AC KC JS 10H 9C", "7H 9H 2H 8C QS", "2S 3D 4D 5D 6D")
        state = variant.new_state(resolve(OPTIONS, {"hand_size": 5}, source="test"), 3, 0)
        state.apply((s.DEAL, tuple(tuple(parse_card(c) for c in hand.split()) for hand in hands)))
        state.apply((s.TURN_UP, parse_card("5H")))
        lines = [state.expecting()]
        for action in ((s.PLAY, parse_card("QS"), -1, False), (s.PLAY, parse_card("AC"), -1, False),
                       s.DRAW_ACTION, (s.TURN_UP, parse_card("3C"))):
            with pytest.raises(IllegalMove) as refused:
                state.apply(action)
            lines.append(str(refused.value))
        state.apply((s.PLAY, parse_card("2H"), -1, False))
        lines.append(state.expecting())
        with pytest.raises(IllegalMove) as refused:
            state.apply((s.PLAY, parse_card("3D"), -1, False))
        lines.append(str(refused.value))
        state.apply(s.DRAW_ACTION)
        with pytest.raises(IllegalMove) as refused:
            state.apply((s.DRAWN, (parse_card("AC"), parse_card("KC"))))
        lines.append(str(refused.value))
        with pytest.raises(RulesetError) as broken:
            check_rules(resolve(OPTIONS, {"skip_rank": "Q"}, source="test"))
        lines.extend(broken.value.problems)
        return lines

    assert said("en") == [
        "seat 1 to play",
        "no rank or suit match (could play 7H, 9H, 2H or 8C)",
        "AC is not in seat 1's hand (could play 7H, 9H, 2H or 8C)",
        "may not draw while holding a playable card (could play 7H, 9H, 2H or 8C)",
        "it is seat 1's turn, not a chance event (could play 7H, 9H, 2H or 8C)",
        "seat 2 to draw 2 or answer with a 2",
        "facing a draw-two penalty of 2, the only choices are a 2 or taking the penalty "
        "(could play 2S or take the penalty)",
        "AC is not in the stock",
        "options 'skip_rank' and 'reverse_rank' are both 'Q': they must be two different ranks",
    ]
    japanese = said("ja")
    assert japanese[0] == "席1が出す番"
    assert "台札と数字もマークも合っていません" in japanese[1] and "7H、9H、2Hか8C" in japanese[1]
    assert japanese[2].startswith("ACは席1の手札にありません")
    assert japanese[3].startswith("出せるカードを持っているときは引けません")
    assert japanese[5] == "席2が2枚引くか、2を重ねて回す番"
    assert "ドロー2の罰(2枚)" in japanese[6] and "罰として引く" in japanese[6]
    assert japanese[7] == "ACは山札にありません"
    assert "別のランク" in japanese[8] and "'skip_rank'" in japanese[8]
    assert not any(re.search(r"\b(?:no|not|may|seat|could|facing|options)\b", line) for line in japanese)


def test_validate_and_replay_reports_in_japanese(tmp_path):
    """``validate``'s report of a good record, of a seat's view and of a broken one, and
    ``replay``'s frames, prompt, answers and the mistake, in Japanese: no English sentence left."""
    import json

    golden = ROOT / "tests" / "golden" / "matching" / "matching-2p-seed1.jsonl"
    lines = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    play = [i for i, line in enumerate(lines) if line.get("move") == "play"][4]  # a few moves in
    lines[play]["card"] = "KD" if lines[play]["card"] != "KD" else "QC"
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    good = tmp_path / "good.jsonl"
    good.write_text(golden.read_text(encoding="utf-8"), encoding="utf-8")
    seen = tmp_path / "seen.jsonl"
    seen.write_text((ROOT / "tests" / "handwritten" / "matching-2p-seat1.jsonl").read_text(encoding="utf-8"),
                    encoding="utf-8")
    english_words = re.compile(r"\b(?:valid|consistent|move|moves|game|won|seat|after|record|next|back|quit|"
                               r"start|stops|mistake|last|type|view)\b", re.IGNORECASE)

    checked = cardcli("--lang", "ja", "validate", str(good), str(seen), str(bad))
    assert checked.returncode == 1
    report = (checked.stdout + checked.stderr).replace(str(tmp_path) + os.sep, "")
    assert "good.jsonl: 有効(すべてのカードが判明): matching のゲーム" in report and "cpu2の勝ち" in report
    assert "seen.jsonl: 卓で見えたことと矛盾なし(席1の視点)" in report
    assert re.search(r"bad\.jsonl:\d+: \d+手目、席\d+が", report)
    assert not english_words.search(report), report

    stepped = subprocess.run(
        [sys.executable, "-c", "from cardcli.cli import main; main()", "--lang", "ja", "replay", str(bad)],
        input="p\nn\ng 99\nzz\ng 1\nn\nn\nn\nn\nn\nn\nn\nn\nq\n", capture_output=True, text=True,
        env={**os.environ, "COLUMNS": "80", "LINES": "24", "PAGER": "cat"}, timeout=120)
    assert stepped.returncode == 1 and "Traceback" not in stepped.stderr
    shown = stepped.stdout.replace(str(tmp_path) + os.sep, "")
    for words in ("--- ゲーム開始 ---", "手目のあと(全", "[Enter/n] 次へ", "ここがゲームの最初です。",
                  "g と0から", "Enter か n: 次へ", "この記録は",
                  "記録はここで正しいゲームではなくなります。"):
        assert words in shown, words
    assert not english_words.search(shown), shown


def test_endofpage_refusals_in_japanese(environment):
    """End of the Page's refused moves and chance events, what a record must do next, a broken
    ruleset and the game's reasons are said in Japanese under ``ja``; English stays as it was."""
    from cardcli.contract.options import resolve
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.errors import IllegalMove, RulesetError
    from cardcli.terminal.session import over_text
    from cardcli_endofpage.config import OPTIONS, check_rules

    variant = get_registry().get("endofpage")

    def said(code: str) -> list[str]:
        language.choose(code)
        state = variant.new_state(resolve(OPTIONS, {}, source="test"), 2, 0)
        lines = [state.expecting()]

        def apply(event: dict[str, object]) -> None:
            state.apply(variant.decode_action(state, event))

        def refused(event: dict[str, object]) -> None:
            with pytest.raises((IllegalMove, ValueError)) as error:
                apply(event)
            lines.append(str(error.value))

        refused({"chance": "deal", "seat": 0, "cards": ["3S", "4S", "5S"]})
        refused({"chance": "deal", "seat": 1, "cards": ["3D", "JC"]})
        apply({"chance": "deal", "seat": 1, "cards": ["3D", "JC", "9H"]})
        apply({"chance": "deal", "seat": 0, "cards": ["5S", "6S", "7S", "8S", "QD"]})
        refused({"chance": "turn_up", "card": "9H"})
        refused({"chance": "turn_up", "card": "2H"})
        apply({"chance": "turn_up", "card": "KH"})
        lines.append(state.expecting())
        refused({"move": "discard", "card": "3D"})
        refused({"move": "take", "card": "QS"})
        apply({"move": "draw"})
        apply({"chance": "draw", "cards": ["JD"]})
        refused({"move": "layoff", "card": "JC", "meld": 1})
        refused({"move": "meld", "cards": ["JC", "JD", "JS"]})
        with pytest.raises(RulesetError) as broken:
            check_rules(resolve(OPTIONS, {"decks": 1}, source="test"))
        lines.extend(broken.value.problems)
        for reason in ("the end of the page: 10 rounds played; highest total wins",
                       "a total reached 500 after round 4; highest total wins"):
            lines.append(over_text({"reason": reason}, ["ann", "bob"], variant))
        return lines

    assert said("en") == [
        "the deal to seat 1 (round 1)",
        "the deal goes to seat 1 now (from the dealer's left, the dealer last), not seat 0",
        "seat 1's turned-up 3D means 3 cards, but 2 were dealt",
        "9H is not in the stock",
        "2H: the 2s are out of the pack in End of the Page",
        "seat 1 to draw",
        "draw first: from the stock, the top discard, or a deeper discard melded at once",
        "the top discard is KH, not QS",
        "lay-offs are allowed only after your own first meld",
        "JS is not in seat 1's hand",
        "option 'decks' is 1, but 'max_players' is 6: four or more players need two decks "
        "(set max_players to 3 or fewer, or decks to 2 or \"none\")",
        "Game over: the end of the page: 10 rounds played; highest total wins.",
        "Game over: a total reached 500 after round 4; highest total wins.",
    ]
    japanese = said("ja")
    assert japanese[0] == "席1へのディール(第1ラウンド)"
    assert "今配られるのは席1で" in japanese[1] and "親は最後" in japanese[1]
    assert japanese[2] == "席1のめくった3Dは3枚を意味しますが、2枚配られています"
    assert japanese[3] == "9Hは山札にありません"
    assert "2はパックから抜いてあります" in japanese[4]
    assert japanese[5] == "席1が引く番"
    assert japanese[6].startswith("先に引いてください")
    assert japanese[7] == "捨て札の一番上はKHで、QSではありません"
    assert "最初の役を出した後" in japanese[8]
    assert japanese[9] == "JSは席1の手札にありません"
    assert "2組必要です" in japanese[10] and "'max_players'" in japanese[10]
    assert "10ラウンドを終え" in japanese[11] and "合計点の最も高い" in japanese[11]
    assert "第4ラウンドで合計が500点に達し" in japanese[12]
    assert not any(re.search(r"\b(?:the|not|seat|is|need|round|total)\b", line) for line in japanese)


def test_engine_errors_in_japanese(tmp_path):
    """A bad ruleset and a bad record are refused in Japanese, the names a person
    typed (options, card names) kept as they are, with exit status 1."""
    import json

    ruleset = tmp_path / "bad.toml"
    ruleset.write_text('variant = "matching"\n[options]\nhand_sise = 7\nmin_players = 9\n', encoding="utf-8")
    result = cardcli("--lang", "ja", "rules", "matching", "--ruleset", str(ruleset))
    assert result.returncode in (1, 2)
    for words in ("2件の誤り:", "'hand_sise' というオプションはありません", "'hand_size' のことですか?",
                  "オプション 'min_players'", "使える値", "2から6までの整数"):
        assert words in result.stderr, (words, result.stderr)

    golden = ROOT / "tests" / "golden" / "matching" / "matching-2p-seed1.jsonl"
    lines = [json.loads(line) for line in golden.read_text(encoding="utf-8").splitlines()]
    play = next(i for i, line in enumerate(lines) if line.get("move") == "play")
    lines[play]["card"] = "ZZ"
    record = tmp_path / "bad.jsonl"
    record.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = cardcli("--lang", "ja", "validate", str(record))
    assert result.returncode in (1, 2)
    said = result.stdout + result.stderr
    assert "'ZZ' はカードではありません" in said and "7H、10S、QD" in said, said

    lines[0]["dealer"] = 9
    record.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    result = cardcli("--lang", "ja", "validate", str(record))
    assert result.returncode in (1, 2)
    said = result.stdout + result.stderr
    assert "ヘッダーが正しくありません: 'dealer' は0から1までの席の番号でなければなりません" in said, said


def test_trick_refusals_in_japanese(environment):
    """Trick Page One's refused moves and chance events, what a record must do next, a broken
    ruleset and the game's reasons are said in Japanese under ``ja``; English stays as it was."""
    from cardcli.contract.options import resolve
    from cardcli.engine.plugins import get_registry
    from cardcli.kit.cards import parse_card
    from cardcli.kit.errors import IllegalMove, RulesetError
    from cardcli.terminal.session import over_text
    from cardcli_trick import state as s
    from cardcli_trick.config import OPTIONS, check_rules

    variant = get_registry().get("trick")

    def said(code: str) -> list[str]:
        language.choose(code)
        state = variant.new_state(resolve(OPTIONS, {}, source="test"), 2, 0)
        lines = [state.expecting()]

        def refused(action: tuple) -> None:
            with pytest.raises(IllegalMove) as error:
                state.apply(action)
            lines.append(str(error.value))

        hands = ("7H 9H 2C JK", "3H 5S 8D QC")
        state.apply((s.DEAL, tuple(tuple(parse_card(c) for c in hand.split()) for hand in hands)))
        lines.append(state.expecting())
        refused(s.PLAYS[parse_card("7H")][False])
        refused(s.DRAW_ACTION)
        state.apply(s.PLAYS[parse_card("5S")][False])
        lines.append(state.expecting())
        refused(s.PLAYS[parse_card("2C")][False])
        refused(s.PLAYS[parse_card("JK")][True])
        refused(s.RESHUFFLE_ACTION)
        state.apply(s.DRAW_ACTION)
        lines.append(state.expecting())
        refused(s.RESHUFFLE_ACTION)
        refused((s.DRAWN, (parse_card("5S"),)))
        state.apply((s.DRAWN, (parse_card("6S"),)))
        lines.append(state.expecting())
        refused(s.PLAYS[parse_card("2C")][False])
        refused(s.DRAW_ACTION)
        lines.append(state.alternatives([s.DRAW_ACTION]))
        with pytest.raises(RulesetError) as broken:
            check_rules(resolve(OPTIONS, {"hand_size": 7, "max_players": 8}, source="test"))
        lines.extend(broken.value.problems)
        for reason in ("3 deals played; most deals won takes the match",
                       "the hand was called off: the stock ran out after 2 rebuilds, the most the option "
                       "reshuffles allows"):
            lines.append(over_text({"reason": reason}, ["ann", "bob"], variant))
        return lines

    assert said("en") == [
        "the deal",
        "seat 1 to lead",
        "7H is not in seat 1's hand (could play 3H, 5S, 8D or QC)",
        "may not draw: holding a card to lead (could play 3H, 5S, 8D or QC)",
        "seat 0 to play to the trick",
        "must follow spades (could play JK or draw)",
        "Page One may only be called with the play that leaves one card (could play JK or draw)",
        "it is seat 0's turn, not a chance event (could play JK or draw)",
        "seat 0 to draw a card (cannot follow spades)",
        "no reshuffle now: the stock still has 45 card(s)",
        "drew 5S, which is not in the stock (it is in the trick on the table)",
        "seat 0 to play the drawn 6S",
        "must play the drawn 6S, the card of the suit led (spades) just drawn (could play 6S)",
        "must play the drawn 6S at once, not draw again (could play 6S)",
        "could draw",
        "8 players (the widest table, option 'max_players') x 7 cards do not fit one deck and 1 joker(s) "
        "(53 cards) with a stock left over (options 'hand_size', 'decks', 'max_players')",
        "Game over: 3 deals played; most deals won takes the match.",
        "Game over: the hand was called off: the stock ran out after 2 rebuilds, the most the option "
        "reshuffles allows.",
    ]
    japanese = said("ja")
    assert japanese[0] == "カードを配る番"
    assert japanese[1] == "席1がリードする番"
    assert japanese[2].startswith("7Hは席1の手札にありません") and "3H、5S、8DかQC" in japanese[2]
    assert japanese[3].startswith("リードできるカードを持っているので引けません")
    assert japanese[4] == "席0がトリックにカードを出す番"
    assert japanese[5].startswith("スペードのマークに従わなければなりません")
    assert "JKを出す、または引く" in japanese[5]
    assert "「ページワン」は、残り1枚になるカードを出すとき" in japanese[6]
    assert japanese[7].startswith("今は席0の番で、偶然の出来事")
    assert japanese[8] == "席0が1枚引く番(スペードのマークに従えない)"
    assert japanese[9] == "今は切り直せません: 山札にまだ45枚あります"
    assert "場に出ているトリック" in japanese[10]
    assert japanese[11] == "席0が引いた6Sを出す番"
    assert japanese[12].startswith("引いたばかりのリードされたマーク(スペード)のカード、6Sを出さなけれ")
    assert japanese[13].startswith("引いた6Sをすぐに出さなければならず")
    assert japanese[14] == "できる手: 引く"
    assert "8人(最も多い人数、オプション 'max_players')" in japanese[15] and "7枚では" in japanese[15]
    assert "山札を残して配れません" in japanese[15]
    assert "3ディール終了" in japanese[16] and "試合の勝ち" in japanese[16]
    assert "山札を2回作り直した後" in japanese[17]
    english = re.compile(r"\b(?:the|not|seat|may|must|could|draw|drawn|follow|lead|trick|stock|players|cards|"
                         r"deals?|joker)\b")
    assert not [line for index, line in enumerate(japanese) if index != 10 and english.search(line)]


def test_unseen_reasons_in_japanese(tmp_path):
    """A record of a real table (cards nobody saw, "??") refused for what the
    table saw: the reason in Japanese, every part of it (the step, the card
    drawn, the suit); the same record's ``--json`` stays English."""
    import json

    header = {"format": "cardcli-record", "version": 1, "variant": "trick", "rules": {"hand_size": 3},
              "players": ["ann", "bob"], "dealer": 1, "view": "public"}
    # Bob cannot follow Ann's AH and draws twice: the first card no heart, the second a heart he must play.
    drew = [{"chance": "deal", "hands": [3, 3]}, {"seat": 0, "move": "play", "card": "AH"},
            {"seat": 1, "move": "draw"}, {"chance": "draw", "seat": 1, "cards": ["??"]},
            {"chance": "draw", "seat": 1, "cards": ["??"]}, {"seat": 1, "move": "play", "card": "5S"}]
    # A joker led from a pack without one.
    joker = [{"chance": "deal", "hands": [3, 3]}, {"seat": 0, "move": "play", "card": "JK"}]
    cases = [({}, drew, "席1が2手目のあと、2回目に引いたカードは5Sではありえません"
                        "(席1が2手目のあと、2回目に引いたカードはハートでした)",
              "the card seat 1 drew a 2nd time after move 2 cannot be 5S (the card seat 1 drew a 2nd time "
              "after move 2 was a heart)"),
             ({"jokers": 0}, joker, "JKが出されましたが、このパックにジョーカーはありません",
              "JK is played, but the pack has no joker")]
    for rules, lines, japanese, english in cases:
        record = tmp_path / "real.jsonl"
        head = {**header, "rules": {**header["rules"], **rules}}
        record.write_text("".join(json.dumps(line) + "\n" for line in [head, *lines]), encoding="utf-8")
        said = cardcli("--lang", "ja", "validate", str(record))
        assert said.returncode == 1, said
        assert japanese in said.stderr, said.stderr
        reason = said.stderr.split(": ", 1)[1]
        assert not re.search(r"\b(?:seat|move|drew|cannot|heart|played|pack|joker)\b", reason), reason
        report = cardcli("--lang", "ja", "validate", "--json", str(record))
        assert report.returncode == 1
        assert json.loads(report.stdout.splitlines()[0])["error"]["message"].endswith(english)


def test_experiment_reports_in_japanese():
    """``simulate``, ``arena`` and ``compare`` report in Japanese: no English heading is
    left, the columns stay aligned in cells (a Japanese name takes two a character) and
    no line is wider than 80; their ``--json`` stays English (an interface)."""
    import json

    simulate = cardcli("--lang", "ja", "simulate", "matching", "-n", "12", "--seed", "1", "-w", "1",
                       "--players", "cpu:easy:太郎,cpu:normal,cpu:normal")
    arena = cardcli("--lang", "ja", "arena", "trick", "--players", "cpu:normal,cpu:easy", "--ruleset",
                    "best-of-five", "-n", "2", "--seed", "1", "-w", "1")
    compare_args = ["compare", "matching", "--set", "stack_twos=false", "-n", "8", "--seed", "1", "-w", "1"]
    compare = cardcli("--lang", "ja", *compare_args)
    words = {
        "simulate": (simulate, ("matching の既定ルール", "シード 1", "席ごとの勝ち数:", "平均順位",
                                "CPU の強さごとの勝ち数:", "引き分け", "ゲームの長さ(手数): 平均")),
        "arena": (arena, ("席を入れ替えながら", "勝率", "順位", "ディール勝ち", "全ゲームの平均",
                          "勝者が1人に決まらなかったゲーム")),
        "compare": (compare, ("ルールセットごとに", "既定ルール", "手数: 平均", "勝率: 親+1",
                              "normal 対 easy", "ゲームごとに比べると", "まとめ:")),
    }
    english = ("Wins by", "mean place", "Draws", "Game length", "games of", "seats rotated", "seed",
               "worker", "win rate", "interval", "ms/move", "no single winner", "per ruleset", "moves",
               "nobody", "defaults", "dealer", "against", "In words", "clear", "points")
    for command, (result, said) in words.items():
        assert result.returncode == 0, (command, result.stderr)
        text = result.stdout
        for word in said:
            assert word in text, (command, word)
        assert [word for word in english if word in text] == [], command
        assert max(visible_width(line) for line in text.splitlines()) <= 80, command
    rows = [line for line in simulate.stdout.splitlines() if "cpu:" in line and "平均順位" in line]
    assert len(rows) == 3 and "太郎" in rows[0]
    assert len({visible_width(row[:row.index("cpu:")]) for row in rows}) == 1  # the kinds line up
    assert len({visible_width(row[:row.index("平均順位")]) for row in rows}) == 1

    def data(*lang: str) -> dict:
        out = json.loads(cardcli(*lang, *compare_args, "--json").stdout)
        out.pop("seconds")
        return out

    japanese = data("--lang", "ja")
    assert japanese == data()
    assert japanese["differences"][0]["verdict"].isascii()
    assert japanese["rulesets"][0]["label"] == "defaults"


def test_speaking_is_for_this_thread_alone():
    """A served phone's language (spoken on the server's loop) never reaches the host's
    screen, made at the same moment in another thread."""
    import threading

    from cardcli.kit.language import core, current, speaking

    heard: list[str] = []
    entered, leave = threading.Event(), threading.Event()

    def phone() -> None:
        with speaking("ja"):
            heard.append(core("Interrupted."))
            entered.set()
            leave.wait(10)

    thread = threading.Thread(target=phone)
    thread.start()
    try:
        assert entered.wait(10)
        assert current() == "en" and core("Interrupted.") == "Interrupted."
    finally:
        leave.set()
        thread.join()
    assert heard == ["中断しました。"]


@pytest.mark.parametrize(("line", "english", "japanese"), [
    ('{"cardcli": 1,\n', "Expecting property name enclosed in double quotes",
     "ダブルクォートで囲んだ項目名がありません"),
    ('{"a": "b\n', "Invalid control character", "文字列の中に制御文字(改行など)があります"),
    ('{"a" 1}\n', "Expecting ':' delimiter", "「:」(コロン)がありません"),
])
def test_a_line_that_is_no_json_is_said_in_japanese(tmp_path, line, english, japanese):
    """Python's json module words the problem in English: the record's report says it in Japanese."""
    path = tmp_path / "bad.jsonl"
    path.write_text(line, encoding="utf-8")
    assert f"not valid JSON: {english} at column" in cardcli("validate", str(path)).stderr
    said = cardcli("--lang", "ja", "validate", str(path)).stderr
    assert f"JSON として正しくありません: {japanese}(" in said and english not in said, said
