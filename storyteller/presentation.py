"""How people see Storyteller: its pages, texts and API view (its kind's ``presentation``)."""

from django.utils.translation import gettext_lazy as _

from games.kinds import KindPresentation, KindTemplates
from storyteller import api
from storyteller.engine import rules as engine


class StorytellerPresentation(KindPresentation):
    templates = KindTemplates(
        play="storyteller/partials/play.html",
        phase="storyteller/partials/phase.html",
        waiting="storyteller/partials/waiting.html",
        reveal="storyteller/partials/reveal.html",
        rules="storyteller/rules.html",
        notification="storyteller/notifications/text.html",
        asked="storyteller/notifications/asked.txt",
        missed="storyteller/notifications/missed.txt",
        new_game="storyteller/partials/new_game.html",
        player_role="storyteller/partials/player_role.html",
        player_done="storyteller/partials/player_done.html",
        replay="storyteller/partials/replay.html",
        options="storyteller/partials/options.html",
        head="storyteller/partials/head.html",
        lobby="storyteller/partials/lobby_rules.html",
    )
    timeout_texts = {
        "named_storyteller": _("Nobody gave the first clue in time: %(name)s became the storyteller, by seat order."),
        "lost_turn": _("%(name)s ran out of time and lost the turn as storyteller."),
        "random_card": _("%(name)s ran out of time: a card was drawn at random from their hand."),
        "abstained": _("%(name)s ran out of time and did not vote."),
    }
    success_messages = {
        "clue": _("Your clue is given."),
        "submit": _("Your card is handed in."),
        "vote": _("Your vote is cast."),
    }

    api_view = api.StorytellerView
    api_create_options = api.StorytellerCreateIn

    def options_form(self, data=None, *, lang, initial=None):
        return self.options_form_for(data, lang=lang, initial=initial, user=None)

    def options_form_for(self, data=None, *, lang, user, initial=None):
        from .forms import StorytellerOptionsForm

        return StorytellerOptionsForm(data, lang=lang, initial=initial, user=user)

    def view(self, *, game, seats, viewer):
        from .selectors import storyteller_view

        return storyteller_view(game=game, seats=seats, viewer=viewer)

    def asked(self, state) -> str:
        phase = str(state.phase)
        if phase == "clue" and state.storyteller is None:
            return "first_clue"
        return phase

    def round_number(self, result) -> int | None:
        return None if result.skipped else result.round  # a round skipped showed nothing

    def replay(self, *, game, seats):
        from .replay import storyteller_replay

        return storyteller_replay(game=game, seats=seats)

    def score_track(self, view) -> int:
        # The box's track runs to 30; a target score (house rule) is where this game ends.
        return (view.get("options") or {}).get("target_score") or 30

    def chat_closed(self, state):
        # Seed 001: no talking while the secret vote is open.
        if state.phase == engine.Phase.VOTE:
            return _("The table is silent while the votes are open.")
        return None

    def showcase(self, *, lang: str) -> dict:
        from .showcase import showcase

        return showcase()

    def rules_context(self, *, lang: str) -> dict:
        from .rules_example import rules_context

        return rules_context()
