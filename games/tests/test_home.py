"""The home page and the lobby show each game with its own art; a new visitor goes from the home page's
"Play" to a seat in a new game through the sign-up, without losing the way."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Game
from games.services.games import game_create
from think_alike.models import TaskCard
from think_alike.tests.content import small_content

from .factories import UserFactory, deck_with_cards

pytestmark = pytest.mark.django_db

SIGN_UP = {"email": "new@example.com", "password1": "a-Long-pass-123", "password2": "a-Long-pass-123"}


@pytest.fixture
def content():
    deck = deck_with_cards(84, name="Home deck")
    TaskCard.objects.create(key="fruit-not-round", text_en="A fruit that is not round", text_da="En frugt")
    small_content(tasks=20)
    return deck


def _page(client, url: str) -> tuple[str, list[str]]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [query["sql"] for query in queries.captured_queries]


def test_the_home_page_shows_each_game_with_its_cards(client, content):
    html, _ = _page(client, reverse("home"))
    first_cards = list(content.cards.order_by("pk")[:3])
    for card in first_cards:  # the deck's first cards in play, with their words for screen readers
        assert f'src="{card.image.url}" alt="{card.alt_text}"' in html
    assert html.count('class="task-text"') == 1
    assert "A fruit that is not round" in html
    assert ">Storyteller</h2>" in html and ">Think Alike</h2>" in html
    # "Play" goes through the sign-up and on to the new-game form of that game.
    assert 'href="/accounts/signup/?next=/games/new/%3Fkind%3Dstoryteller"' in html
    assert 'href="/accounts/signup/?next=/games/new/%3Fkind%3Dthink_alike"' in html


def test_the_home_page_in_french_shows_the_task_in_french(client, content):
    TaskCard.objects.filter(key="fruit-not-round").update(text_fr="Un fruit qui n'est pas rond")
    client.cookies["django_language"] = "fr"
    html, _ = _page(client, reverse("home"))
    assert 'lang="fr"' in html
    assert "Un fruit qui n&#x27;est pas rond" in html


def test_the_art_is_read_once_and_then_costs_no_query(client, content):
    _html, first = _page(client, reverse("home"))
    assert any("storyteller_card" in sql or "games_card" in sql for sql in first)
    again, second = _page(client, reverse("home"))
    assert not [sql for sql in second if re.search(r"games_(card|deck|taskcard)", sql)]
    assert again.count("<img") >= 3


def test_a_home_without_decks_or_tasks_still_shows_the_games(client):
    html, _ = _page(client, reverse("home"))
    assert ">Storyteller</h2>" in html and ">Think Alike</h2>" in html
    assert "<img" not in html.split('<ul class="showcase"')[1]


def test_lobby_rows_show_their_game_s_picture_at_no_cost_per_row(client, content):
    creator = UserFactory()
    viewer = UserFactory()
    client.force_login(viewer)

    def lobby_queries(count):
        Game.objects.all().delete()
        for _ in range(count):
            game_create(creator=creator, max_seats=4, options={"deck": content.pk})
        game_create(creator=creator, kind="think_alike", max_seats=4)
        _page(client, reverse("games:lobby"))  # the art read once
        return _page(client, reverse("games:lobby"))

    html, few = lobby_queries(1)
    assert html.count('class="kind-thumb kind-thumb-storyteller"') == 1
    assert html.count('class="kind-thumb kind-thumb-think_alike"') == 1
    first_card = content.cards.order_by("pk").first()
    assert f'<img src="{first_card.image.url}" alt=""' in html  # decorative: the row names the game
    html, many = lobby_queries(5)
    assert html.count('class="kind-thumb kind-thumb-storyteller"') == 5
    assert len(many) == len(few)


def test_three_steps_from_play_to_a_seat(client, content):
    home, _ = _page(client, reverse("home"))
    play = re.search(r'href="(/accounts/signup/\?next=[^"]*storyteller)"', home).group(1)
    signup, _ = _page(client, play.replace("&amp;", "&"))
    assert 'name="next" value="/games/new/?kind=storyteller"' in signup
    response = client.post(play, {"username": "newbie", **SIGN_UP, "next": "/games/new/?kind=storyteller"})
    assert response.status_code == 302 and response.url == "/games/new/?kind=storyteller"
    form, _ = _page(client, response.url)
    assert re.search(r'<input[^>]*value="storyteller"[^>]*checked', form)
    response = client.post(
        response.url,
        {"kind": "storyteller", "max_seats": 4, "pace": "async", "phase_hours": 24, "visibility": "public"},
    )
    game = Game.objects.get()
    assert response.status_code == 302 and response.url == game.get_absolute_url()
    assert [seat.user.username for seat in game.seats.all()] == ["newbie"]


def test_the_new_game_form_offers_free_seats_of_that_game(client, content):
    creator, viewer = UserFactory(), UserFactory()
    waiting = game_create(creator=creator, max_seats=4, options={"deck": content.pk})
    other_kind = game_create(creator=creator, kind="think_alike", max_seats=4)
    private = game_create(creator=creator, max_seats=4, visibility="private", options={"deck": content.pk})
    own = game_create(creator=viewer, max_seats=4, options={"deck": content.pk})
    client.force_login(viewer)
    html, _ = _page(client, reverse("games:create") + "?kind=storyteller")
    assert f'action="{reverse("games:join", args=[waiting.pk])}"' in html
    for hidden in (other_kind, private, own):
        assert f'action="{reverse("games:join", args=[hidden.pk])}"' not in html
    # The third click: a seat at a table with a player already waiting.
    response = client.post(reverse("games:join", args=[waiting.pk]))
    assert response.url == waiting.get_absolute_url()
    assert waiting.seats.filter(user=viewer).exists()


def test_the_new_game_form_without_waiting_games_offers_none(client, content):
    client.force_login(UserFactory())
    html, _ = _page(client, reverse("games:create") + "?kind=storyteller")
    assert "join-instead" not in html


def test_the_header_keeps_the_bell_outside_the_menu(client):
    client.force_login(UserFactory(username="anna"))
    html, _ = _page(client, reverse("games:lobby"))
    header = html[html.index('<header class="site-header">') : html.index("</header>")]
    menu = header[header.index("<details") :]
    outside = header[: header.index("<details")]
    assert 'class="brand"' in outside and 'class="bell"' in outside  # on the phone's one line
    assert 'id="site-menu"' in menu
    for url in ("/games/", "/games/mine/", "/games/new/", "/leaderboards/", "/games/rules/", "/players/anna/"):
        assert f'href="{url}"' in menu
    assert 'action="/accounts/logout/"' in menu
