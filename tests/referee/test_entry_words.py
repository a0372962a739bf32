"""Entries typed in Japanese read as the English words: the referee's and the score sheet's."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardcli.realtable.entry_words import referee_entry, sheet_entry

REFEREE = [
    ("ann ハート7を出す", "ann plays 7h"),
    ("ann ハートの7を出した", "ann plays 7h"),
    ("ann ♥7", "ann 7h"),
    ("ann 7♥", "ann 7h"),
    ("ann 7hを出す", "ann plays 7h"),
    ("ann \uff17\uff28", "ann 7H"),  # full-width letters and digits
    ("ann ハートのエース", "ann ah"),
    ("ann スペードA", "ann as"),
    ("ann ジョーカーを出す", "ann plays jk"),
    ("mom スペード8を出して ハートに", "mom plays 8s hearts"),
    ("mom スペード8 ハート", "mom 8s hearts"),
    ("bob 引く", "bob draws"),
    ("bob 2枚引く", "bob draws 2"),
    ("cat 3枚引いて ハート9を出す", "cat draws 3 then plays 9h"),
    ("cat 3枚引いてハート9を出す", "cat draws 3 then plays 9h"),
    ("ann ハート7を出す ページワン", "ann plays 7h page one"),
    ("ann ハート10を出してページワン", "ann plays 10h page one"),
    ("ページワン", "page one"),
    ("ann ページワン", "ann page one"),
    ("ann ハート7を出す ストップ", "ann plays 7h stop"),
    ("ストップ", "stop"),
    ("bob キープ", "bob keeps"),
    ("台札 ハート5", "up 5h"),
    ("ハート5をめくる", "up 5h"),
    ("台札 クラブQ スペード4 スペード5", "up qc 4s 5s"),
    ("bob 取る", "bob takes"),
    ("bob クラブKを捨てる", "bob discards kc"),
    ("bob 役 スペード4 ハート4 ダイヤ3", "bob melds 4s 4h 3d"),
    ("bob スペード3を2番に付ける", "bob lays off 3s on 2"),
    ("bob スペード3=ダイヤ4を2に付ける", "bob lays off 3s=4d on 2"),
    ("ann スペード6 ハート8 クラブ8 スペード6=8を拾う", "ann pickup 6s 8h 8c 6s=8"),
    ("mom 残り ハート7 スペード8", "mom shows 7h 8s"),
    ("mom 残り なし", "mom shows nothing"),
    ("ann 配られた ハート7 スペード8", "ann gets 7h 8s"),
    ("打ち切り", "called off"),
    ("取り消し", "undo"),
    ("はな 引く", "はな draws"),  # a particle inside a name stays
    ("お母さん ハート7を出す", "お母さん plays 7h"),
]


@pytest.mark.parametrize("japanese, english", REFEREE)
def test_a_referee_entry_in_japanese(japanese, english):
    assert referee_entry(japanese) == english


SHEET = [
    ("ワイルド ハート3", "wild 3h"),
    ("mom 役 スペード4 ハート4 ダイヤ3=4、手札 ダイヤ7", "mom meld 4s 4h 3d=4, hand 7d"),
    ("me 役 クラブ4 ハート3=クラブ5 クラブ6、付け スペード3=4 mom に、上がり",
     "me meld 4c 3h=5c 6c, off 3s=4 on mom, out"),
    ("me 付け クラブ8=ハートJ 1に、手札 スペード5", "me off 8c=jh on 1, hand 5s"),
    ("dad カード クラブ7 スペード8* ダイヤ9、上がり", "dad cards 7c 8s* 9d, out"),
    ("mom 手札 なし", "mom out"),
    ("mom 得点 15", "mom score 15"),
    ("訂正 2", "edit 2"),
]


@pytest.mark.parametrize("japanese, english", SHEET)
def test_a_score_sheet_entry_in_japanese(japanese, english):
    assert sheet_entry(japanese) == english


@given(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126)))
def test_an_entry_without_japanese_is_left_as_it_is(text):
    assert referee_entry(text) == text
    assert sheet_entry(text) == text
