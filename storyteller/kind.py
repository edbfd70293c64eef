"""Storyteller as a kind of game: its rules, and how people see it (``presentation``)."""

from django.utils.translation import gettext_lazy as _

from games.kinds import GameKind
from storyteller import actions
from storyteller.engine import rules as engine
from storyteller.presentation import StorytellerPresentation


class StorytellerKind(GameKind):
    slug = "storyteller"
    label = _("Storyteller")
    min_seats = engine.MIN_SEATS
    max_seats = engine.MAX_SEATS
    engine = engine
    presentation = StorytellerPresentation()
    # The engine's refusals, in words for a person (``games.services.errors``).
    rule_messages = {
        "not_in_hand": _("That card is not in your hand."),
        "own_card": _("You cannot vote for your own card."),
        "already_voted": _("You have already voted this round."),
        "already_submitted": _("You have already handed in your card this round."),
        "bad_position": _("There is no card at that position on the table."),
        "clue_too_long": _("That clue is too long."),
        "wrong_card_count": _("Choose the number of cards asked for."),
        "duplicate_cards": _("Choose different cards."),
        "deck_too_small": _("This deck has too few cards for this many players."),
        "clue_empty": _("Write a clue first."),
    }
    invalid_input_codes = frozenset(
        {"clue_empty", "clue_too_long", "wrong_card_count", "bad_position", "duplicate_cards"}
    )

    action_models = actions.ACTION_MODELS
    action_adapter = actions.ACTION

    def clean_options(self, options, *, max_seats):
        from .services.game import storyteller_options_clean

        return storyteller_options_clean(options, max_seats=max_seats)

    def clean_options_for(self, options, *, max_seats, creator, visibility="public"):
        from .services.game import storyteller_options_clean

        return storyteller_options_clean(options, max_seats=max_seats, creator=creator, visibility=visibility)

    def rematch_options(self, options, *, old):
        # A rematch is played on the old game's deck, whoever presses it: a player's deck goes on with its table.
        return {**options, "rematch_of": old.pk}

    def visibility_for(self, options, *, visibility, creator_id):
        # Another player's private deck: only its owner makes a public game on it (a rematch, a handed-on game).
        from .services.game import storyteller_visibility_for

        return storyteller_visibility_for(options, visibility=visibility, creator_id=creator_id)

    def new_state(self, *, game, seats, rng, now):
        from .services.game import storyteller_new_state

        return storyteller_new_state(game=game, seats=seats, rng=rng)

    def action_to_engine(self, action) -> dict:
        return actions.to_engine(action)

    def sample_action(self, state, *, seat, rng):
        if seat not in engine.to_act(state):
            return None
        hand = list(state.hands[seat])
        if state.phase in (engine.Phase.CLUE, engine.Phase.SUBMIT) and not hand:
            return None  # the engine settles what an empty hand cannot do
        if state.phase == engine.Phase.CLUE:
            return {"type": "clue", "card": rng.choice(hand), "text": f"clue {rng.randint(1, 999)}"}
        if state.phase == engine.Phase.SUBMIT:
            return {"type": "submit", "cards": rng.sample(hand, engine.cards_to_submit(state, seat))}
        own = set(state.submissions.get(seat, ()))
        positions = [p for p, c in enumerate(state.table, 1) if c not in own]
        return {"type": "vote", "position": rng.choice(positions)} if positions else None

    def bot_action(self, state, *, seat, rng, game=None):
        from .bots import storyteller_bot_action  # clues and cards related by their words (TF-IDF)

        return storyteller_bot_action(state, seat=seat, rng=rng, game=game)

    def rule_message(self, error, *, state, seats):
        if error.code == "clue_taken":
            name = next((seat.user.name for seat in seats if seat.position == state.storyteller), "?")
            return _("%(name)s gave the first clue before you: now pick a card that fits it.") % {"name": name}
        if error.code == "clue_empty" and seats:
            modes = seats[0].game.options.get("clue_modes") or ["words"]
            if set(modes) != {"words"}:  # the house rules allow a drawing or a sound instead
                return _("Write a clue, or draw or record one, first.")
        return None

    def timeout_outcomes(self, state) -> dict[int, str]:
        waiting = engine.to_act(state)
        if engine.first_clue_race(state):
            # Nobody's own turn ran out: the engine names the first present seat (seat order).
            named = (sorted(engine.present_seats(state)) or sorted(waiting) or [None])[0]
            return {named: "named_storyteller"} if named is not None else {}
        outcome = {"clue": "lost_turn", "submit": "random_card", "vote": "abstained"}.get(str(state.phase))
        return dict.fromkeys(waiting, outcome) if outcome else {}

    def phase_key(self, state) -> tuple:
        # The layout the notifications' rows were keyed on before kinds had their own.
        return (state.round, str(state.phase), state.storyteller, None)

    def record(self, *, game, before, after, now, seats=None):
        from .services.game import storyteller_record
        from .services.media import clue_given_check

        # A clue's drawing or sound and the house rules' modes, checked in its transaction: refused, nothing changes.
        clue_given_check(game=game, before=before, after=after)
        storyteller_record(game=game, before=before, after=after, now=now, seats=seats)

    def round_scored(self, state) -> bool:
        # A round whose storyteller gave no clue in time is skipped: nobody scored in it.
        return any(not result.skipped for result in state.history)

    @property
    def stats(self):
        from .stats import STORYTELLER_STATS

        return STORYTELLER_STATS

    def api_routers(self) -> list:
        from .api import router
        from .decks.api import router as decks_router

        return [router, decks_router]

    def url_patterns(self) -> list:
        from django.conf import settings
        from django.urls import include, path

        from .decks import views as decks

        return [
            path("games/", include("storyteller.urls")),  # games/<id>/clue-media/..., games/<id>/cards/report/
            path("decks/", include("storyteller.decks.urls")),  # a player's own decks
            # Nothing under MEDIA_ROOT is served by its path. The site's card pictures keep their address (a
            # card's ``image.url``), answered only for a card's own file; drawn and sung clues come through
            # their view (``storyteller:clue_media_file``), to those who may see them.
            path(f"{settings.MEDIA_URL.strip('/')}/cards/<path:name>", decks.card_picture_file, name="card_picture"),
        ]

    def load_content(self):
        from .decks.services.builtin import decks_load_builtin

        for deck, added in decks_load_builtin():
            yield f"deck {deck.slug}: {deck.cards.count()} cards ({added} added)"


KIND = StorytellerKind()
