import re

import pytest
from django.urls import reverse

from games import kinds
from games.models import Game

from .factories import UserFactory, deck_with_cards, started_game
from .play import view_for
from .test_services import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def deck():
    return deck_with_cards()


def test_create_a_game_from_the_form(client, deck):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("games:create")).status_code == 200
    response = client.post(
        reverse("games:create"),
        {"max_seats": "5", "pace": "async", "phase_hours": "12", "visibility": "private", "deck": deck.pk},
    )
    game = Game.objects.get()
    assert response.url == game.get_absolute_url()
    assert (game.max_seats, game.pace, game.phase_seconds, game.visibility) == (5, "async", 12 * 3600, "private")
    page = client.get(game.get_absolute_url()).content.decode()
    assert game.get_invite_url() in page  # the creator sees the invite link
    assert "1 of 5 seats taken" in page


def test_create_refuses_bad_form(client, deck):
    client.force_login(UserFactory())
    response = client.post(
        reverse("games:create"), {"max_seats": "9", "pace": "fast", "phase_hours": "2", "visibility": "x"}
    )
    assert response.status_code == 200
    assert Game.objects.count() == 0


def test_lobby_lists_public_open_games_and_joins_with_a_click(client, deck):
    from games.services.games import game_create

    public = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk})
    private = game_create(creator=UserFactory(), max_seats=4, options={"deck": deck.pk}, visibility="private")
    me = UserFactory()
    client.force_login(me)
    page = client.get(reverse("games:lobby")).content.decode()
    assert public.get_absolute_url() in page
    assert private.get_absolute_url() not in page
    response = client.post(reverse("games:join", args=[public.pk]))
    assert response.url == public.get_absolute_url()
    assert public.seats.filter(user=me).exists()
    # Joining a private game without the link is refused: it answers as no game at all (issue 13).
    response = client.post(reverse("games:join", args=[private.pk]))
    assert response.status_code == 404
    assert not private.seats.filter(user=me).exists()


def test_invite_link_flow(client, deck):
    from games.services.games import game_create

    game = game_create(
        creator=UserFactory(display_name="Anna"), max_seats=3, options={"deck": deck.pk}, visibility="private"
    )
    url = game.get_invite_url()
    page = client.get(url).content.decode()
    assert "Anna invites you" in page and "Sign up" in page
    # A stranger cannot see the private game itself.
    assert client.get(game.get_absolute_url()).status_code == 404
    me = UserFactory()
    client.force_login(me)
    response = client.post(reverse("games:join", args=[game.pk]), {"invite_code": game.invite_code})
    assert response.url == game.get_absolute_url()
    assert client.get(url).url == game.get_absolute_url()  # already seated: straight to the game


def test_leave_and_start_from_the_page(client, deck):
    from games.services.games import game_create, game_join

    creator, b, c = UserFactory.create_batch(3)
    game = game_create(creator=creator, max_seats=5, options={"deck": deck.pk})
    game_join(game_id=game.pk, user=b)
    client.force_login(b)
    client.post(reverse("games:leave", args=[game.pk]))
    assert not game.seats.filter(user=b).exists()
    game_join(game_id=game.pk, user=b)
    game_join(game_id=game.pk, user=c)
    client.force_login(creator)
    client.post(reverse("games:start", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE


def test_play_a_clue_through_the_page_with_and_without_htmx(client):
    game, users = started_game(3)
    teller = users[0]
    client.force_login(teller)
    card = view_for(game, teller)["hand"][0]["id"]
    response = client.post(
        reverse("games:act", args=[game.pk]),
        {"type": "clue", "card": card, "text": "<b>bold</b> & true", "round": 1},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="board"' in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; true" in html and "<b>bold</b>" not in html
    # The other players see the clue and are asked for their cards.
    client.force_login(users[1])
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Waiting for your 2 cards." in page
    assert 'type="checkbox" name="cards"' in page
    # Without htmx: post, redirect, message.
    hand = [c["id"] for c in view_for(game, users[1])["hand"]]
    response = client.post(
        reverse("games:act", args=[game.pk]), {"type": "submit", "cards": hand[:2], "round": 1}, follow=True
    )
    assert "Your card is handed in." in response.content.decode()


def test_bad_forms_get_a_message_and_change_nothing(client):
    game, users = started_game(4)
    client.force_login(users[0])
    before = snapshot(game)
    other_card = view_for(game, users[1])["hand"][0]["id"]
    cases = [
        ({"type": "clue", "card": other_card, "text": "x", "round": 1}, "That card is not in your hand."),
        ({"type": "clue", "card": "DROP TABLE", "text": "x"}, "Check the card of this clue action."),
        ({"type": "vote", "position": 2, "round": 1}, "That is not what the game is waiting for now."),
        ({"type": "fly"}, "An action is an object whose type is one of: clue, resign, submit, vote."),
        (
            {"type": "clue", "card": view_for(game, users[0])["hand"][0]["id"], "text": "", "round": 1},
            "Write a clue first.",
        ),
        (
            {"type": "clue", "card": view_for(game, users[0])["hand"][0]["id"], "text": "x", "round": 9},
            "The game has moved on",
        ),
    ]
    for data, message in cases:
        response = client.post(reverse("games:act", args=[game.pk]), data, HTTP_HX_REQUEST="true")
        assert message in response.content.decode(), data
        assert snapshot(game) == before
    stranger = UserFactory()
    client.force_login(stranger)
    response = client.post(reverse("games:act", args=[game.pk]), {"type": "resign"}, follow=True)
    assert "You do not play in this game." in response.content.decode()
    assert snapshot(game) == before


def test_get_is_not_allowed_on_actions(client):
    game, users = started_game(3)
    client.force_login(users[0])
    assert client.get(reverse("games:act", args=[game.pk])).status_code == 405


def test_pages_say_who_we_wait_for(client):
    game, users = started_game(3)
    client.force_login(users[1])
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Be the first to give a clue" in page
    card = view_for(game, users[0])["hand"][0]["id"]
    from games.services.games import game_act

    game_act(game_id=game.pk, user=users[0], action={"type": "clue", "card": card, "text": "x"})
    client.force_login(users[0])
    page = client.get(game.get_absolute_url()).content.decode()
    names = sorted([users[1].name, users[2].name])
    assert f"Waiting for {names[0]} and {names[1]} to hand in cards." in page


def test_my_games_lists_my_turn_first(client, deck):
    from games.services.games import game_act, game_create

    game_a, users = started_game(3)
    me = users[0]
    waiting = game_create(creator=me, max_seats=4, options={"deck": deck.pk})
    client.force_login(me)
    # Round 1: everyone may give the first clue, so game_a is my turn.
    page = client.get(reverse("games:mine")).content.decode()
    assert page.index(game_a.get_absolute_url()) < page.index(waiting.get_absolute_url())
    assert "Your turn" in page
    card = view_for(game_a, me)["hand"][0]["id"]
    game_act(game_id=game_a.pk, user=me, action={"type": "clue", "card": card, "text": "x"})
    page = client.get(reverse("games:mine")).content.decode()
    assert "Your turn" not in page


def test_spectator_sees_a_public_game_without_hands(client):
    game, users = started_game(3)
    client.force_login(UserFactory())
    response = client.get(game.get_absolute_url())
    assert response.status_code == 200
    assert "Your hand" not in response.content.decode()
    assert client.get(reverse("games:board", args=[game.pk])).status_code == 200


def test_rules_page(client):
    page = client.get(reverse("games:rules", args=["storyteller"])).content.decode()
    assert "storyteller" in page.lower()


def test_my_games_counts_every_seat(client, deck):
    from games.services.games import game_create, game_join

    me, other = UserFactory.create_batch(2)
    game = game_create(creator=me, max_seats=5, options={"deck": deck.pk})
    game_join(game_id=game.pk, user=other)
    client.force_login(me)
    page = client.get(reverse("games:mine")).content.decode()
    assert "2 of 5 seated" in page


def test_rules_index_links_every_kind(client):
    page = client.get(reverse("games:rules_index")).content.decode()
    for kind in kinds.every():
        assert reverse("games:rules", args=[kind.slug]) in page
        assert str(kind.label) in page
    assert reverse("games:rules_index") in client.get(reverse("games:lobby")).content.decode()  # the nav's link


def _many_games(creator, count: int, **kwargs):
    """``count`` open games of ``creator`` at once (rows, as the services make them)."""
    from games.models import Seat

    games = Game.objects.bulk_create(
        Game(kind="storyteller", max_seats=4, phase_seconds=3600, creator=creator, options={}, **kwargs)
        for _ in range(count)
    )
    Seat.objects.bulk_create(Seat(game=game, user=creator, position=0) for game in games)
    return sorted(games, key=lambda game: game.pk)


def test_the_lobby_is_paged_newest_first(client):
    from games.views import LOBBY_PAGE_SIZE

    games = _many_games(UserFactory(), LOBBY_PAGE_SIZE + 5)
    first = client.get(reverse("games:lobby")).content.decode()
    assert games[-1].get_absolute_url() in first and games[0].get_absolute_url() not in first
    assert "Page 1 of 2" in first
    second = client.get(reverse("games:lobby"), {"page": 2}).content.decode()
    assert games[0].get_absolute_url() in second and games[-1].get_absolute_url() not in second
    # The live refresh of page 2 fetches page 2, and the fragment says so too.
    assert f'{reverse("games:lobby_fragment")}?page=2"' in second
    fragment = client.get(reverse("games:lobby_fragment"), {"page": 2}).content.decode()
    assert games[0].get_absolute_url() in fragment and "Page 2 of 2" in fragment


def test_my_games_are_paged_and_cost_the_same_however_many(client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games.views import MINE_PAGE_SIZE

    me = UserFactory()
    client.force_login(me)
    _many_games(me, 3)
    with CaptureQueriesContext(connection) as few:
        assert client.get(reverse("games:mine")).status_code == 200
    games = _many_games(me, MINE_PAGE_SIZE * 3)
    with CaptureQueriesContext(connection) as many:
        page = client.get(reverse("games:mine")).content.decode()
    assert len(many.captured_queries) <= len(few.captured_queries) + 1  # the pager's count
    assert page.count('class="game-row') == MINE_PAGE_SIZE and "Page 1 of 4" in page
    last = client.get(reverse("games:mine"), {"page": 4}).content.decode()
    assert last.count('class="game-row') == 3  # 63 games, 20 a page
    every = "".join(client.get(reverse("games:mine"), {"page": n}).content.decode() for n in (1, 2, 3, 4))
    assert all(game.get_absolute_url() in every for game in games)  # each on some page, once
    nonsense = client.get(reverse("games:mine"), {"page": "nonsense"}).content.decode()
    assert "Page 1 of 4" in nonsense


def _page_and_queries(client, url) -> tuple[str, list[str]]:
    """A page's HTML and the SQL of a second load (what is read once per process or session left out)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        page = client.get(url).content.decode()
    return page, [query["sql"] for query in queries.captured_queries]


def test_my_games_rows_name_every_player_at_no_cost_per_player_and_without_the_games_state(client):
    """A row's players come from one query for the page's seats, whatever the seats per game; no game's
    state and no user's password is read for the list."""
    from accounts.avatars import AvatarSymbols, avatar_svg
    from games.models import Seat

    me, other = UserFactory(display_name="Me"), UserFactory(display_name='Ann <b>&"')
    players = [other, *(UserFactory() for _ in range(4))]
    client.force_login(me)

    def mine(seats_per_game):
        Game.objects.all().delete()
        games = _many_games(me, 3, status=Game.Status.ACTIVE, round=2, state={"big": "x" * 1000})
        Seat.objects.filter(game__in=games).update(to_act=True, score=7)
        Seat.objects.bulk_create(
            Seat(game=game, user=players[n - 1], position=n, score=3, is_winner=n == 1)
            for game in games
            for n in range(1, seats_per_game)
        )
        return _page_and_queries(client, reverse("games:mine"))

    few_page, few = mine(2)
    many_page, many = mine(6)
    assert len(many) == len(few)
    assert not [sql for sql in many if '"state"' in sql or '"password"' in sql]
    assert many_page.count('<span class="player-chip') == 3 * 6 and few_page.count('<span class="player-chip') == 3 * 2
    # What each chip says, as before: the avatar, the escaped name, the score once begun, who is to act, the winner.
    colour = Seat.objects.filter(user=me).first().colour
    symbols = AvatarSymbols()
    avatar = symbols.use(key=me.username, name="Me", colour=colour, shape=0, size=20, css_class="avatar avatar-chip")
    mark = f'<span class="player-chip acting">{avatar}Me · 7 <span class="sr-only">(to act)</span><svg class="icon"'
    assert mark in many_page
    # Its drawing is in the list once, drawn as the avatar alone would be.
    alone = avatar_svg(key=me.username, name="Me", colour=colour, shape=0, size=20, css_class="avatar avatar-chip")
    drawing = re.search(r"<path .*</text>", alone).group(0)
    assert many_page.count(f'viewBox="-18 -18 36 36">{drawing}</symbol>') == 1
    assert '<span class="player-chip winner"><svg' in many_page and "Ann &lt;b&gt;&amp;&quot; · 3</span>" in many_page
    assert "Ann <b>" not in many_page


def test_my_games_draws_each_players_avatar_once_however_many_rows_show_them(client):
    """20 rows of eight players, the same eight: each avatar is drawn once on the page and each chip points
    at a drawing that is there; the page stays small (each drawing again was 0.65 KB a player and row)."""
    from games.models import Seat

    me = UserFactory(display_name="Me")
    friends = [UserFactory() for _ in range(7)]
    client.force_login(me)
    games = _many_games(me, 25, status=Game.Status.ACTIVE, round=2)
    Seat.objects.bulk_create(
        Seat(game=game, user=friend, position=n, colour=friend.colour)
        for game in games
        for n, friend in enumerate(friends, start=1)
    )
    page = client.get(reverse("games:mine")).content.decode()
    used = re.findall(r'<use href="#(av-[0-9a-f]+)"></use>', page)
    drawn = re.findall(r'<symbol id="(av-[0-9a-f]+)"', page)
    assert len(used) == 20 * 8
    assert len(drawn) == len(set(drawn)) == len(set(used)) == 8
    assert set(used) == set(drawn)
    assert len(page.encode()) < 60_000
    # The list's own fragment (what the live refresh swaps in) carries its drawings too.
    fragment = client.get(reverse("games:mine_fragment")).content.decode()
    assert set(re.findall(r'<use href="#(av-[0-9a-f]+)"', fragment)) == set(
        re.findall(r'<symbol id="(av-[0-9a-f]+)"', fragment)
    )


def test_the_lobby_costs_the_same_however_many_rows_and_reads_no_game_state(client):
    client.force_login(UserFactory())
    creator = UserFactory(display_name="Bo & Co")

    def lobby(count):
        Game.objects.all().delete()
        _many_games(creator, count, visibility="public")
        return _page_and_queries(client, reverse("games:lobby"))

    _page, few = lobby(2)
    page, many = lobby(25)
    assert len(many) == len(few)
    assert not [sql for sql in many if '"state"' in sql or '"password"' in sql]
    assert page.count('class="game-row"') == 25 and page.count("by Bo &amp; Co") == 25
    assert page.count("<strong>Storyteller</strong>") == 25


def test_every_page_names_the_site_icon_and_the_icon_exists(client):
    from pathlib import Path

    from django.contrib.staticfiles import finders

    page = client.get("/").content.decode()
    assert '<link rel="icon" href="/static/img/icon.svg" type="image/svg+xml">' in page
    icon = finders.find("img/icon.svg")
    assert icon and Path(icon).read_text().startswith("<svg")


def test_my_finished_games_come_newest_first(client):
    """Issue 39: finished games were listed oldest first (they have no deadline; they were sorted by their start)."""
    from datetime import timedelta

    from django.utils import timezone

    from games.services.games import game_create

    user = UserFactory()
    deck = deck_with_cards()
    games = [game_create(creator=user, max_seats=4, options={"deck": deck.pk}) for _ in range(3)]
    now = timezone.now()
    for age, game in zip((3, 1, 2), games, strict=True):  # the second finished last, the first first
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED, finished_at=now - timedelta(days=age))
    client.force_login(user)
    page = client.get(reverse("games:mine")).content.decode()
    positions = [page.index(game.get_absolute_url() + '"') for game in games]
    assert positions[1] < positions[2] < positions[0]
