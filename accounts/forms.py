from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _

from .models import User


class SignUpForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"), required=True, help_text=_("For password resets and, if you want, turn reminders.")
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

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
        name = " ".join(self.cleaned_data["display_name"].split())
        if any(not ch.isprintable() for ch in name):
            raise forms.ValidationError(_("Use letters, digits, spaces and punctuation only."))
        return name


class ApiTokenForm(forms.Form):
    name = forms.CharField(
        label=_("Name"),
        max_length=60,
        help_text=_("What the token is for, so you can tell your tokens apart (for example: my bot)."),
    )
