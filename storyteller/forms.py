"""Storyteller's part of the new-game form: the deck and the house rules."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Deck
from .services.game import HAND_SIZE_MAX, HAND_SIZE_MIN


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
    hand_size = forms.IntegerField(
        label=_("House rule: cards in a hand"),
        min_value=HAND_SIZE_MIN,
        max_value=HAND_SIZE_MAX,
        required=False,
        help_text=_("Leave it empty for the usual: 6, or 7 with three players."),
    )
    clue_modes = forms.MultipleChoiceField(
        label=_("Clues may be"),
        choices=[("words", _("words")), ("drawing", _("drawn")), ("sound", _("sung or a sound (recorded)"))],
        initial=["words"],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_(
            "The rule sheets' mime or song variant: a drawing or a short recording beside or instead of words."
        ),
    )
    chat = forms.BooleanField(label=_("Table talk (chat, closed during the vote)"), initial=True, required=False)

    def __init__(self, *args, lang: str = "en", **kwargs):
        super().__init__(*args, **kwargs)

    def clean_clue_modes(self):
        # None ticked is the usual game: clues in words.
        return self.cleaned_data.get("clue_modes") or ["words"]

    def options(self) -> dict:
        """The options for ``game_create``, from a valid form."""
        data = self.cleaned_data
        return {
            "deck": data["deck"].pk if data.get("deck") else None,
            "target_score": data.get("target_score"),
            "hand_size": data.get("hand_size"),
            "clue_modes": list(data["clue_modes"]),
            "chat": bool(data.get("chat")),
        }
