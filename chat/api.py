"""The chat's API routes (added to the API by ``FABULA_API_ROUTERS``): read and write a game's table talk.

Only the game's players take part: a private game that is not the caller's answers
404 as a missing game does; a game the caller may see but does not play in answers
403 (``not_a_player``), to reading too: what a table says stays at the table.
"""

from ninja import Body, Router, Status
from pydantic import Field

from games.actions import FREE_TEXT_PATTERN
from games.api.errors import ApiError, errors
from games.api.limits import rate_hit
from games.api.schemas import DATE_TIME, Answer, Request
from games.selectors.games import game_get_for_viewer
from games.services.errors import GameError

from .models import REASON_MAX_LENGTH, TEXT_MAX_LENGTH
from .selectors import chat_state
from .services import CHAT_OFF, chat_mute, chat_post, chat_report

router = Router(tags=["chat"])

CHAT = "/games/{id:game_id}/chat"


class ChatIn(Request):
    text: str = Field(
        description="What you say to the table: 1 to 500 characters, in the API's text policy "
        "(no control, invisible or direction-changing characters).",
        json_schema_extra={"minLength": 1, "maxLength": TEXT_MAX_LENGTH, "pattern": FREE_TEXT_PATTERN},
    )


class MuteIn(Request):
    username: str = Field(max_length=150, description="The player of this game whose messages you no longer see.")


class ReportIn(Request):
    reason: str = Field(
        default="",
        description="Why the admins should look at this message (optional).",
        json_schema_extra={"maxLength": REASON_MAX_LENGTH, "pattern": FREE_TEXT_PATTERN},
    )


class ChatMessageOut(Answer):
    id: int
    username: str = Field(description="Who said it (a deleted account's is `~deleted-<n>`).")
    name: str = Field(description="The name the player shows (`deleted player` for a deleted account).")
    text: str
    at: str = Field(json_schema_extra=DATE_TIME, description="When it was said (ISO 8601, UTC).")


class ChatClosed(Answer):
    code: str = Field(description="`chat_off` (the game is played without chat) or `chat_closed` (not now).")
    message: str


class ChatOut(Answer):
    messages: list[ChatMessageOut] = Field(
        description="The newest 200 messages, oldest first; muted players' left out."
    )
    closed: ChatClosed | None = Field(description="Why you cannot say anything now; null: you can.")
    muted: list[str] = Field(description="The usernames you muted in this game.")


class MuteOut(Answer):
    username: str
    muted: bool


class ReportOut(Answer):
    id: int
    message: int


def _message_out(message) -> dict:
    return {
        "id": message.pk,
        "username": message.user.username,
        "name": message.user.name,
        "text": message.text,
        "at": message.created_at.isoformat(),  # as every time in the API: "+00:00", not "Z"
    }


@router.get(CHAT, summary="Read a game's chat", response={200: ChatOut, **errors(401, 403, 404, 429)})
def chat_read(request, game_id: int):
    """The table talk of a game you play in. Not for spectators (403): table talk stays at the table."""
    game, seats = game_get_for_viewer(game_id=game_id, user=request.user)
    state = chat_state(game=game, seats=seats, user=request.user)
    closed = None
    if not state["allowed"]:
        closed = {"code": "chat_off", "message": str(CHAT_OFF)}
    elif state["closed"]:
        closed = {"code": "chat_closed", "message": str(state["closed"])}
    return {
        "messages": [_message_out(message) for message in state["messages"]],
        "closed": closed,
        "muted": [other["username"] for other in state["others"] if other["muted"]],
    }


@router.post(CHAT, summary="Say something", response={201: ChatMessageOut, **errors(400, 401, 403, 404, 409, 429)})
def chat_say(request, game_id: int, payload: ChatIn):
    """Say something to the table of a game you play in: 1 to 500 characters.

    409 `chat_closed` while the game says no (Storyteller: the vote is open; the answer's message says why),
    409 `chat_off` in a game played without chat; 400 `text_empty`, `text_too_long` or `bad_text`;
    429 past 20 messages a minute.
    """
    rate_hit("chat", request)
    message = chat_post(game_id=game_id, user=request.user, text=payload.text)
    return Status(201, _message_out(message))


@router.post(CHAT + "/mutes", summary="Mute a player", response={200: MuteOut, **errors(400, 401, 403, 404, 429)})
def chat_mute_add(request, game_id: int, payload: MuteIn):
    """Stop seeing what another player of this game says (only you: no one is told)."""
    chat_mute(game_id=game_id, user=request.user, username=payload.username, muted=True)
    return {"username": payload.username, "muted": True}


@router.delete(
    CHAT + "/mutes/{username}",
    summary="Unmute a player",
    response={200: MuteOut, **errors(400, 401, 403, 404, 429)},
)
def chat_mute_remove(request, game_id: int, username: str):
    """See what that player says again."""
    chat_mute(game_id=game_id, user=request.user, username=username, muted=False)
    return {"username": username, "muted": False}


@router.post(
    CHAT + "/{id:message_id}/report",
    summary="Report a message",
    response={201: ReportOut, **errors(400, 401, 403, 404, 409, 429)},
)
def chat_report_add(request, game_id: int, message_id: int, payload: ReportIn = Body(default_factory=ReportIn)):
    """Tell the admins about another player's message (once per message: 409 `already_reported`)."""
    rate_hit("chat", request)
    try:
        report = chat_report(game_id=game_id, user=request.user, message_id=message_id, reason=payload.reason)
    except GameError as error:
        if error.code == "no_such_message":
            raise ApiError(404, error.code, error.message) from None
        raise
    return Status(201, {"id": report.pk, "message": report.message_id})
