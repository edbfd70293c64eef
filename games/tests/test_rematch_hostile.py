"""bench/hostile/rematch.py's checks hold against a really started server (issue 30)."""

import pytest

from bench.hostile import Site
from bench.hostile.rematch import CHECKS

from .factories import deck_with_cards

pytestmark = pytest.mark.django_db(transaction=True)


def test_every_hostile_check_of_held_seats_holds(asgi_server):
    deck_with_cards(84)
    site = Site(base=asgi_server.url)
    try:
        lines = [check(site) for check in CHECKS]  # each raises Fell if the site did not hold
    finally:
        site.close()
    assert len(lines) == 3 and all(lines)
