"""One WebSocket per open page: it says *that* something changed, never what.

A page asks to follow its game (``?game=ID``) and/or the lobby (``?lobby=1``);
a signed-in viewer always follows their own user group ("My games", the bell).
The socket only forwards ``games.services.events`` messages: ids, versions and
counts. The page then fetches its own fragments over HTTP, rendered for that
viewer (DESIGN.md: notify, then fetch).

Once open, a game page's socket first says ``hello``: its game's version as it stands
now that the socket hears every later change. The page fetches its board only if it
shows an older one (a page that has just loaded most often shows that very version,
and fetched it again for nothing before).

A game's socket may ask for more than *that*: ``push=board`` (a game page's, by its session) or
``push=view`` (an API client's, by its token); anything else is not sent. It is then sent its
viewer's board or API view at each new version of its game (``game.board``, ``game.view``), built
here as the fetch it saves would build it, for this socket's viewer alone (games.pushes). The
group's message is the same ``{game, version}``; when there is nothing to push (the game no longer
theirs to see), the socket says ``game.changed`` as any other.

The session authenticates a page's socket and ``infrastructure.origins`` refuses a foreign Origin
before this consumer runs. A client that is no browser may name its API token instead
(``Authorization: Bearer ...``, which a page cannot send with a WebSocket): the socket is then that
token's, and is refused if the token is not live.
"""

import json
import logging
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.core.exceptions import PermissionDenied
from django.http import Http404

from accounts.services import token_authenticate
from infrastructure.origins import bearer

from .pushes import BOARD, VIEW, pushed
from .selectors.games import game_get_for_viewer, game_version
from .services.events import LOBBY_GROUP, game_group, user_group

# What each message type may carry to a browser. Whatever else a group message
# might ever hold stays on the server: the socket is no way to leak a secret.
FIELDS = {
    "game.changed": ("type", "game", "version"),
    "notifications.changed": ("type", "unread"),
    "chat.changed": ("type", "game"),
    "hello": ("type", "game", "version"),
}

log = logging.getLogger(__name__)

# Close code for a page that asks to follow a game it may not see: the
# handshake is refused (daphne answers 403), as for a bad Origin.
FORBIDDEN = 4403


class LiveConsumer(AsyncWebsocketConsumer):
    game_id: int | None = None
    push: str | None = None  # what this socket is sent of its game after a change (games.pushes), if anything
    pushed_version = 0
    token: str | None = None

    async def connect(self):
        params = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.token = bearer(self.scope)
        user = self.scope.get("user") if self.token is None else await self._token_user(self.token)
        if user is None:  # a token that is not live
            await self.close(code=FORBIDDEN)
            return
        groups = []
        if user is not None and user.is_authenticated:
            groups.append(user_group(user.pk))
        game_id = None
        if "game" in params:
            game_id = await self._followable_game(params["game"][0], user)
            if game_id is None:
                await self.close(code=FORBIDDEN)
                return
            groups.append(game_group(game_id))
            self.game_id = game_id
            # A page (its session) may ask for its board; a client by its token, for its API view.
            push = params.get("push", [""])[0]
            self.push = push if push == (BOARD if self.token is None else VIEW) else None
        if params.get("lobby", [""])[0] in ("1", "true"):
            groups.append(LOBBY_GROUP)
        # Join before accepting: the page refreshes once the socket opens, so
        # nothing that changes after that refresh can slip past it.
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
        self.groups = groups  # the base class leaves them on disconnect
        await self.accept()
        if game_id is not None:
            # Read once the groups are joined: a change made after this read reaches the socket as a message.
            version = await self._game_version(game_id)
            if version is not None:
                await self._forward({"type": "hello", "game": game_id, "version": version})

    # Pages only listen: the base class's receive() ignores what a client sends.

    async def dispatch(self, message):
        # The messages this socket only forwards touch no database: straight to their handler, without
        # the base class's hop to a thread to close old database connections before each message (a
        # thread hop per page per change was a good part of an action's cost).
        if message.get("type") in FIELDS:
            await getattr(self, message["type"].replace(".", "_"))(message)
        else:
            await super().dispatch(message)

    async def game_changed(self, event):
        # A game page hears of its game twice (the game's group and the viewer's own): once is enough.
        seen = (event["game"], event["version"])
        if seen == getattr(self, "_last_game_change", None):
            return
        self._last_game_change = seen
        if self.push is not None and event["game"] == self.game_id:
            if event["version"] <= self.pushed_version:
                return  # pushed already: read after this change was made, a push shows it or a later one
            try:
                found = await self._pushed()
            except PermissionDenied:  # the token was revoked, or its user made inactive, since the socket opened
                await self.close(code=FORBIDDEN)
                return
            except Exception:  # the page is told of the change as before, and fetches what the push could not bring
                log.exception("game %s: no push for version %s", self.game_id, event["version"])
                found = None
            if found is not None and found[0] >= event["version"]:
                await self._push(*found)
                return
        await self._forward(event)

    async def notifications_changed(self, event):
        await self._forward(event)

    async def chat_changed(self, event):
        await self._forward(event)

    async def _push(self, version: int, text: str):
        self.pushed_version = version  # newer than the last: game_changed pushes only past it
        if self.push == BOARD:
            await self.send(
                text_data=json.dumps({"type": "game.board", "game": self.game_id, "version": version, "html": text})
            )
        else:  # the view's JSON as it is, not parsed and made again
            await self.send(text_data=f'{{"type":"game.view","game":{self.game_id},"version":{version},"view":{text}}}')

    async def _forward(self, event):
        await self.send(text_data=json.dumps({field: event[field] for field in FIELDS[event["type"]]}))

    @database_sync_to_async
    def _followable_game(self, raw_id: str, user) -> int | None:
        """The game's id if this viewer may see the game, else None."""
        try:
            game, _seats = game_get_for_viewer(game_id=int(raw_id), user=user)
        except (Http404, ValueError):
            return None
        return game.pk

    @database_sync_to_async
    def _pushed(self) -> tuple[int, str] | None:
        return pushed(self.scope, game_id=self.game_id, what=self.push, token=self.token)

    @database_sync_to_async
    def _token_user(self, raw: str):
        found = token_authenticate(raw=raw)
        return None if found is None else found.user

    @database_sync_to_async
    def _game_version(self, game_id: int) -> int | None:
        found = game_version(game_id=game_id)
        return None if found is None else found[0]
