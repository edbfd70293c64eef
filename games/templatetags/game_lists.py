"""Pieces of the game lists ("My games") that repeat for every player of every row.

Made in Python, not a template loop: one row of "My games" names up to eight players, each with
an avatar, a score and a mark for who is to act, and a page has 20 rows; as template tags that was
most of the page's cost. The markup is the same as the loop it replaces."""

from django import template
from django.utils.formats import localize
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from accounts.avatars import AvatarSymbols, table_letters

from .fabula import icon

register = template.Library()


# Where a list's avatars are kept until ``{% avatar_symbols %}`` draws them, once each.
SYMBOLS = "game_lists.avatar_symbols"


def _symbols(context) -> AvatarSymbols:
    return context.render_context.setdefault(SYMBOLS, AvatarSymbols())


@register.simple_tag(takes_context=True)
def player_chips(context, game) -> SafeString:
    """The players of ``game`` (its prefetched seats, with their users) as chips: avatar, name, the
    score once the game has begun, and who is to act. Each avatar points at its drawing, which
    ``{% avatar_symbols %}`` puts in the list once, after the rows."""
    symbols = _symbols(context)
    scored = game.status != "open"
    to_act: SafeString | None = None
    chips = []
    seats = list(game.seats.all())
    letters = table_letters(tuple(str(seat.user.name) for seat in seats))
    for seat, seat_letters in zip(seats, letters):
        user = seat.user
        name = str(user.name)
        classes = "player-chip" + (" acting" if seat.to_act else "") + (" winner" if seat.is_winner else "")
        avatar = symbols.use(
            key=str(user.username),
            name=name,
            colour=str(seat.colour or ""),
            shape=int(seat.position),
            size=20,
            css_class="avatar avatar-chip",
            letters=seat_letters,
        )
        score = f" · {conditional_escape(localize(seat.score))}" if scored else ""
        if seat.to_act and to_act is None:
            to_act = format_html(' <span class="sr-only">{}</span>{}', _("(to act)"), icon("hourglass"))
        mark = to_act if seat.to_act else ""
        chips.append(f'<span class="{classes}">{avatar}{conditional_escape(name)}{score}{mark}</span>')
    return mark_safe("".join(chips))  # noqa: S308 (every part escaped above)


@register.simple_tag(takes_context=True)
def avatar_symbols(context) -> SafeString:
    """The drawings of the avatars ``player_chips`` used above in this template, once each."""
    return _symbols(context).symbols()
