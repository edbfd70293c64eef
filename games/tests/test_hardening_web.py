"""Hostile input to the pages (issue 13): no 500 anywhere, a private game answers as a missing one, and what a
player typed never keeps a page from rendering."""

import json
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.services import token_create
from games.models import Game
from games.services.games import game_create
from think_alike.tests.content import course_ids, small_content

from .factories import UserFactory, deck_with_cards, started_game
from .play import view_for

pytestmark = pytest.mark.django_db

API = "/api/v1"


@pytest.fixture
def deck():
    return deck_with_cards(40)


def logged_in(user=None) -> Client:
    client = Client()
    client.force_login(user or UserFactory())
    return client


class TestPrivateGamesAnswerAsMissingOnes:
    @pytest.mark.parametrize(
        ("method", "name", "data"),
        [
            ("get", "games:detail", {}),
            ("get", "games:board", {}),
            ("get", "stats:replay", {}),
            ("post", "games:join", {}),
            ("post", "games:join", {"invite_code": "guess"}),
            ("post", "games:join", {"invite_code": "æøå"}),
            ("post", "games:leave", {}),
            ("post", "games:start", {}),
            ("post", "games:act", {"type": "resign"}),
            ("post", "games:act", {"type": "clue", "card": "1", "text": "x"}),
            ("post", "games:act", {"type": "nonsense"}),
            ("get", "games:act", {}),
            ("delete", "games:detail", {}),
        ],
    )
    @pytest.mark.parametrize("started", [False, True], ids=["open", "started"])
    @pytest.mark.parametrize("htmx", [False, True], ids=["page", "htmx"])
    def test_the_same_answer(self, deck, method, name, data, started, htmx):
        if started:
            game, _users = started_game(3, deck=deck, visibility="private")
        else:
            game = game_create(creator=UserFactory(), max_seats=3, options={"deck": deck.pk}, visibility="private")
        missing = Game.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
        outsider = UserFactory()
        stranger = logged_in(outsider)
        headers = {"HX-Request": "true"} if htmx else {}

        def ask(game_id):
            response = getattr(stranger, method)(reverse(name, args=[game_id]), data, headers=headers)
            return response.status_code, response.get("Location"), response.get("Allow")

        assert ask(game.pk) == ask(missing)
        assert ask(game.pk)[0] in (404, 405)
        assert not game.seats.filter(user=outsider).exists()

    def test_its_link_still_lets_a_friend_in(self, deck):
        game = game_create(creator=UserFactory(), max_seats=3, options={"deck": deck.pk}, visibility="private")
        friend = UserFactory()
        response = logged_in(friend).post(reverse("games:join", args=[game.pk]), {"invite_code": game.invite_code})
        assert response.status_code == 302 and game.seats.filter(user=friend).exists()

    def test_a_player_of_it_still_sees_its_refusals(self, deck):
        game, users = started_game(3, deck=deck, visibility="private")
        response = logged_in(users[1]).post(reverse("games:start", args=[game.pk]), follow=True)
        assert response.status_code == 200
        assert "already started" in response.content.decode() or "creator" in response.content.decode()

    def test_a_non_ascii_invite_code_from_a_player_is_no_server_error(self, deck):
        game = game_create(creator=UserFactory(), max_seats=3, options={"deck": deck.pk}, visibility="private")
        response = logged_in(game.creator).post(reverse("games:join", args=[game.pk]), {"invite_code": "æøå"})
        assert response.status_code < 500


def _patterns(resolver=None, prefix=""):
    """Every URL pattern of the site but the admin's: (route with converters, pattern)."""
    resolver = resolver or get_resolver()
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith((settings.FABULA_ADMIN_PATH, "api/")):  # the API's own tests; the admin is Django's
                continue
            yield from _patterns(entry, route)
        elif isinstance(entry, URLPattern) and "(?P" not in route:  # not the media files' regex
            yield route, entry


HOSTILE_VALUES = ["0", "9" * 30, "%C3%A6%C3%B8%C3%A5", "%00", "a" * 3000, "..%2F..%2Fetc", "%ED%A0%80"]
HOSTILE_FORM = {
    "invite_code": "æøå\x00",
    "type": "clue",
    "card": "9" * 30,
    "text": "a\x00\u202eb",
    "cards": ["x", "9" * 30],
    "position": "-1",
    "round": "1e9",
    "page": "\x00",
    "username": "\u202eadmin",
    "display_name": "a\u200bb",
    "name": "x" * 5000,
    "email": "æ@\x00",
    "password": "\x00",
    "next": "https://elsewhere.example/",
}


def _fill(route: str, value: str) -> str:
    return "/" + re.sub(r"<(?:\w+:)?\w+>", value, route)


class TestNoServerErrorOnAnyPage:
    @pytest.mark.parametrize(
        "route",
        sorted({route for route, _pattern in _patterns()}),
    )
    def test_hostile_paths_queries_and_forms(self, deck, route):
        game, _users = started_game(3, deck=deck)
        for client in (Client(), logged_in()):
            for value in [str(game.pk), *HOSTILE_VALUES] if "<" in route else [""]:
                path = _fill(route, value)
                for method in ("get", "post"):
                    for query in ("", "?page=%00&kind=%ff&status=%E2%80%AE&next=//evil&code=%ED%A0%80"):
                        response = getattr(client, method)(path + query, HOSTILE_FORM if method == "post" else None)
                        assert response.status_code < 500, (method, path + query, response.status_code)


HOSTILE_TEXTS = [
    "<script>alert(1)</script>",
    "{{ request }}{% debug %}",
    "%s %(x)s {0}",
    "Café\u0301 ÆØÅ",
    "静かな嵐 🌩️ 👩‍💻 🏳️‍🌈",
    "عاصفة هادئة",
    "x" * 200,
    "e\u0301" * 200,
    "'; DROP TABLE games_game; --",
    "   ",
]
REFUSED_TEXTS = ["a\x00b", "a\u202eb", "a\u200bb", "\x1b[2J", "a\u2066b\u2069", "\ufeff", "\u3164"]


def _every_view_answers(game_id: int, users, *, status=200):
    """The game's page, its board and its API view, for each player and a spectator (public games)."""
    watchers = [*users, UserFactory()]
    for user in watchers:
        client = logged_in(user)
        for name in ("games:detail", "games:board"):
            response = client.get(reverse(name, args=[game_id]))
            assert response.status_code == status, (name, response.status_code)
        for name in ("games:mine", "games:lobby"):
            assert client.get(reverse(name)).status_code == 200
        _token, secret = token_create(user=user, name="tests")
        response = Client().get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {secret}"})
        assert response.status_code == status, response.content
        json.loads(response.content)  # valid JSON, whatever the text


class TestWhatPlayersTypeNeverBreaksAPage:
    @pytest.mark.parametrize("text", HOSTILE_TEXTS)
    def test_a_clue_from_the_page(self, deck, text):
        game, users = started_game(3, deck=deck)
        storyteller = next(user for user in users if view_for(game, user)["you"]["to_act"])
        card = view_for(game, storyteller)["hand"][0]["id"]
        response = logged_in(storyteller).post(
            reverse("games:act", args=[game.pk]), {"type": "clue", "card": str(card), "text": text}
        )
        assert response.status_code == 302
        _every_view_answers(game.pk, users)

    @pytest.mark.parametrize("text", HOSTILE_TEXTS + REFUSED_TEXTS + ["a\ud800b"])
    def test_a_clue_from_the_api(self, deck, text):
        game, users = started_game(3, deck=deck)
        storyteller = next(user for user in users if view_for(game, user)["you"]["to_act"])
        _token, secret = token_create(user=storyteller, name="tests")
        headers = {"Authorization": f"Bearer {secret}"}
        hand = Client().get(f"{API}/games/{game.pk}", headers=headers).json()["hand"]
        body = json.dumps({"type": "clue", "card": hand[0]["id"], "text": text})
        response = Client().post(
            f"{API}/games/{game.pk}/actions", body, content_type="application/json", headers=headers
        )
        if text in REFUSED_TEXTS or text == "a\ud800b":
            assert response.status_code == 400 and response.json()["error"]["code"] == "bad_action"
            game.refresh_from_db()
            assert game.phase == "clue"
        else:
            assert response.status_code in (200, 400), response.content  # blank or too long: the engine's refusal
        _every_view_answers(game.pk, users)

    @pytest.mark.parametrize("text", REFUSED_TEXTS)
    def test_a_refused_clue_from_the_page_is_said_and_not_kept(self, deck, text):
        game, users = started_game(3, deck=deck)
        storyteller = next(user for user in users if view_for(game, user)["you"]["to_act"])
        card = view_for(game, storyteller)["hand"][0]["id"]
        response = logged_in(storyteller).post(
            reverse("games:act", args=[game.pk]), {"type": "clue", "card": str(card), "text": text}, follow=True
        )
        assert response.status_code == 200
        assert "Use letters, digits, spaces and punctuation only." in response.content.decode()
        game.refresh_from_db()
        assert game.phase == "clue"

    def test_answers_in_think_alike(self, make_think_alike_answering):
        game_id, users = make_think_alike_answering
        typed = [HOSTILE_TEXTS[0], HOSTILE_TEXTS[4], HOSTILE_TEXTS[8]]
        for (_user, secret), answer in zip(users, typed):
            for answers, status in ((["a\ud800b"], 400), (["a\u202eb"], 400), ([answer], 200)):
                response = Client().post(
                    f"{API}/games/{game_id}/actions",
                    json.dumps({"type": "answer", "answers": answers}),
                    content_type="application/json",
                    headers={"Authorization": f"Bearer {secret}"},
                )
                assert response.status_code == status, response.content
        assert Game.objects.get(pk=game_id).phase == "review"
        _every_view_answers(game_id, [user for user, _secret in users])


@pytest.fixture
def make_think_alike_answering(db):
    """A Think Alike game through the API at its answer phase: (id, [(user, token), ...])."""
    content = small_content()
    users = []
    for _ in range(3):
        user = UserFactory()
        _token, secret = token_create(user=user, name="tests")
        users.append((user, secret))

    def call(secret, path, body):
        return Client().post(
            API + path, json.dumps(body), content_type="application/json", headers={"Authorization": f"Bearer {secret}"}
        )

    created = call(
        users[0][1], "/games", {"kind": "think_alike", "seats": 3, "board": "course", "course": course_ids(content)}
    )
    game_id = created.json()["id"]
    for _user, secret in users[1:]:
        assert call(secret, f"/games/{game_id}/join", {}).status_code == 200
    view = Client().get(f"{API}/games/{game_id}", headers={"Authorization": f"Bearer {users[0][1]}"}).json()
    holder = next(secret for user, secret in users if user.username == view["turn"])
    assert call(holder, f"/games/{game_id}/actions", {"type": "roll"}).status_code == 200
    assert call(holder, f"/games/{game_id}/actions", {"type": "move", "direction": "cw"}).status_code == 200
    assert Game.objects.get(pk=game_id).phase == "answer"
    return game_id, users
