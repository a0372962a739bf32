"""Entries typed in Japanese, read as the English words the referee and the score sheet know.

A Japanese family at a real table types ``ann ハート7を出す``, ``bob 引く``,
``ページワン``, ``スペード8 ハート`` or ``台札 ♥5``: this turns such an entry
into ``ann plays 7h``, ``bob draws``, ``page one``, ``8s hearts`` and
``up 5h`` before the entry is read, so every rule and every message stays the
one the English entry meets.  Cards may be written ``ハート7``, ``ハートの7``,
``♥7``, ``7♥`` or ``7h``; full-width letters and digits are read as
half-width.  An entry with nothing Japanese in it is returned unchanged.
"""

from __future__ import annotations

import re
import unicodedata

from ..kit.cards import parse_card
from ..kit.errors import CardError

_SUITS = {"スペード": "s", "ハート": "h", "ダイヤモンド": "d", "ダイヤ": "d", "クラブ": "c",
          "クローバー": "c", "♠": "s", "♤": "s", "♥": "h", "♡": "h", "♦": "d", "♢": "d", "♣": "c", "♧": "c"}
_SUIT_WORDS = {"s": "spades", "h": "hearts", "d": "diamonds", "c": "clubs"}
_RANKS = {"エース": "a", "キング": "k", "クイーン": "q", "ジャック": "j", "1": "a"}
_PARTICLE = r"(?:を|が|は|も|で|に|と)?"
_SUIT = "|".join(sorted(map(re.escape, _SUITS), key=len, reverse=True))
_RANK = r"10|[2-9]|1|[AKQJakqj](?![A-Za-z])|エース|キング|クイーン|ジャック"
#: ハート7, ハートの7, ♥7 (suit first, as Japanese says it)
_SUIT_FIRST = re.compile(rf"({_SUIT})の?({_RANK}){_PARTICLE}")
#: 7♥ (rank first, as a card's corner shows it)
_RANK_FIRST = re.compile(rf"(?<![0-9A-Za-z])({_RANK})({_SUIT}){_PARTICLE}")
#: a suit alone, named with a wild 8 (スペード8 ハート): the suit's English word
_SUIT_ALONE = re.compile(rf"({_SUIT}){_PARTICLE}")
_JOKER = re.compile(rf"ジョーカー{_PARTICLE}")
#: 2枚 (two cards): the number alone
_COUNT = re.compile(r"(\d+)\s*枚" + _PARTICLE)
#: 2に, 2番に (on meld 2, for a lay-off)
_ON = re.compile(r"(?<![0-9A-Za-z])(\d+)\s*番?(?:に|へ)")
#: A ``7h`` the person wrote, with a particle glued on (``7hを``).
_ASCII_CARD = re.compile(rf"\b(10|[2-9akqjt])([shdc]){_PARTICLE}(?=\s|$)", re.I)

#: The referee's Japanese words and the English words they stand for, the longest
#: first where one starts another.
REFEREE_WORDS: tuple[tuple[str, str], ...] = (
    ("ページワン", "page one"), ("ストップ", "stop"),
    ("出して", "plays"), ("出した", "plays"), ("出します", "plays"), ("出す", "plays"),
    ("引いて", "draws then"), ("引いた", "draws"), ("引きます", "draws"), ("引く", "draws"),
    ("取って", "takes then"), ("取った", "takes"), ("取ります", "takes"), ("取る", "takes"),
    ("捨てた", "discards"), ("捨てます", "discards"), ("捨てる", "discards"),
    ("持っておく", "keeps"), ("とっておく", "keeps"), ("キープ", "keeps"),
    ("付け札", "lays off"), ("付けた", "lays off"), ("付ける", "lays off"),
    ("拾って役にする", "pickup"), ("拾う", "pickup"),
    ("役を出す", "melds"), ("役を作る", "melds"), ("役", "melds"), ("メルド", "melds"),
    ("見せた", "shows"), ("見せる", "shows"), ("残り", "shows"), ("なし", "nothing"),
    ("配られた", "gets"), ("配られる", "gets"),
    ("めくった", "up"), ("めくる", "up"), ("台札", "up"),
    ("打ち切り", "called off"), ("取り消し", "undo"), ("ヘルプ", "help"), ("終了", "quit"),
    ("パス", "pass"), ("それから", "then"), ("そして", "then"),
)
#: The score sheet's (``mom 役 スペード4 ハート4 ダイヤ3=4、手札 ダイヤ7``).
SHEET_WORDS: tuple[tuple[str, str], ...] = (
    ("ワイルド", "wild"), ("付け札", "off"), ("付け", "off"), ("役", "meld"), ("メルド", "meld"),
    ("手札 なし", "out"), ("手札なし", "out"), ("手札", "hand"), ("上がり", "out"), ("カード", "cards"),
    ("得点", "score"),
    ("取り消し", "undo"), ("訂正", "edit"), ("完了", "done"), ("ヘルプ", "help"), ("終了", "quit"),
)
#: The English verbs a referee's entry puts after the player's name (``ann plays 7h``).
_VERBS = ("plays", "draws", "takes", "discards", "keeps", "lays off", "melds", "shows", "gets", "pickup")


def referee_entry(text: str) -> str:
    """A referee's entry with its Japanese words and card names in the English form
    (see the module's docstring); an entry with nothing Japanese is left as it is."""
    text = unicodedata.normalize("NFKC", text)  # full-width letters, digits, spaces: half-width
    if text.isascii():
        return text
    text = _read(text, REFEREE_WORDS)
    return " then ".join(_in_order(part.split()) for part in text.split(" then "))


def sheet_entry(text: str) -> str:
    """A score sheet's entry with its Japanese words and card names in the English form;
    ``mom に`` is ``on mom`` (``付け スペード3=4 mom に``: off 3s=4 on mom)."""
    text = unicodedata.normalize("NFKC", text)
    if text.isascii():
        return text
    text = _read(text.replace("、", ", "), SHEET_WORDS, particles=False)
    text = re.sub(r"(\S+?)\s*に(?=\s|$|,)", r"on \1", text)  # mom に: on mom
    return " ".join(text.replace(" ,", ",").replace(" *", "*").split())


def _read(text: str, table: tuple[tuple[str, str], ...], particles: bool = True) -> str:
    """Cards, counts and the words of ``table`` in their English form, spaced."""
    text = _SUIT_FIRST.sub(lambda m: f" {_rank(m.group(2))}{_SUITS[m.group(1)]} ", text)
    text = _RANK_FIRST.sub(lambda m: f" {_rank(m.group(1))}{_SUITS[m.group(2)]} ", text)
    text = _JOKER.sub(" jk ", text)
    text = _COUNT.sub(r" \1 ", text)
    if particles:
        text = _ON.sub(r" on \1 ", text)
    for japanese, english in table:
        text = text.replace(japanese, f" {english} ")
    text = _SUIT_ALONE.sub(lambda m: f" {_SUIT_WORDS[_SUITS[m.group(1)]]} ", text)
    text = _ASCII_CARD.sub(r"\1\2", text)
    if particles:
        text = re.sub(r"([0-9A-Za-z=*]+)(?:を|が|は|に|で|と)(?=\s|$)", r"\1", text)  # 6s=8を: 6s=8
        text = re.sub(r"(?<=\s)(?:を|が|は|に|で|と)(?=\s|$)", " ", text)  # a particle left on its own
        text = text.replace("、", " ")
    text = re.sub(r"\s*=\s*", "=", text.replace("。", " "))
    return " ".join(text.split())


def _rank(text: str) -> str:
    return _RANKS.get(text, text).lower()


def _in_order(words: list[str]) -> str:
    """Japanese puts the verb last (``ann 7h plays``), English after the name
    (``ann plays 7h``), or first where the entry starts with a card (``9h plays``,
    after ``then``); ``up`` leads its entry.  Calls stay where they are, at the end."""
    if "up" in words and words[0] != "up":
        words = ["up", *[word for word in words if word != "up"]]
    words = " ".join(words).replace("lays off", "lays_off").split()
    for at, word in enumerate(words):
        if word.replace("_", " ") in _VERBS:
            place = 0 if _is_card(words[0]) or words[0].isdigit() else 1
            if at > place:
                words.insert(place, words.pop(at))
            break
    return " ".join(words).replace("lays_off", "lays off")


def _is_card(word: str) -> bool:
    try:
        parse_card(word)
    except CardError:
        return False
    return True


__all__ = ["REFEREE_WORDS", "SHEET_WORDS", "referee_entry", "sheet_entry"]
