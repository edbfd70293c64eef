"""Storyteller's part of the new-game form: the deck and the house rules."""

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from .models import Deck
from .services.game import HAND_SIZE_MAX, HAND_SIZE_MIN


def deck_choices(user) -> list:
    """The decks ``user`` may deal a game from, for a select: the site's, then their own and those shared
    with them (each with its cards in play); never another player's deck."""
    counted = Deck.objects.with_card_counts().order_by("name", "pk")
    site = [(deck.pk, deck.name) for deck in counted.builtin().filter(is_active=True)]
    if user is None or not user.is_authenticated:
        return site
    own, shared = [], []
    for deck in counted.filter(pk__in=Deck.objects.usable_by(user).values("pk")).select_related("owner"):
        count = deck.cards_in_play
        if deck.owner_id == user.pk:
            own.append(
                (
                    deck.pk,
                    ngettext("%(name)s (%(n)d card)", "%(name)s (%(n)d cards)", count)
                    % {"name": deck.name, "n": count},
                )
            )
        else:
            shared.append(
                (
                    deck.pk,
                    ngettext(
                        "%(name)s (%(owner)s's deck, %(n)d card)", "%(name)s (%(owner)s's deck, %(n)d cards)", count
                    )
                    % {"name": deck.name, "owner": deck.owner.name, "n": count},
                )
            )
    groups = [(_("The site's decks"), site)]
    if own:
        groups.append((_("Your decks"), own))
    if shared:
        groups.append((_("Shared with you"), shared))
    return groups if len(groups) > 1 else site


class StorytellerOptionsForm(forms.Form):
    deck = forms.TypedChoiceField(label=_("Card deck"), coerce=int, required=False, empty_value=None)
    own_cards_only = forms.BooleanField(
        label=_("Own cards only"),
        required=False,
        help_text=_(
            "With one of your decks: deal its pictures only. Without it, a deck smaller than the site's is "
            "topped up with the site's pictures."
        ),
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

    def __init__(self, *args, lang: str = "en", user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["deck"].choices = deck_choices(user)

    def clean_clue_modes(self):
        # None ticked is the usual game: clues in words.
        return self.cleaned_data.get("clue_modes") or ["words"]

    def options(self) -> dict:
        """The options for ``game_create``, from a valid form."""
        data = self.cleaned_data
        return {
            "deck": data.get("deck"),
            "own_cards_only": bool(data.get("own_cards_only")),
            "target_score": data.get("target_score"),
            "hand_size": data.get("hand_size"),
            "clue_modes": list(data["clue_modes"]),
            "chat": bool(data.get("chat")),
        }
