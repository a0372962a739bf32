"""``cardcli new-variant``: a complete, working plugin package to start a variant from.

The package it writes plays Sevens (a small shedding game: build each suit
up and down from its 7, first to empty a hand wins) under the name you
choose, with everything a variant has: the entry point, the options, the
rules as a state, records, the table, CPU levels, rulesets, a docs page,
tests that run the conformance kit, and golden records.  You change it into
your game (docs/plugins.md walks through it).

The files are templates shipped inside cardcli (``template/``): text with
``{{name}}``-style fields, in paths too.  Unknown fields are an error, so a
template cannot ship half-filled.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from ... import __version__
from ...engine.plugins import Registry
from ...kit.errors import CardcliError, system_words
from ...kit.language import core as _

_NAME = re.compile(r"[a-z][a-z0-9_]*")
_FIELD = re.compile(r"\{\{(\w+)\}\}")
#: Template files end with this (so they are never imported, linted or collected as tests).
SUFFIX = ".tmpl"


class ScaffoldError(CardcliError):
    """A name or folder ``new-variant`` cannot use."""


@dataclass(frozen=True)
class Names:
    """Every spelling of a new variant's name the templates use."""

    name: str  # the variant: `cardcli play NAME`, the entry point, record headers
    package: str  # the import package: cardcli_NAME
    dist: str  # the distribution: cardcli-NAME
    Class: str  # the class-name prefix: NameState, NameVariant
    title: str  # for people
    requires: str  # the cardcli releases the plugin is written for

    def fields(self) -> dict[str, str]:
        return {"name": self.name, "package": self.package, "dist": self.dist, "Class": self.Class,
                "title": self.title, "requires": self.requires}


def names_for(name: str) -> Names:
    """Check ``name`` and spell it every way the templates need."""
    if keyword.iskeyword(name):
        why = _("{name} cannot name a variant: it is a Python keyword")
    elif len(name) > 40:
        why = _("{name} cannot name a variant: it is longer than 40 characters")
    elif not _NAME.fullmatch(name):
        why = _("{name} cannot name a variant: use a lowercase word of letters, digits and underscores "
                "that starts with a letter, e.g. sevens or fan_tan")
    else:
        why = ""
    if why:
        raise ScaffoldError(why.format(name=repr(name)))
    major, minor = (int(part) for part in __version__.split(".")[:2])
    return Names(name=name, package=f"cardcli_{name}", dist=f"cardcli-{name.replace('_', '-')}",
                 Class="".join(part.capitalize() for part in name.split("_")),
                 title=name.replace("_", " ").title(),
                 requires=f"cardcli>={major}.{minor},<{major}.{minor + 1}")


def check_free(names: Names, registry: Registry) -> None:
    """Refuse a name an installed variant or Python package already has."""
    info = registry.variants.get(names.name)
    if info is not None:
        raise ScaffoldError(_("a variant called {name} is already installed (by {package}); choose "
                              "another name").format(name=repr(names.name), package=info.package))
    if importlib.util.find_spec(names.package) is not None:
        raise ScaffoldError(_("a Python package called {package} is already installed; choose another "
                              "name").format(package=repr(names.package)))


def default_folder(names: Names) -> Path:
    return Path(names.dist)


def check_folder(folder: Path) -> None:
    """The folder must be new, or empty."""
    if folder.exists() and not folder.is_dir():
        raise ScaffoldError(_("{folder} exists and is not a folder; choose a new folder").format(
            folder=folder))
    if folder.is_dir() and any(folder.iterdir()):
        raise ScaffoldError(_("{folder} exists and is not empty; choose a new folder (new-variant never "
                              "writes over files)").format(folder=folder))


def template_root() -> Traversable:
    return files(__name__) / "template"


def template_files() -> list[tuple[str, Traversable]]:
    """``(relative path with fields, file)`` of every template, in path order."""
    found: list[tuple[str, Traversable]] = []

    def walk(node: Traversable, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda item: item.name):
            path = f"{prefix}{child.name}"
            if child.is_dir():
                if child.name != "__pycache__":
                    walk(child, path + "/")
            elif path.endswith(SUFFIX):
                found.append((path[: -len(SUFFIX)], child))

    walk(template_root(), "")
    return found


def fill(text: str, fields: dict[str, str], where: str) -> str:
    """``text`` with every ``{{field}}`` filled in."""

    def value(match: re.Match[str]) -> str:
        key = match.group(1)
        if key not in fields:
            raise ScaffoldError(f"template {where}: unknown field {{{{{key}}}}}")
        return fields[key]

    return _FIELD.sub(value, text)


def render(names: Names) -> dict[str, str]:
    """Every file of the new package, by path relative to its folder."""
    fields = names.fields()
    return {fill(path, fields, path): fill(node.read_text(encoding="utf-8"), fields, path)
            for path, node in template_files()}


def write(names: Names, folder: Path) -> list[Path]:
    """Write the package into ``folder`` (new or empty); return the files written."""
    check_folder(folder)
    written = []
    for relative, text in render(names).items():
        path = folder / relative
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        except OSError as error:
            said = _("cannot write {path}: {reason}").format(path=path, reason=system_words(error))
            raise ScaffoldError(said) from None
        written.append(path)
    return written
