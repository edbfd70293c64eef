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


# --- combining marks: a few per letter, never a pile ---------------------------------------------

ZALGO = "a" + "\u0301\u0316\u0352\u036b" * 100  # 400 marks on one letter


def test_400_stacked_accents_are_refused_with_their_own_words():
    with pytest.raises(TextRefused) as refused:
        text_clean(f"hello {ZALGO} world")
    assert str(refused.value.message) == "Too many accents or marks on one letter."


@pytest.mark.parametrize(
    "text",
    [
        "Tiê\u0301ng Viê\u0323t",  # Vietnamese, decomposed: NFC leaves at most one mark a letter
        "\u0e01\u0e34\u0e48",  # Thai: a consonant with a vowel and a tone mark
        "\u05e9\u05c1\u05b8\u0591\u05bd",  # Hebrew: a letter with a dot, a vowel and two cantillation marks
        "q\u0301\u0302\u0303\u0304",  # four marks on a letter that has no composed form: the cap itself
    ],
)
def test_the_marks_written_languages_use_are_kept(text):
    assert text_clean(text) == unicodedata.normalize("NFC", text)


def test_five_marks_on_one_letter_are_one_too_many():
    with pytest.raises(TextRefused):
        text_clean("q\u0301\u0302\u0303\u0304\u0305")


def test_marks_are_counted_per_letter_not_per_text():
    assert text_clean("q\u0301\u0302\u0303\u0304 " * 50).count("\u0304") == 50


def test_every_text_field_refuses_the_pile(db):
    """The display name (a form), a chat message (a service), a clue (an action) and a token's name (the API
    and its page) all go through ``text_clean``."""
    from accounts.forms import ApiTokenForm, ProfileForm
    from accounts.services import token_create
    from games.services.errors import GameError
    from games.tests.api.conftest import ApiClient, error_of
    from games.tests.factories import UserFactory, started_game

    user = UserFactory()
    form = ProfileForm({"display_name": "Zed" + "\u0301" * 20, "colour": "blue"}, instance=user)
    assert not form.is_valid()
    assert form.errors["display_name"] == ["Too many accents or marks on one letter."]
    token_form = ApiTokenForm({"name": "bot" + "\u0301" * 20})
    assert not token_form.is_valid()
    assert token_form.errors["name"] == ["Too many accents or marks on one letter."]

    game, (alice, *_others) = started_game(3)
    alice_api = ApiClient(token_create(user=alice, name="tests")[1])
    assert error_of(alice_api.post(f"/games/{game.pk}/chat", {"text": ZALGO})) == (400, "bad_text")
    assert alice_api.get(f"/games/{game.pk}/chat").json()["messages"] == []
    assert error_of(alice_api.post("/tokens", {"username": alice.username, "password": "x", "name": ZALGO}))[0] == 400
    with pytest.raises(GameError) as refused:
        game.game_kind.action_parse({"type": "clue", "card": 1, "text": ZALGO})
    assert refused.value.code == "bad_action"
