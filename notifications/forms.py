from django import forms

from .models import EmailPreferences


class EmailPreferencesForm(forms.ModelForm):
    class Meta:
        model = EmailPreferences
        fields = ("turn_emails", "reminder_emails", "rematch_emails")
