"""The markers put on in one place (the root conftest.py): "slow", which `bin/test --fast` leaves out, and
"live", the browser tests that CI's PostgreSQL and Redis pass keeps."""

import types
from pathlib import Path

import pytest

import conftest


class Item:
    def __init__(self, nodeid: str, fixturenames=(), marked=()):
        self.nodeid = nodeid
        self.fixturenames = list(fixturenames)
        self.marked = set(marked)  # the markers the test carries itself (its module's pytestmark)
        self.marks = []

    def add_marker(self, mark):
        self.marks.append(mark.name)

    def get_closest_marker(self, name):
        return name if name in self.marked else None


@pytest.mark.parametrize(
    ("nodeid", "fixtures", "slow"),
    [
        ("games/tests/timeouts/test_kill.py::test_a_celery_worker_killed_in_the_middle_of_a_timeout", (), True),
        ("config/tests/test_server.py::test_a_100_kb_url_is_414", ("asgi_server", "db"), True),
        (
            "think_alike/tests/grouping/test_group_answers_command.py::test_with_the_process_standard_input_and_output",
            (),
            True,
        ),
        ("think_alike/tests/grouping/test_group_answers_command.py::test_the_help_says_what_it_reads", (), False),
        ("games/tests/engine/test_rules.py::test_points_add_up", ("db",), False),
    ],
)
def test_a_test_is_slow_by_its_fixture_or_its_name_in_the_list(nodeid, fixtures, slow):
    item = Item(nodeid, fixtures)
    conftest.pytest_itemcollected(item)
    assert item.marks == (["slow"] if slow else [])


@pytest.mark.parametrize(
    ("fixtures", "marked", "marks"),
    [
        (("asgi_server", "browser"), {"browser"}, ["slow", "live"]),  # a browser on the real server
        (("live_server", "browser"), {"browser"}, []),  # a browser on Django's in-process server
        (("asgi_server",), set(), ["slow"]),  # the real server without a browser
    ],
)
def test_a_browser_test_on_the_real_server_is_live(fixtures, marked, marks):
    item = Item("games/tests/live/test_pages.py::test_x", fixtures, marked)
    conftest.pytest_itemcollected(item)
    assert item.marks == marks


def test_every_name_in_the_list_is_there_and_a_stale_one_stops_the_run(monkeypatch):
    root = Path(conftest.__file__).parent
    config = types.SimpleNamespace(rootpath=root)
    conftest.pytest_configure(config)  # today's list: every module is there
    monkeypatch.setattr(conftest, "SLOW_TESTS", (*conftest.SLOW_TESTS, "games/tests/test_gone.py::test_x"))
    with pytest.raises(pytest.UsageError, match="games/tests/test_gone.py::test_x"):
        conftest.pytest_configure(config)
