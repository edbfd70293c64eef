import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import kinds


def new_invite_code() -> str:
    """Sixteen URL-safe characters (about 96 random bits) that begin and end with a letter or a digit.

    A code that began with "-" would be read as an option on a command line
    (``bot.py --invite -x...``), and one that ended with "-" or "_" can be cut
    off a link by a mail or chat program's link finder.
    """
    while True:
        code = secrets.token_urlsafe(12)
        if code[0].isalnum() and code[-1].isalnum():
            return code


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        ACTIVE = "active", _("In play")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Pace(models.TextChoices):
        LIVE = "live", _("Live")
        ASYNC = "async", _("Asynchronous")

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Public")
        PRIVATE = "private", _("Private")

    # Which game: a kind registered in ``games.kinds`` by its app.
    kind = models.CharField(max_length=20, choices=kinds.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    pace = models.CharField(max_length=8, choices=Pace.choices, default=Pace.ASYNC)
    phase_seconds = models.PositiveIntegerField(help_text=_("Time allowed for each phase."))
    visibility = models.CharField(max_length=8, choices=Visibility.choices, default=Visibility.PUBLIC)
    max_seats = models.PositiveSmallIntegerField()
    creator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games")
    options = models.JSONField(default=dict, blank=True)
    invite_code = models.CharField(max_length=32, unique=True, default=new_invite_code)

    # The engine's state; None until the game starts. Only services write it.
    state = models.JSONField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    round = models.PositiveIntegerField(null=True, blank=True)
    phase = models.CharField(max_length=16, blank=True)
    is_paused = models.BooleanField(default=False)
    deadline_at = models.DateTimeField(null=True, blank=True)

    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # Finished before any round was scored (``GameKind.round_scored``): nobody won, nothing is rated.
    abandoned = models.BooleanField(default=False, editable=False)
    # Once finished: the game one of its players started to play again with the same people.
    rematch = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="rematch_of", editable=False
    )
    # A rematch holds a seat for each player of the old table (``SeatHold``) until then; None once no seat
    # is held (each taken, declined, opened by the creator, or expired by beat: ``games.tasks``).
    holds_until_at = models.DateTimeField(null=True, blank=True, editable=False)

    # Across weeks (issue 38; games.deadlines). When the phase in play began (half of it run: a nudge may go).
    phase_started_at = models.DateTimeField(null=True, blank=True, editable=False)
    # Each player's time bank at the start, in seconds (an asynchronous game's option, 0 to 72 hours): a missed
    # deadline draws on the late players' banks before the game moves on without them.
    time_bank_seconds = models.PositiveIntegerField(default=24 * 3600)
    # Since when the phase in play draws on the late players' banks (its own deadline passed); None: it does not.
    bank_since_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The least share of games finished (0-1) a player with 5 counted games needs to join; None: anyone.
    min_reliability = models.FloatField(null=True, blank=True)
    # Paused (too few present) since then: it ends as abandoned after FABULA_PAUSED_GAME_ENDS_SECONDS.
    paused_since_at = models.DateTimeField(null=True, blank=True, editable=False)
    # When the table was told the paused game would end (once, a day before).
    pause_warned_at = models.DateTimeField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "visibility", "-created_at"], name="game_lobby_idx"),
            models.Index(fields=["deadline_at"], name="game_deadline_idx", condition=Q(status="active")),
            models.Index(
                fields=["holds_until_at"], name="game_holds_until_idx", condition=Q(holds_until_at__isnull=False)
            ),
            models.Index(
                fields=["paused_since_at"], name="game_paused_since_idx", condition=Q(status="active", is_paused=True)
            ),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(max_seats__gte=3) & Q(max_seats__lte=10), name="game_seats_3_to_10"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("games:detail", args=[self.pk])

    def get_invite_url(self) -> str:
        return reverse("games:invite", args=[self.invite_code])

    @property
    def game_kind(self) -> kinds.GameKind:
        """What this kind of game provides (its rules, views, templates)."""
        kind = kinds.get(self.kind)
        if kind is None:
            raise LookupError(f"no kind of game {self.kind!r} is registered")
        return kind


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    colour = models.CharField(max_length=10, default="blue")
    # Mirrors of the engine state, so lists ("My games", lobby) need no state decoding.
    score = models.IntegerField(default=0)
    to_act = models.BooleanField(default=False)
    is_absent = models.BooleanField(default=False)
    has_resigned = models.BooleanField(default=False)
    is_winner = models.BooleanField(default=False)
    # A bot's level at this seat (easy, normal or hard; the bots app sets it); empty for a person.
    bot_level = models.CharField(max_length=8, blank=True, default="")
    # What is left of the player's time bank (seconds; the game's ``time_bank_seconds`` at the start).
    time_bank_seconds = models.PositiveIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "position"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="seat_one_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="seat_one_per_position"),
        ]
        indexes = [models.Index(fields=["user", "-joined_at"], name="seat_user_idx")]

    def __str__(self) -> str:
        return f"{self.user} at {self.game} seat {self.position}"


class SeatHold(models.Model):
    """A seat of a rematch kept for one player of the old table: only they may take it (by joining) until
    they decline it, the creator opens it, or the game's ``holds_until_at`` passes. A declined hold stays
    (``declined_at``): it no longer holds a seat, and its player is not let in again."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="holds")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seat_holds")
    created_at = models.DateTimeField()
    declined_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="seat_hold_one_per_user")]
        indexes = [models.Index(fields=["user", "game"], name="seat_hold_user_idx")]

    def __str__(self) -> str:
        return f"seat held for {self.user_id} in {self.game_id}"


class Move(models.Model):
    """Every action taken in a game, by a player or by a timeout: the audit trail.

    The unique constraint is the database's own guard of "one clue, one
    submission, one vote per player per round", behind the engine's checks.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="moves", null=True, blank=True)
    round = models.PositiveIntegerField()
    kind = models.CharField(max_length=16)
    payload = models.JSONField(default=dict)
    by_timeout = models.BooleanField(default=False)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "round", "kind", "seat"],
                condition=Q(kind__in=["clue", "submit", "vote", "roll", "answer"]),
                name="move_once_per_round",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} in {self.game_id}, round {self.round}"


class Nudge(models.Model):
    """One player nudged another who must still act (issue 38): once per phase per nudged seat."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="nudges")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="nudges")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="nudges_sent")
    round = models.PositiveIntegerField()
    phase = models.CharField(max_length=16)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["game", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "round", "phase"], name="nudge_once_per_phase"),
        ]

    def __str__(self) -> str:
        return f"nudge of {self.seat_id} in {self.game_id}"
