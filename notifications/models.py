from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    """One line in a player's notifications: something happened in one of their games.

    Rows are written by ``notifications.services`` inside the game's transaction,
    so a notification exists exactly when the change it tells of was committed.
    The text is composed when shown (``notifications.services.notification_text``),
    in the reader's language. A player has at most one unread row per game: a new
    event of the game updates it (``notifications.services._deliver``), so the bell
    counts the games with news, not the phases they went through.
    """

    class Kind(models.TextChoices):
        YOUR_TURN = "your_turn", _("Your turn")
        GAME_STARTED = "game_started", _("Game started")
        ROUND_REVEALED = "round_revealed", _("Round revealed")
        GAME_FINISHED = "game_finished", _("Game finished")
        PLAYER_JOINED = "player_joined", _("Player joined")
        REMATCH_INVITED = "rematch_invited", _("Rematch: a seat held for you")
        NUDGED = "nudged", _("A player is waiting for you")
        GAME_ENDING = "game_ending", _("A paused game is about to end")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round = models.PositiveIntegerField(null=True, blank=True)
    # Your turn: what the game asks of the player (its kind's ``asked``); empty for other kinds.
    asked = models.CharField(max_length=16, blank=True)
    # Player joined: who joined. Rematch invited: who pressed "Play again".
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Game finished: whether this player is among the winners.
    won = models.BooleanField(default=False)
    # Game ending: when the paused game ends as abandoned unless someone acts.
    ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    read_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notification_user_idx"),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "game"], condition=Q(read_at__isnull=True), name="notification_one_unread_per_game"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} for {self.user_id} in game {self.game_id}"

    def get_absolute_url(self) -> str:
        """Opening a notification marks it read and leads to its game."""
        return reverse("notifications:open", args=[self.pk])


class Turn(models.Model):
    """One seat asked to act in one phase of a game.

    The unit of "once per phase": the "your turn" notification, the turn email and
    the reminder each happen at most once per row, and there is one row per seat
    and phase (the constraint). A row stays open until the seat has acted or the
    phase is over.
    """

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="+")
    # The phase as the services tell it apart (its kind's phase_key): round, phase, turn...
    phase_key = models.CharField(max_length=80)
    asked = models.CharField(max_length=16, blank=True)
    asked_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    # Asynchronous games with a running deadline: when a quarter of the time is left.
    remind_at = models.DateTimeField(null=True, blank=True)
    # When the turn email and the reminder were dealt with (sent, or not wanted).
    emailed_at = models.DateTimeField(null=True, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Quiet hours (accounts.clock): the player's turn email or reminder came due in them and waits until then.
    held_until = models.DateTimeField(null=True, blank=True)
    # The "your turn" push came in the player's quiet hours: beat sends it then (``notifications.quiet``).
    push_held_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["seat", "phase_key"], name="turn_once_per_phase")]
        indexes = [
            models.Index(
                fields=["asked_at"],
                condition=Q(closed_at__isnull=True, emailed_at__isnull=True),
                name="turn_email_due_idx",
            ),
            models.Index(
                fields=["remind_at"],
                condition=Q(closed_at__isnull=True, reminded_at__isnull=True),
                name="turn_reminder_due_idx",
            ),
            models.Index(
                fields=["push_held_until"],
                condition=Q(closed_at__isnull=True, push_held_until__isnull=False),
                name="turn_push_held_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"seat {self.seat_id} in {self.phase_key}"


class EmailPreferences(models.Model):
    """Which emails a person wants; no row means the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_preferences")
    turn_emails = models.BooleanField(
        _("When it is my turn in an asynchronous game"),
        default=True,
    )
    reminder_emails = models.BooleanField(
        _("A reminder when a quarter of the time is left and I have not played yet"),
        default=True,
    )
    rematch_emails = models.BooleanField(
        _("When a player of a game I played starts a rematch and holds a seat for me"),
        default=True,
    )
    # One letter a day (issue 38): at this local hour (0-23, in the person's time zone), one email listing every
    # game waiting for them and the games ended since the last letter, instead of an email per turn. None: off.
    daily_letter_hour = models.PositiveSmallIntegerField(
        _("One letter a day at this hour instead of an email per turn"), null=True, blank=True
    )
    # When the last daily letter went out (what "ended since the last one" counts from).
    last_letter_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The language the person's pages were in when they last signed in or saved these settings: emails speak it.
    language = models.CharField(max_length=16, blank=True, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("email preferences")
        verbose_name_plural = _("email preferences")

    def __str__(self) -> str:
        return f"email preferences of {self.user_id}"


ENDPOINT_MAX_LENGTH = 1000


class PushSubscription(models.Model):
    """One device (a browser's push service endpoint) that gets "your turn" on its lock screen.

    Made when the person turns the switch on in the notification settings on that device
    (``notifications.push``); gone when they turn it off, or when the push service says the
    endpoint is no more (404/410). The keys are the browser's: ``p256dh`` its public key for
    the payload's encryption, ``auth`` the shared secret (both base64url, as the browser gives them).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=ENDPOINT_MAX_LENGTH, unique=True)
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=32)
    user_agent = models.CharField(max_length=300, blank=True)
    # The language the device's pages were in when it subscribed: the pushes speak it.
    language = models.CharField(max_length=16, blank=True)
    created_at = models.DateTimeField()
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push subscription {self.pk} of {self.user_id}"


class Notice(models.Model):
    """An email and a push to one person about news that is not a turn (a nudge, a paused game's coming end).

    Written in the transaction of the news it tells (so it exists exactly when that news was committed) and
    sent by beat once ``due_at`` has come (``notifications.quiet.notices_send_due``): one that comes due in the
    person's quiet hours moves to their end. ``sent_at`` is the claim: set once, by whichever run wins it.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20, choices=Notification.Kind.choices)
    # Nudged: who nudged, and what the phase asks of the nudged player (a Turn's ``asked``).
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    asked = models.CharField(max_length=16, blank=True)
    # Game ending: when the paused game ends as abandoned.
    ends_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField()
    due_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["due_at"], condition=Q(sent_at__isnull=True), name="notice_due_idx")]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id} in game {self.game_id}"


class GameMute(models.Model):
    """A player muted one game: no turn email, no reminder and no push for it (the bell still counts)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="game_mute_once")]

    def __str__(self) -> str:
        return f"game {self.game_id} muted by {self.user_id}"
