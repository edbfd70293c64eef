from django.utils.translation import gettext_lazy as _

from games.engine.errors import RuleError


class GameError(Exception):
    """A request the game cannot carry out; nothing was changed.

    ``kind`` tells callers how to answer: "invalid" (malformed input, 400),
    "forbidden" (not yours, 403), "not_found" (404), "conflict" (not allowed
    now, 409) or "busy" (no room to do it just now: 503 with Retry-After).
    """

    def __init__(self, code: str, message, kind: str = "conflict"):
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.kind = kind


# Engine codes that mean the input itself is wrong, whatever the game's state
# (a kind adds its own: ``GameKind.invalid_input_codes``).
INVALID_INPUT_CODES = {"bad_action"}

# What the engines' common codes say to a person (a kind adds its own: ``GameKind.rule_messages``).
MESSAGES = {
    "wrong_phase": _("That is not what the game is waiting for now."),
    "not_your_turn": _("It is not your turn to do that."),
    "not_a_player": _("You do not play in this game."),
    "resigned": _("You have resigned from this game."),
    "game_finished": _("This game is over."),
    "bad_action": _("That request is not understood."),
    "paused": _("The game is paused until enough players are back."),
    "stale": _("The game has moved on since you loaded the page; look again and retry."),
    "bad_options": _("These game options are not valid."),
    "not_absent": _("You are not marked absent."),
}


def from_rule_error(error: RuleError, game_kind=None, *, message=None) -> GameError:
    """The engine's refusal, in words for a person; ``game_kind`` (a GameKind) knows its own codes;
    ``message``: words the caller found for this very refusal (``GameKind.rule_message``)."""
    own_messages = getattr(game_kind, "rule_messages", {})
    invalid = INVALID_INPUT_CODES | set(getattr(game_kind, "invalid_input_codes", ()))
    message = message or own_messages.get(error.code) or MESSAGES.get(error.code, error.message)
    return GameError(error.code, message, "invalid" if error.code in invalid else "conflict")
