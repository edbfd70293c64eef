"""The API's OpenAPI schema and docs page, and a property-based fuzz of the API from that schema."""

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings
from schemathesis.checks import positive_data_acceptance
from schemathesis.generation import GenerationMode

from accounts.services import token_create
from games.services.games import game_create, game_join
from games.tests.factories import UserFactory, deck_with_cards

from .conftest import API

schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", get_wsgi_application())
schema.config.generation.update(
    modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE],
    max_examples=40,
    deterministic=True,
    allow_extra_parameters=False,  # unknown query parameters are ignored, as HTTP APIs do
)


@pytest.fixture
def fuzz_player(db, keep_connection):
    """A player with a token, seated in an open game and in a started one, so ids can hit real games."""
    deck = deck_with_cards(40)
    user = UserFactory()
    _token, secret = token_create(user=user, name="fuzz")
    open_game = game_create(creator=user, max_seats=4, options={"deck": deck.pk})
    others = UserFactory.create_batch(2)
    active = game_create(creator=others[0], max_seats=3, options={"deck": deck.pk})
    for player in (others[1], user):
        game_join(game_id=active.pk, user=player)
    return secret, [open_game.pk, active.pk]


@pytest.mark.django_db
@schema.parametrize()
@hypothesis_settings(deadline=None, suppress_health_check=list(HealthCheck))
def test_no_input_makes_a_server_error(case, fuzz_player):
    secret, game_ids = fuzz_player
    game_id = (case.path_parameters or {}).get("game_id")
    if isinstance(game_id, int) and not isinstance(game_id, bool) and game_id % 3 != 0:
        case.path_parameters["game_id"] = game_ids[game_id % 3 - 1]  # two cases in three aim at a real game
    # Every built-in check but one: answers match the schema, statuses are documented, no
    # 5xx, bad data and bad tokens are refused... Not positive_data_acceptance: schema-valid
    # data may still break a rule a schema cannot say (a taken username, a card not in
    # your hand), and that is rightly a 400 or a 409.
    response = case.call_and_validate(
        headers={"Authorization": f"Bearer {secret}"}, excluded_checks=[positive_data_acceptance]
    )
    assert response.status_code < 500, response.text
    if response.status_code >= 400:  # 404 and 405 included
        body = response.json()
        assert set(body) == {"error"} and {"code", "message"} <= set(body["error"]), body


def test_the_fuzz_covers_every_operation(client):
    document = client.get(f"{API}/openapi.json").json()
    documented = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    fuzzed = {(operation.ok().method.upper(), operation.ok().path) for operation in schema.get_all_operations()}
    assert fuzzed == documented


def test_the_schema_documents_every_endpoint(client):
    document = client.get(f"{API}/openapi.json").json()
    operations = {(method.upper(), path) for path, item in document["paths"].items() for method in item}
    assert operations == {
        ("POST", f"{API}/accounts"),
        ("POST", f"{API}/tokens"),
        ("GET", f"{API}/games"),
        ("POST", f"{API}/games"),
        ("GET", f"{API}/games/{{game_id}}"),
        ("POST", f"{API}/games/{{game_id}}/join"),
        ("POST", f"{API}/games/{{game_id}}/leave"),
        ("POST", f"{API}/games/{{game_id}}/start"),
        ("POST", f"{API}/games/{{game_id}}/rematch"),
        ("POST", f"{API}/games/{{game_id}}/decline"),
        ("POST", f"{API}/games/{{game_id}}/open-seats"),
        ("POST", f"{API}/games/{{game_id}}/actions"),
        ("GET", f"{API}/think-alike/fields"),
        ("GET", f"{API}/games/{{game_id}}/chat"),
        ("POST", f"{API}/games/{{game_id}}/chat"),
        ("POST", f"{API}/games/{{game_id}}/chat/mutes"),
        ("DELETE", f"{API}/games/{{game_id}}/chat/mutes/{{username}}"),
        ("POST", f"{API}/games/{{game_id}}/chat/{{message_id}}/report"),
        ("PUT", f"{API}/games/{{game_id}}/mute"),
        ("DELETE", f"{API}/games/{{game_id}}/mute"),
        ("POST", f"{API}/games/{{game_id}}/bots"),
        ("POST", f"{API}/games/{{game_id}}/clue-media"),
        ("POST", f"{API}/games/{{game_id}}/cards/{{card_id}}/report"),
        ("GET", f"{API}/decks"),
        ("POST", f"{API}/decks"),
        ("GET", f"{API}/decks/{{deck_id}}"),
        ("PATCH", f"{API}/decks/{{deck_id}}"),
        ("DELETE", f"{API}/decks/{{deck_id}}"),
        ("POST", f"{API}/decks/{{deck_id}}/shares"),
        ("DELETE", f"{API}/decks/{{deck_id}}/shares/{{username}}"),
        ("POST", f"{API}/decks/{{deck_id}}/cards"),
        ("PATCH", f"{API}/decks/{{deck_id}}/cards/{{card_id}}"),
        ("DELETE", f"{API}/decks/{{deck_id}}/cards/{{card_id}}"),
        ("POST", f"{API}/decks/{{deck_id}}/cards/{{card_id}}/review"),
        ("POST", f"{API}/games/{{game_id}}/nudge"),
        ("GET", f"{API}/me"),
        ("PATCH", f"{API}/me"),
        ("PUT", f"{API}/me/away"),
        ("DELETE", f"{API}/me/away"),
        ("GET", f"{API}/players/{{username}}"),
    }
    assert document["components"]["securitySchemes"]["TokenAuth"] == {"type": "http", "scheme": "bearer"}
    view = document["components"]["schemas"]["StorytellerView"]["properties"]
    assert {
        "id",
        "kind",
        "status",
        "version",
        "round",
        "phase",
        "deadline_at",
        "storyteller",
        "clue",
        "players",
        "hand",
        "table",
        "you",
        "last_round",
        "winners",
    } <= set(view)


def test_the_docs_page_loads_nothing_from_elsewhere(client):
    response = client.get(f"{API}/docs")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'class="card api-docs"' in page and f"{API}/openapi.json" in page  # drawn on the server (games/api/docs.py)
    assert "cdn" not in page.lower() and "https://" not in page


def test_the_schema_is_built_once_per_process_and_language(client):
    from django.utils import translation

    from games.api.api import api

    first = client.get(f"{API}/openapi.json").json()
    document = api.get_openapi_schema(path_prefix="/api/v1/")
    assert api.get_openapi_schema(path_prefix="/api/v1/") is document  # not built again
    assert client.get(f"{API}/openapi.json").json() == first
    with translation.override("fr"):
        assert api.get_openapi_schema(path_prefix="/api/v1/") is not document  # each language its own


def test_every_operation_may_answer_busy_with_retry_after(client):
    document = client.get(f"{API}/openapi.json").json()
    for path, item in document["paths"].items():
        for method, operation in item.items():
            busy = operation["responses"].get("503")
            assert busy is not None, (method, path)
            assert "Retry-After" in busy["headers"], (method, path)
