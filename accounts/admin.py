from django import forms
from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm
from django.utils.translation import gettext_lazy as _

from .forms import NAME_TAKEN
from .models import User
from .selectors import name_taken


class AdminUserChangeForm(UserChangeForm):
    def clean(self):
        cleaned = super().clean()
        name = cleaned.get("display_name") or cleaned.get("username")
        if name and name_taken(name=name, user=self.instance):
            field = "display_name" if cleaned.get("display_name") else "username"
            self.add_error(field, forms.ValidationError(NAME_TAKEN, code="unique"))
        return cleaned


class AdminUserAddForm(AdminUserCreationForm):
    def clean_username(self):
        username = super().clean_username()
        if username and name_taken(name=username):
            raise forms.ValidationError(NAME_TAKEN, code="unique")
        return username


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    form = AdminUserChangeForm
    add_form = AdminUserAddForm
    fieldsets = BaseUserAdmin.fieldsets + ((_("Profile"), {"fields": ("display_name", "colour", "deleted_at")}),)
    readonly_fields = ("deleted_at",)
    list_display = ("username", "email", "display_name", "is_staff", "date_joined", "deleted_at")
