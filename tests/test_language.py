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
