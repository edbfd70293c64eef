"""Think Alike's actions: the same model from a page's form and from the API's JSON, and the engine's call of each."""

import pytest
from django.http import QueryDict

from think_alike.actions import ACTION_MODELS, to_engine
from think_alike.kind import KIND


@pytest.mark.parametrize(
    "form, json, engine",
    [
        ("type=place_field&field=7", {"type": "place_field", "field": "7"}, {"type": "place_field", "field": 7}),
        ("type=roll&round=3", {"type": "roll", "round": 3}, {"type": "roll"}),
        ("type=move&direction=ccw", {"type": "move", "direction": "ccw"}, {"type": "move", "direction": "ccw"}),
        (
            "type=swap&remove=4&add=9",
            {"type": "swap", "remove": 4, "add": "9"},
            {"type": "swap", "remove": 4, "add": 9},
        ),
        ("type=move_to&position=5", {"type": "move_to", "position": 5}, {"type": "move_to", "position": 5}),
        (
            "type=duel&opponent=2&position=",
            {"type": "duel", "opponent": 2, "position": None},
            {"type": "duel", "opponent": 2, "position": None},
        ),
        (
            "type=duel&opponent=2&position=6",
            {"type": "duel", "opponent": 2, "position": 6},
            {"type": "duel", "opponent": 2, "position": 6},
        ),
        (
            "type=answer&answers=owl&answers=",
            {"type": "answer", "answers": ["owl", ""]},
            {"type": "answer", "answers": ["owl", ""]},
        ),
        ("type=merge&groups=1&groups=2", {"type": "merge", "groups": [1, 2]}, {"type": "merge", "groups": [1, 2]}),
        (
            "type=split&group=1&items=0:0&items=2:1",
            {"type": "split", "group": 1, "items": [[0, 0], [2, 1]]},
            {"type": "split", "group": 1, "items": [[0, 0], [2, 1]]},
        ),
        ("type=confirm", {"type": "confirm"}, {"type": "confirm"}),
        ("type=rejoin", {"type": "rejoin"}, {"type": "rejoin"}),
        ("type=resign", {"type": "resign"}, {"type": "resign"}),
    ],
)
def test_a_form_and_json_give_one_engine_call(form, json, engine):
    from_form = KIND.action_from_post(QueryDict(form))
    from_json = KIND.action_parse(json)
    assert to_engine(from_form) == to_engine(from_json) == engine
    assert from_form.round == from_json.round


def test_every_action_type_is_covered():
    assert {model.model_fields["type"].annotation.__args__[0] for model in ACTION_MODELS} == {
        "place_field",
        "roll",
        "move",
        "swap",
        "move_to",
        "duel",
        "answer",
        "merge",
        "split",
        "confirm",
        "rejoin",
        "resign",
    }


@pytest.mark.parametrize(
    "json",
    [
        {"type": "duel", "opponent": 1},  # the position is asked for, if null
        {"type": "split", "group": 1, "items": [[0]]},
        {"type": "move", "direction": "up"},
        {"type": "answer", "answers": "owl"},
        {"type": "roll", "dice": 6},
    ],
)
def test_malformed_actions_are_refused_alike(json):
    from games.services.errors import GameError

    with pytest.raises(GameError) as refused:
        KIND.action_parse(json)
    assert refused.value.code == "bad_action"
