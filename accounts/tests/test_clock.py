"""accounts.clock: quiet hours on a person's own clock, across midnight and daylight saving."""

import datetime
from dataclasses import dataclass

from accounts.clock import QuietHours, is_quiet, is_zone_name, quiet_ends_at, quiet_hours

UTC = datetime.UTC


@dataclass
class Person:
    time_zone: str = "UTC"
    quiet_hours_start: datetime.time | None = datetime.time(23, 0)
    quiet_hours_end: datetime.time | None = datetime.time(7, 0)


def at(*args) -> datetime.datetime:
    return datetime.datetime(*args, tzinfo=UTC)


def test_quiet_across_midnight_in_utc():
    person = Person()
    assert is_quiet(person, at(2026, 12, 6, 23, 0))
    assert is_quiet(person, at(2026, 12, 7, 6, 59))
    assert not is_quiet(person, at(2026, 12, 7, 7, 0))
    assert not is_quiet(person, at(2026, 12, 6, 22, 59))
    assert quiet_ends_at(person, at(2026, 12, 7, 3, 0)) == at(2026, 12, 7, 7, 0)
    assert quiet_ends_at(person, at(2026, 12, 6, 23, 30)) == at(2026, 12, 7, 7, 0)
    assert quiet_ends_at(person, at(2026, 12, 7, 12, 0)) == at(2026, 12, 7, 12, 0)


def test_quiet_in_the_persons_own_zone():
    helsinki = Person(time_zone="Europe/Helsinki")  # UTC+2 in December
    assert is_quiet(helsinki, at(2026, 12, 6, 21, 0))  # 23:00 in Helsinki
    assert not is_quiet(helsinki, at(2026, 12, 7, 5, 0))  # 07:00 in Helsinki
    assert quiet_ends_at(helsinki, at(2026, 12, 7, 1, 0)) == at(2026, 12, 7, 5, 0)
    tokyo = Person(time_zone="Asia/Tokyo")  # UTC+9
    assert is_quiet(tokyo, at(2026, 12, 6, 15, 0))  # 00:00 in Tokyo
    assert quiet_ends_at(tokyo, at(2026, 12, 6, 15, 0)) == at(2026, 12, 6, 22, 0)


def test_daytime_quiet_hours_and_off():
    person = Person(quiet_hours_start=datetime.time(9, 0), quiet_hours_end=datetime.time(17, 0))
    assert is_quiet(person, at(2026, 12, 6, 12, 0))
    assert not is_quiet(person, at(2026, 12, 6, 18, 0))
    off = Person(quiet_hours_start=None, quiet_hours_end=None)
    assert quiet_hours(off) is None
    assert not is_quiet(off, at(2026, 12, 6, 3, 0))
    assert quiet_ends_at(off, at(2026, 12, 6, 3, 0)) == at(2026, 12, 6, 3, 0)


def test_daylight_saving_night():
    # Europe/Berlin springs forward at 02:00 local on 2027-03-28: the night is an hour shorter in UTC.
    berlin = Person(time_zone="Europe/Berlin")
    assert quiet_ends_at(berlin, at(2027, 3, 28, 1, 0)) == at(2027, 3, 28, 5, 0)  # 07:00 CEST
    assert quiet_ends_at(berlin, at(2027, 3, 27, 23, 0)) == at(2027, 3, 28, 5, 0)


def test_length_and_zone_names():
    assert QuietHours(datetime.time(23, 0), datetime.time(7, 0)).length == datetime.timedelta(hours=8)
    assert QuietHours(datetime.time(1, 0), datetime.time(6, 30)).length == datetime.timedelta(hours=5, minutes=30)
    assert is_zone_name("America/Sao_Paulo")
    assert not is_zone_name("Mars/Olympus")
    assert not is_zone_name("")
    assert not is_zone_name(None)
    assert not is_zone_name("../../etc/passwd")
