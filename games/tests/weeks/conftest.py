from games.tests.api.conftest import anon, deck, fresh_rate_counts, make_player, seated  # noqa: F401  (the API's fixtures)
