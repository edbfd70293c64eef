from django.db.models import Case, Count, Exists, OuterRef, Prefetch, Value, When
from django.db.models.functions import Coalesce
from django.http import Http404

from games.models import Game, Seat


def game_visible_to(*, game: Game, user, seats=None, invite_code: str | None = None) -> bool:
    if game.visibility == Game.Visibility.PUBLIC:
        return True
    if invite_code and invite_code == game.invite_code:
        return True
    if user is None or not user.is_authenticated:
        return False
    seats = seats if seats is not None else game.seats.all()
    return any(seat.user_id == user.pk for seat in seats)


def game_get_for_viewer(*, game_id, user) -> tuple[Game, list[Seat]]:
    """The game and its seats (with users), or 404 for a game this viewer may not see."""
    try:
        game = Game.objects.select_related("creator").get(pk=game_id)
    except (Game.DoesNotExist, ValueError, TypeError):
        raise Http404("no such game") from None
    seats = list(game.seats.select_related("user").order_by("position"))
    if not game_visible_to(game=game, user=user, seats=seats):
        raise Http404("no such game")
    return game, seats


def game_view(*, game: Game, seats: list[Seat], user) -> dict:
    """The whole game as this viewer may see it; the pages and the API render this."""
    return game.game_kind.view(game=game, seats=seats, viewer=user)


def games_open_public(*, exclude_user=None):
    """The public games waiting for players, newest first: a queryset, to page through."""
    games = (
        Game.objects.filter(status=Game.Status.OPEN, visibility=Game.Visibility.PUBLIC)
        .select_related("creator")
        .annotate(seated=Count("seats"))
        .order_by("-created_at", "-pk")
    )
    if exclude_user is not None and exclude_user.is_authenticated:
        games = games.annotate(joined=Exists(Seat.objects.filter(game=OuterRef("pk"), user=exclude_user)))
    return games


def games_for_user(*, user, status: str | None = None):
    """Every game the user sits in, those waiting for the user first, then by deadline: a queryset, sorted
    by the database (so that a page of it costs the same however many games the user has)."""
    mine = Seat.objects.filter(game=OuterRef("pk"), user=user)
    games = (
        Game.objects.filter(Exists(mine))
        .exclude(status=Game.Status.CANCELLED)
        .annotate(
            my_turn=Exists(mine.filter(to_act=True)),
            seated=Count("seats", distinct=True),
            status_rank=Case(
                When(status=Game.Status.ACTIVE, then=Value(0)),
                When(status=Game.Status.OPEN, then=Value(1)),
                When(status=Game.Status.FINISHED, then=Value(2)),
                default=Value(3),
            ),
            no_deadline=Case(When(deadline_at__isnull=True, then=Value(1)), default=Value(0)),
            sort_at=Coalesce("deadline_at", "created_at"),
        )
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("position")))
        .order_by("-my_turn", "status_rank", "no_deadline", "sort_at", "-pk")
    )
    if status:
        games = games.filter(status=status)
    return games


def games_listed(*, user, status: str | None = None, mine: bool = False, limit: int = 50) -> list[Game]:
    """A list of games for the API: the user's own, or the public ones (open ones unless ``status`` says).

    Each comes with ``seated``, ``joined`` (the user has a seat) and ``my_turn``; newest first.
    """
    seats = Seat.objects.filter(game=OuterRef("pk"), user=user)
    if mine:
        games = Game.objects.filter(Exists(seats)).exclude(status=Game.Status.CANCELLED)
    else:
        games = Game.objects.filter(visibility=Game.Visibility.PUBLIC, status=status or Game.Status.OPEN)
    if status:
        games = games.filter(status=status)
    games = (
        games.select_related("creator")
        .annotate(
            seated=Count("seats", distinct=True),
            joined=Exists(seats),
            my_turn=Exists(seats.filter(to_act=True)),
        )
        .order_by("-created_at", "-pk")
    )
    return list(games[:limit])
