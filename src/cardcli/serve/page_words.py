"""The served pages in the host's language: their words, put into the page as it is served.

The pages (``static/*.html`` and ``*.js``) are written in English and mark
their texts ``t("...")`` (``data-t`` in the HTML); the messages live in the
core's gettext domain ``page`` (``cardcli/words/locale``), extracted from the
pages by ``build_catalogs.py``.  Served in another language, a page carries
its translations as a JSON data block (not a script: the Content-Security-Policy
allows no inline script, and needs none here) and ``<html lang>``.  In English
the page is served byte for byte as shipped.
"""

from __future__ import annotations

import json

from ..kit.language import Catalog, current

#: The pages' messages.
PAGE = Catalog("page", "cardcli", "words/locale")


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


__all__ = ["PAGE", "in_language", "page_words"]
