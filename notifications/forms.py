from django import forms
from django.utils.translation import gettext_lazy as _

from .models import EmailPreferences

LETTER_HOURS = [("", _("Off: an email per turn, as chosen above"))] + [(hour, f"{hour:02d}:00") for hour in range(24)]


class EmailPreferencesForm(forms.ModelForm):
    # One letter a day at this hour of the person's own clock (notifications.letters); off by default. An hour
    # inside their quiet hours is taken as it is: the letter is their own choice (docs/playing/notifications.md).
    daily_letter_hour = forms.TypedChoiceField(
        label=_("One letter a day at this hour instead of an email per turn"),
        choices=LETTER_HOURS,
        coerce=int,
        empty_value=None,
        required=False,
        help_text=_(
            "On your own clock (your time zone on your profile). The letter lists every game waiting for you and "
            "the games that ended since the last one; it comes at this hour even inside your quiet hours."
        ),
    )

    class Meta:
        model = EmailPreferences
        fields = ("turn_emails", "reminder_emails", "rematch_emails", "daily_letter_hour")
