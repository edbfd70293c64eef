"""The text policy (``accounts.text``); its application to the action models is tested in games/tests/test_text.py."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from accounts.text import TextRefused, text_clean, text_storable

# Every code point, lone surrogates included (Hypothesis leaves them out unless asked), and often one
# of the characters the policy is about.
HOSTILE = "\ud800\udfff\x00\x1b\t\u202e\u2066\u200b\u200c\u200d\ufeff\u00ad\u3164\u00a0\u3000\u0301\ufe0f😀👩💻 ae"
ANY_CHARACTER = st.one_of(st.sampled_from(HOSTILE), st.characters(codec=None, exclude_categories=()))
ANY_TEXT = st.text(ANY_CHARACTER, max_size=40)

REFUSED = {
    "lone surrogate": "a\ud800b",
    "low surrogate": "\udfffz",
    "NUL": "a\x00b",
    "escape": "\x1b[31mred",
    "tab": "a\tb",
    "new line": "a\nb",
    "DEL": "a\x7fb",
    "C1 control": "a\x85b",
    "right-to-left override": "abc\u202edcba",
    "left-to-right embedding": "\u202aabc",
    "pop directional formatting": "abc\u202c",
    "first strong isolate": "\u2068abc\u2069",
    "right-to-left isolate": "\u2067abc",
    "Arabic letter mark": "a\u061cb",
    "zero-width space": "ad\u200bmin",
    "zero-width non-joiner": "a\u200cb",
    "zero-width joiner between letters": "ad\u200dmin",
    "left-to-right mark": "a\u200eb",
    "word joiner": "a\u2060b",
    "byte order mark": "\ufeffabc",
    "soft hyphen": "ad\u00admin",
    "Hangul filler": "\u3164",
    "Hangul choseong filler": "a\u115fb",
    "braille blank": "\u2800\u2800",
    "combining grapheme joiner": "a\u034fb",
    "tag character": "a\U000e0041b",
    "private use": "a\ue000b",
    "line separator": "a\u2028b",
    "paragraph separator": "a\u2029b",
    "unassigned": "a\u0378b",
    "joiner at the end": "😀\u200d",
}

KEPT = {
    "plain": ("A quiet storm, at dawn!", "A quiet storm, at dawn!"),
    "Danish": ("Rødgrød med fløde", "Rødgrød med fløde"),
    "Japanese": ("静かな嵐", "静かな嵐"),
    "Arabic": ("عاصفة هادئة", "عاصفة هادئة"),
    "emoji": ("🌩️ 😀", "🌩️ 😀"),
    "emoji sequence": ("👩‍💻 🏳️‍🌈 👨‍👩‍👧", "👩‍💻 🏳️‍🌈 👨‍👩‍👧"),
    "skin tone sequence": ("👩🏽‍💻", "👩🏽‍💻"),
    "decomposed": ("Cafe\u0301", "Café"),
    "no-break space": ("a\u00a0b", "a b"),
    "ideographic space": ("静か\u3000な", "静か な"),
    "markup": ("<script>alert(1)</script> {{ x }} %s", "<script>alert(1)</script> {{ x }} %s"),
    "empty": ("", ""),
    "spaces": ("  ", "  "),
}


@pytest.mark.parametrize("text", REFUSED.values(), ids=REFUSED.keys())
def test_refused(text):
    with pytest.raises(TextRefused) as refused:
        text_clean(text)
    assert str(refused.value.message) == "Use letters, digits, spaces and punctuation only."


@pytest.mark.parametrize(("text", "kept"), KEPT.values(), ids=KEPT.keys())
def test_kept(text, kept):
    assert text_clean(text) == kept


def test_length_is_counted_in_characters_of_the_normal_form():
    assert len(text_clean("e\u0301" * 200)) == 200


@given(ANY_TEXT)
def test_what_is_kept_can_be_stored_shown_and_kept_again(text):
    try:
        kept = text_clean(text)
    except TextRefused:
        return
    kept.encode("utf-8")  # no lone surrogate
    assert text_storable(kept)
    assert unicodedata.is_normalized("NFC", kept)
    assert text_clean(kept) == kept
    for index, char in enumerate(kept):
        category = unicodedata.category(char)
        assert category not in ("Cc", "Cs", "Co", "Zl", "Zp"), (text, char)
        assert category != "Zs" or char == " "
        if category == "Cf":  # only a joiner, inside an emoji sequence
            assert char == "\u200d" and 0 < index < len(kept) - 1, (text, char)


@given(ANY_TEXT)
def test_storable_means_no_nul_and_no_lone_surrogate(text):
    storable = "\x00" not in text and not any(0xD800 <= ord(char) <= 0xDFFF for char in text)
    assert text_storable(text) == storable
