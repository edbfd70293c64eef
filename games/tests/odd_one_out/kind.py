"""Odd one out as a kind of game: its rules, and how people see it (``presentation``)."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from games.engine.errors import RuleError
from games.kinds import GameKind
from games.services.errors import GameError

from . import actions
from .engine import rules as engine
from .presentation import OddOneOutPresentation

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
    presentation = OddOneOutPresentation()
    action_models = actions.ACTION_MODELS
    action_adapter = actions.ACTION

    # --- a new game -------------------------------------------------------------------

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

    def round_scored(self, state) -> bool:
        return bool(state.history)


KIND = OddOneOutKind()
