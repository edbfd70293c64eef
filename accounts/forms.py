from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from . import clock
from .models import User
from .selectors import name_taken
from .text import TextRefused, text_clean

NAME_TAKEN = _("Another player has this name, or one that looks the same. Choose another.")


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=True, help_text=_("For password resets and, if you want, turn reminders.")
    )

    # Filled by the browser (accounts/static/js/time-zone.js): its IANA zone; anything else is UTC.
    time_zone = forms.CharField(
        required=False, max_length=64, widget=forms.HiddenInput(attrs={"data-browser-time-zone": ""})
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_time_zone(self):
        name = self.cleaned_data.get("time_zone") or ""
        return name if clock.is_zone_name(name) else "UTC"

    def save(self, commit=True):
        self.instance.time_zone = self.cleaned_data.get("time_zone") or "UTC"
        return super().save(commit=commit)

    def clean_username(self):
        username = super().clean_username()
        # Without a display name the username is the shown name: no two may look alike.
        if username and name_taken(name=username):
            raise forms.ValidationError(NAME_TAKEN, code="unique")
        return username

    def clean_email(self):
        email = self.cleaned_data["email"].strip()
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("An account with this email already exists."))
        return email


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ("display_name", "colour")
        widgets = {"colour": forms.RadioSelect}

    def clean_display_name(self):
        try:  # the one policy for what others read (clues and answers too)
            name = " ".join(text_clean(self.cleaned_data["display_name"]).split())
        except TextRefused as refused:
            raise forms.ValidationError(refused.message, code="bad_text") from None
        if name_taken(name=name or self.instance.username, user=self.instance):
            if name:
                raise forms.ValidationError(NAME_TAKEN, code="unique")
            raise forms.ValidationError(
                _("Another player's name looks like your username: choose a display name."), code="unique"
            )
        return name


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, so you can tell your tokens apart (for example: my bot)."),
    )

    def clean_name(self):
        try:  # the API's token name is ``FreeText``: the same policy here
            return text_clean(self.cleaned_data["name"]).strip()
        except TextRefused as refused:
            raise forms.ValidationError(refused.message, code="bad_text") from None


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text=_("To be sure it is you."),
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="password_incorrect")
        return password


class TimeForm(forms.Form):
    """Your time (issue 38): the time zone, quiet hours (or none), and away until (or not)."""

    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        help_text=_("An IANA name such as Europe/Paris: every time on the pages and in emails is shown in it."),
    )
    quiet = forms.BooleanField(
        label=_("Quiet hours"),
        required=False,
        help_text=_("No push or email reaches you then, and no deadline of an asynchronous game ends in them."),
    )
    quiet_start = forms.TimeField(label=_("Quiet from"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    quiet_end = forms.TimeField(label=_("Quiet until"), required=False, widget=forms.TimeInput(attrs={"type": "time"}))
    away_until = forms.DateTimeField(
        label=_("Away until"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "In your asynchronous games, a phase waiting on you does not run out while you are away: at most 30 days "
            "at once and 60 in a year. Leave it empty when you are back."
        ),
    )

    def clean_time_zone(self):
        name = self.cleaned_data["time_zone"].strip()
        if not clock.is_zone_name(name):
            raise forms.ValidationError(
                _("That is not a time zone name such as Europe/Paris or America/New_York."), code="bad_time_zone"
            )
        return name

    def clean(self):
        data = super().clean()
        if data.get("away_until") is not None and data.get("time_zone"):
            # The wall time typed is read in the zone chosen in the same form (the page's may be the old one).
            naive = timezone.make_naive(data["away_until"])
            data["away_until"] = timezone.make_aware(naive, clock.zone(data["time_zone"]))
        if data.get("quiet") and (data.get("quiet_start") is None or data.get("quiet_end") is None):
            raise forms.ValidationError(_("Give the start and the end of your quiet hours."), code="bad_quiet_hours")
        return data
