"""Boards and API views made once per game version and viewer (games.pages), and the games read once per
version (games.selectors.games.recent_games): reused while the game stands still, never across viewers,
versions, languages or browsers."""

import random
import re
from datetime import timedelta
from functools import partial
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.signals import template_rendered
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.services import token_create
from games import pages
from games.models import Game
from games.selectors.games import game_get_for_viewer, game_version, game_view, recent_games

from .factories import UserFactory, started_game
from .play import play_step, view_for

pytestmark = pytest.mark.django_db

TOKEN_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


def board(client, game) -> tuple[str, int]:
    """The board's HTML, and how many queries serving it took."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:board", args=[game.pk]), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    return response.content.decode(), len(queries)


def unmasked(html: str) -> str:
    return TOKEN_FIELD.sub("token", html)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_board_asked_again_at_the_same_version_is_not_made_again():
    game, users = started_game(4)
    client = signed_in(users[1])
    first, first_queries = board(client, game)
    again, again_queries = board(client, game)
    assert unmasked(again) == unmasked(first)  # each answer masks the token anew
    # Made: the version, the game, its seats, the view's own reads. Again: the version only (and the
    # session and user of the request).
    assert again_queries < first_queries
    with CaptureQueriesContext(connection) as queries:
        client.get(reverse("games:board", args=[game.pk]), HTTP_HX_REQUEST="true")
    tables = " ".join(query["sql"] for query in queries.captured_queries)
    assert "games_seat" not in tables and "games_card" not in tables


def test_a_move_makes_a_new_board_for_everyone():
    game, users = started_game(4)
    clients = [signed_in(user) for user in users]
    before = [board(client, game)[0] for client in clients]
    assert play_step(game, users, random.Random(3))
    game.refresh_from_db()
    after = [board(client, game)[0] for client in clients]
    for old, new in zip(before, after):
        assert f'data-version="{game.version}"' in new and f'data-version="{game.version}"' not in old


def test_each_viewer_has_their_own_board_and_spectators_none_of_theirs():
    game, users = started_game(4, visibility="private")
    storyteller_hand = _hand(game, users[0])
    boards = {user.pk: board(signed_in(user), game)[0] for user in users}
    assert len(set(boards.values())) == 4  # each shows its own hand
    mine = boards[users[0].pk]
    other = boards[users[1].pk]
    # Player 1's board offers their cards; player 2's, made after it and with it in the cache, shows none of them
    # (neither as a card to pick nor as a picture; the form's round number may well equal a card's id).
    offered = set(re.findall(r'name="card" value="(\d+)"', mine))
    assert offered == {str(card["id"]) for card in storyteller_hand}
    assert not set(re.findall(r'name="cards?" value="(\d+)"', other)) & offered
    assert not any(card["image"] in other for card in storyteller_hand)
    stranger = signed_in(UserFactory())
    assert stranger.get(reverse("games:board", args=[game.pk])).status_code == 404  # a private game


def test_the_table_is_drawn_once_per_version_from_what_anyone_sees_and_each_viewer_finds_their_seat():
    game, users = started_game(4)
    play_step(game, users, random.Random(3))
    game.refresh_from_db()
    seats = list(game.seats.select_related("user").order_by("position"))
    boards = {user.pk: board(signed_in(user), game)[0] for user in users}
    spectator = board(Client(), game)[0] if game.visibility == "public" else None

    # Drawn from the spectator's view (nobody's hand, nobody's seat), once for this version.
    expected = render_to_string(
        "games/partials/players.html",
        {
            "game": game,
            "view": game_view(game=game, seats=seats, user=AnonymousUser()),
            "me_slot": pages.ME_SLOT_PREFIX,
        },
    )
    assert pages.kept(pages.view_key("table", game=game, version=False), game) == expected
    for seat in seats:
        html = boards[seat.user_id]
        mine = re.findall(r'<li class="player seat-[a-z]+[^"]*"', html)
        assert len(mine) == 4 and sum(" me" in li for li in mine) == 1
        assert f'id="track-{game.pk}-seat-{seat.position}" class="token tc-' in html
        assert re.search(rf'id="track-{game.pk}-seat-{seat.position}" class="token [^"]* me[ "]', html)
        assert "fabula-me-" not in html
    if spectator is not None:
        assert " me" not in spectator and "fabula-me-" not in spectator


def test_no_text_a_player_writes_is_taken_for_a_placeholder():
    """The placeholders of a cached board hold a secret of the server process: a name or a clue that
    looks like one (the fixed placeholders of an earlier version were filled in) is shown as written."""
    assert re.fullmatch(r"[0-9a-f]{16}", pages.SLOT_SECRET)
    game, users = started_game(4)
    for user, name in zip(users, [" fabula-me-1", "fabula-csrf-slot-8c1f0e", "me", "Ada"]):
        user.display_name = name
        user.save()
    recent_games.clear()
    client = signed_in(users[1])
    html = board(client, game)[0]
    assert " fabula-me-1" in html and "fabula-csrf-slot-8c1f0e" in html
    assert len(re.findall(r'<li class="player [^"]* me[ "]', html)) == 1
    assert pages.SLOT_SECRET not in html
    # A clue reading like a placeholder is shown as written to every player.
    storyteller = next(u for u in users if view_for(game, u)["you"]["to_act"])
    card = view_for(game, storyteller)["hand"][0]["id"]
    response = signed_in(storyteller).post(
        reverse("games:act", args=[game.pk]),
        {"type": "clue", "round": 1, "card": card, "text": f"fabula-csrf-slot-8c1f0e{pages.CSRF_SLOT[:12]}"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    for user in users:
        shown = board(signed_in(user), Game.objects.get(pk=game.pk))[0]
        assert f"fabula-csrf-slot-8c1f0e{pages.CSRF_SLOT[:12]}" in shown and pages.SLOT_SECRET not in shown


def test_a_board_asked_by_the_others_after_a_move_draws_only_their_own_parts():
    game, users = started_game(4)
    play_step(game, users, random.Random(4))
    game.refresh_from_db()
    drawn = []
    original = pages.render_to_string

    def counting(template, *args, **kwargs):
        drawn.append(template)
        return original(template, *args, **kwargs)

    with mock.patch.object(pages, "render_to_string", counting):
        for user in users:
            board(signed_in(user), game)
    assert drawn.count(pages.TABLE_TEMPLATE) == 1 and drawn.count(pages.BOARD_TEMPLATE) == 4


def test_what_every_viewer_sees_alike_is_drawn_once_a_version():
    """The board's head, the phase line and the last round revealed are the same for every viewer of a version:
    drawn for the first board asked, taken from the cache for the others; the next version draws them anew."""
    game, users = started_game(4)
    rng = random.Random(7)
    while not view_for(game, users[0]).get("last_round"):
        play_step(game, users, rng)
    game.refresh_from_db()
    templates = game.game_kind.presentation.templates
    drawn = []

    def note(sender, template, **kwargs):
        drawn.append(template.name)

    template_rendered.connect(note)
    try:
        boards = [board(signed_in(user), game)[0] for user in users]
    finally:
        template_rendered.disconnect(note)
    assert drawn.count(pages.BOARD_TEMPLATE) == 4
    assert drawn.count(templates.reveal) == 1 and drawn.count(templates.phase) == 1
    phase_line = re.compile(r'<p class="phase-line">.*?</p>', re.S)
    for html in boards:
        assert 'id="last-round"' in html and '<div class="board-head">' in html
        assert phase_line.search(html).group() == phase_line.search(boards[0]).group()
    # The next version (a clue given: the cards phase) has its own.
    play_step(game, users, rng)
    game.refresh_from_db()
    after = board(signed_in(users[0]), game)[0]
    assert phase_line.search(after).group() != phase_line.search(boards[0]).group()


def test_each_browser_gets_its_own_csrf_token_in_a_cached_board():
    game, users = started_game(4)
    one, two = signed_in(users[0]), signed_in(users[0])  # one player, two browsers
    first, _ = board(one, game)
    second, _ = board(two, game)
    tokens_one, tokens_two = set(TOKEN_FIELD.findall(first)), set(TOKEN_FIELD.findall(second))
    assert tokens_one and tokens_two and tokens_one.isdisjoint(tokens_two)
    assert pages.CSRF_SLOT not in first + second and "fabula-csrf-" not in first + second
    # The token works: the form posted from the cached board is accepted by the CSRF check.
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(users[0])
    page = strict.get(reverse("games:detail", args=[game.pk])).content.decode()
    token = TOKEN_FIELD.search(page).group(1)
    response = strict.post(reverse("games:act", args=[game.pk]), {"csrfmiddlewaretoken": token, "type": "resign"})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.seats.get(user=users[0]).has_resigned


def test_a_board_kept_for_its_version_says_the_time_left_when_it_is_served():
    """A board is kept as long as its version lasts (a day in an asynchronous game); its countdown is filled in
    each time it is served, in the few characters the page's script counts in, in the viewer's language."""
    game, users = started_game(4)
    left = re.compile(r"<time [^>]*data-deadline>([^<]*)</time>")
    assert left.findall(board(signed_in(users[0]), game)[0]) == ["23h 59m"]
    later = game.deadline_at - timedelta(minutes=4, seconds=5)
    with mock.patch("django.utils.timezone.now", return_value=later):
        html, queries = board(signed_in(users[0]), game)
        danish = signed_in(users[1])
        danish.cookies["django_language"] = "da"
        in_danish = board(danish, game)[0]
    assert left.findall(html) == ["4:05"] and pages.TIME_LEFT_SLOT not in html
    with mock.patch("django.utils.timezone.now", return_value=game.deadline_at - timedelta(days=2, hours=3)):
        assert left.findall(board(danish, game)[0]) == ["2 d og 3 t"]
    assert left.findall(in_danish) == ["4:05"]
    with mock.patch("django.utils.timezone.now", return_value=game.deadline_at + timedelta(seconds=1)):
        assert left.findall(board(danish, game)[0]) == ["0:00"]


def test_a_board_in_another_language_is_made_in_that_language():
    game, users = started_game(4)
    client = signed_in(users[1])
    english, _ = board(client, game)
    client.cookies["django_language"] = "da"
    danish, _ = board(client, game)
    assert unmasked(danish) != unmasked(english)
    assert 'lang="da"' in client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_an_error_is_shown_once_and_not_kept():
    game, users = started_game(4)
    client = signed_in(users[1])
    # A vote while the game waits for its first clue is out of phase whoever sends it and whatever their hand
    # (a clue with a fixed card id was accepted whenever the deal happened to give users[1] that card).
    response = client.post(reverse("games:act", args=[game.pk]), {"type": "vote", "card": 1}, HTTP_HX_REQUEST="true")
    assert 'role="alert"' in response.content.decode()
    assert 'role="alert"' not in board(client, game)[0]


def test_the_api_view_is_made_once_per_version_and_viewer():
    game, users = started_game(4)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=users[1], name='bot')[1]}")
    url = f"/api/v1/games/{game.pk}"
    with CaptureQueriesContext(connection) as first:
        one = api.get(url).json()
    with CaptureQueriesContext(connection) as second:
        two = api.get(url).json()
    assert one == two and len(second) < len(first)
    assert play_step(game, users, random.Random(5))
    assert api.get(url).json()["version"] == one["version"] + 1


@pytest.mark.django_db(transaction=True)  # what an action leaves is kept once it commits
@pytest.mark.parametrize("via", ["api", "page"])
def test_the_answer_to_an_action_starts_from_the_game_it_wrote_not_from_reading_it_again(via):
    game, users = started_game(4)
    teller = users[0]
    card = view_for(game, teller)["hand"][0]["id"]
    action = {"type": "clue", "round": 1, "card": card, "text": "a fox"}
    if via == "api":
        client = Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=teller, name='bot')[1]}")
        post = partial(client.post, f"/api/v1/games/{game.pk}/actions", action, content_type="application/json")
    else:
        post = partial(signed_in(teller).post, reverse("games:act", args=[game.pk]), action, HTTP_HX_REQUEST="true")
    with CaptureQueriesContext(connection) as queries:
        response = post()
    assert response.status_code == 200
    sql = [query["sql"] for query in queries.captured_queries]
    after = sql[next(i for i, q in enumerate(sql) if q.upper().startswith("COMMIT")) + 1 :]
    # After the commit, the game's version only: neither the game nor its seats are read again.
    assert [q for q in after if "games_game" in q or "games_seat" in q] == [
        q for q in after if q.startswith('SELECT "version", "created_at" FROM "games_game"')
    ]
    assert len([q for q in after if "games_game" in q]) == 1
    assert "a fox" in response.content.decode()
    # Another player's view at that version is the one a fresh read gives.
    game.refresh_from_db()
    other = users[1]
    kept = game_view(game=game, seats=game_get_for_viewer(game_id=game.pk, user=other)[1], user=other)
    recent_games.clear()
    assert kept == view_for(game, other)


def test_a_game_read_again_at_its_version_comes_from_memory_and_a_new_version_does_not():
    game, users = started_game(4)
    read, seats = game_get_for_viewer(game_id=game.pk, user=users[0])
    with CaptureQueriesContext(connection) as queries:
        again, again_seats = game_get_for_viewer(game_id=game.pk, user=users[0])
    assert len(queries) == 1  # the version
    assert again is not read and again.pk == read.pk and [s.pk for s in again_seats] == [s.pk for s in seats]
    again.state = "changed by a caller"  # a caller's changes stay its own
    assert game_get_for_viewer(game_id=game.pk, user=users[0])[0].state != "changed by a caller"
    Game.objects.filter(pk=game.pk).update(version=game.version + 1)
    with CaptureQueriesContext(connection) as queries:
        moved, _ = game_get_for_viewer(game_id=game.pk, user=users[0])
    # The version, the game, its seats with their users joined (the creator among them)
    assert moved.version == game.version + 1 and len(queries) == 3
    assert moved.creator.pk == game.creator_id and len(queries) == 3


def test_what_memory_gives_is_a_copy_of_its_own_down_to_the_related_rows_it_holds():
    game, users = started_game(4)
    game_get_for_viewer(game_id=game.pk, user=users[0])  # now in memory
    with CaptureQueriesContext(connection) as queries:
        first, first_seats = game_get_for_viewer(game_id=game.pk, user=users[0])
        names = [seat.user.username for seat in first_seats]  # loaded with the seats: no query
        creator = first.creator.username
    assert len(queries) == 1  # the version only
    assert names == [user.username for user in users] and creator == users[0].username
    assert first._state.db == "default" and not first._state.adding
    # A caller's changes, to a field or to a related row it holds, stay its own.
    first.round = 99
    first_seats[0].score = 99
    first_seats[0].user = users[1]
    first._state.fields_cache.pop("creator")
    second, second_seats = game_get_for_viewer(game_id=game.pk, user=users[0])
    assert second.round != 99 and second_seats[0].score != 99
    assert second_seats[0].user.pk == users[0].pk and second.creator.pk == users[0].pk
    assert second is not first and second_seats[0] is not first_seats[0]


def test_a_game_with_the_id_of_an_earlier_one_is_not_taken_for_it():
    game, users = started_game(4)
    game_get_for_viewer(game_id=game.pk, user=users[0])
    stamp = game_version(game_id=game.pk)
    assert recent_games.get(game.pk, stamp) is not None
    assert recent_games.get(game.pk, (stamp[0], "another creation time")) is None


@pytest.mark.parametrize("game_id", [0, -1, 2**63, 10**30, "x", None])
def test_no_such_game_whatever_its_id(game_id):
    assert game_version(game_id=game_id) is None


def _hand(game, user):
    from .play import view_for

    return view_for(game, user).get("hand") or []


def test_a_creator_who_is_not_seated_is_read_with_the_game_and_kept_with_it():
    game, users = started_game(4)
    outsider = UserFactory()
    Game.objects.filter(pk=game.pk).update(creator=outsider)
    recent_games.clear()
    read, seats = game_get_for_viewer(game_id=game.pk, user=users[0])
    assert read.creator.pk == outsider.pk and outsider.pk not in {seat.user_id for seat in seats}
    with CaptureQueriesContext(connection) as queries:
        again, _ = game_get_for_viewer(game_id=game.pk, user=users[0])
        assert again.creator.username == outsider.username
    assert len(queries) == 1  # the version: the creator came from memory with the game


def test_a_new_version_replaces_what_the_last_one_kept_for_the_same_viewer():
    """One entry per game and viewer: what a version made is kept in place of the last version's, not beside
    it, so the cache holds the games being played, not their history (bench/soak.py)."""
    game, users = started_game(4)
    clients = [signed_in(user) for user in users]
    rng = random.Random(5)
    for _ in range(6):
        for client in clients:
            board(client, game)
        assert play_step(game, users, rng)
        game.refresh_from_db()
    for client, user in zip(clients, users, strict=True):
        html, _queries = board(client, game)
        assert f'data-version="{game.version}"' in html
        entry = pages.cache().get(pages.view_key("board", game=game, user=user, version=False))
        assert entry[0] == game.version  # the one entry, made at the last version
        assert f'data-version="{game.version}"' in entry[1]
    table = pages.cache().get(pages.view_key("table", game=game, version=False))
    assert table[0] == game.version


def test_games_read_long_ago_are_let_go_when_another_is_kept(monkeypatch):
    """An entry past its time is never given again: keeping another lets it go, not only the bound."""
    from types import SimpleNamespace

    import infrastructure.caches
    from games.selectors import games as selectors

    clock = [1000.0]
    monkeypatch.setattr(infrastructure.caches, "time", SimpleNamespace(monotonic=lambda: clock[0]))
    recent = selectors.recent_games
    monkeypatch.setattr(recent, "entries", infrastructure.caches.BoundedCache("test.recent_games", size=10, ttl=30))
    played = [started_game(4)[0] for _ in range(3)]
    for game in played:
        recent.put(game.pk, (game.version, "now"), game, [])
        clock[0] += 20
    # At 1060: the first (kept at 1000) is past its 30 s and went when the third was kept; the second (1020)
    # is too now, but stays until something else is kept; the third is given.
    assert list(recent.entries.entries) == [played[1].pk, played[2].pk]
    assert recent.get(played[2].pk, (played[2].version, "now")) is not None


@pytest.mark.parametrize("via", ["api", "board"])
def test_a_fetch_of_the_version_the_viewer_has_answers_304_and_a_new_version_200(via):
    game, users = started_game(4, visibility="private")

    def client_of(user):
        if via == "api":
            return Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=user, name='bot')[1]}")
        client = signed_in(user)
        client.get(reverse("games:detail", args=[game.pk]))  # the page first, as a browser: its CSRF cookie
        return client

    url = f"/api/v1/games/{game.pk}" if via == "api" else reverse("games:board", args=[game.pk])
    viewer = client_of(users[1])
    first = viewer.get(url, HTTP_HX_REQUEST="true")
    etag = first["ETag"]
    assert first.status_code == 200 and first.content and re.fullmatch(r'"[0-9a-f]{32}"', etag)
    assert "private" in first["Cache-Control"] and "no-cache" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        again = viewer.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=f'"other", W/{etag}')
    assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag
    assert len(queries) <= 2  # the token or session's user aside: the version, nothing more
    # Another viewer of the same version has another view, and so another tag: theirs is made, not 304.
    other = client_of(users[2]).get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert other.status_code == 200 and other["ETag"] != etag and other.content
    # Nobody who may not see the game learns anything from a tag: 404 as without one.
    stranger = client_of(UserFactory()).get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert stranger.status_code == 404
    # A move: the old tag no longer matches, the new version comes whole.
    assert play_step(game, users, random.Random(5))
    game.refresh_from_db()
    moved = viewer.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert moved.status_code == 200 and moved["ETag"] != etag
    assert f"{game.version}" in re.findall(r'(?:"version": ?|data-version=")(\d+)', moved.content.decode())


def test_a_board_kept_by_a_browser_is_not_reused_once_its_csrf_token_changed():
    game, users = started_game(4)
    client = signed_in(users[1])
    client.get(reverse("games:detail", args=[game.pk]))
    url = reverse("games:board", args=[game.pk])
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    client.cookies["csrftoken"] = "x" * 32  # a new token (a new log-in rotates it): its forms need it
    fresh = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert fresh.status_code == 200 and fresh["ETag"] != etag


def test_the_answer_to_an_action_is_never_304():
    game, users = started_game(4)
    teller = users[0]
    card = view_for(game, teller)["hand"][0]["id"]
    client = Client(HTTP_AUTHORIZATION=f"Bearer {token_create(user=teller, name='bot')[1]}")
    response = client.post(
        f"/api/v1/games/{game.pk}/actions",
        {"type": "clue", "round": 1, "card": card, "text": "a fox"},
        content_type="application/json",
        HTTP_IF_NONE_MATCH="*",
    )
    assert response.status_code == 200 and response.json()["version"] == game.version + 1


def test_a_games_addresses_are_reversed_once_not_for_each_form_of_each_board():
    """Reversing an address costs more than drawing most of a board: the action's and the board's are reversed the
    first time a board of the game is drawn (games.pages.game_urls) and never again, whoever looks and whatever the
    version; every form of every board posts to it."""
    game, users = started_game(4)
    reversed_names = []
    original = reverse

    def counting(viewname, *args, **kwargs):
        reversed_names.append(viewname)
        return original(viewname, *args, **kwargs)

    act = reverse("games:act", args=[game.pk])
    with mock.patch("django.urls.reverse", counting), mock.patch.object(pages, "reverse", counting):
        rng = random.Random(2)
        for _ in range(3):  # the clue, the cards and the votes: forms of every kind
            shown = [board(signed_in(user), Game.objects.get(pk=game.pk))[0] for user in users]
            assert sum(html.count(f'action="{act}"') for html in shown) >= 4
            play_step(game, users, rng)
    assert reversed_names.count("games:act") == reversed_names.count("games:board") == 1
