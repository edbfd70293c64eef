"""games.actions: one validation for the pages' forms and the API's JSON, and its words when it refuses."""

import pytest
from django.http import QueryDict

from games import kinds
from games.actions import Resign, action_parse, action_type, form_data
from games.services.errors import GameError
from games.tests.odd_one_out.kind import OddOneOutKind
from storyteller import actions as storyteller


def parse(data, *, strict=True):
    return action_parse(storyteller.ACTION, data, models=storyteller.ACTION_MODELS, strict=strict)


def refusal(data, *, strict=True) -> str:
    with pytest.raises(GameError) as refused:
        parse(data, strict=strict)
    assert (refused.value.code, refused.value.kind) == ("bad_action", "invalid")
    return str(refused.value.message)


def test_strictness_is_the_callers():
    assert refusal({"type": "vote", "position": "2"}) == "Check the position of this vote action."
    assert parse({"type": "vote", "position": "2"}, strict=False) == storyteller.Vote(type="vote", position=2)
    assert parse({"type": "vote", "position": 2, "round": 3}).round == 3
    assert refusal({"type": "vote", "position": True}) == "Check the position of this vote action."
    assert refusal({"type": "vote", "position": 1.0})


def test_what_a_refusal_says():
    types = "An action is an object whose type is one of: clue, resign, submit, vote."
    assert refusal({}) == types
    assert refusal({"type": "dance"}) == types
    assert refusal(["vote"]) == types
    assert refusal({"type": "clue", "card": "1"}) == "A clue action needs its text."
    assert refusal({"type": "resign", "now": 1}) == "A resign action has no now."
    assert refusal({"type": "submit", "cards": ["1", "x"]}) == "Check the cards of this submit action."
    assert refusal({"type": ["clue"]}) == types
    assert refusal({"type": {"x": 1}}) == types
    policy = "Check the text of this clue action: Use letters, digits, spaces and punctuation only."
    assert refusal({"type": "clue", "card": "1", "text": "a\x00b"}) == policy
    assert refusal({"type": "clue", "card": "1", "text": "a\ud800b"}) == policy
    assert refusal({"type": "clue", "card": "1", "text": "a\u202eb"}) == policy


def test_ids_are_strings_of_digits_or_integers():
    assert parse({"type": "clue", "card": "12", "text": "t"}).card == "12"
    assert parse({"type": "clue", "card": 12, "text": "t"}).card == 12
    for card in ("1" * 19, "-1", "1e3", " 1", None):
        refusal({"type": "clue", "card": card, "text": "t"})


def test_a_form_is_read_as_its_model_names_its_fields():
    post = QueryDict("type=submit&cards=4&cards=9&round=2&csrfmiddlewaretoken=x&card=7")
    assert form_data(storyteller.ACTION_MODELS, post) == {"type": "submit", "cards": ["4", "9"], "round": "2"}
    assert form_data(storyteller.ACTION_MODELS, QueryDict("type=vote&position=&round=")) == {
        "type": "vote",
        "position": "",
        "round": None,
    }
    assert form_data(storyteller.ACTION_MODELS, QueryDict("type=submit")) == {"type": "submit", "cards": []}
    assert form_data(storyteller.ACTION_MODELS, QueryDict("type=fly&x=1")) == {"type": "fly"}
    assert action_type(Resign) == "resign"


def test_a_kind_without_its_actions_is_reported():
    class Actionless(OddOneOutKind):
        slug = "actionless"
        action_adapter = None

    before = dict(kinds._KINDS)
    try:
        kind = kinds.register(Actionless())
        assert [error.id for error in kinds.check_kinds() if repr(kind) in error.msg] == ["games.E006"]
    finally:
        kinds._KINDS.clear()
        kinds._KINDS.update(before)
