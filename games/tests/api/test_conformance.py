"""Every answer of the API, in every phase of both games, as the OpenAPI document describes it, key for key.

The games are played through ``CheckedClient``, which checks each answer against
the document (undeclared keys fail: the response schemas are closed) and each view
against the selector's (nothing dropped). The tests then check they saw every state.
"""

import random
from datetime import timedelta

import pytest

from accounts.services import token_create
from games import kinds
from games.models import Game
from games.services.games import game_expire
from games.tests.factories import UserFactory, deck_with_cards
from think_alike.models import BoardField
from think_alike.tests.content import small_content

from .openapi import CheckedClient, conformance_errors, document, operation_of

pytestmark = pytest.mark.django_db
MAX_STEPS = 150


@pytest.fixture
def player(db):
    def make():
        user = UserFactory()
        _token, secret = token_create(user=user, name="tests")
        return CheckedClient(secret, user)

    CheckedClient.seen = set()
    return make


def act(client, game_id, action, status=200):
    response = client.post(f"/games/{game_id}/actions", action)
    assert response.status_code == status, response.content
    return response.json()


def looks(game_id, clients):
    """Every client looks at the game (each answer checked); the views, in the clients' order."""
    return [client.get(f"/games/{game_id}").json() for client in clients]


def test_every_response_schema_is_closed():
    """Objects in answers declare their keys: ``additionalProperties`` is false, or a map's value type."""
    schemas = document()["components"]["schemas"]
    seen, pending = set(), []
    for item in document()["paths"].values():
        for operation in item.values():
            for answer in operation["responses"].values():
                if "content" in answer:  # a 204 (a deck or a card deleted) has no body
                    pending.append(answer["content"]["application/json"]["schema"])
    while pending:
        schema = pending.pop()
        if not isinstance(schema, dict):
            continue
        ref = schema.get("$ref")
        if ref:
            if ref not in seen:
                seen.add(ref)
                pending.append(schemas[ref.rsplit("/", 1)[1]])
            continue
        if schema.get("type") == "object" or "properties" in schema:
            assert "additionalProperties" in schema, schema.get("title")
            if schema["additionalProperties"] is not False:
                assert not schema.get("properties"), schema.get("title")  # a map: {name: value}
        for key in ("items", "additionalProperties"):
            pending.append(schema.get(key))
        for key in ("anyOf", "oneOf", "allOf"):
            pending.extend(schema.get(key, []))
        pending.extend(schema.get("properties", {}).values())
    assert len(seen) > 30


def test_the_documents_limits_enums_and_headers():
    schemas = document()["components"]["schemas"]
    create = schemas["GameCreateIn"]["properties"]
    assert (create["target_score"]["minimum"], create["target_score"]["maximum"]) == (5, 100)
    assert (create["seats"]["minimum"], create["seats"]["maximum"]) == (3, 10)
    assert (create["phase_seconds"]["minimum"], create["phase_seconds"]["maximum"]) == (3600, 259200)
    assert set(create["kind"]["enum"]) >= {"storyteller", "think_alike"}
    assert create["course"]["minItems"] == create["course"]["maxItems"] == 16
    assert schemas["StorytellerView"]["properties"]["status"]["enum"] == ["open", "active", "finished", "cancelled"]
    for operation in ("/games", "/games/{game_id}/join"):
        body = operation_of("POST", f"/api/v1{operation}")["requestBody"]
        assert "default" not in body["content"]["application/json"]["schema"] and body["required"] is False
    act = operation_of("POST", "/api/v1/games/{game_id}/actions")
    assert act["responses"]["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
    union = act["requestBody"]["content"]["application/json"]["schema"]
    assert union["discriminator"]["propertyName"] == "type"
    assert {"clue", "submit", "vote", "resign", "place_field", "answer", "split"} <= set(
        union["discriminator"]["mapping"]
    )
    assert "ActionIn" not in schemas and "ResignAction" not in schemas


def test_storyteller_in_every_phase_for_players_and_spectators(player):
    deck_with_cards(60)
    players = [player() for _ in range(4)]
    spectator = player()
    created = players[0].post("/games", {"kind": "storyteller", "seats": 4, "target_score": 30})
    assert created.status_code == 201
    game_id = created.json()["id"]
    players[1].post(f"/games/{game_id}/join")
    looks(game_id, [*players[:2], spectator])  # open
    players[2].post(f"/games/{game_id}/join", {})
    players[3].post(f"/games/{game_id}/join", {"invite_code": None})

    views = looks(game_id, [*players, spectator])  # the first clue: anyone may give it
    assert {view["phase"] for view in views} == {"clue"} and views[0]["storyteller"] is None
    act(players[0], game_id, {"type": "clue", "card": views[0]["hand"][0]["id"], "text": "the sea", "round": 1})
    views = looks(game_id, [*players, spectator])
    assert views[0]["you"]["is_storyteller"] and views[0]["you"]["storyteller_card"]["image"]
    for client, view in zip(players[1:], views[1:]):
        act(client, game_id, {"type": "submit", "cards": [view["hand"][0]["id"]]})
        looks(game_id, [players[0], client, spectator])  # submitted, others still to
    views = looks(game_id, [*players, spectator])
    assert {view["phase"] for view in views} == {"vote"} and len(views[0]["table"]) == 4
    for client, view in zip(players[1:], views[1:]):
        position = next(card["position"] for card in view["table"] if not card["mine"])
        act(client, game_id, {"type": "vote", "position": position})
    views = looks(game_id, [*players, spectator])
    assert views[0]["round"] == 2 and views[0]["last_round"]["table"][0]["alt"].startswith("Picture")
    # Finished: two resign, two are too few.
    act(players[3], game_id, {"type": "resign"})
    act(players[2], game_id, {"type": "resign"})
    views = looks(game_id, [*players, spectator])
    assert {view["status"] for view in views} == {"finished"} and views[0]["standings"]
    [summary] = players[0].get("/games", mine="true", status="finished").json()["games"]
    assert (summary["status"], summary["phase"]) == ("finished", "finished")
    assert spectator.get("/games", status="finished").json()["games"][0]["id"] == game_id
    assert {
        ("storyteller", status, phase, role)
        for status, phase in [
            ("open", None),
            ("active", "clue"),
            ("active", "submit"),
            ("active", "vote"),
            ("finished", None),
        ]
        for role in ("player", "spectator")
    } <= CheckedClient.seen


def test_storyteller_with_three_players_and_a_private_game(player):
    deck_with_cards(40)
    players = [player() for _ in range(3)]
    created = players[0].post("/games", {"seats": 3, "visibility": "private", "pace": "live"}).json()
    assert created["invite_code"] and created["you"]["is_creator"]
    for client in players[1:]:
        client.post(f"/games/{created['id']}/join", {"invite_code": created["invite_code"]})
    views = looks(created["id"], players)
    act(players[1], created["id"], {"type": "clue", "card": int(views[1]["hand"][0]["id"]), "text": "x"})
    views = looks(created["id"], players)
    assert views[0]["cards_to_submit"] == 2 and views[0]["options"]["deck"]


def test_errors_and_the_other_operations(player, settings):
    deck_with_cards(40)
    first, second, third, stranger = (player() for _ in range(4))
    anonymous = CheckedClient()
    game_id = first.post("/games", {"seats": 4}).json()["id"]
    assert first.post("/games", {"seats": 2}).json()["error"]["code"] == "bad_seats"
    assert first.post("/games", {"seats": "4"}).json()["error"]["details"]
    assert first.post("/games", {"kind": "think_alike", "course": ["1"]}).json()["error"]["code"] == "bad_options"
    assert anonymous.get(f"/games/{game_id}").status_code == 401
    assert stranger.get("/games/424242").status_code == 404
    second.post(f"/games/{game_id}/join")
    third.post(f"/games/{game_id}/join")
    assert second.post(f"/games/{game_id}/start").status_code == 403
    assert third.post(f"/games/{game_id}/leave").json() == {"id": game_id, "status": "open"}
    third.post(f"/games/{game_id}/join")
    assert first.post(f"/games/{game_id}/actions", {"type": "resign"}).status_code == 409
    assert first.post(f"/games/{game_id}/start").json()["status"] == "active"
    assert first.post(f"/games/{game_id}/leave").status_code == 409
    assert stranger.post(f"/games/{game_id}/actions", {"type": "resign"}).status_code == 403
    assert first.post(f"/games/{game_id}/actions", {"type": "vote"}).json()["error"]["code"] == "bad_action"
    assert first.post(f"/games/{game_id}/actions", raw="[1]").json()["error"]["code"] == "bad_request"
    assert first.post(f"/games/{game_id}/actions", raw="{").json()["error"]["code"] == "malformed_json"
    assert first.get("/games", mine="true").json()["games"][0]["id"] == game_id
    assert stranger.get("/games", status="active").json()["games"][0]["joined"] is False
    small_content()
    assert first.get("/think-alike/fields", lang="da").json()["fields"]
    signed = anonymous.post("/accounts", {"username": "newbie", "email": "n@example.com", "password": "a long pass"})
    assert signed.status_code == 201
    assert anonymous.post(
        "/accounts", {"username": "newbie", "email": "m@example.com", "password": "a long pass"}
    ).json()["error"]["fields"]["username"]
    assert anonymous.post("/tokens", {"username": "newbie", "password": "a long pass"}).status_code == 201
    assert anonymous.post("/tokens", {"username": "newbie", "password": "wrong"}).status_code == 401
    settings.FABULA_API_RATES = {"actions": (1, 60)}
    first.post(f"/games/{game_id}/actions", {"type": "dance"})
    limited = first.post(f"/games/{game_id}/actions", {"type": "dance"})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1


def test_a_response_with_an_undeclared_key_fails_the_check(player):
    """The check itself: a key the document does not declare is a failure, wherever it hides."""

    class Answer:
        status_code = 200
        headers = {}

        def __init__(self, body):
            self.body = body

        def json(self):
            return self.body

    good = {"id": 1, "status": "open"}
    assert conformance_errors("POST", "/api/v1/games/1/leave", Answer(good)) == []
    assert conformance_errors("POST", "/api/v1/games/1/leave", Answer(good | {"secret": 1}))
    games = {"games": [{"id": 1, "extra": True}]}
    assert any("extra" in problem for problem in conformance_errors("GET", "/api/v1/games", Answer(games)))


WANTED_LANDINGS = {"swap", "move", "duel", "association"}


def _steer(view: dict, landings: set, rng_turn: int) -> dict | None:
    """The action the game waits for from this view's player: one that lands on a field kind not seen yet."""
    phase, choices = view["phase"], view["choices"] or {}
    if phase == "draft":
        # Lay a board of every kind: swap, move, duel, association, and round again.
        wanted = ["swap", "move", "duel", "association"][len(view["board"]) % 4]
        fields = [field for field in choices["fields"] if field["kind"] == wanted] or choices["fields"]
        return {"type": "place_field", "field": fields[0]["id"]}
    if phase == "roll":
        return {"type": "roll"}
    if phase == "move":
        destinations = view["current"]["destinations"]
        kinds = {way: view["board"][position]["kind"] for way, position in destinations.items()}
        way = next((way for way, kind in kinds.items() if kind not in landings), "cw")
        return {"type": "move", "direction": way}
    if phase == "swap":
        add = [field for field in choices["add"] if field["kind"] == "association"] or choices["add"]
        return {"type": "swap", "remove": choices["remove"][-1]["id"], "add": int(add[0]["id"])}
    if phase == "move_to":
        return {"type": "move_to", "position": choices["positions"][rng_turn % len(choices["positions"])]}
    if phase == "duel":
        positions = choices["positions"]
        return {
            "type": "duel",
            "opponent": choices["opponents"][0]["seat"],
            "position": positions[0] if positions else None,
        }
    return None


def test_think_alike_in_every_phase_for_players_and_spectators(player):
    content = small_content(tasks=40)
    for n in range(4):  # enough fields of every kind for a board of four kinds
        for kind in ("swap", "move", "duel"):
            BoardField.objects.create(
                key=f"{kind}-extra-{n}",
                kind=kind,
                bonus=2 if kind == "duel" else None,
                text_en=f"{kind} {n}",
                text_da=f"{kind} {n}",
            )
    assert content["start"]
    players = [player() for _ in range(3)]
    spectator = player()
    created = players[0].post(
        "/games", {"kind": "think_alike", "seats": 3, "board": "draft", "stop": "tasks", "count": 40, "lang": "en"}
    )
    game_id = created.json()["id"]
    for client in players[1:]:
        client.post(f"/games/{game_id}/join")
    by_name = {client.user.username: client for client in players}
    landings: set = set()
    reviewed = False
    for turn in range(200):
        views = looks(game_id, [*players, spectator])
        view = views[0]
        if view["phase"] is None or (landings >= WANTED_LANDINGS and reviewed):
            break
        if view["current"] and view["current"]["landed_kind"]:
            landings.add(view["current"]["landed_kind"])
        if view["phase"] == "answer":
            for n, client in enumerate(players):
                act(client, game_id, {"type": "answer", "answers": ["pear" if n == 2 else "apple"]})
            continue
        if view["phase"] == "review":
            holder = by_name[view["turn"]]
            groups = holder.get(f"/games/{game_id}").json()["groups"]
            if not reviewed and len(groups) == 2:
                merged = act(holder, game_id, {"type": "merge", "groups": [group["id"] for group in groups]})
                looks(game_id, [*players, spectator])
                group = merged["groups"][0]
                items = [[answer["seat"], answer["index"]] for answer in group["answers"] if answer["text"] == "pear"]
                act(holder, game_id, {"type": "split", "group": group["id"], "items": items})
                looks(game_id, [*players, spectator])
                reviewed = True
            act(holder, game_id, {"type": "confirm"})
            continue
        actor = next(client for client, seen in zip(players, views) if seen["you"]["to_act"])
        act(actor, game_id, _steer(next(v for c, v in zip(players, views) if c is actor), landings, turn))
    assert landings >= WANTED_LANDINGS and reviewed, landings
    act(players[2], game_id, {"type": "resign"})
    views = looks(game_id, [*players, spectator])
    assert {view["status"] for view in views} == {"finished"} and views[0]["last_round"]["groups"]
    phases = ["draft", "roll", "move", "swap", "move_to", "duel", "answer", "review"]
    expected = {("think_alike", "active", phase, role) for phase in phases for role in ("player", "spectator")}
    expected |= {("think_alike", "finished", None, role) for role in ("player", "spectator")}
    assert expected <= CheckedClient.seen, expected - CheckedClient.seen


@pytest.mark.parametrize("kind", kinds.every(), ids=lambda kind: kind.slug)
def test_every_kind_played_at_random_through_the_api_answers_as_documented(kind, player, settings):
    """Over the registry: a kind's actions (``sample_action``) go through the API's body, and its views conform."""
    settings.FABULA_API_RATES = {"requests": (10**6, 60), "actions": (10**6, 60)}
    list(kind.load_content())
    rng = random.Random(kind.slug)
    clients = [player() for _ in range(kind.min_seats)]
    spectator = player()
    game_id = clients[0].post("/games", {"kind": kind.slug, "seats": kind.min_seats}).json()["id"]
    for client in clients[1:]:
        client.post(f"/games/{game_id}/join")
    by_seat = {client.get(f"/games/{game_id}").json()["you"]["seat"]: client for client in clients}
    for step in range(MAX_STEPS):
        game = Game.objects.get(pk=game_id)
        if game.status == Game.Status.FINISHED:
            break
        if step % 5 == 0:
            looks(game_id, [*clients, spectator])
        state = kind.engine.from_dict(game.state)
        offers = {seat: kind.sample_action(state, seat=seat, rng=rng) for seat in sorted(kind.engine.to_act(state))}
        offers = {seat: action for seat, action in offers.items() if action is not None}
        if not offers:  # the game waits for a deadline
            assert game_expire(game_id=game_id, version=game.version, now=game.deadline_at + timedelta(seconds=1))
            continue
        seat = rng.choice(sorted(offers))
        act(by_seat[seat], game_id, {**offers[seat], "round": game.round})
    for client in clients[2:]:  # the rest of a long game: resignations end it
        if Game.objects.get(pk=game_id).status != Game.Status.FINISHED:
            act(client, game_id, {"type": "resign"})
    views = looks(game_id, [*clients, spectator])
    assert {view["status"] for view in views} == {"finished"}
    assert {(kind.slug, "finished", None, role) for role in ("player", "spectator")} <= CheckedClient.seen
