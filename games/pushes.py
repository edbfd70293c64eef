"""What a game's socket is sent after a change when it asks for it: its viewer's board or API view, made as the
fetch it saves would make it.

Notify, then fetch (DESIGN.md) cost every other player's page an HTTP request after every action: Django's
request stack, a thread's hand-over, a second authentication, for a view the server had to build anyway. A
socket opened with ``push=board`` (a game page) or ``push=view`` (an API client) is sent that view instead,
built in the web process that holds the socket, for the viewer the socket belongs to:

- the channel group still carries ``{game, version}`` and nothing else; each socket's consumer builds its own
  viewer's view, so what one viewer may not see never travels beside another's;
- the viewer is authenticated again for every push, as for every request: the session through Django's own
  ``get_user`` (a session ended or a password changed since the socket opened: the viewer is anonymous now),
  or the API token through ``token_authenticate`` (revoked, or its user inactive: nothing is pushed);
- the game's visibility is checked again (``game_get_for_viewer``): a viewer who may no longer see the game is
  sent the plain ``game.changed``, and a fetch of theirs is refused as any other;
- the language and time zone are the request's as the middleware picks them (the handshake's cookies and
  ``Accept-Language``; the signed-in user's zone), and the view is the one kept for the version (games.pages):
  a push and a fetch of the same viewer at the same version share one entry.

A board's forms carry no CSRF token in a push (a socket has no request to make one for): the page fills in
its own (games/static/js/live.js), and htmx sends it as a header besides. ``games/tests/test_pushes.py``
holds a push to the fetch it saves, byte for byte but for that token, at every position of played games.
"""

from importlib import import_module

from django.conf import settings
from django.contrib.auth import get_user
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import DisallowedHost, PermissionDenied
from django.http import Http404, HttpRequest, parse_cookie
from django.utils import timezone, translation

from accounts import clock
from accounts.services import token_authenticate
from infrastructure.origins import site_scheme

from .selectors.games import game_get_for_viewer

BOARD = "board"  # a game page's: the board fragment (games:board)
VIEW = "view"  # an API client's: the game's view (GET /api/v1/games/{id})


class SocketRequest(HttpRequest):
    """A GET of ``path`` as the client behind a socket's handshake would send it: the handshake's headers and
    cookies, its client and server, its scheme (``wss``, or a trusted proxy's ``X-Forwarded-Proto``: https)."""

    def __init__(self, scope, path: str):
        super().__init__()
        self.method = "GET"
        self.path = self.path_info = path
        self.socket_scheme = site_scheme(scope)
        for name, value in scope.get("headers", ()):
            key = name.decode("latin-1").upper().replace("-", "_")
            key = key if key in ("CONTENT_LENGTH", "CONTENT_TYPE") else f"HTTP_{key}"
            text = value.decode("latin-1")
            self.META[key] = f"{self.META[key]},{text}" if key in self.META else text
        client = scope.get("client") or ("", 0)
        server = scope.get("server") or ("", 0)
        self.META.update(REMOTE_ADDR=client[0], SERVER_NAME=server[0], SERVER_PORT=str(server[1]))
        self.COOKIES = parse_cookie(self.META.get("HTTP_COOKIE", ""))

    @property
    def scheme(self):
        """As ``request.scheme``: the trusted proxy's word (``SECURE_PROXY_SSL_HEADER``), else the socket's own."""
        return self.socket_scheme


def authenticated(request: SocketRequest, token: str | None) -> bool:
    """Set ``request.user`` as a request of this client's is: by its API token (False: refused) or its session."""
    if token is not None:
        found = token_authenticate(raw=token)
        if found is None:
            return False
        request.user = found.user
        return True
    key = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if key is None:
        request.user = AnonymousUser()
        return True
    request.session = import_module(settings.SESSION_ENGINE).SessionStore(key)
    request.user = get_user(request)
    return True


def pushed(scope, *, game_id: int, what: str, token: str | None = None) -> tuple[int, str] | None:
    """The version and the text of ``what`` (a board's HTML, an API view's JSON) of the game as the socket's
    viewer sees it now; None when there is nothing to push (the game not theirs to see). ``PermissionDenied``
    when the socket's token is no longer live (revoked, its user made inactive): the socket is then closed."""
    from games.api.games import view_body  # the API imports the pages, not the other way round

    from .pages import board_html, game_urls

    path = game_urls(game_id)["board"] if what == BOARD else f"/api/v1/games/{game_id}"
    request = SocketRequest(scope, path)
    if not authenticated(request, token):
        raise PermissionDenied("the token is not live")
    zone = clock.zone(request.user.time_zone) if token is None and request.user.is_authenticated else None
    with translation.override(translation.get_language_from_request(request)), timezone.override(zone):
        try:
            game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
            if what == BOARD:
                return game.version, board_html(request, game=game, seats=seats, csrf="")
            return game.version, view_body(request, game=game, seats=seats).decode()
        except (Http404, DisallowedHost):
            return None
