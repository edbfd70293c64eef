"""Storyteller's actions: the same model from a page's form and from the API's JSON, and the engine's call of each."""

import pytest
from django.http import QueryDict

from storyteller.actions import ACTION_MODELS, Clue, Submit, Vote, to_engine
from storyteller.kind import KIND


@pytest.mark.parametrize(
    "form, json, engine",
    [
        (
            "type=clue&card=12&text=the+sea",
            {"type": "clue", "card": "12", "text": "the sea"},
            {"type": "clue", "card": 12, "text": "the sea"},
        ),
        (
            "type=submit&cards=3&cards=4&round=2",
            {"type": "submit", "cards": [3, "4"], "round": 2},
            {"type": "submit", "cards": [3, 4]},
        ),
        ("type=vote&position=2", {"type": "vote", "position": 2}, {"type": "vote", "position": 2}),
        ("type=resign", {"type": "resign"}, {"type": "resign"}),
    ],
)
def test_a_form_and_json_give_one_engine_call(form, json, engine):
    from_form = KIND.action_from_post(QueryDict(form))
    from_json = KIND.action_parse(json)
    assert to_engine(from_form) == to_engine(from_json) == KIND.action_to_engine(from_json) == engine
    assert from_form.round == from_json.round


def test_every_model_has_its_engine_call():
    samples = [Clue(type="clue", card="1", text="t"), Submit(type="submit", cards=[1]), Vote(type="vote", position=1)]
    assert {type(sample) for sample in samples} | {ACTION_MODELS[-1]} == set(ACTION_MODELS)
    assert [to_engine(sample)["type"] for sample in samples] == ["clue", "submit", "vote"]
    with pytest.raises(TypeError):
        to_engine(object())
