"""Statistics derived from finished games: nothing here is a source of truth.

Every row can be rebuilt from the games (``services.stats_rebuild``); the rows are
kept so that pages read a few precomputed rows instead of every round ever played.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Period(models.TextChoices):
    ALL_TIME = "all", _("All time")
    LAST_30_DAYS = "30d", _("Last 30 days")


class GameRecord(models.Model):
    """One player's result in one finished game, and what it added to their figures.

    ``counts`` holds the counters of the game's kind (its ``KindStats`` names them:
    clues judged, votes, finds, answers matched...); the rating columns
    are the player's OpenSkill rating before and after this game, so a rating can be
    replayed from any game on.
    """

    # No index of their own on the keys: the unique (game, user) and the (user, ...) index lead with them,
    # and every index more is written for each of the 100,000s of rows a rebuild inserts.
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+", db_index=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_records", db_index=False
    )
    kind = models.CharField(max_length=20)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    won = models.BooleanField()
    resigned = models.BooleanField()
    rounds = models.PositiveIntegerField()
    points = models.IntegerField()
    counts = models.JSONField(default=dict)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="stats_record_once_per_player")]
        indexes = [
            models.Index(fields=["user", "-finished_at", "-game"], name="stats_record_user_idx"),
            models.Index(fields=["kind", "finished_at", "game"], name="stats_record_kind_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} in game {self.game_id}"


class PlayerStats(models.Model):
    """A player's all-time totals and current rating in one kind of game."""

    # (Indexed by the unique (user, kind), which leads with it.)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats", db_index=False
    )
    kind = models.CharField(max_length=20)
    games = models.PositiveIntegerField()
    wins = models.PositiveIntegerField()
    rounds = models.PositiveIntegerField()
    points = models.IntegerField()
    counts = models.JSONField(default=dict)
    rating_mu = models.FloatField()
    rating_sigma = models.FloatField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="stats_player_once_per_kind")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind}"


class Progress(models.Model):
    """One row per kind of game: the lock that puts every update of its figures in a line."""

    kind = models.CharField(max_length=20, unique=True)
    rebuilt_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.kind} (rebuilt {self.rebuilt_at})"


class Leaderboard(models.Model):
    """The head of one board: how many entries it has and for which moment it was computed."""

    kind = models.CharField(max_length=20)
    board = models.CharField(max_length=20)
    period = models.CharField(max_length=4, choices=Period.choices)
    size = models.PositiveIntegerField(default=0)
    as_of = models.DateTimeField(null=True, blank=True)
    # Records finished at or after this moment count in the period (None: all time).
    window_start = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["kind", "board", "period"], name="stats_board_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind}/{self.board}/{self.period}"


class LeaderboardEntry(models.Model):
    """One ranked player on one board.

    ``value`` orders the board (higher is better), then ``sample``, then the user
    id: an entry's place. Ranks (shared by equal values) and positions (unique
    places, for pages) are counted when a page reads the entries, along the
    board's index (``selectors``), not stored: a stored number changed on every
    entry below a player who moved, thousands of rows for one game. ``sample`` is
    the number of games (or turns) behind the value, ``hits`` the count a rate is
    made of (wins, just-right clues), where there is one.
    """

    # (Indexed by the unique (leaderboard, user) and the place index, which lead with it.)
    leaderboard = models.ForeignKey(Leaderboard, on_delete=models.CASCADE, related_name="entries", db_index=False)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="leaderboard_entries")
    value = models.FloatField()
    sample = models.PositiveIntegerField()
    hits = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["leaderboard", "user"], name="stats_entry_once_per_board"),
            models.CheckConstraint(condition=Q(sample__gte=1), name="stats_entry_has_sample"),
        ]
        indexes = [models.Index(fields=["leaderboard", "-value", "-sample", "user"], name="stats_entry_place_idx")]

    def __str__(self) -> str:
        return f"{self.leaderboard} {self.value} {self.user_id}"
