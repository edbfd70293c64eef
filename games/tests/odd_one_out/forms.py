"""Odd one out's part of the new-game form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .engine import rules


class OddOneOutOptionsForm(forms.Form):
    rounds = forms.IntegerField(
        label=_("Rounds"), min_value=1, max_value=rules.ROUNDS_MAX, initial=rules.ROUNDS, required=False
    )

    def __init__(self, *args, lang: str = "en", **kwargs):
        super().__init__(*args, **kwargs)
