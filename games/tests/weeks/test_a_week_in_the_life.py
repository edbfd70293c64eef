"""A week in the life of one table (issue 38's closing note), on a moved clock.

Four people in four time zones, each with quiet hours, play one asynchronous Storyteller game (a day a phase, a
bank of six hours) and sit in a second one (four hours a phase, no bank) that two of them leave: it pauses for
too few players present and ends as abandoned a week later, the table told a day before. Paris reads one letter a
day at 08:00; the others get turn emails and reminders, New York a push to a phone. Sydney goes away for three
days in the middle of a phase.

The clock moves in steps of 15 minutes (``django.utils.timezone.now`` patched, and ``now=`` passed to every
service); at each step the beat tasks' functions run, as beat would: the deadline sweep, the paused games'
sweep, the turn emails and reminders, the held pushes and notices, the daily letters. Everything that reaches a
person is written down with its UTC and local time and checked against their quiet hours; every deadline against
the quiet hours of those it waits on; every bell against its list. ``pytest -s`` prints the week.
"""

import datetime
import random
from unittest import mock

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts import clock
from accounts import time as account_time
from games.models import Game, Move, Seat
from games.services.errors import GameError
from games.services.games import game_act, game_create, game_join
from games.services.weeks import nudge_send, paused_games_sweep
from games.tasks import games_expire_due
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.play import action_for, view_for
from notifications.emails import emails_send_due
from notifications.letters import letters_send_due
from notifications.models import EmailPreferences, Notice, Notification
from notifications.notices import notices_send_due
from notifications.services import unread_count
from notifications.tests.test_push import Device, push_service, vapid  # noqa: F401 (fixtures)

UTC = datetime.UTC
MINUTE = datetime.timedelta(minutes=1)
H = datetime.timedelta(hours=1)
DAY = datetime.timedelta(days=1)
STEP = datetime.timedelta(minutes=15)
T0 = datetime.datetime(2026, 3, 2, 8, 0, tzinfo=UTC)  # a Monday, before any of the four changes its clocks

# Their nights in UTC: Paris 22-06, New York 03-11, Tokyo 15-21, Sydney 14-20.
PEOPLE = {
    "Paris": ("Europe/Paris", 23, 7),
    "NewYork": ("America/New_York", 22, 6),
    "Tokyo": ("Asia/Tokyo", 0, 6),
    "Sydney": ("Australia/Sydney", 1, 7),
}


def at(day: int, hour: int, minute: int = 0) -> datetime.datetime:
    """Day ``day`` of the week (0: Monday 2 March), ``hour`` UTC."""
    return T0.replace(hour=0) + datetime.timedelta(days=day, hours=hour, minutes=minute)


class Week:
    """The moved clock, the beat tasks run at each step, and the timeline of what happened."""

    def __init__(self, people, games, push, capture):
        self.now = T0
        self.people = people  # name -> user
        self.names = {user.pk: name for name, user in people.items()}
        self.games = games  # label -> game
        self.push = push
        self.capture = capture
        self.lines: list[tuple[datetime.datetime, str]] = []
        self.deliveries: list[tuple[datetime.datetime, str, str]] = []  # (when, to whom, what)
        self.seen_deadlines: dict[str, tuple] = {}
        self.mails = 0
        self.pushes = 0
        self.last_bells: dict = {}
        self.clients = {}
        for name, user in people.items():
            self.clients[name] = Client()
            self.clients[name].force_login(user)

    def local(self, name: str, moment: datetime.datetime) -> str:
        return f"{clock.local(self.people[name], moment):%a %H:%M} {name}"

    def log(self, text: str, moment: datetime.datetime | None = None) -> None:
        self.lines.append((moment or self.now, text))

    def act(self, text: str, action) -> object:
        """Something a person does now; then what it changed is written down."""
        with self.capture(execute=True):
            result = action()
        self.log(text)
        self.observe()
        return result

    def run_until(self, moment: datetime.datetime) -> None:
        """Move the clock in steps to ``moment``, running the beat tasks at each."""
        while self.now < moment:
            self.now = min(self.now + STEP, moment)
            with self.capture(execute=True):
                games_expire_due(now=self.now)
                paused_games_sweep(now=self.now)
                emails_send_due(now=self.now)
                notices_send_due(now=self.now)
                letters_send_due(now=self.now)
            self.observe()

    # --- what is written down and checked after every step and act ----------------------------------------------

    def observe(self) -> None:
        changed = self._deadlines() | self._notifications()
        self._deliveries()
        if changed:
            self._bells()

    def _deadlines(self) -> bool:
        changed = False
        for label, game in self.games.items():
            game.refresh_from_db()
            key = (game.status, game.phase, game.round, game.deadline_at, game.is_paused)
            if self.seen_deadlines.get(label) == key:
                continue
            changed = True
            self.seen_deadlines[label] = key
            if game.status == Game.Status.FINISHED:
                self.log(f"game {label} ends" + (" as abandoned" if game.abandoned else ""))
                continue
            if game.is_paused:
                self.log(f"game {label} pauses: too few players present; no deadline")
                continue
            seats = Seat.objects.filter(game=game, to_act=True, is_absent=False).select_related("user")
            waiting = [self.names[seat.user_id] for seat in seats]
            here = [n for n in waiting if not (self.people[n].away_until and self.people[n].away_until > self.now)]
            for name in waiting:
                self.people[name].refresh_from_db()
            deadline = game.deadline_at
            banked = game.bank_since_at is not None
            if not banked:  # a phase's own deadline (a bank's extension is the deadline plus what the bank holds)
                quiet = [n for n in here if clock.is_quiet(self.people[n], deadline)]
                assert not quiet, (label, game.phase, deadline, quiet)
            what = "bank's end" if banked else "deadline"
            locals_ = ", ".join(self.local(n, deadline) for n in waiting)
            self.log(
                f"game {label} round {game.round} {game.phase}: waits on {', '.join(waiting)}; {what} "
                f"{deadline:%a %d %H:%M} UTC ({locals_})"
            )
        return changed

    def _notifications(self) -> bool:
        """The bells' contents, written down when they change: one line, each person's unread items."""
        labels = {game.pk: label for label, game in self.games.items()}
        unread = Notification.objects.filter(read_at__isnull=True).order_by("game_id")
        bells = {name: [] for name in self.people}
        for user_id, game_id, kind in unread.values_list("user_id", "game_id", "kind"):
            bells[self.names[user_id]].append(f"{labels[game_id]}:{kind}")
        if bells == self.last_bells:
            return False
        self.last_bells = bells
        self.log("  bells: " + " | ".join(f"{name} {' '.join(items) or '-'}" for name, items in bells.items()))
        return True

    def _deliveries(self) -> None:
        for message in mail.outbox[self.mails :]:
            (name,) = [n for n, user in self.people.items() if message.to == [user.email]]
            self.deliveries.append((self.now, name, f"email: {message.subject}"))
            self.log(f"  email to {name} at {self.local(name, self.now)} local: {message.subject}")
        self.mails = len(mail.outbox)
        for _request in self.push.requests[self.pushes :]:
            self.deliveries.append((self.now, "NewYork", "push"))
            self.log(f"  push to NewYork's phone at {self.local('NewYork', self.now)} local")
        self.pushes = len(self.push.requests)
        for when, name, what in self.deliveries:
            assert not clock.is_quiet(self.people[name], when), (when, name, what)

    def _bells(self) -> None:
        """The bell's count equals what its list shows, for everyone."""
        for name, user in self.people.items():
            count = unread_count(user=user)
            page = self.clients[name].get(reverse("notifications:list")).content.decode()
            assert page.count("data-notification=") == count, (self.now, name)

    def print(self) -> None:
        print("\nA week in the life of one table (UTC; local times as each person's clock says):")
        for moment, text in sorted(self.lines, key=lambda line: line[0]):
            print(f"  {moment:%a %d %b %H:%M}  {text}")


def play(game: Game, user, now: datetime.datetime) -> None:
    """``user`` makes the move the game waits for (a clue, a card, a vote)."""
    game.refresh_from_db()
    view = view_for(game, user)
    game_act(game_id=game.pk, user=user, action=action_for(view, random.Random(38)), now=now)


@pytest.mark.django_db
def test_a_week_in_the_life_of_one_table(vapid, push_service, django_capture_on_commit_callbacks):  # noqa: F811
    people = {}
    for name, (zone, start, end) in PEOPLE.items():
        people[name] = UserFactory(
            username=name.lower(),
            display_name=name,
            time_zone=zone,
            quiet_hours_start=datetime.time(start),
            quiet_hours_end=datetime.time(end),
        )
    paris, newyork, tokyo, sydney = people.values()
    EmailPreferences.objects.create(user=paris, daily_letter_hour=8, turn_emails=False)
    Device(newyork, f"{push_service.url}/device/newyork")
    deck = deck_with_cards(60)
    games: dict[str, Game] = {}
    week = Week(people, games, push_service, django_capture_on_commit_callbacks)

    with mock.patch("django.utils.timezone.now", side_effect=lambda: week.now):
        # --- Monday: two games start ------------------------------------------------------------------------------
        def start(label, creator, seats_in_order, **kwargs):
            game = game_create(creator=creator, max_seats=4, options={"deck": deck.pk}, **kwargs)
            games[label] = game
            for user in seats_in_order:
                game_join(game_id=game.pk, user=user, invite_code=game.invite_code, now=week.now)
            return game

        week.act(
            "game A starts: Paris, NewYork, Tokyo, Sydney; a day a phase, a bank of 6 hours",
            lambda: start("A", paris, [newyork, tokyo, sydney], phase_seconds=24 * 3600, time_bank_hours=6),
        )
        a = games["A"]
        assert a.deadline_at == at(1, 11)  # the first free minute after Tuesday 08:00 (New York's night ends)
        week.run_until(at(0, 9))
        week.act(
            "game B starts: the same four; four hours a phase, no bank",
            lambda: start("B", newyork, [paris, tokyo, sydney], phase_seconds=4 * 3600, time_bank_hours=0),
        )
        b = games["B"]
        assert b.deadline_at == at(0, 13)
        week.run_until(at(0, 10))
        week.act("B: NewYork gives the clue", lambda: play(b, newyork, week.now))
        assert b.deadline_at == at(0, 21)  # 14:00 is in Sydney's and Tokyo's night; 21:00 before Paris's
        week.run_until(at(0, 11))
        week.act("B: Paris hands in a card (Tokyo and Sydney will not)", lambda: play(b, paris, week.now))
        week.run_until(at(0, 18))
        week.act("A: Paris gives the clue", lambda: play(a, paris, week.now))
        assert a.deadline_at == at(1, 21)  # Tuesday 18:00 is in Tokyo's night (until 21:00 UTC)
        week.run_until(at(0, 20))
        with pytest.raises(GameError) as refused:
            nudge_send(game_id=a.pk, user=paris, seat=2, now=week.now)
        assert refused.value.code == "too_early"
        week.log("A: Paris tries to nudge Tokyo: refused, too early (half the phase runs at Tue 07:30)")
        week.run_until(at(0, 21, 30))
        week.act("B: Paris votes", lambda: play(b, paris, week.now))

        # --- Tuesday: B pauses; Sydney goes away; the nudge --------------------------------------------------------
        week.run_until(at(1, 6, 15))
        b.refresh_from_db()
        assert b.is_paused and b.deadline_at is None
        assert set(Seat.objects.filter(game=b, is_absent=True).values_list("user__username", flat=True)) == {
            "tokyo",
            "sydney",
        }
        paused_since = b.paused_since_at
        week.run_until(at(1, 7, 45))
        week.act("A: Paris nudges Tokyo", lambda: nudge_send(game_id=a.pk, user=paris, seat=2, now=week.now))
        assert Notification.objects.filter(user=tokyo, kind=Notification.Kind.NUDGED, read_at__isnull=True).exists()
        week.run_until(at(1, 8))
        back = at(4, 8)  # Friday 08:00 UTC: 19:00 in Sydney
        left = a.deadline_at - week.now
        week.act(
            f"Sydney goes away until {back:%a %H:%M} UTC ({week.local('Sydney', back)})",
            lambda: account_time.away_set(user=sydney, until=back, now=week.now),
        )
        a.refresh_from_db()
        assert a.deadline_at == at(4, 21) and a.deadline_at - back >= left  # 13 hours left, from the return
        shown = {p["username"]: p["away_until"] for p in view_for(a, paris)["players"]}
        assert shown["sydney"] == back.isoformat() and shown["tokyo"] is None  # the table sees it
        week.run_until(at(1, 13))
        week.act("A: Tokyo hands in a card", lambda: play(a, tokyo, week.now))
        week.run_until(at(2, 14))
        week.act("A: NewYork hands in a card", lambda: play(a, newyork, week.now))

        # Tuesday 21:00, the deadline A had before Sydney left, long passed: the phase does not run out.
        week.run_until(at(3, 12))
        a.refresh_from_db()
        assert a.phase == "submit" and a.deadline_at == at(4, 21)
        assert not Seat.objects.get(game=a, user=sydney).is_absent
        assert not Move.objects.filter(game=a, by_timeout=True).exists()

        # --- Friday: Sydney back; misses the deadline; the bank ----------------------------------------------------
        week.run_until(at(4, 21))
        a.refresh_from_db()
        assert a.phase == "submit" and a.deadline_at == at(5, 3)  # six hours of bank
        week.run_until(at(4, 23))
        week.act("A: Sydney hands in a card, two hours into the bank", lambda: play(a, sydney, week.now))
        banks = dict(Seat.objects.filter(game=a).values_list("user__username", "time_bank_seconds"))
        assert banks == {"paris": 6 * 3600, "newyork": 6 * 3600, "tokyo": 6 * 3600, "sydney": 4 * 3600}
        week.log("  banks at the table: " + ", ".join(f"{n} {sec // 3600}h" for n, sec in banks.items()))
        assert not Move.objects.filter(game=a, by_timeout=True).exists()

        # --- the weekend: the vote, a new round --------------------------------------------------------------------
        week.run_until(at(5, 12))
        week.act("A: Tokyo votes", lambda: play(a, tokyo, week.now))
        week.run_until(at(5, 14))
        week.act("A: NewYork votes", lambda: play(a, newyork, week.now))
        week.run_until(at(5, 22))
        week.act("A: Sydney votes", lambda: play(a, sydney, week.now))
        a.refresh_from_db()
        assert a.round == 2 and a.phase == "clue"
        teller = next(u for u in people.values() if Seat.objects.get(game=a, user=u).to_act)
        week.run_until(at(6, 13))
        week.act(f"A: {teller.display_name} gives the clue", lambda: play(a, teller, week.now))
        for day, hour, name in ((7, 12, "Paris"), (7, 13, "NewYork"), (7, 21, "Tokyo"), (7, 21, "Sydney")):
            user = people[name]
            week.run_until(at(day, hour))
            if Seat.objects.get(game=a, user=user).to_act:
                a.refresh_from_db()
                week.act(f"A: {name} plays ({a.phase})", lambda user=user: play(a, user, week.now))

        # --- a week after B paused: it ends, the table told a day before -------------------------------------------
        week.run_until(at(8, 9))
        b.refresh_from_db()
        assert b.status == Game.Status.FINISHED and b.abandoned
        assert b.finished_at == paused_since + 7 * DAY
        told = Notice.objects.filter(game=b, kind=Notification.Kind.GAME_ENDING)
        assert {note.user_id for note in told} == {user.pk for user in people.values()}
        assert {note.created_at for note in told} == {paused_since + 6 * DAY}

    # --- what reached whom ---------------------------------------------------------------------------------------
    week.print()
    to = {name: [what for _when, who, what in week.deliveries if who == name] for name in people}
    letters = [when for when, who, what in week.deliveries if who == "Paris" and what.startswith("email: Fabula today")]
    # Turned on at 09:00 on Monday, within the letter's grace of two hours: the first comes at the next step; then
    # one a day at 08:00 in Paris.
    assert letters[0] == T0 + STEP and len(letters) == 9
    assert all(clock.local(paris, when).time() == datetime.time(8) for when in letters[1:])
    assert not any("Your turn" in what for what in to["Paris"])  # one letter a day instead
    assert any("is waiting for your clue" in what or "waiting for" in what for what in to["Tokyo"])
    assert "push" in to["NewYork"]
    # Every reminder comes a quarter of the phase (here at most six hours) before the deadline in force, even one
    # that moved for Sydney away.
    reminders = [what for _when, _who, what in week.deliveries if "Reminder:" in what]
    assert reminders and not any("day" in what for what in reminders), reminders
    assert any("abandoned" in what for what in to["NewYork"])
    (last_letter,) = [m for m in mail.outbox if m.to == [paris.email]][-1:]
    assert last_letter.subject.startswith("Fabula today") and "Ended since your last letter" in last_letter.body
    assert f"Storyteller #{b.pk}" in last_letter.body.split("Ended since your last letter")[1]
