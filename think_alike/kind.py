"""Think Alike as a kind of game: its rules, and how people see it (``presentation``)."""

from django.utils.translation import gettext_lazy as _

from games.kinds import GameKind
from think_alike import actions, api
from think_alike.engine import rules as engine
from think_alike.presentation import ThinkAlikePresentation


class ThinkAlikeKind(GameKind):
    slug = "think_alike"
    label = _("Think Alike")
    min_seats = engine.MIN_SEATS
    max_seats = engine.MAX_SEATS
    timed = True  # a game may end at a time limit
    engine = engine
    presentation = ThinkAlikePresentation()
    # The engine's refusals, in words for a person (``games.services.errors``).
    rule_messages = {
        "bad_seats": _("This game is for 3 to 10 players."),
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
    }
    invalid_input_codes = frozenset({"bad_answer", "answer_too_long", "wrong_answer_count", "bad_merge"})

    action_models = actions.ACTION_MODELS
    action_adapter = actions.ACTION

    def clean_options(self, options, *, max_seats):
        from .services.game import think_alike_options_clean

        return think_alike_options_clean(options, max_seats=max_seats)

    def new_state(self, *, game, seats, rng, now):
        from .services.game import think_alike_new_state

        return think_alike_new_state(game=game, seats=seats, rng=rng)

    def action_from_post(self, post):
        from games.actions import form_data

        data = form_data(self.action_models, post)
        if data.get("type") == "split":
            data["items"] = actions.form_items(data["items"])
        return self.action_parse(data, strict=False)

    def action_to_engine(self, action) -> dict:
        return actions.to_engine(action)

    def sample_action(self, state, *, seat, rng):
        if seat not in engine.to_act(state):
            return None
        phase, unused = state.phase, engine.unused_fields(state)
        if phase == engine.Phase.ANSWER:
            wanted = engine.task(state, state.current.task).answers
            return {"type": "answer", "answers": [rng.choice(["sun", "moon", "tree", ""]) for _ in range(wanted)]}
        if phase == engine.Phase.DRAFT and unused:
            return {"type": "place_field", "field": rng.choice(unused)}
        if phase == engine.Phase.MOVE:
            return {"type": "move", "direction": rng.choice(engine.DIRECTIONS)}
        if phase == engine.Phase.SWAP and unused:
            removable = [f for f in state.board if not engine.field(state, f).start]
            return {"type": "swap", "remove": rng.choice(removable), "add": rng.choice(unused)}
        if phase == engine.Phase.MOVE_TO:
            others = [p for p in range(engine.BOARD_SIZE) if p != state.token]
            return {"type": "move_to", "position": rng.choice(others)}
        if phase == engine.Phase.DUEL:
            opponents = [s for s in range(state.seats) if s != seat and s not in state.resigned]
            positions = engine.association_positions(state)
            if not opponents:
                return None
            return {"type": "duel", "opponent": rng.choice(opponents), "position": rng.choice(positions or [None])}
        simple = {engine.Phase.ROLL: "roll", engine.Phase.REVIEW: "confirm"}
        return {"type": simple[phase]} if phase in simple else None

    def bot_action(self, state, *, seat, rng, game=None):
        from .bots import think_alike_bot_action  # the answers people gave most to the task before

        return think_alike_bot_action(state, seat=seat, rng=rng, game=game)

    def timeout_outcomes(self, state) -> dict[int, str]:
        phase = state.phase
        if phase == engine.Phase.DRAFT:
            outcome = "random_field"
        elif phase in engine.TURN_HOLDER_PHASES:
            outcome = "random_setup"
        elif phase == engine.Phase.ANSWER:
            outcome = "no_answer"
        elif phase == engine.Phase.REVIEW:
            outcome = "review_confirmed"
        else:
            return {}
        return dict.fromkeys(engine.to_act(state), outcome)

    def phase_key(self, state) -> tuple:
        # The layout the notifications' rows were keyed on before kinds had their own;
        # each placing of the board draft is a phase of its own, with its own deadline.
        key = (state.round, str(state.phase), None, state.turn)
        return key if state.drafter is None else (*key, state.drafter)

    def record(self, *, game, before, after, now, seats=None):
        from .services.game import think_alike_record

        think_alike_record(game=game, before=before, after=after, now=now)

    def round_scored(self, state) -> bool:
        return bool(state.history)  # every scored round, and only those

    def api_routers(self) -> list:
        return [api.router]

    @property
    def stats(self):
        from .stats import THINK_ALIKE_STATS

        return THINK_ALIKE_STATS

    def load_content(self):
        from .services.content import content_load_builtin

        for name, loaded in content_load_builtin().items():
            filled = f", {loaded.updated} given the languages they lacked" if loaded.updated else ""
            yield f"think alike {name}: {loaded.created} added, {loaded.unchanged} already there{filled}"


KIND = ThinkAlikeKind()
