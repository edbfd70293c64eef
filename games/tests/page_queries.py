"""How many statements a game's page costs, counted while games are played: what the query-count tests of both
games share (games/tests/test_services.py, think_alike/tests/test_services.py)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game
from infrastructure.caches import reset_process_caches


def page_queries(client, game: Game, user) -> int:
    """The statements of ``user``'s page of ``game``, from cold per-process caches: an entry that may or may not
    have outlived its time to live made the count 9 or 11 (issue 40); what must not grow is the count itself."""
    reset_process_caches()
    client.force_login(user)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    return len(ctx.captured_queries)


def page_queries_while_playing(client, tables, play_step, rng, *, steps: int) -> tuple[set[int], set[int]]:
    """``steps`` rounds of one step at each of ``tables`` (``(game, users)``), the first player's page counted
    after each: the counts while a game was still playing, and once it had ended. The cards and dice are the
    server's, so a game may end within the steps (a lucky three-player Think Alike did on CI); a finished game's
    page asks nobody to act and reads less, and is held apart."""
    playing, over = set(), set()
    for _ in range(steps):
        for game, users in tables:
            if play_step(game, users, rng):
                game.refresh_from_db()
                counts = playing if game.status == Game.Status.ACTIVE else over
                counts.add(page_queries(client, game, users[0]))
    return playing, over
