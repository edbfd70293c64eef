"""How people see Think Alike: its pages, texts and API view (its kind's ``presentation``)."""

from django.utils.translation import gettext_lazy as _

from games.kinds import KindPresentation, KindTemplates
from think_alike import api


class ThinkAlikePresentation(KindPresentation):
    templates = KindTemplates(
        play="think_alike/partials/play.html",
        phase="think_alike/partials/phase.html",
        waiting="think_alike/partials/waiting.html",
        reveal="think_alike/partials/round.html",
        rules="think_alike/rules.html",
        notification="think_alike/notifications/text.html",
        asked="think_alike/notifications/asked.txt",
        new_game="think_alike/partials/new_game.html",
        player_role="think_alike/partials/player_role.html",
        player_done="think_alike/partials/player_done.html",
        replay="think_alike/partials/replay.html",
        head="think_alike/partials/head.html",
        options="think_alike/partials/stop.html",
        lobby="think_alike/partials/lobby_rules.html",
    )
    timeout_texts = {
        "random_field": _("%(name)s ran out of time: a random field was laid on the board."),
        "random_setup": _("%(name)s ran out of time: the rest of the turn was played at random."),
        "no_answer": _("%(name)s ran out of time and wrote no answer."),
        "review_confirmed": _("%(name)s let the review run out: the groups were scored as they stood."),
    }
    success_messages = {
        "place_field": _("Your field is on the board."),
        "answer": _("Your answers are in."),
        "merge": _("The groups are merged."),
        "split": _("The group is split."),
        "confirm": _("The round is scored."),
        "rejoin": _("Welcome back."),
    }

    api_view = api.ThinkAlikeView
    api_create_options = api.ThinkAlikeCreateIn

    def options_form(self, data=None, *, lang, initial=None):
        from .forms import ThinkAlikeOptionsForm

        return ThinkAlikeOptionsForm(data, lang=lang, initial=initial)

    def view(self, *, game, seats, viewer):
        from .selectors import think_alike_view

        return think_alike_view(game=game, seats=seats, viewer=viewer)

    def round_number(self, result) -> int:
        return result.number

    def score_track(self, view) -> int | None:
        # A track to the target when the game stops at a score; other stops have no end on it.
        stop = view.get("stop") or {}
        return stop.get("target") if stop.get("stop") == "points" else None

    def replay(self, *, game, seats):
        from .replay import think_alike_replay

        return think_alike_replay(game=game, seats=seats)

    def showcase(self, *, lang: str) -> dict:
        from .showcase import showcase

        return showcase(lang=lang)

    def rules_context(self, *, lang: str) -> dict:
        from .rules_example import rules_context

        return rules_context(lang=lang)
