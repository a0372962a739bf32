"""The language cardcli speaks to people, and each package's catalog of it.

English is the source language: it needs no catalog, and where no other
language is chosen every message is the English written in the code, byte for
byte.  The language is chosen once a run, by :func:`choose` (the ``cardcli``
command calls it before any command module or plugin is imported): ``--lang``,
else ``$CARDCLI_LANG``, else what gettext reads (``LANGUAGE``, ``LC_ALL``,
``LC_MESSAGES``, ``LANG``).

Each package keeps its own messages in its own gettext domain, a class-based
translation of ``<package>/locale/<lang>/LC_MESSAGES/<domain>.mo`` (the build
compiles the ``.po`` sources into the wheel): a plugin's domain is its
distribution's name; the core's is ``cardcli``, in ``cardcli/words/locale``
(the wing of what cardcli says).  Nothing is installed into
builtins and the global gettext domain is never touched, so cardcli as a
library leaves its host program's language alone.  A package without a catalog
for the chosen language speaks English.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from importlib import resources

#: The languages cardcli ships catalogs for: code -> its own name for itself.
LANGUAGES: dict[str, str] = {"en": "English", "ja": "日本語"}

#: The environment variable that chooses the language for cardcli alone.
ENV = "CARDCLI_LANG"

_GETTEXT_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_chosen: tuple[str, ...] | None = None  # None: not chosen yet; read from the environment on first use
_run: str | None = None  # the run's language, from _chosen (None: not worked out yet)
#: The language of a block of :func:`speaking`: per thread and per asyncio task, so that
#: a served phone's words never leak into the host's screen (None: the run's language).
_spoken: ContextVar[str | None] = ContextVar("cardcli_language", default=None)


def choose(code: str | None = None) -> str:
    """Fix the language of this run and return its code (``"en"``, ``"ja"``).

    ``code`` (``--lang``) wins, then ``$CARDCLI_LANG``; both must name a
    language cardcli speaks (:class:`ValueError` says which it does).  Without
    either, gettext's variables are read as gettext reads them, and a language
    cardcli does not speak falls back to English.
    """
    global _chosen, _run
    asked = code if code is not None else os.environ.get(ENV) or None
    if asked is not None:
        primary = normalise(asked)
        if primary is None:
            spoken = ", ".join(LANGUAGES)
            where = "--lang" if code is not None else ENV
            raise ValueError(f"{where}: cardcli does not speak {asked!r} (it speaks: {spoken})")
        _chosen = (primary,)
    else:
        _chosen = tuple(_from_gettext_environment())
    _run = None
    return current()


@contextmanager
def speaking(code: str) -> Iterator[None]:
    """Speak ``code`` inside the block, then the language spoken before: for output
    that is an interface (``--json``), which stays English whatever the language, and
    for a served phone's own language.  Only this thread (or asyncio task) speaks it."""
    primary = normalise(code)
    if primary is None:
        raise ValueError(f"cardcli does not speak {code!r} (it speaks: {', '.join(LANGUAGES)})")
    token = _spoken.set(primary)
    try:
        yield
    finally:
        _spoken.reset(token)


def current() -> str:
    """The code of the language in use: the first chosen one cardcli speaks, else ``"en"``.

    Asked before :func:`choose` (cardcli used as a library), it reads the
    environment; a ``$CARDCLI_LANG`` cardcli does not speak then means English
    (only :func:`choose` refuses it, for the command line to say so)."""
    spoken = _spoken.get()
    if spoken is not None:
        return spoken
    global _run
    if _run is None:
        if _chosen is None:
            try:
                choose()
            except ValueError:
                _run = "en"
                return _run
        _run = next((primary for primary in map(normalise, _chosen or ()) if primary is not None), "en")
    return _run


def normalise(code: str) -> str | None:
    """``"ja_JP.UTF-8"`` -> ``"ja"``: the language cardcli speaks that ``code`` names, or None."""
    primary = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    return primary if primary in LANGUAGES else None


def _from_gettext_environment() -> list[str]:
    """The language list gettext itself would use (``gettext.find``'s reading), up to a ``C``."""
    for name in _GETTEXT_ENV:
        value = os.environ.get(name)
        if value:
            entries = value.split(":")
            break
    else:
        entries = []
    if "C" in entries or "POSIX" in entries:
        entries = entries[:min(entries.index(e) for e in ("C", "POSIX") if e in entries)]
    return [entry for entry in entries if entry]


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is written (a table, a declaration);
    it is translated where it is shown, with the catalog's :meth:`Catalog.gettext`."""
    return message


class Catalog:
    """One package's messages in the chosen language.

    Made once per package at import (``_ = Catalog("cardcli-mygame",
    "cardcli_mygame")``); the translation itself is read on first use, so
    importing costs nothing and English never opens a file.
    """

    def __init__(self, domain: str, package: str, folder: str = "locale") -> None:
        self.domain = domain
        self.package = package
        self.folder = folder
        self._translations: dict[str, gettext.NullTranslations] = {}

    def forget(self) -> None:
        """Drop the translations read so far (a catalog compiled again)."""
        self._translations.clear()

    def translation(self) -> gettext.NullTranslations:
        """The gettext translation for the language in use (a NullTranslations for English)."""
        language = current()
        found = self._translations.get(language)
        if found is None:
            found = self._translations[language] = self._read(language)
        return found

    def _read(self, language: str) -> gettext.NullTranslations:
        if language == "en":
            return gettext.NullTranslations()
        try:
            folder = resources.files(self.package).joinpath(*self.folder.split("/"))
        except (ModuleNotFoundError, TypeError):
            return gettext.NullTranslations()
        return gettext.translation(self.domain, localedir=str(folder), languages=[language], fallback=True)

    def has(self, language: str) -> bool:
        """Whether this package ships a compiled catalog for ``language``."""
        try:
            folder = resources.files(self.package).joinpath(*self.folder.split("/"), language, "LC_MESSAGES")
        except (ModuleNotFoundError, TypeError):
            return False
        return (folder / f"{self.domain}.mo").is_file()

    def gettext(self, message: str) -> str:
        """``message`` in the language in use."""
        return self.translation().gettext(message)

    __call__ = gettext

    def pgettext(self, context: str, message: str) -> str:
        """``message`` of ``context`` (its ``msgctxt``) in the language in use: text that is not
        code's, such as a shipped ruleset's name (context ``ruleset``), apart from the code's."""
        return self.translation().pgettext(context, message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` for ``count``, in the language in use."""
        return self.translation().ngettext(singular, plural, count)


#: The core's own messages (domain ``cardcli``).
core = Catalog("cardcli", "cardcli", "words/locale")


__all__ = ["ENV", "LANGUAGES", "N_", "Catalog", "choose", "core", "current", "normalise", "speaking"]
