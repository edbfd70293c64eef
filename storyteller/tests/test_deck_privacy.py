"""A player's deck stays private (issue 37, item 5): its pictures go to its owner, the players it is shared with
now, the players seated at a game dealt from it (for that game's cards), spectators of a public game only where
the owner let them (a public deck, or a public game of the owner's own), and staff who may see cards; a public
game on another player's private deck is 409 `deck_private`; unsharing ends access to what was not dealt."""

import json

import pytest
from django.contrib.auth.models import Permission
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from accounts.services import token_create
from games.models import Game, Seat, SeatHold
from games.services.errors import GameError
from games.services.games import game_create, game_join, game_leave, game_rematch
from games.tests.api.conftest import API, ApiClient, error_of
from games.tests.factories import UserFactory, deck_with_cards
from games.tests.play import play_step, view_for
from storyteller.decks.selectors import card_picture_url
from storyteller.models import Card, CardDeal, Deck

from .own_decks import own_deck
from .test_own_decks import media_root, own_rate_counts, photo  # noqa: F401 (autouse fixtures: media, rates)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def dream(db):
    return deck_with_cards(84, slug="dream", name="Dreams")


class Viewer:
    """One person asking for pictures, by the page's session and by an API token alike."""

    def __init__(self, user=None):
        self.user = user if user is not None else UserFactory()
        _token, self.secret = token_create(user=self.user, name="tests")
        self.api = ApiClient(self.secret)
        self.page = Client()
        self.page.force_login(self.user)

    def sees(self, card: Card) -> bool:
        """Served by both doors alike (asserted): True for 200, False for 404."""
        url = card_picture_url(card)
        by_session = self.page.get(url).status_code
        by_token = Client().get(url, headers={"Authorization": f"Bearer {self.secret}"}).status_code
        assert by_session == by_token and by_session in (200, 404), (by_session, by_token)
        return by_session == 200


def anonymous_sees(card: Card) -> bool:
    status = Client().get(card_picture_url(card)).status_code
    assert status in (200, 404)
    return status == 200


def dealt_and_not(game: Game, deck: Deck) -> tuple[Card, Card]:
    """A card of ``deck`` dealt in ``game`` and one never dealt there."""
    dealt = set(CardDeal.objects.filter(game=game).values_list("card_id", flat=True))
    cards = list(deck.cards.order_by("pk"))
    return next(c for c in cards if c.pk in dealt), next(c for c in cards if c.pk not in dealt)


def started(creator, deck: Deck, *, visibility=Game.Visibility.PRIVATE, others=None) -> tuple[Game, list]:
    """A 3-seat game on ``deck`` (its own cards only), made by ``creator`` and started by two more joining."""
    others = others if others is not None else UserFactory.create_batch(2)
    game = game_create(
        creator=creator, max_seats=3, visibility=visibility, options={"deck": deck.pk, "own_cards_only": True}
    )
    for user in others:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    return game, [creator, *others]


def staff_viewer() -> Viewer:
    staff = UserFactory(is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="view_card", content_type__app_label="storyteller"))
    return Viewer(staff)


# --- the matrix -------------------------------------------------------------------------------------------------


def test_who_sees_which_picture_of_a_private_deck():
    owner, sharer, friend, stranger = Viewer(), Viewer(), Viewer(), Viewer()
    still_shared = Viewer()
    deck = own_deck(owner.user, 30, shared_with=[sharer.user, still_shared.user])
    # The sharer's private game with a friend of theirs (not shared with): the friend is seated, dealt cards.
    game, _players = started(sharer.user, deck, others=[friend.user, UserFactory()])
    dealt, undealt = dealt_and_not(game, deck)
    staff = staff_viewer()

    assert owner.sees(dealt) and owner.sees(undealt)
    assert sharer.sees(dealt) and sharer.sees(undealt)  # shared with now: the whole deck
    assert friend.sees(dealt) and not friend.sees(undealt)  # seated: that game's cards only
    assert not stranger.sees(dealt) and not stranger.sees(undealt)
    assert not anonymous_sees(dealt) and not anonymous_sees(undealt)
    assert staff.sees(dealt) and staff.sees(undealt)

    # Unshared: only what was dealt at their table is left to them.
    owner.api.delete(f"/decks/{deck.pk}/shares/{sharer.user.username}")
    assert sharer.sees(dealt) and not sharer.sees(undealt)
    assert still_shared.sees(undealt)  # the others it is shared with keep it

    # A card the owner adds later goes to nobody of that table, the former sharer first.
    later = owner_upload(owner, deck)
    assert owner.sees(later) and still_shared.sees(later) and staff.sees(later)
    for viewer in (sharer, friend, stranger):
        assert not viewer.sees(later)
    assert not anonymous_sees(later)

    # Hidden after reports: its owner and staff only, seated players no more.
    Card.objects.filter(pk=dealt.pk).update(hidden_at="2026-01-01T00:00:00Z")
    assert owner.sees(dealt) and staff.sees(dealt)
    assert not sharer.sees(dealt) and not friend.sees(dealt) and not still_shared.sees(dealt)


def owner_upload(owner: Viewer, deck: Deck) -> Card:
    response = owner.api.client.post(
        f"{API}/decks/{deck.pk}/cards",
        {"file": SimpleUploadedFile("later.jpg", photo(), content_type="image/jpeg"), "alt": "Uploaded later"},
        headers={"Authorization": f"Bearer {owner.secret}"},
    )
    assert response.status_code == 201, response.content
    return Card.objects.get(pk=response.json()["id"])


def test_spectators_of_a_public_game_see_its_cards_only_where_the_owner_let_them():
    owner, sharer, watcher = Viewer(), Viewer(), Viewer()
    deck = own_deck(owner.user, 30, shared_with=[sharer.user])

    # The owner's own public game on their private deck: they made it public, so its watchers see its cards.
    game, _ = started(owner.user, deck, visibility=Game.Visibility.PUBLIC)
    dealt, undealt = dealt_and_not(game, deck)
    assert watcher.sees(dealt) and anonymous_sees(dealt)
    assert not watcher.sees(undealt) and not anonymous_sees(undealt)


def test_a_public_game_made_on_a_shared_private_deck_shows_anonymous_clients_nothing():
    """The finding: a public game on a shared deck, made before the refusal (or by any other way in)."""
    owner, sharer, watcher = Viewer(), Viewer(), Viewer()
    deck = own_deck(owner.user, 30, shared_with=[sharer.user])
    game, players = started(sharer.user, deck)
    Game.objects.filter(pk=game.pk).update(visibility=Game.Visibility.PUBLIC)
    dealt, undealt = dealt_and_not(game, deck)
    for card in (dealt, undealt):
        assert not anonymous_sees(card) and not watcher.sees(card)
    assert Viewer(players[1]).sees(dealt)  # its players still do

    # Once the owner makes the deck public, the game's watchers see its cards (never the rest of the deck) ...
    assert (
        owner.api.client.patch(
            f"{API}/decks/{deck.pk}",
            json.dumps({"public": True}),
            content_type="application/json",
            headers={"Authorization": f"Bearer {owner.secret}"},
        ).status_code
        == 200
    )
    assert anonymous_sees(dealt) and watcher.sees(dealt)
    assert not anonymous_sees(undealt) and not watcher.sees(undealt)
    # ... and no more once it is private again.
    Deck.objects.filter(pk=deck.pk).update(is_public=False)
    assert not anonymous_sees(dealt) and not watcher.sees(dealt)


def test_a_private_game_shows_nothing_to_those_not_seated():
    owner, outsider = Viewer(), Viewer()
    deck = own_deck(owner.user, 30)
    game, _ = started(owner.user, deck)
    dealt, _undealt = dealt_and_not(game, deck)
    assert not outsider.sees(dealt) and not anonymous_sees(dealt)


# --- a public game on another's private deck ---------------------------------------------------------------------


def test_a_public_game_on_a_deck_shared_with_you_is_409_deck_private_until_its_owner_makes_it_public():
    owner, sharer = Viewer(), Viewer()
    deck = own_deck(owner.user, 30, shared_with=[sharer.user])
    body = {"seats": 3, "deck": deck.pk, "visibility": "public"}
    games_before = Game.objects.count()

    refused = sharer.api.post("/games", body)
    assert error_of(refused) == (409, "deck_private")
    assert Game.objects.count() == games_before  # nothing made

    private = sharer.api.post("/games", {**body, "visibility": "private"})
    assert private.status_code == 201, private.content
    own = owner.api.post("/games", body)  # the owner's own public game
    assert own.status_code == 201, own.content

    made_public = owner.api.client.patch(
        f"{API}/decks/{deck.pk}",
        json.dumps({"public": True}),
        content_type="application/json",
        headers={"Authorization": f"Bearer {owner.secret}"},
    )
    assert made_public.status_code == 200 and made_public.json()["public"] is True
    assert sharer.api.get(f"/decks/{deck.pk}").json()["public"] is True
    allowed = sharer.api.post("/games", body)
    assert allowed.status_code == 201, allowed.content

    # A deck not shared with you is 404 whatever the visibility: it is never said to exist.
    assert error_of(Viewer().api.post("/games", body)) == (404, "not_found")


def test_the_new_game_form_says_why_a_public_game_on_a_shared_deck_is_refused():
    owner, sharer = Viewer(), Viewer()
    deck = own_deck(owner.user, 30, name="Holiday", shared_with=[sharer.user])
    games_before = Game.objects.count()
    form = {
        "kind": "storyteller",
        "max_seats": "3",
        "pace": "async",
        "phase_hours": "24",
        "visibility": "public",
        "deck": str(deck.pk),
    }
    response = sharer.page.post(reverse("games:create"), form)
    assert response.status_code == 200
    assert "only they can make a public game on it" in response.content.decode()
    assert Game.objects.count() == games_before
    response = sharer.page.post(reverse("games:create"), {**form, "visibility": "private"})
    assert response.status_code == 302 and Game.objects.count() == games_before + 1


# --- the owner's switch ---------------------------------------------------------------------------------------


def patch(viewer: Viewer, path: str, body) -> object:
    return viewer.api.client.patch(
        API + path,
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {viewer.secret}"},
    )


def test_a_deck_is_private_until_its_owner_makes_it_public_by_the_api():
    owner, sharer = Viewer(), Viewer()
    made = owner.api.post("/decks", {"name": "Cats"}).json()
    assert made["public"] is False
    deck_id = made["id"]
    owner.api.post(f"/decks/{deck_id}/shares", {"username": sharer.user.username})

    assert error_of(patch(sharer, f"/decks/{deck_id}", {"public": True})) == (403, "not_owner")
    assert error_of(patch(Viewer(), f"/decks/{deck_id}", {"public": True})) == (404, "not_found")
    assert error_of(patch(owner, f"/decks/{deck_id}", {"public": "yes"})) == (400, "bad_request")
    assert error_of(patch(owner, f"/decks/{deck_id}", {})) == (400, "bad_request")
    # A refused name changes nothing, the switch beside it included.
    assert error_of(patch(owner, f"/decks/{deck_id}", {"name": " ", "public": True}))[0] == 400
    assert Deck.objects.get(pk=deck_id).is_public is False

    both = patch(owner, f"/decks/{deck_id}", {"name": "Our cats", "public": True})
    assert both.status_code == 200 and both.json()["name"] == "Our cats" and both.json()["public"] is True
    renamed = patch(owner, f"/decks/{deck_id}", {"name": "Cats again"})  # the name alone, as before
    assert renamed.status_code == 200 and renamed.json()["public"] is True
    private = patch(owner, f"/decks/{deck_id}", {"public": False})
    assert private.status_code == 200 and private.json()["public"] is False


def test_the_deck_page_switches_it_public_and_private():
    owner, sharer = Viewer(), Viewer()
    deck = own_deck(owner.user, 2, shared_with=[sharer.user])
    page = owner.page.get(reverse("decks:deck", args=[deck.pk])).content.decode()
    assert "Make the deck public" in page

    response = owner.page.post(reverse("decks:public", args=[deck.pk]), {"public": "1"}, follow=True)
    assert "The deck is public now." in response.content.decode()
    assert "Make the deck private" in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).is_public is True
    assert "Public" in sharer.page.get(reverse("decks:list")).content.decode()

    response = owner.page.post(reverse("decks:public", args=[deck.pk]), {"public": "0"}, follow=True)
    assert "The deck is private now." in response.content.decode()
    assert Deck.objects.get(pk=deck.pk).is_public is False

    response = owner.page.post(reverse("decks:public", args=[deck.pk]), {"public": "maybe"}, follow=True)
    assert "say true or false" in response.content.decode() and Deck.objects.get(pk=deck.pk).is_public is False
    # Not the owner's: refused, nothing changes.
    sharer.page.post(reverse("decks:public", args=[deck.pk]), {"public": "1"})
    assert Deck.objects.get(pk=deck.pk).is_public is False


# --- rematches ------------------------------------------------------------------------------------------------


def finished(creator, deck, *, visibility, others) -> tuple[Game, list]:
    import random

    game, players = started(creator, deck, visibility=visibility, others=others)
    rng = random.Random(5)
    while play_step(game, players, rng):
        pass
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game, players


def test_a_rematch_of_the_owners_public_game_pressed_by_another_player_is_private():
    owner, other, third = UserFactory.create_batch(3)
    deck = own_deck(owner, 30)
    game, _ = finished(owner, deck, visibility=Game.Visibility.PUBLIC, others=[other, third])
    rematch = game_rematch(game_id=game.pk, user=other)
    assert rematch.visibility == Game.Visibility.PRIVATE and rematch.options["deck"] == deck.pk
    # The owner joins it as ever (their seat is held), and its cards go to its table alone.
    game_join(game_id=rematch.pk, user=owner)
    assert Seat.objects.filter(game=rematch).count() == 2


def test_the_owners_rematch_of_their_public_game_stays_public():
    owner, other, third = UserFactory.create_batch(3)
    deck = own_deck(owner, 30)
    game, _ = finished(owner, deck, visibility=Game.Visibility.PUBLIC, others=[other, third])
    assert game_rematch(game_id=game.pk, user=owner).visibility == Game.Visibility.PUBLIC


def test_an_unshared_table_deals_no_more_games_from_the_deck():
    owner, sharer, friend, third = UserFactory.create_batch(4)
    deck = own_deck(owner, 30, shared_with=[sharer])
    game, _ = finished(sharer, deck, visibility=Game.Visibility.PRIVATE, others=[friend, third])
    deck.shared_with.remove(sharer)
    for presser in (sharer, friend):
        with pytest.raises(GameError) as refused:
            game_rematch(game_id=game.pk, user=presser)
        assert refused.value.code == "not_found"
    assert Game.objects.filter(pk=game.pk, rematch__isnull=True).exists()


def test_the_owners_public_rematch_handed_on_to_another_player_goes_private():
    owner, other, third = UserFactory.create_batch(3)
    deck = own_deck(owner, 30)
    game, _ = finished(owner, deck, visibility=Game.Visibility.PUBLIC, others=[other, third])
    rematch = game_rematch(game_id=game.pk, user=owner)
    assert rematch.visibility == Game.Visibility.PUBLIC
    game_leave(game_id=rematch.pk, user=owner)
    rematch.refresh_from_db()
    assert rematch.status == Game.Status.OPEN and rematch.creator_id == other.pk
    assert rematch.visibility == Game.Visibility.PRIVATE  # not the new creator's deck to show the world
    assert SeatHold.objects.filter(game=rematch, declined_at__isnull=True).count() == 2


def test_a_public_deck_keeps_a_handed_on_game_public():
    owner, other = UserFactory.create_batch(2)
    deck = own_deck(owner, 30, shared_with=[other])
    Deck.objects.filter(pk=deck.pk).update(is_public=True)
    game = game_create(creator=owner, max_seats=3, options={"deck": deck.pk}, visibility=Game.Visibility.PUBLIC)
    game_join(game_id=game.pk, user=other)
    game_leave(game_id=game.pk, user=owner)
    game.refresh_from_db()
    assert game.creator_id == other.pk and game.visibility == Game.Visibility.PUBLIC


def test_a_game_waiting_when_its_chooser_was_unshared_is_dealt_from_the_sites_deck(dream):
    owner, sharer = Viewer(), Viewer()
    deck = own_deck(owner.user, 30, shared_with=[sharer.user])
    waiting = game_create(
        creator=sharer.user, max_seats=3, visibility=Game.Visibility.PRIVATE, options={"deck": deck.pk}
    )
    owner.api.delete(f"/decks/{deck.pk}/shares/{sharer.user.username}")
    later = owner_upload(owner, deck)
    for user in UserFactory.create_batch(2):
        game_join(game_id=waiting.pk, user=user, invite_code=waiting.invite_code)
    waiting.refresh_from_db()
    assert waiting.status == Game.Status.ACTIVE
    assert waiting.options["deck"] == dream.pk and "own_cards_only" not in waiting.options
    dealt = set(CardDeal.objects.filter(game=waiting).values_list("card__deck", flat=True))
    assert dealt == {dream.pk}  # nothing of the owner's deck, the card uploaded since least of all
    assert not sharer.sees(later)
    assert view_for(waiting, sharer.user)["deck"]["id"] == dream.pk


def test_a_game_with_the_owner_or_a_sharer_seated_is_dealt_from_the_deck(dream):
    owner, sharer = UserFactory.create_batch(2)
    deck = own_deck(owner, 30, shared_with=[sharer])
    game, _ = started(sharer, deck)  # shared with the chooser still
    assert set(CardDeal.objects.filter(game=game).values_list("card__deck", flat=True)) == {deck.pk}
    unshared_but_owner_seated = own_deck(owner, 30, shared_with=[sharer])
    waiting = game_create(
        creator=sharer,
        max_seats=3,
        options={"deck": unshared_but_owner_seated.pk, "own_cards_only": True},
        visibility=Game.Visibility.PRIVATE,
    )
    unshared_but_owner_seated.shared_with.remove(sharer)
    game_join(game_id=waiting.pk, user=owner, invite_code=waiting.invite_code)
    game_join(game_id=waiting.pk, user=UserFactory(), invite_code=waiting.invite_code)
    waiting.refresh_from_db()
    assert waiting.options["deck"] == unshared_but_owner_seated.pk
    dealt = set(CardDeal.objects.filter(game=waiting).values_list("card__deck", flat=True))
    assert dealt == {unshared_but_owner_seated.pk}
