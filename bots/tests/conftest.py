from games.tests.api.conftest import anon, deck, fresh_rate_counts, keep_connection, make_player  # noqa: F401
