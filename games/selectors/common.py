"""What every kind of game's view holds: the game, its players, the viewer's seat."""

from collections.abc import Callable
from datetime import timedelta

from django.utils import timezone

from games.models import Game, Seat
from games.places import competition_places, standing_places


def seat_of(seats: list[Seat], viewer) -> Seat | None:
    if viewer is None or not viewer.is_authenticated:
        return None
    return next((seat for seat in seats if seat.user_id == viewer.pk), None)


def usernames(seats: list[Seat]):
    """A function from a seat position to its player's username (None for none)."""
    return {seat.position: seat.user.username for seat in seats}.get


def view_base(*, game: Game, seats: list[Seat], me: Seat | None) -> dict:
    """The keys every view has, before the state is read: a kind's selector adds its own."""
    now = timezone.now()
    view = {
        "id": game.pk,
        "kind": game.kind,
        "status": game.status,
        "abandoned": game.abandoned,
        "version": game.version,
        "round": game.round,
        "phase": None,
        "deadline_at": game.deadline_at.isoformat() if game.deadline_at else None,
        "paused": game.is_paused,
        "nudge_from_at": _nudge_from(game),
        "pace": game.pace,
        "phase_seconds": game.phase_seconds,
        "visibility": game.visibility,
        "seats": game.max_seats,
        "creator": game.creator.username,
        "options": game.options,
        "players": [
            {
                "username": seat.user.username,
                "name": seat.user.name,
                "seat": seat.position,
                "score": seat.score,
                "colour": seat.colour,
                "to_act": seat.to_act,
                "absent": seat.is_absent,
                "resigned": seat.has_resigned,
                "bot": seat.user.is_bot,
                "bot_level": (seat.bot_level or "normal") if seat.user.is_bot else None,
                "away_until": _away_until(seat.user, now),
                "time_bank_seconds": seat.time_bank_seconds,
            }
            for seat in seats
        ],
        "names": {seat.user.username: seat.user.name for seat in seats},
        "you": None,
        "waiting_for": [],
        "waiting_names": [],
        "last_round": None,
        "winners": [],
    }
    if me is not None:
        view["you"] = {
            "username": me.user.username,
            "seat": me.position,
            "to_act": me.to_act,
            "is_creator": game.creator_id == me.user_id,
        }
        if game.visibility == Game.Visibility.PRIVATE and game.creator_id == me.user_id:
            view["invite_code"] = game.invite_code
    return view


def _away_until(user, now) -> str | None:
    """When the player is back, while they are away (issue 38); None otherwise."""
    until = user.away_until
    return until.isoformat() if until is not None and until > now else None


def _nudge_from(game: Game) -> str | None:
    """When half of an asynchronous phase has run: from then on, a player may nudge one who must still act."""
    if game.status != Game.Status.ACTIVE or game.pace != Game.Pace.ASYNC or game.deadline_at is None:
        return None
    started = game.phase_started_at or game.deadline_at - timedelta(seconds=game.phase_seconds)
    return (started + (game.deadline_at - started) / 2).isoformat()


def view_waiting(view: dict, *, seats: list[Seat], waiting) -> None:
    """Fill ``waiting_for`` (usernames) and ``waiting_names`` from the seat positions awaited.

    Who is awaited comes from the state, never from the seats' mirrors: the game
    row and the seats are two reads, and an action committed between them would
    otherwise give a view of two versions (a phase, and a "to act" of the next).
    """
    awaited = set(waiting)
    for player in view["players"]:
        player["to_act"] = player["seat"] in awaited
    if view["you"] is not None:
        view["you"]["to_act"] = view["you"]["seat"] in awaited
    by_position = {seat.position: seat for seat in seats}
    view["waiting_for"] = [by_position[pos].user.username if pos in by_position else None for pos in waiting]
    view["waiting_names"] = [by_position[pos].user.name for pos in waiting if pos in by_position]


def view_finish(view: dict, *, winners) -> None:
    """The winners (usernames) and the standings of a finished game, each player with their
    ``place`` (ties share it: 1, 2, 2, 4; resigned players after the others)."""
    view["winners"] = list(winners)
    for player, place in zip(view["players"], standing_places(view["players"])):
        player["place"] = place
    view["standings"] = sorted(view["players"], key=lambda p: (p["place"], p["seat"]))


# --- replays ------------------------------------------------------------------------


def replay_players(seats: list[Seat]) -> dict[int, dict]:
    return {
        seat.position: {
            "seat": seat.position,
            "username": seat.user.username,
            "name": seat.user.name,
            "colour": seat.colour,
        }
        for seat in seats
    }


def replay_player_of(players: dict[int, dict]) -> Callable[[int | None], dict]:
    """``player(position)`` for a replay: that seat's entry in ``players`` (``replay_players``), or a player
    nobody knows (a position no seat has)."""
    unknown = {"seat": None, "username": "", "name": "?", "colour": "white"}

    def player(position: int | None) -> dict:
        return players.get(position, unknown) if position is not None else unknown

    return player


def replay_link(rounds: list[dict]) -> list[dict]:
    """A replay's rounds, each given the ``previous`` and ``next`` round's ``number`` where there is one."""
    for before, after in zip(rounds, rounds[1:]):
        before["next"], after["previous"] = after["number"], before["number"]
    return rounds


def replay_standings(round_: dict, player) -> list[dict]:
    """Every seat: the points of a round, the score after it and the place it gives (ties share), best first."""
    rows = [
        player(int(seat)) | {"points": round_["points"].get(seat, 0), "score": score}
        for seat, score in round_["scores_after"].items()
    ]
    for row, place in zip(rows, competition_places([-row["score"] for row in rows])):
        row["place"] = place
    return sorted(rows, key=lambda row: (row["place"], int(row["seat"] if row["seat"] is not None else 99)))
