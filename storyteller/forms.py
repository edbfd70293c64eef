"""Storyteller's part of the new-game form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Deck


class StorytellerOptionsForm(forms.Form):
    deck = forms.ModelChoiceField(
        label=_("Card deck"), queryset=Deck.objects.filter(is_active=True), required=False, empty_label=None
    )
    target_score = forms.IntegerField(
        label=_("House rule: also end when someone reaches this score"),
        min_value=5,
        max_value=100,
        required=False,
    )

    def __init__(self, *args, lang: str = "en", **kwargs):
        super().__init__(*args, **kwargs)

    def options(self) -> dict:
        """The options for ``game_create``, from a valid form."""
        data = self.cleaned_data
        return {"deck": data["deck"].pk if data.get("deck") else None, "target_score": data.get("target_score")}
