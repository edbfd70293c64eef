"""Odd one out as a kind of game: everything the core asks of it, in one place."""

from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.engine.errors import RuleError
from games.kinds import GameKind, KindTemplates
from games.selectors.common import (
    replay_players,
    replay_standings,
    seat_of,
    usernames,
    view_base,
    view_finish,
    view_waiting,
)
from games.services.errors import GameError

from . import actions, api
from .engine import rules as engine

# The words the rounds show: content of the game, shown through the translations.
WORDS = tuple(
    gettext_noop(word)
    for word in ("apple", "river", "lamp", "cloud", "violin", "garden", "anchor", "pepper", "mirror", "owl")
)

# What the engine's own refusals say, in the viewer's language (the core's messages cover the rest).
MESSAGES = {
    "already_picked": _("You have already picked a word this round."),
    "word_empty": _("Pick a word or write one."),
    "word_too_long": _("A word has at most 30 characters."),
}
INVALID = {"word_empty", "word_too_long"}


class OddOneOutKind(GameKind):
    slug = "odd_one_out"
    label = _("Odd one out")
    min_seats = engine.MIN_SEATS
    max_seats = engine.MAX_SEATS
    engine = engine
    templates = KindTemplates(
        play="odd_one_out/partials/play.html",
        phase="odd_one_out/partials/phase.html",
        waiting="odd_one_out/partials/waiting.html",
        reveal="odd_one_out/partials/reveal.html",
        rules="odd_one_out/rules.html",
        notification="odd_one_out/notifications/text.html",
        asked="odd_one_out/notifications/asked.txt",
        new_game="odd_one_out/partials/new_game.html",
        player_role="odd_one_out/partials/player_role.html",
        player_done="odd_one_out/partials/player_done.html",
        replay="odd_one_out/partials/replay.html",
        head="odd_one_out/partials/head.html",
        options="odd_one_out/partials/options.html",
    )
    success_messages = {"pick": _("Your word is in.")}

    action_models = actions.ACTION_MODELS
    action_adapter = actions.ACTION
    api_view = api.OddOneOutView
    api_create_options = api.OddOneOutCreateIn

    # --- a new game -------------------------------------------------------------------

    def options_form(self, data=None, *, lang, initial=None):
        from .forms import OddOneOutOptionsForm

        return OddOneOutOptionsForm(data, lang=lang, initial=initial)

    def clean_options(self, options, *, max_seats):
        rounds = options.get("rounds")
        if rounds in (None, ""):
            return {"rounds": engine.ROUNDS}
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= engine.ROUNDS_MAX:
            raise GameError("bad_options", _("Play from 1 to %(max)d rounds.") % {"max": engine.ROUNDS_MAX}, "invalid")
        return {"rounds": rounds}

    def new_state(self, *, game, seats, rng, now):
        return engine.new_game(seats=seats, rounds=game.options.get("rounds", engine.ROUNDS), words=WORDS, rng=rng)

    # --- playing ------------------------------------------------------------------------

    def action_from_post(self, post):
        if post.get("type") != "pick":
            return super().action_from_post(post)
        word = (post.get("own") or "").strip() or post.get("word", "")
        return self.action_parse({"type": "pick", "word": word, "round": post.get("round") or None}, strict=False)

    def action_to_engine(self, action) -> dict:
        return actions.to_engine(action)

    def apply(self, state, *, seat, action, rng, now):
        try:
            return super().apply(state, seat=seat, action=action, rng=rng, now=now)
        except RuleError as error:
            if error.code not in MESSAGES:
                raise
            raise GameError(
                error.code, MESSAGES[error.code], "invalid" if error.code in INVALID else "conflict"
            ) from None

    def sample_action(self, state, *, seat, rng):
        """A legal action of ``seat``, at random (random play, bots): mostly a word shown, now and then one's own."""
        if seat not in engine.to_act(state):
            return None
        word = rng.choice(state.words) if rng.random() < 0.9 else f"word {rng.randint(1, 3)}"
        return {"type": "pick", "word": word}

    # --- what people see ----------------------------------------------------------------

    def round_scored(self, state) -> bool:
        return bool(state.history)

    def view(self, *, game, seats, viewer):
        me = seat_of(seats, viewer)
        player = usernames(seats)
        view = view_base(game=game, seats=seats, me=me) | {
            "rounds": game.options.get("rounds", engine.ROUNDS),
            "words": [],
            "picked": [],
        }
        if me is not None:
            view["you"]["pick"] = None
        if game.state is None:
            return view
        state = engine.from_dict(game.state)
        view["rounds"] = state.rounds
        view["phase"] = None if state.phase == engine.Phase.FINISHED else str(state.phase)
        view["words"] = [{"word": word, "label": gettext(word)} for word in state.words]
        # Who has picked, never what: the picks are secret until the round is scored.
        view["picked"] = [player(seat) for seat in sorted(state.picks)]
        if me is not None:
            view["you"]["pick"] = state.picks.get(me.position)
        view_waiting(view, seats=seats, waiting=sorted(engine.to_act(state)))
        if state.last_round is not None:
            view["last_round"] = _round_out(state.last_round, player)
        if state.phase == engine.Phase.FINISHED:
            view_finish(view, winners=[player(seat) for seat in engine.winners(state)])
        return view

    def asked(self, state) -> str:
        return "pick"

    def revealed_rounds(self, before, after) -> list[int]:
        done = len(before.history) if before is not None else 0
        return [result.round for result in after.history[done:]]

    def replay(self, *, game, seats):
        if game.state is None:
            return None
        state = engine.from_dict(game.state)
        players = replay_players(seats)
        unknown = {"seat": None, "username": "", "name": "?", "colour": "white"}

        def player(seat):
            return players.get(seat, unknown)

        scores = [0] * state.seats
        rounds = []
        for result in state.history:
            for seat, points in result.points.items():
                scores[seat] += points
            scored = {
                "points": {str(seat): points for seat, points in result.points.items()},
                "scores_after": {str(seat): score for seat, score in enumerate(scores)},
            }
            rounds.append(
                {
                    "number": result.round,
                    "majority": result.majority,
                    "picks": [player(seat) | {"word": word} for seat, word in sorted(result.picks.items())],
                    "standings": replay_standings(scored, player),
                }
            )
        return {"game": game, "players": list(players.values()), "rounds": rounds}


def _round_out(result, player) -> dict:
    return {
        "round": result.round,
        "majority": result.majority,
        "picks": {player(seat): word for seat, word in sorted(result.picks.items())},
        "points": {player(seat): points for seat, points in sorted(result.points.items())},
    }


KIND = OddOneOutKind()
