from django.utils.translation import gettext_lazy as _

from games.engine.errors import RuleError


class GameError(Exception):
    """A request the game cannot carry out; nothing was changed.

    ``kind`` tells callers how to answer: "invalid" (malformed input, 400),
    "forbidden" (not yours, 403), "not_found" (404) or "conflict" (not allowed
    now, 409).
    """

    def __init__(self, code: str, message, kind: str = "conflict"):
        super().__init__(str(message))
        self.code = code
        self.message = message
        self.kind = kind


# Engine codes that mean the input itself is wrong, whatever the game's state.
INVALID_INPUT_CODES = {
    "bad_action",
    "clue_empty",
    "clue_too_long",
    "wrong_card_count",
    "bad_position",
    "bad_answer",
    "answer_too_long",
    "duplicate_cards",
    "wrong_answer_count",
    "bad_merge",
}

MESSAGES = {
    "wrong_phase": _("That is not what the game is waiting for now."),
    "not_your_turn": _("It is not your turn to do that."),
    "not_in_hand": _("That card is not in your hand."),
    "own_card": _("You cannot vote for your own card."),
    "already_voted": _("You have already voted this round."),
    "already_submitted": _("You have already handed in your card this round."),
    "bad_position": _("There is no card at that position on the table."),
    "clue_empty": _("Write a clue first."),
    "clue_too_long": _("That clue is too long."),
    "wrong_card_count": _("Choose the number of cards asked for."),
    "not_a_player": _("You do not play in this game."),
    "resigned": _("You have resigned from this game."),
    "game_finished": _("This game is over."),
    "bad_action": _("That request is not understood."),
    "duplicate_cards": _("Choose different cards."),
    "deck_too_small": _("This deck has too few cards for this many players."),
    "paused": _("The game is paused until enough players are back."),
    "stale": _("The game has moved on since you loaded the page; look again and retry."),
    # The board, task cards and answers
    "bad_seats": _("This game is for 3 to 10 players."),
    "bad_options": _("These game options are not valid."),
    "bad_fields": _("There are not enough board fields in play for a board of 16."),
    "bad_tasks": _("There are no task cards in play."),
    "field_in_use": _("That field is already on the board."),
    "unknown_field": _("There is no such field."),
    "not_on_board": _("That field is not on the board."),
    "start_field": _("The start field stays on the board."),
    "same_position": _("Move the token to another field."),
    "not_association": _("Move the token to an association field."),
    "bad_opponent": _("Challenge another player who is still in the game."),
    "already_answered": _("You have already answered."),
    "wrong_answer_count": _("Give as many answers as the task card asks for."),
    "answer_too_long": _("An answer has at most 60 characters."),
    "unknown_group": _("There is no such group of answers."),
    "bad_merge": _("Tick at least two groups to merge."),
    "bad_split": _("Tick some, not all, of the group's answers to split them off."),
    "not_absent": _("You are not marked absent."),
}


def from_rule_error(error: RuleError) -> GameError:
    kind = "invalid" if error.code in INVALID_INPUT_CODES else "conflict"
    return GameError(error.code, MESSAGES.get(error.code, error.message), kind)
