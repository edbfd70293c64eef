"""A template's whole numbers, rendered without asking the locale five times each.

Django renders each ``{{ value }}`` through ``localize``; a whole number goes on to
``number_format``, which looks up the active language and three of its formats (the
decimal separator, the grouping, the thousands separator) before ``numberformat.format``
finds, in its first lines, that a whole number without grouping is just its digits. A
board shows a hundred or so numbers (scores, seats, cards, rounds): in-process that was
about 1.2 ms of an action with its three boards, some 7% of it.

``install()`` gives the template engine a ``localize`` that answers a plain ``int`` with
its digits at once whenever Django's would (no thousands separator asked for, which is
this site's setting), and hands everything else (booleans, floats, decimals, dates, and
any number when ``USE_THOUSAND_SEPARATOR`` is on) to Django's own.
"""

from django.conf import settings
from django.template import base
from django.utils import formats


def localize(value, use_l10n=None):
    """``django.utils.formats.localize``, with a plain ``int`` (not a ``bool``) rendered as its digits when no
    thousands separator is asked for: what ``number_format`` then gives."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return formats.localize(value, use_l10n=use_l10n)


def install() -> None:
    """Render templates' values with ``localize`` above (``GamesConfig.ready`` calls it)."""
    base.localize = localize
