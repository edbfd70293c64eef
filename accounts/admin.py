from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from .models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    fieldsets = BaseUserAdmin.fieldsets + ((_("Profile"), {"fields": ("display_name", "colour")}),)
    list_display = ("username", "email", "display_name", "is_staff", "date_joined")
