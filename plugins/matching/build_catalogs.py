"""The message catalogs of this distribution's packages: extracted, updated, compiled.

At build time this is the build backend (pyproject.toml's ``build-backend``
with ``backend-path = ["."]``): setuptools' own, whose ``build_py``
(``[tool.setuptools.cmdclass]``) also compiles, with Babel, every ``.po`` of a
``locale/<lang>/LC_MESSAGES`` folder in a package into the ``.mo`` beside it
in the wheel, so a user needs no gettext tools.  An editable install writes
the ``.mo`` beside the ``.po`` in the checkout (git ignores them).

For a translator, run from the distribution's folder::

    python build_catalogs.py init ja  # a new catalog: <package>/locale/ja/LC_MESSAGES/<dist>.po
    python build_catalogs.py update   # new messages of the code into every .po
    python build_catalogs.py compile  # the .mo beside each .po, as the build does

cardcli and each plugin carry the same copy of this file (a build cannot import
another distribution); ``cardcli new-variant`` writes it into a new plugin.
"""

from __future__ import annotations

import sys
from pathlib import Path

from setuptools.build_meta import (
    build_editable,
    build_sdist,
    build_wheel,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)
from setuptools.command.build_py import build_py as _build_py

#: The PEP 517 hooks: setuptools' (this module is the backend so that setuptools finds build_py here).
__all__ = ["build_editable", "build_py", "build_sdist", "build_wheel", "get_requires_for_build_editable",
           "get_requires_for_build_sdist", "get_requires_for_build_wheel",
           "prepare_metadata_for_build_editable", "prepare_metadata_for_build_wheel"]

#: The functions whose string arguments are messages: a catalog's gettext
#: (``_``) and ngettext, and ``N_`` for text marked where it is declared.
KEYWORDS = {"_": None, "N_": None, "gettext": None, "ngettext": (1, 2)}


#: Libraries whose messages a package translates for them (Click ships none):
#: their catalog is named after them and extracted from their code.
LIBRARIES = ("click",)


def catalogs(package_dir: Path) -> list[Path]:
    """The ``.po`` sources in a package's ``locale`` folders (``locale/<lang>/LC_MESSAGES``)."""
    return sorted(package_dir.glob("**/locale/*/LC_MESSAGES/*.po"))


def compile_catalog(po: Path, mo: Path) -> None:
    """Compile ``po`` into ``mo``; a fuzzy entry is left out (it speaks English)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as source:
        catalog = read_po(source, abort_invalid=True)
    _brace_format(catalog)
    problems = [f"{po}:{message.lineno}: {error}" for message, errors in catalog.check() for error in errors]
    if problems:
        raise SystemExit("\n".join(problems))
    mo.parent.mkdir(parents=True, exist_ok=True)
    with mo.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)


#: Domains of web pages: extracted from the pages a package serves (``static/*.js``,
#: ``t("...")`` and ``tn("...", "...", n)``; ``static/*.html``, ``data-t`` and
#: ``data-t-label``), not from its Python code.
PAGE_DOMAINS = ("page",)
_HTML_TEXT = r"<[a-z0-9]+[^>]*\sdata-t(?:\s[^>]*)?>([^<]+)<"
_HTML_LABEL = r"<[a-z0-9]+(?=[^>]*\sdata-t-label)[^>]*\saria-label=\"([^\"]+)\""


def extract_pages(package_dir: Path) -> object:
    """Every message of the package's web pages, as a Babel catalog (the template)."""
    import re

    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract

    template = Catalog()
    for path in sorted(package_dir.glob("**/static/*.js")):
        where = str(path.relative_to(package_dir.parent))
        with path.open("rb") as source:
            for lineno, message, comments, context in extract(
                    "javascript", source, keywords={"t": None, "tn": (1, 2)}, comment_tags=("Translators:",)):
                template.add(message, None, [(where, lineno)], auto_comments=comments, context=context)
    for path in sorted(package_dir.glob("**/static/*.html")):
        text = path.read_text(encoding="utf-8")
        where = str(path.relative_to(package_dir.parent))
        for pattern in (_HTML_TEXT, _HTML_LABEL):
            for match in re.finditer(pattern, text):
                template.add(match.group(1).strip(), None, [(where, text.count("\n", 0, match.start()) + 1)])
    return template


def _brace_format(catalog: object) -> None:
    """Messages take their fields with ``str.format`` (``{name}``), never ``%``: Babel's
    guess that "95% interval" is a %-format is dropped, so its check does not trip on it."""
    for message in catalog:  # type: ignore[attr-defined]
        message.flags.discard("python-format")


#: The context (``msgctxt``) of a shipped ruleset's name and description: a
#: ruleset is shown in the language of the catalog of the package that ships it.
RULESET_CONTEXT = "ruleset"
RULESET_KEYS = {"name": "Translators: a shipped ruleset's name ({file}).",
                "description": "Translators: a shipped ruleset's description ({file})."}


def extract(package_dir: Path) -> object:
    """Every message of the package's code, as a Babel catalog (the template), and the
    name and description of each ruleset it ships (``rulesets/*.toml``, context ``ruleset``)."""
    import tomllib

    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog()
    for filename, lineno, message, comments, context in extract_from_dir(
            str(package_dir), method_map=[("**.py", "python")], keywords=KEYWORDS,
            comment_tags=("Translators:",)):
        template.add(message, None, [(str(Path(package_dir.name, filename)), lineno)],
                     auto_comments=comments, context=context)
    for path in sorted(package_dir.glob("**/rulesets/*.toml")):
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
        where = str(path.relative_to(package_dir.parent))
        for key, comment in RULESET_KEYS.items():
            if isinstance(data.get(key), str) and data[key]:
                lineno = next((number for number, line in enumerate(text.splitlines(), 1)
                               if line.partition("=")[0].strip() == key), 1)
                template.add(data[key], None, [(where, lineno)],
                             auto_comments=[comment.format(file=path.name)], context=RULESET_CONTEXT)
    return template


def update(package_dir: Path) -> None:
    """Bring every ``.po`` of the package up to its code: new messages added, gone ones dropped.

    A catalog named after a library in :data:`LIBRARIES` (``click.po``) holds
    that library's own messages, so it is brought up to the library's code."""
    import importlib.util

    from babel.messages.pofile import read_po, write_po

    own = extract(package_dir)
    for po in catalogs(package_dir):
        template = own
        if po.stem in PAGE_DOMAINS:
            template = extract_pages(package_dir)
        elif po.stem in LIBRARIES:
            spec = importlib.util.find_spec(po.stem)
            assert spec is not None and spec.origin is not None, f"{po.stem} is not installed"
            template = extract(Path(spec.origin).parent)
        with po.open("rb") as source:
            catalog = read_po(source)
        created = catalog.creation_date  # kept: an update is not a new catalog (and no churn)
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        catalog.creation_date = created
        _brace_format(catalog)
        with po.open("wb") as target:
            write_po(target, catalog, width=100, omit_header=False, sort_output=False, include_lineno=False)


class build_py(_build_py):
    """setuptools' build_py that also compiles the packages' catalogs."""

    def run(self) -> None:
        super().run()
        for package in self.packages or ():
            if "." in package:  # a top-level package's catalogs are found under it, at any depth
                continue
            source = Path(self.get_package_dir(package))
            for po in catalogs(source):
                if self.editable_mode:
                    mo = po.with_suffix(".mo")
                else:
                    mo = Path(self.build_lib, *package.split("."), po.relative_to(source).with_suffix(".mo"))
                compile_catalog(po, mo)


def init(package_dir: Path, language: str) -> Path:
    """Start the catalog of ``language`` for the package: every message of its code, none
    translated yet; the domain is the distribution's name (pyproject.toml's ``[project] name``)."""
    import tomllib

    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    domain = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    po = package_dir / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    if po.exists():
        raise SystemExit(f"{po} already exists: run update")
    catalog = Catalog(locale=language, project=domain, fuzzy=False)
    catalog.update(extract(package_dir), no_fuzzy_matching=True)  # type: ignore[arg-type]
    po.parent.mkdir(parents=True, exist_ok=True)
    with po.open("wb") as target:
        write_po(target, catalog, width=100, include_lineno=False)
    return po


def _packages_here() -> list[Path]:
    """The packages of the distribution in the current folder (``src/`` layout or flat)."""
    root = Path("src") if Path("src").is_dir() else Path(".")
    return [path.parent for path in sorted(root.glob("*/__init__.py"))]


if __name__ == "__main__":
    if sys.argv[1:] not in (["update"], ["compile"]) and not (len(sys.argv) == 3 and sys.argv[1] == "init"):
        raise SystemExit("usage: python build_catalogs.py init LANG | update | compile")
    for package_dir in _packages_here():
        if sys.argv[1] == "init":
            print(f"wrote {init(package_dir, sys.argv[2])}")
        if sys.argv[1] == "update":
            update(package_dir)
        for po in catalogs(package_dir):
            compile_catalog(po, po.with_suffix(".mo"))
