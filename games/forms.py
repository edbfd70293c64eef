from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import Deck, Game


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


class GameCreateForm(forms.Form):
    max_seats = forms.TypedChoiceField(
        label=_("Players"), coerce=int, initial=4, choices=[(n, str(n)) for n in range(3, 7)]
    )
    pace = forms.ChoiceField(
        label=_("Pace"), choices=Game.Pace.choices, initial=Game.Pace.ASYNC, widget=forms.RadioSelect
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
    deck = forms.ModelChoiceField(
        label=_("Card deck"), queryset=Deck.objects.filter(is_active=True), required=False, empty_label=None
    )
    target_score = forms.IntegerField(
        label=_("House rule: also end when someone reaches this score"),
        min_value=5,
        max_value=100,
        required=False,
    )
