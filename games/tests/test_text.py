"""The text policy (``accounts.text``) applied once: to the action models and the API's requests."""

import pytest
from hypothesis import given
from pydantic import TypeAdapter, ValidationError

from accounts.tests.test_text import ANY_TEXT
from accounts.text import TextRefused, text_clean, text_storable
from games.actions import FreeText, StorableText
from games.kinds import get as kind_get


@given(ANY_TEXT)
def test_the_action_models_and_the_api_apply_the_same_policy(text):
    """A clue, an answer and a token's name (``FreeText``) are kept exactly when the policy keeps them."""
    try:
        expected = text_clean(text)
    except TextRefused:
        expected = None
    for strict in (True, False):
        try:
            got = TypeAdapter(FreeText).validate_python(text, strict=strict)
        except ValidationError:
            got = None
        assert got == expected


@given(ANY_TEXT)
def test_a_clue_is_judged_by_the_policy(text):
    storyteller = kind_get("storyteller")
    try:
        expected = text_clean(text)
    except TextRefused:
        expected = None
    try:
        action = storyteller.action_parse({"type": "clue", "card": 1, "text": text}, strict=True)
    except Exception as error:  # noqa: BLE001  (a GameError: bad_action)
        assert getattr(error, "code", None) == "bad_action"
        assert expected is None
    else:
        assert action.text == expected


def test_a_refused_clue_says_why():
    from games.services.errors import GameError

    storyteller = kind_get("storyteller")
    with pytest.raises(GameError) as refused:
        storyteller.action_parse({"type": "clue", "card": 1, "text": "a\u202eb"}, strict=True)
    assert refused.value.code == "bad_action"
    assert "Use letters, digits, spaces and punctuation only." in refused.value.message


@given(ANY_TEXT)
def test_other_strings_need_only_be_storable(text):
    storable = "\x00" not in text and not any(0xD800 <= ord(char) <= 0xDFFF for char in text)
    assert text_storable(text) == storable
    try:
        got = TypeAdapter(StorableText).validate_python(text, strict=True)
    except ValidationError:
        got = None
    assert got == (text if storable else None)
