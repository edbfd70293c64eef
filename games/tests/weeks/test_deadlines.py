"""games.deadlines: an asynchronous phase's deadline, outside the quiet hours of everyone it waits on (issue 38).

Pure: people are plain objects with a clock, moments are passed in; many zones, DST, away days."""

import datetime
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts import clock
from games.deadlines import deadline_outside_quiet, phase_deadline

UTC = datetime.UTC
H = datetime.timedelta(hours=1)


def person(zone="UTC", start=(23, 0), end=(7, 0), away_until=None):
    return SimpleNamespace(
        time_zone=zone,
        quiet_hours_start=datetime.time(*start) if start else None,
        quiet_hours_end=datetime.time(*end) if end else None,
        away_until=away_until,
    )


def at(*args, tz=UTC):
    return datetime.datetime(*args, tzinfo=tz)


def test_a_deadline_outside_quiet_hours_is_start_plus_length():
    start = at(2026, 3, 2, 9, 0)
    assert deadline_outside_quiet(start=start, length=24 * H, people=[person()]) == at(2026, 3, 3, 9, 0)


def test_a_deadline_in_the_night_moves_to_its_end_in_the_persons_own_zone():
    tokyo = person("Asia/Tokyo")  # 23:00-07:00 JST is 14:00-22:00 UTC
    start = at(2026, 3, 2, 0, 0)
    assert deadline_outside_quiet(start=start, length=15 * H, people=[tokyo]) == at(2026, 3, 2, 22, 0)


def test_the_latest_end_of_several_nights_and_no_later():
    paris, new_york = person("Europe/Paris"), person("America/New_York")  # 22:00-06:00 and 04:00-12:00 UTC (winter)
    start = at(2026, 1, 5, 0, 0)
    got = deadline_outside_quiet(start=start, length=23 * H, people=[paris, new_york])  # 23:00 UTC: Paris asleep
    assert got == at(2026, 1, 6, 12, 0)  # Paris wakes 06:00, New York still asleep until 12:00 UTC
    assert not any(clock.is_quiet(p, got) for p in (paris, new_york))
    assert clock.is_quiet(new_york, got - datetime.timedelta(minutes=1))


def test_quiet_hours_off_and_bots_hold_nothing_up():
    start = at(2026, 3, 2, 1, 0)
    assert deadline_outside_quiet(start=start, length=H, people=[person(start=None, end=None)]) == start + H
    assert deadline_outside_quiet(start=start, length=H, people=[]) == start + H


def test_when_every_hour_is_someones_night_the_fewest_asleep_and_earliest():
    # Four people whose 14-hour nights cover the whole day: no moment is free.
    people = [person("UTC", (0, 0), (14, 0)), person("UTC", (12, 0), (2, 0)), person("UTC", (20, 0), (10, 0))]
    start = at(2026, 3, 2, 0, 0)
    got = deadline_outside_quiet(start=start, length=H, people=people)
    asleep = sum(clock.is_quiet(p, got) for p in people)
    assert asleep == 1
    assert start + H <= got <= start + H + 24 * H
    # No earlier moment from start + length on has as few asleep.
    moment = start + H
    while moment < got:
        assert sum(clock.is_quiet(p, moment) for p in people) > asleep
        moment += datetime.timedelta(minutes=15)


def test_across_a_change_to_summer_time():
    paris = person("Europe/Paris", (23, 0), (7, 0))
    start = at(2026, 3, 28, 22, 0)  # the night of 28-29 March: clocks go forward at 02:00
    got = deadline_outside_quiet(start=start, length=H, people=[paris])
    assert got == datetime.datetime(2026, 3, 29, 7, 0, tzinfo=clock.zone("Europe/Paris"))


def test_a_phase_waiting_on_someone_away_counts_from_their_return():
    now = at(2026, 3, 2, 12, 0)
    back = at(2026, 3, 9, 10, 0)
    away = person("UTC", away_until=back)
    assert phase_deadline(now=now, length=24 * H, people=[away, person()]) == back + 24 * H
    gone = person("UTC", away_until=now - H)  # back already: nothing held
    assert phase_deadline(now=now, length=24 * H, people=[gone]) == now + 24 * H


ZONES = [
    "UTC",
    "Europe/Paris",
    "America/Los_Angeles",
    "Asia/Tokyo",
    "Australia/Sydney",
    "Asia/Kolkata",
    "Pacific/Chatham",
]


@settings(max_examples=200, deadline=None)
@given(
    people=st.lists(
        st.tuples(st.sampled_from(ZONES), st.integers(0, 23), st.integers(0, 13), st.integers(1, 14)),
        min_size=1,
        max_size=6,
    ),
    start_minutes=st.integers(0, 365 * 24 * 60),
    length_hours=st.integers(1, 72),
)
def test_property_the_first_free_moment_or_the_fewest_asleep(people, start_minutes, length_hours):
    clocks = [
        person(zone, (hour, 0), ((hour + length) % 24, minute % 60 if length < 14 else 0))
        for zone, hour, minute, length in people
    ]
    start = at(2026, 1, 1) + datetime.timedelta(minutes=start_minutes)
    earliest = start + length_hours * H
    got = deadline_outside_quiet(start=start, length=length_hours * H, people=clocks)
    assert earliest <= got <= earliest + 24 * H

    def asleep(moment):
        return sum(clock.is_quiet(p, moment) for p in clocks)

    # Nobody's quiet hours are shorter than a minute: a grid of minutes sees every earlier, better moment.
    moment, step = earliest, datetime.timedelta(minutes=1)
    if asleep(got) == 0:
        while moment < got:
            assert asleep(moment) > 0, moment
            moment += step
    else:
        while moment <= earliest + 24 * H:
            assert asleep(moment) >= asleep(got)
            if moment < got:
                assert asleep(moment) > asleep(got)
            moment += step


@pytest.mark.parametrize("zone", ZONES)
def test_every_zone_a_night_deadline_lands_at_seven_local(zone):
    someone = person(zone)
    tz = clock.zone(zone)
    start = datetime.datetime(2026, 6, 10, 2, 0, tzinfo=tz) - 24 * H
    got = deadline_outside_quiet(start=start, length=24 * H, people=[someone])
    assert got.astimezone(tz).time() == datetime.time(7, 0)
