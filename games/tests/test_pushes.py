"""A socket that asks for its view (``push=board``, ``push=view``) is sent what the fetch it saves would bring.

``games.pushes`` builds a viewer's board or API view in the consumer, from the socket's handshake, without Django's
request stack: these tests hold it to the fetch, byte for byte (a board's CSRF token aside: a push carries none,
the page fills in its own), for every viewer of every position of games played at random, in two languages and
time zones; and they hold what a push must refuse, as a fetch refuses it.
"""

import random
import re

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from accounts.services import token_create, token_revoke
from games import kinds
from games.models import Game
from games.pushes import BOARD, VIEW, pushed
from games.tests.factories import UserFactory
from games.tests.play import play_at_random
from games.tests.test_conformance import started

pytestmark = pytest.mark.django_db

GAMES = [kinds.get("storyteller"), kinds.get("think_alike")]
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')
NO_TOKEN = 'name="csrfmiddlewaretoken" value=""'


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.FABULA_API_RATES = {"requests": (10**6, 60), "actions": (10**6, 60)}


class Viewer:
    """A browser (its session, its language) and a bot (its token) of one person, or an anonymous browser."""

    def __init__(self, user, *, language: str = "en"):
        self.user = user
        self.headers = {"Accept-Language": language}
        self.page = Client(headers=self.headers)
        self.token = None
        if user is not None:
            self.page.force_login(user)
            self.token = token_create(user=user, name="push")[1]

    def scope(self, *, token: bool = False) -> dict:
        headers = [(b"host", b"testserver"), (b"accept-language", self.headers["Accept-Language"].encode())]
        if token:
            headers.append((b"authorization", f"Bearer {self.token}".encode()))
        elif self.page.cookies:
            cookies = "; ".join(f"{name}={morsel.value}" for name, morsel in self.page.cookies.items())
            headers.append((b"cookie", cookies.encode()))
        return {"type": "websocket", "scheme": "ws", "path": "/ws/live/", "headers": headers}

    def fetched_board(self, game) -> str:
        response = self.page.get(f"/games/{game.pk}/board/", headers={"HX-Request": "true"})
        assert response.status_code == 200
        return response.content.decode()

    def fetched_view(self, game) -> bytes:
        response = Client(headers=self.headers).get(
            f"/api/v1/games/{game.pk}", headers={"Authorization": f"Bearer {self.token}"}
        )
        assert response.status_code == 200
        return response.content


@pytest.mark.parametrize("kind", GAMES, ids=lambda kind: kind.slug)
def test_a_push_is_the_fetch_it_saves_for_every_viewer_at_every_position(kind):
    list(kind.load_content())
    rng = random.Random(f"{kind.slug}-push")
    game, users = started(kind, kind.min_seats + 1)
    abroad = users[1]
    abroad.time_zone = "Pacific/Auckland"  # the deadline's time on the board is in the viewer's zone
    abroad.save(update_fields=["time_zone"])
    viewers = [Viewer(users[0]), Viewer(abroad, language="fr"), *(Viewer(u) for u in users[2:])]
    viewers += [Viewer(UserFactory(), language="fi"), Viewer(None)]  # a spectator and someone signed out
    positions = 0

    def check():
        nonlocal positions
        for viewer in viewers:
            version, board = pushed(viewer.scope(), game_id=game.pk, what=BOARD)
            assert version == game.version
            fetched = viewer.fetched_board(game)
            assert CSRF_FIELD.search(fetched) is None or NO_TOKEN in board  # forms hold no token in a push
            assert board == CSRF_FIELD.sub(NO_TOKEN, fetched), f"{viewer.user}'s board at v{game.version}"
            if viewer.token is not None:
                version, view = pushed(viewer.scope(token=True), game_id=game.pk, what=VIEW, token=viewer.token)
                assert version == game.version
                assert view.encode() == viewer.fetched_view(game), f"{viewer.user}'s view at v{game.version}"
        positions += 1

    play_at_random(kind, game, users, rng, check, max_steps=60)
    assert positions > 10


def test_a_push_authenticates_its_viewer_again_each_time():
    """A session that ended since the socket opened is nobody's: the board pushed is a spectator's, as a fetch
    with that cookie would be; a token revoked since is refused, as the API refuses it."""
    kind = kinds.get("storyteller")
    list(kind.load_content())
    game, users = started(kind, 3)
    viewer = Viewer(users[1])
    scope = viewer.scope()
    anonymous = CSRF_FIELD.sub(NO_TOKEN, Viewer(None).fetched_board(game))
    _version, board = pushed(scope, game_id=game.pk, what=BOARD)
    assert board == CSRF_FIELD.sub(NO_TOKEN, viewer.fetched_board(game)) != anonymous  # the player's own

    viewer.page.logout()  # the session is gone from the store; the socket's handshake still names it
    _version, board = pushed(scope, game_id=game.pk, what=BOARD)
    assert board == anonymous

    token_scope = viewer.scope(token=True)
    assert pushed(token_scope, game_id=game.pk, what=VIEW, token=viewer.token) is not None
    token_revoke(user=users[1], token_id=users[1].api_tokens.get().pk)
    with pytest.raises(PermissionDenied):
        pushed(token_scope, game_id=game.pk, what=VIEW, token=viewer.token)


def test_nothing_is_pushed_of_a_game_the_viewer_may_no_longer_see():
    kind = kinds.get("storyteller")
    list(kind.load_content())
    game, users = started(kind, 3)
    outsider = Viewer(UserFactory())
    assert pushed(outsider.scope(), game_id=game.pk, what=BOARD) is not None  # a public game
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PRIVATE, version=game.version + 1)
    assert pushed(outsider.scope(), game_id=game.pk, what=BOARD) is None
    assert pushed(outsider.scope(token=True), game_id=game.pk, what=VIEW, token=outsider.token) is None
    assert pushed(Viewer(users[2]).scope(), game_id=game.pk, what=BOARD) is not None  # its players still see it


@pytest.mark.parametrize("behind_proxy", [False, True])
def test_a_socket_over_tls_is_sent_https_addresses(settings, behind_proxy):
    """Over TLS (``wss``), or behind the trusted proxy that ends it and says so, as ``request.scheme`` reads it."""
    kind = kinds.get("storyteller")
    list(kind.load_content())
    game, users = started(kind, 3)
    viewer = Viewer(users[0])
    scope = viewer.scope(token=True)
    if behind_proxy:
        settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
        scope["headers"].append((b"x-forwarded-proto", b"https"))
    else:
        scope["scheme"] = "wss"
    _version, view = pushed(scope, game_id=game.pk, what=VIEW, token=viewer.token)
    assert "https://testserver/" in view and "http://testserver/" not in view
    _version, plain = pushed(viewer.scope(token=True), game_id=game.pk, what=VIEW, token=viewer.token)
    assert "http://testserver/" in plain
