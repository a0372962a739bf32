"""The served pages in the host's language (or the phone's): their words, put into the page as it is served.

The pages (``static/*.html`` and ``*.js``) are written in English and mark
their texts ``t("...")`` (``data-t`` in the HTML); the messages live in the
core's gettext domain ``page`` (``cardcli/words/locale``), extracted from the
pages by ``build_catalogs.py``.  Served in another language, a page carries
its translations as a JSON data block (not a script: the Content-Security-Policy
allows no inline script, and needs none here) and ``<html lang>``.  In English
the page is served byte for byte as shipped.

A page is in the language in use when it is served: the host's, or (``cardcli
serve --page-language phone``) the one :func:`best_language` picks from the
phone's ``Accept-Language`` among :func:`page_languages`, spoken for that
request with :func:`speaking_as`.
"""

from __future__ import annotations

import json
from contextlib import AbstractContextManager, nullcontext
from functools import cache
from importlib import resources

from ..kit.language import Catalog, current, normalise, speaking

#: The pages' messages.
PAGE = Catalog("page", "cardcli", "words/locale")
#: The most ranges of an ``Accept-Language`` header read, and of its characters.
MOST_RANGES, MOST_CHARACTERS = 32, 1000


def page_words() -> dict[str, str]:
    """Each English text of the pages and its translation in the language in use."""
    catalog = getattr(PAGE.translation(), "_catalog", {})
    words: dict[str, str] = {}
    for key, value in catalog.items():
        if isinstance(key, tuple):  # a plural entry: (singular, form); one form in Japanese
            if key[1] == 0:
                words[key[0]] = value
        elif key:
            words[key] = value
    return words


def in_language(page: bytes) -> bytes:
    """``page`` (an HTML page) in the language in use: its words and ``lang`` put in."""
    language = current()
    if language == "en":
        return page
    data = json.dumps(page_words(), ensure_ascii=False, sort_keys=True)
    data = data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    block = f'<script id="words" type="application/json">{data}</script>\n</head>'
    page = page.replace(b'<html lang="en">', f'<html lang="{language}">'.encode(), 1)
    return page.replace(b"</head>", block.encode(), 1)


@cache
def page_languages() -> frozenset[str]:
    """The languages the pages are served in: English (the pages' own) and each
    language with a compiled catalog of the pages' words in the core's locale folder."""
    found = {"en"}
    try:
        folder = resources.files(PAGE.package).joinpath(*PAGE.folder.split("/"))
        for entry in folder.iterdir():
            code = normalise(entry.name)  # a language cardcli speaks (``--lang`` takes it)
            if code is not None and entry.is_dir() and PAGE.has(entry.name):
                found.add(code)
    except (OSError, ModuleNotFoundError, TypeError):
        pass
    return frozenset(found)


def accepted(header: str | None) -> list[tuple[str, float]]:
    """``Accept-Language``'s ranges, best first: ``"ja-JP,ja;q=0.9,*;q=0.1"`` ->
    ``[("ja", 1.0), ("ja", 0.9), ("*", 0.1)]`` (the primary language of each,
    lower case).  A range that cannot be read, or with a ``q`` that is not a
    number from 0 to 1, is left out; ranges of equal ``q`` keep their order."""
    ranges: list[tuple[str, float]] = []
    for item in (header or "")[:MOST_CHARACTERS].split(",")[:MOST_RANGES]:
        tag, *parameters = item.split(";")
        primary = tag.strip().replace("_", "-").split("-")[0].lower()
        readable = primary.isascii() and primary.isalpha() and len(primary) <= 8
        if not (primary == "*" or readable):
            continue
        weight = 1.0
        for parameter in parameters:
            name, equals, value = parameter.partition("=")
            if name.strip().lower() != "q" or not equals:
                continue
            try:
                weight = float(value.strip())
            except ValueError:
                weight = -1.0
            break  # the first q counts ("ja;q=0.9;q=0.9" is 0.9)
        if 0.0 <= weight <= 1.0:  # also leaves out nan
            ranges.append((primary, weight))
    ranges.sort(key=lambda entry: -entry[1])
    return ranges


def best_language(header: str | None, fallback: str) -> str:
    """The language of :func:`page_languages` that ``Accept-Language`` (``header``)
    asks for first, or ``fallback`` (the host's) if it asks for none of them.
    ``*`` asks for any: the fallback, unless the header refused it (``q=0``)."""
    spoken = page_languages()
    ranges = accepted(header)
    refused = {language for language, weight in ranges if weight == 0}
    for language, weight in ranges:
        if weight == 0:
            break
        if language == "*":
            if fallback not in refused:
                return fallback
            others = sorted(spoken - refused)
            return others[0] if others else fallback
        if language in spoken:
            return language
    return fallback


def speaking_as(code: str | None) -> AbstractContextManager[object]:
    """Speak ``code`` inside the block: nothing to do if it is the language in
    use already (or ``None``), else :func:`cardcli.kit.language.speaking`."""
    if code is None or code == current():
        return nullcontext()
    return speaking(code)


__all__ = ["PAGE", "accepted", "best_language", "in_language", "page_languages", "page_words", "speaking_as"]
