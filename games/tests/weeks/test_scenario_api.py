"""Issue 38's judged scenario, through the API, with a moved clock: four players in four time zones, each with
quiet hours; the contract of /me; the first deadline outside every waiting player's quiet hours and no later than
it needs to be; an away player whose phase does not run out while the table sees it; the time bank; a nudge
refused too early (and then sent once); a player's public record."""

import datetime
import json
from unittest import mock

import pytest

from accounts import clock
from games.models import Game, Move
from games.signals import player_nudged
from games.tasks import games_expire_due
from games.tests.api.conftest import API, error_of

UTC = datetime.UTC
H = datetime.timedelta(hours=1)
MINUTE = datetime.timedelta(minutes=1)
T0 = datetime.datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # a Monday, before any of the four changes its clocks

# Four players, four zones, four nights (UTC: Paris 22-06, New York 03-11, Tokyo 15-21, Sydney 14-20): the day
# has two free stretches, 11:00-14:00 and 21:00-22:00 UTC.
PLAYERS = [
    ("Europe/Paris", "23:00", "07:00"),
    ("America/New_York", "22:00", "06:00"),
    ("Asia/Tokyo", "00:00", "06:00"),
    ("Australia/Sydney", "01:00", "07:00"),
]


class Clock:
    def __init__(self, now):
        self.now = now

    def move(self, delta):
        self.now += delta
        return self.now

    def at(self, moment):
        self.now = moment
        return moment


@pytest.fixture
def moved_clock():
    """``django.utils.timezone.now`` as the test sets it: the views, the services and the rows' own times read it."""
    moved = Clock(T0)
    with mock.patch("django.utils.timezone.now", side_effect=lambda: moved.now):
        yield moved


def send(client, method, path, body=None):
    data = "" if body is None else json.dumps(body)
    return client.client.generic(
        method, API + path, data, content_type="application/json", headers=client._headers(None)
    )


def first_free_minute(earliest, users):
    """The oracle, by brute force: the first whole minute from ``earliest`` on in nobody's quiet hours."""
    moment = earliest
    while any(clock.is_quiet(user, moment) for user in users):
        moment += MINUTE
    return moment


def player(view, username):
    return next(p for p in view["players"] if p["username"] == username)


@pytest.mark.django_db
def test_a_week_at_one_table(make_player, deck, moved_clock):
    players = [make_player() for _ in PLAYERS]

    # --- the contract of /me ---------------------------------------------------------------------------------
    me = players[0][1].get("/me")
    assert me.status_code == 200
    assert me.json() == {
        "username": players[0][0].username,
        "time_zone": "UTC",
        "quiet_hours": None,  # the test factory's players have none; a new account's are 23:00-07:00
        "away": None,
        "email": {"turns": True, "reminders": True, "daily_letter_hour": None},
    }
    for (_user, client), (zone, start, end) in zip(players, PLAYERS):
        changed = send(client, "PATCH", "/me", {"time_zone": zone, "quiet_hours": {"start": start, "end": end}})
        assert changed.status_code == 200, changed.content
        assert changed.json()["time_zone"] == zone and changed.json()["quiet_hours"] == {"start": start, "end": end}
    paris = players[0][1]
    assert error_of(send(paris, "PATCH", "/me", {"time_zone": "Mars/Olympus"})) == (400, "bad_time_zone")
    assert error_of(send(paris, "PATCH", "/me", {"quiet_hours": {"start": "24:00", "end": "07:00"}})) == (
        400,
        "bad_quiet_hours",
    )
    assert error_of(send(paris, "PATCH", "/me", {"quiet_hours": {"start": "17:00", "end": "08:00"}})) == (
        400,
        "bad_quiet_hours",
    )  # 15 hours
    assert error_of(send(paris, "PATCH", "/me", {"colour": "red"})) == (400, "bad_options")
    assert error_of(send(paris, "PATCH", "/me", {"email": {"turns": "yes"}})) == (400, "bad_options")
    # A refusal changes nothing, not even the parts that were right.
    assert error_of(send(paris, "PATCH", "/me", {"time_zone": "Asia/Tokyo", "email": {"daily_letter_hour": 24}}))[
        1
    ] == ("bad_options")
    assert paris.get("/me").json()["time_zone"] == "Europe/Paris"
    letters = send(paris, "PATCH", "/me", {"email": {"daily_letter_hour": 8, "turns": False}})
    assert letters.json()["email"] == {"turns": False, "reminders": True, "daily_letter_hour": 8}
    off = send(players[3][1], "PATCH", "/me", {"quiet_hours": None})
    assert off.json()["quiet_hours"] is None
    send(players[3][1], "PATCH", "/me", {"quiet_hours": {"start": "01:00", "end": "07:00"}})

    # --- a game with a time bank -------------------------------------------------------------------------------
    creator = players[0][1]
    assert error_of(creator.post("/games", {"seats": 4, "deck": deck.pk, "time_bank_hours": 73})) == (
        400,
        "bad_options",
    )
    assert error_of(creator.post("/games", {"seats": 4, "deck": deck.pk, "min_reliability": 1.5}))[0] == 400
    assert creator.post("/games", {"seats": 4, "deck": deck.pk, "time_bank_hours": "6"}).status_code == 400
    created = creator.post(
        "/games",
        {"seats": 4, "deck": deck.pk, "phase_seconds": 24 * 3600, "time_bank_hours": 6, "min_reliability": 0.8},
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for _user, client in players[1:]:
        assert client.post(f"/games/{game_id}/join").status_code == 200  # few counted games: anyone may join
    view = creator.get(f"/games/{game_id}").json()
    assert view["status"] == "active" and view["phase"] == "clue"
    assert sorted(view["waiting_for"]) == sorted(user.username for user, _ in players)  # the race for the first clue
    assert all(p["time_bank_seconds"] == 6 * 3600 and p["away_until"] is None for p in view["players"])

    # --- the first deadline: outside every waiting player's quiet hours, and no later than it needs to be ----------
    users = [user for user, _ in players]
    for user in users:
        user.refresh_from_db()
    first = datetime.datetime.fromisoformat(view["deadline_at"])
    assert first == first_free_minute(T0 + 24 * H, users) == datetime.datetime(2026, 3, 3, 11, 0, tzinfo=UTC)
    assert not any(clock.is_quiet(user, first) for user in users)
    assert clock.is_quiet(users[1], first - MINUTE)  # New York sleeps until then
    week = [(T0, "the game starts; the race for the first clue waits on all four")]
    week.append((first, "(the first clue's deadline, outside every night: unused)"))

    # --- a nudge: refused too early, then sent once -----------------------------------------------------------
    nudged = []

    def heard(sender, *, game, seat, by, phase_key, now, **kwargs):
        nudged.append((seat.user.username, by.username, now))

    player_nudged.connect(heard, dispatch_uid="test-nudged")
    try:
        moved_clock.move(H)
        assert error_of(players[1][1].post(f"/games/{game_id}/nudge", {"seat": 0})) == (409, "too_early")
        assert error_of(players[1][1].post(f"/games/{game_id}/nudge", {"seat": 1})) == (400, "not_waiting")
        assert error_of(players[1][1].post(f"/games/{game_id}/nudge", {"seat": 9})) == (400, "not_waiting")
        half = datetime.datetime.fromisoformat(creator.get(f"/games/{game_id}").json()["nudge_from_at"])
        assert half == T0 + (first - T0) / 2
        moved_clock.at(half)
        sent = players[1][1].post(f"/games/{game_id}/nudge", {"seat": 0})
        assert sent.status_code == 201, sent.content
        assert sent.json() == {"game": game_id, "seat": 0, "nudged_at": half.isoformat()}
        assert error_of(players[2][1].post(f"/games/{game_id}/nudge", {"seat": 0})) == (409, "already_nudged")
        assert nudged == [(users[0].username, users[1].username, half)]
        week.append((half, "half of the phase run: New York nudges Paris (an hour in, it was too early)"))
    finally:
        player_nudged.disconnect(dispatch_uid="test-nudged")

    # --- the clue; then the submit phase waits on three, one of whom goes away ------------------------------------
    card = creator.get(f"/games/{game_id}").json()["hand"][0]["id"]
    clue = creator.post(f"/games/{game_id}/actions", {"type": "clue", "card": card, "text": "across the sea"})
    assert clue.status_code == 200, clue.content
    view = clue.json()
    assert view["phase"] == "submit"
    second = datetime.datetime.fromisoformat(view["deadline_at"])
    assert second == first_free_minute(half + 24 * H, users[1:])  # the storyteller need not act: their night is free
    sydney, sydney_client = players[3]
    week.append((half, f"Paris gives the clue; the submissions' deadline: {second:%a %H:%M} UTC"))

    moved_clock.move(H)
    assert error_of(send(sydney_client, "PUT", "/me/away", {"until": (moved_clock.now - H).isoformat()})) == (
        400,
        "bad_away",
    )
    far = moved_clock.now + datetime.timedelta(days=31)
    assert error_of(send(sydney_client, "PUT", "/me/away", {"until": far.isoformat()})) == (400, "bad_away")
    assert error_of(send(sydney_client, "PUT", "/me/away", {"until": "next week"})) == (400, "bad_away")
    left_when_gone = second - moved_clock.now
    back = moved_clock.now + datetime.timedelta(days=3)
    away = send(sydney_client, "PUT", "/me/away", {"until": back.isoformat()})
    assert away.status_code == 200 and away.json() == {"away": {"until": back.isoformat()}}
    assert sydney_client.get("/me").json()["away"] == {"until": back.isoformat()}
    view = creator.get(f"/games/{game_id}").json()
    assert player(view, sydney.username)["away_until"] == back.isoformat()  # the table sees it
    held = datetime.datetime.fromisoformat(view["deadline_at"])
    assert held >= back + left_when_gone
    week.append(
        (back - datetime.timedelta(days=3), f"Sydney away until {back:%a %H:%M}: the deadline moves to {held:%a %H:%M}")
    )

    for _user, client in players[1:3]:
        mine = client.get(f"/games/{game_id}").json()
        cards = [c["id"] for c in mine["hand"][: mine["cards_to_submit"]]]
        assert client.post(f"/games/{game_id}/actions", {"type": "submit", "cards": cards}).status_code == 200

    # The first deadline would long have passed: the phase does not run out, Sydney is not absent.
    moved_clock.at(second + 12 * H)
    assert games_expire_due(now=moved_clock.now) == 0
    view = creator.get(f"/games/{game_id}").json()
    assert view["phase"] == "submit" and view["waiting_for"] == [sydney.username]
    assert not player(view, sydney.username)["absent"]
    assert not Move.objects.filter(game_id=game_id, by_timeout=True).exists()

    # Back early: the phase keeps at least the time it had left when they went.
    moved_clock.at(back - datetime.timedelta(days=1))
    returned = send(sydney_client, "DELETE", "/me/away")
    assert returned.status_code == 200 and returned.json() == {"away": None}
    view = creator.get(f"/games/{game_id}").json()
    assert player(view, sydney.username)["away_until"] is None
    deadline = datetime.datetime.fromisoformat(view["deadline_at"])
    assert deadline - moved_clock.now >= left_when_gone
    week.append((moved_clock.now, f"Sydney back early; the phase still ends {deadline:%a %H:%M}"))

    # --- the time bank: the missed deadline draws on Sydney's six hours before the game moves on -----------------
    moved_clock.at(deadline + MINUTE)
    games_expire_due(now=moved_clock.now)
    view = creator.get(f"/games/{game_id}").json()
    assert view["phase"] == "submit"  # still Sydney's to play
    assert datetime.datetime.fromisoformat(view["deadline_at"]) == deadline + 6 * H
    moved_clock.at(deadline + 2 * H)
    mine = sydney_client.get(f"/games/{game_id}").json()
    cards = [c["id"] for c in mine["hand"][: mine["cards_to_submit"]]]
    view = sydney_client.post(f"/games/{game_id}/actions", {"type": "submit", "cards": cards}).json()
    assert view["phase"] == "vote"
    banks = {p["username"]: p["time_bank_seconds"] for p in view["players"]}
    assert banks == {user.username: (4 if user == sydney else 6) * 3600 for user in users}  # the table sees every bank
    assert not player(view, sydney.username)["absent"]
    week.append((deadline, "Sydney misses it: six hours of bank"))
    week.append((deadline + 2 * H, "Sydney submits, two hours into the bank (four left); the vote begins"))
    print("\nA week at one table (UTC):")  # the closing note's timeline (pytest -s)
    for moment, what in sorted(week, key=lambda event: event[0]):
        print(f"  {moment:%a %d %b %H:%M}  {what}")

    # --- a player's public record -----------------------------------------------------------------------------
    record = creator.get(f"/players/{sydney.username}")
    assert record.status_code == 200
    assert record.json() == {
        "username": sydney.username,
        "rating": None,
        "games_finished": 0,
        "reliability": {"finished_share": None, "on_time_share": None, "games_counted": 0},
    }
    assert error_of(creator.get("/players/nobody-at-all")) == (404, "not_found")
    assert Game.objects.get(pk=game_id).status == Game.Status.ACTIVE
