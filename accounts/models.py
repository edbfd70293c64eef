import datetime

from django.contrib.auth.models import AbstractUser
from django.contrib.auth.models import UserManager as BaseUserManager
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from .names import KEY_MAX_LENGTH, name_key


class Colour(models.TextChoices):
    """The seeds' rabbit colours on the score track."""

    RED = "red", _("Red")
    ORANGE = "orange", _("Orange")
    YELLOW = "yellow", _("Yellow")
    GREEN = "green", _("Green")
    BLUE = "blue", _("Blue")
    PURPLE = "purple", _("Purple")
    PINK = "pink", _("Pink")
    WHITE = "white", _("White")


COLOUR_HEX = {
    Colour.RED: "#d64545",
    Colour.ORANGE: "#e8883a",
    Colour.YELLOW: "#e6c229",
    Colour.GREEN: "#3fa36b",
    Colour.BLUE: "#3b7dd8",
    Colour.PURPLE: "#8a5cc7",
    Colour.PINK: "#e06fa8",
    Colour.WHITE: "#e9e4da",
}


# A deleted account's username: "~" is no username's (none can be signed up as it).
DELETED_USERNAME_PREFIX = "~deleted-"


def is_deleted_username(username) -> bool:
    """Whether ``username`` is a deleted account's (a view's players carry usernames, not users)."""
    return str(username).startswith(DELETED_USERNAME_PREFIX)


class UserManager(BaseUserManager):
    def get_by_natural_key(self, username):
        # Log-in and the API's tokens find the account as sign-up named it: in NFKC, so a
        # username typed in full-width letters is the one signed up with.
        return super().get_by_natural_key(self.model.normalize_username(username))


class User(AbstractUser):
    display_name = models.CharField(_("display name"), max_length=40, blank=True)
    colour = models.CharField(_("colour"), max_length=10, choices=Colour.choices, default=Colour.BLUE)
    # The shown name (``name``) folded (accounts.names): unique, so no player can pass for
    # another. None for a deleted account.
    name_key = models.CharField(max_length=KEY_MAX_LENGTH, unique=True, null=True, blank=True, editable=False)
    # Set when the person deleted their account: the row stays, emptied of everything
    # personal, so the seats of finished games still point somewhere ("deleted player").
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True, editable=False)
    # A bot (the bots app) fills an empty seat and plays by itself; it never signs in
    # (no usable password) and stays off the leaderboards.
    is_bot = models.BooleanField(_("bot"), default=False, editable=False)
    # Across weeks (issue 38): the person's own clock. An IANA zone name (the browser's at sign-up);
    # every time on pages and in emails is shown in it.
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    # Quiet hours, local times in ``time_zone``; both None: off. No push or email reaches the person
    # then, and an asynchronous deadline avoids them (accounts.clock).
    quiet_hours_start = models.TimeField(_("quiet hours from"), null=True, blank=True, default=datetime.time(23, 0))
    quiet_hours_end = models.TimeField(_("quiet hours until"), null=True, blank=True, default=datetime.time(7, 0))
    # Away until this moment: a phase of an asynchronous game that waits on the person does not run out.
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)

    objects = UserManager()

    @property
    def name(self) -> str:
        """The name shown to everyone: the one place a player's name comes from."""
        if self.deleted_at is not None:
            return gettext("deleted player")
        return self.display_name or self.username

    def save(self, *args, **kwargs):
        # The key follows the name it is made of, whichever way the name was changed.
        self.name_key = None if self.deleted_at is not None else name_key(self.display_name or self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"display_name", "username", "deleted_at"} & set(update_fields):
            kwargs["update_fields"] = {*update_fields, "name_key"}
        super().save(*args, **kwargs)

    @property
    def colour_hex(self) -> str:
        return COLOUR_HEX.get(self.colour, "#888888")

    def __str__(self) -> str:
        return self.name


class ApiToken(models.Model):
    """A key for the JSON API. Only a hash of the token is kept: it is shown once, when made."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="api_tokens", verbose_name=_("user"))
    name = models.CharField(_("name"), max_length=60)
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(_("starts with"), max_length=12, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class AwayPeriod(models.Model):
    """A time a person said they were away (issue 38): "away until" at most 30 days at once and 60 days in any
    365 (``accounts.services.away_set``). One row per period; a period ended early keeps the time it lasted."""

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="away_periods")
    starts_at = models.DateTimeField()
    until_at = models.DateTimeField()

    class Meta:
        ordering = ["user", "-starts_at"]
        indexes = [models.Index(fields=["user", "-until_at"], name="away_user_until_idx")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(until_at__gte=models.F("starts_at")), name="away_ends_after_start"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} away {self.starts_at} - {self.until_at}"
