from django import template
from django.conf import settings
from django.template.defaultfilters import floatformat
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, ngettext

from games import kinds
from stats import ratings
from stats.charts import Series, bar_chart, line_chart

register = template.Library()


@register.filter
def percent(value) -> str:
    """0.456 -> "46%", in the page's number format; "" for no value."""
    if value is None:
        return ""
    return f"{floatformat(value * 100, 0)}%"


@register.filter
def rating(conservative) -> str:
    """The rating people read (``ratings.shown``) from the conservative estimate (a board's value); "" for none."""
    return "" if conservative is None else str(ratings.shown(conservative))


@register.simple_tag
def rating_shown(value, *, mu=None, sigma=None, games=None) -> SafeString:
    """A rating as people read it (``value``: ``ratings.shown``'s number): "provisional" beside it until
    enough games, and the estimate it comes from (μ, σ) in its tooltip."""
    if value in (None, ""):
        return format_html("")
    title = ""
    if mu not in (None, "") and sigma not in (None, ""):
        title = gettext("Estimated skill μ %(mu)s, uncertainty σ %(sigma)s: the rating is μ − 3σ, times %(scale)s.") % {
            "mu": floatformat(mu, 1),
            "sigma": floatformat(sigma, 1),
            "scale": ratings.DISPLAY_SCALE,
        }
    provisional = games not in (None, "") and int(games) < settings.FABULA_RATING_PROVISIONAL_GAMES
    return format_html(
        '<span class="rating"{}>{}</span>{}',
        format_html(' title="{}"', title) if title else "",
        value,
        format_html(' <span class="badge muted provisional">{}</span>', gettext("provisional")) if provisional else "",
    )


@register.filter
def kind_label(kind: str) -> str:
    game_kind = kinds.get(kind)
    return game_kind.label if game_kind is not None else kind


# --- charts (``stats.charts``): the words around the numbers ---------------------------


@register.simple_tag
def replay_chart(scores: dict, game_id: int) -> str:
    """The line chart of each player's score, round by round, of a replay (``selectors.replay_scores``)."""
    if not scores["rows"]:
        return ""
    last = scores["rows"][-1]
    standing = ", ".join(f"{player['name']} {score}" for player, score in zip(scores["players"], last["scores"]))
    chart = line_chart(
        id=f"scores-{game_id}",
        title=gettext("Scores round by round"),
        summary=gettext("Each player's score after each round. After round %(round)s: %(scores)s.")
        % {"round": last["number"], "scores": standing},
        x_label=gettext("Round"),
        y_label=gettext("Score"),
        x=scores["x"],
        series=scores["series"],
    )
    return chart.svg() if chart else ""


@register.simple_tag
def rating_chart(profile, name: str) -> str:
    """The line chart of a player's rating after each of their latest games of a kind (``KindProfile.history``)."""
    history = profile.history
    if history is None or not history.games:
        return ""
    games = history.games
    chart = line_chart(
        id=f"rating-{profile.kind}",
        title=gettext("Rating over the latest games"),
        summary=ngettext(
            "Rating from %(first)s before this game to %(last)s after it.",
            "Rating from %(first)s before the first of these %(games)s games to %(last)s after the last.",
            len(games),
        )
        % {
            "first": history.rating_before,
            "games": len(games),
            "last": games[-1]["rating"],
        },
        x_label=gettext("Game, oldest to newest"),
        y_label=gettext("Rating"),
        x=[0, *(game["number"] for game in games)],
        series=[Series(name=name, values=[history.rating_before, *(game["rating"] for game in games)])],
        integer=False,
    )
    return chart.svg() if chart else ""


@register.simple_tag
def points_chart(profile) -> str:
    """The bar chart of a player's points per round in each of their latest games of a kind."""
    history = profile.history
    if history is None or not history.games:
        return ""
    games = history.games
    values = [game["points_per_round"] or 0 for game in games]
    chart = bar_chart(
        id=f"points-{profile.kind}",
        title=gettext("Points per round, game by game"),
        summary=ngettext(
            "Points per round in the latest game: %(high)s.",
            "Points per round in each of the latest %(games)s games: from %(low)s to %(high)s.",
            len(games),
        )
        % {"games": len(games), "low": floatformat(min(values), 2), "high": floatformat(max(values), 2)},
        x_label=gettext("Game, oldest to newest"),
        y_label=gettext("Points per round"),
        x=[game["number"] for game in games],
        values=values,
    )
    return chart.svg() if chart else ""
