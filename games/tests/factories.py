import factory
from django.contrib.auth import get_user_model

from games.services.games import game_create, game_join
from storyteller.models import Card, Deck


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.com")
    display_name = factory.Sequence(lambda n: f"Player {n}")
    # No quiet hours unless a test gives some: an asynchronous deadline is then start + length at any hour the
    # suite runs (issue 38's tests set their players' clocks themselves).
    quiet_hours_start = None
    quiet_hours_end = None
    password = factory.PostGenerationMethodCall("set_password", "correct horse battery")

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class DeckFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Deck

    slug = factory.Sequence(lambda n: f"deck-{n}")
    name = factory.Sequence(lambda n: f"Deck {n}")


class CardFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Card

    deck = factory.SubFactory(DeckFactory)
    image = factory.Sequence(lambda n: f"cards/test/{n}.webp")
    alt_text = factory.Sequence(lambda n: f"Picture number {n}")


def deck_with_cards(count: int = 84, **deck_kwargs) -> Deck:
    deck = DeckFactory(**deck_kwargs)
    Card.objects.bulk_create(
        Card(deck=deck, image=f"cards/test/{deck.slug}-{i}.webp", alt_text=f"Picture {i} of {deck.name}")
        for i in range(count)
    )
    return deck


def started_game(players: int = 4, *, deck: Deck | None = None, **create_kwargs):
    """A game with ``players`` seated and started (the last join starts it)."""
    deck = deck or deck_with_cards()
    users = UserFactory.create_batch(players)
    options = {"deck": deck.pk, **create_kwargs.pop("options", {})}
    game = game_create(creator=users[0], max_seats=players, options=options, **create_kwargs)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    game.refresh_from_db()
    return game, users
