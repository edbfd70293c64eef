"""How people see Odd one out: its pages, texts and API view (its kind's ``presentation``)."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from games.kinds import KindPresentation, KindTemplates
from games.selectors.common import (
    replay_player_of,
    replay_players,
    replay_standings,
    seat_of,
    usernames,
    view_base,
    view_finish,
    view_waiting,
)

from . import api
from .engine import rules as engine


class OddOneOutPresentation(KindPresentation):
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

    api_view = api.OddOneOutView
    api_create_options = api.OddOneOutCreateIn

    def options_form(self, data=None, *, lang, initial=None):
        from .forms import OddOneOutOptionsForm

        return OddOneOutOptionsForm(data, lang=lang, initial=initial)

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

    def replay(self, *, game, seats):
        if game.state is None:
            return None
        state = engine.from_dict(game.state)
        players = replay_players(seats)
        player = replay_player_of(players)

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
