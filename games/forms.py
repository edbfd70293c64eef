from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from games import kinds

from .models import Game


def _phase_choices():
    hours = settings.FABULA_ASYNC_PHASE_CHOICES_HOURS
    labels = []
    for h in hours:
        if h % 24 == 0:
            days = h // 24
            labels.append((h, _("%(n)d day") % {"n": days} if days == 1 else _("%(n)d days") % {"n": days}))
        else:
            labels.append((h, _("%(n)d hour") % {"n": h} if h == 1 else _("%(n)d hours") % {"n": h}))
    return labels


def _seat_choices():
    kinds_ = kinds.every()
    low = min((kind.min_seats for kind in kinds_), default=3)
    high = max((kind.max_seats for kind in kinds_), default=10)
    return [(n, str(n)) for n in range(low, high + 1)]


def _seats_help():
    return "; ".join(
        _("%(kind)s: %(min)d to %(max)d") % {"kind": kind.label, "min": kind.min_seats, "max": kind.max_seats}
        for kind in kinds.every()
    )


class GameCreateForm(forms.Form):
    """What every kind of game asks on creation; each kind's options come in a form of its own."""

    kind = forms.ChoiceField(label=_("Game"), choices=kinds.choices, required=False, widget=forms.RadioSelect)
    max_seats = forms.TypedChoiceField(label=_("Players"), coerce=int, initial=4, choices=_seat_choices)
    pace = forms.ChoiceField(
        label=_("Pace"), choices=Game.Pace.choices, initial=Game.Pace.ASYNC, widget=forms.RadioSelect
    )
    with_bots = forms.BooleanField(
        label=_("Bots take the empty seats: the game starts at once"),
        required=False,
        help_text=_("Leave it unticked to wait for people to join."),
    )
    phase_hours = forms.TypedChoiceField(
        label=_("Time for each phase (asynchronous games)"), coerce=int, initial=24, choices=_phase_choices
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=[
            (Game.Visibility.PUBLIC, _("Anyone, from the lobby")),
            (Game.Visibility.PRIVATE, _("Only people with the invite link")),
        ],
        initial=Game.Visibility.PUBLIC,
        widget=forms.RadioSelect,
    )

    time_bank_hours = forms.IntegerField(
        label=_("Time bank of each player, in hours (asynchronous games)"),
        min_value=0,
        max_value=72,
        required=False,  # empty: the default (FABULA_TIME_BANK_HOURS_DEFAULT)
        help_text=_("A missed deadline draws on the late player's bank before the game moves on without them."),
    )
    min_reliability = forms.IntegerField(
        label=_("Only players who finish at least this share of their games (%)"),
        min_value=0,
        max_value=100,
        required=False,
        help_text=_("Over the last 12 months. Players with fewer than 5 finished games may always join."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kind"].initial = kinds.default_slug()
        self.fields["time_bank_hours"].initial = settings.FABULA_TIME_BANK_HOURS_DEFAULT
        self.fields["max_seats"].help_text = _seats_help()

    def chosen_kind(self) -> kinds.GameKind:
        """The kind chosen (the default one if none), from a valid form."""
        return kinds.get(self.cleaned_data.get("kind") or kinds.default_slug())
