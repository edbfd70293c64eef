"""Every registered kind of game, played at random to its end through the services.

As OpenSpiel's ``games_sim_test`` does for its registry: a kind is tested the day it
registers. Each game is played with a seeded random source: a seat the game waits
for takes the action its kind's ``sample_action`` draws, and now and then a deadline
passes instead (always, when the kind offers no action). At every step:

- the stored state reads back, and writes again, to the same dict (``to_dict`` /
  ``from_dict`` round trips);
- the version goes up by one with every change;
- what an action leaves for the views asked next (``game_remember``) is what reading the
  game and its seats again gives, field by field;
- the page renders for every seat and for a spectator;
- a seat's choice made in secret (a phase that goes on after it) shows in no other
  seat's view nor the spectator's: no new text of it, no new id of it;
- the game ends within a bounded number of actions, and letting every deadline
  pass ends it too (or pauses it, for a kind that pauses when all are absent).
"""

import random
from datetime import timedelta

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from accounts.services import token_create
from games import kinds
from games.models import Game, Move, Seat
from games.selectors.games import game_version, game_view, recent_games, seats_of
from games.services.games import game_act, game_create, game_expire, game_join
from games.tests.factories import UserFactory
from games.tests.odd_one_out.kind import KIND as ODD

pytestmark = pytest.mark.django_db

KINDS = kinds.every()
MAX_ACTIONS = 3000
EXPIRE_SOMETIMES = 0.05
RESIGN_SOMETIMES = 0.005


def kind_ids(kind):
    return kind.slug


@pytest.fixture(autouse=True)
def no_rate_limits(settings):
    settings.FABULA_API_RATES = {"requests": (10**6, 60), "actions": (10**6, 60)}


@pytest.fixture
def content():
    """Load each kind's own content (decks, task cards) once per test."""
    loaded = set()

    def load(kind):
        if kind.slug not in loaded:
            list(kind.load_content())
            loaded.add(kind.slug)

    return load


def started(kind, seats: int):
    users = UserFactory.create_batch(seats)
    game = game_create(creator=users[0], kind=kind.slug, max_seats=seats)
    for user in users[1:]:
        game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE and game.state is not None
    return game, users


def leaves(value, key=None):
    """Every (key, leaf) of a view: the texts and numbers it shows, with the key they show under."""
    if isinstance(value, dict):
        for k, item in value.items():
            yield from leaves(item, k)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from leaves(item, key)
    else:
        yield key, value


def views_of(game, users, spectator):
    seats = list(game.seats.select_related("user").order_by("position"))
    viewers = [*users, spectator]
    return {viewer.pk: game_view(game=game, seats=seats, user=viewer) for viewer in viewers}


def secret_leaks(action: dict, before: dict, after: dict) -> list:
    """What of ``action`` a view shows after it that it did not show before: its texts, and its ids under "id"."""
    texts, ids = set(), set()
    for _key, value in leaves({k: v for k, v in action.items() if k != "type"}):
        if isinstance(value, str) and len(value.strip()) > 1:
            texts.add(value.strip().casefold())
        elif isinstance(value, int) and not isinstance(value, bool):
            ids.add(value)
    shown = set(leaves(before))
    texts -= {value.strip().casefold() for _key, value in shown if isinstance(value, str)}
    return [
        (key, value)
        for key, value in set(leaves(after)) - shown
        if (isinstance(value, str) and value.strip().casefold() in texts) or (key == "id" and value in ids)
    ]


def check_state(game, kind):
    engine = kind.engine
    state = engine.from_dict(game.state)
    assert engine.to_dict(state) == game.state
    assert engine.from_dict(engine.to_dict(state)) == state
    assert (game.round, game.phase) == (state.round, str(state.phase))
    return state


class Viewer:
    """One who looks at the game: through the pages (logged in, or not) and, with an account, the API."""

    def __init__(self, user=None, *, api: bool = True):
        self.user = user
        self.pages = Client()
        self.api = None
        if user is not None:
            self.pages.force_login(user)
        if user is not None and api:
            _token, secret = token_create(user=user, name="conformance")
            self.api = Client(headers={"Authorization": f"Bearer {secret}"})

    def check(self, game) -> None:
        """The game's page renders, and the API's view of it validates against its kind's model."""
        response = self.pages.get(reverse("games:detail", args=[game.pk]))
        assert response.status_code == 200, response.content[-2000:]
        if self.api is not None:
            response = self.api.get(f"/api/v1/games/{game.pk}")
            assert response.status_code == 200, response.content[:2000]
            assert (response.json()["kind"], response.json()["version"]) == (game.kind, game.version)


def check_pages(game, viewers) -> None:
    for viewer in viewers:
        viewer.check(game)


def _fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def check_remembered(game: Game) -> None:
    """The game and seats an action left for the next views equal what the database gives back."""
    remembered = recent_games.get(game.pk, game_version(game_id=game.pk))
    assert remembered is not None, "an action leaves the game it wrote for the views asked next"
    kept, kept_seats = remembered
    read = Game.objects.select_related("creator").get(pk=game.pk)
    read_seats = seats_of(read, with_users=True)
    assert _fields(kept) == _fields(read)
    assert [_fields(seat) for seat in kept_seats] == [_fields(seat) for seat in read_seats]
    assert kept.creator.pk == read.creator.pk
    assert [seat.user.pk for seat in kept_seats] == [seat.user.pk for seat in read_seats]
    assert all(isinstance(seat, Seat) for seat in kept_seats)


def play_at_random(kind, seed, *, api: bool = True) -> Game:
    """A game of ``kind`` played to its end at random (seeded), checked at every step."""
    rng = random.Random(f"{kind.slug}-{seed}")
    seats = rng.randint(kind.min_seats, min(kind.max_seats, kind.min_seats + 2))
    game, users = started(kind, seats)
    spectator = UserFactory()
    viewers = [Viewer(user, api=api) for user in [*users, spectator]] + [Viewer()]
    by_seat = {seat.position: seat.user for seat in game.seats.select_related("user")}

    def act(seat) -> int:
        """``seat`` takes the action offered; a choice made in secret must not show to anyone else."""
        action = offers[seat]
        secret = len(waiting) > 1  # several seats awaited: each chooses while the others still may
        before = views_of(game, users, spectator) if secret else None
        with TestCase.captureOnCommitCallbacks(execute=True):  # the test's transaction never commits
            game_act(game_id=game.pk, user=by_seat[seat], action=action, expected_round=game.round)
        check_remembered(game)
        game.refresh_from_db()
        if secret and kind.phase_key(kind.engine.from_dict(game.state)) == kind.phase_key(state):
            after = views_of(game, users, spectator)
            for viewer in [*users, spectator]:
                if viewer.pk != by_seat[seat].pk:
                    leaks = secret_leaks(action, before[viewer.pk], after[viewer.pk])
                    assert not leaks, f"{viewer} sees {leaks} of seat {seat}'s {action}"
        return 1

    acted = 0
    for step in range(MAX_ACTIONS):
        game.refresh_from_db()
        if game.status == Game.Status.FINISHED:
            break
        state = check_state(game, kind)
        if step % 7 == 0:
            check_pages(game, viewers)
        waiting = sorted(kind.engine.to_act(state))
        offers = {seat: kind.sample_action(state, seat=seat, rng=rng) for seat in waiting}
        offers = {seat: action for seat, action in offers.items() if action is not None}
        version = game.version
        if rng.random() < RESIGN_SOMETIMES:
            seat = rng.choice([s for s in range(seats) if s not in state.resigned])
            with TestCase.captureOnCommitCallbacks(execute=True):
                game_act(game_id=game.pk, user=by_seat[seat], action={"type": "resign"})
            check_remembered(game)
            acted += 1
        elif game.is_paused:  # too few present: no deadline runs, the game waits for someone to act
            assert game.deadline_at is None and offers, "a paused game must wait for an action it can take"
            acted += act(rng.choice(sorted(offers)))
        elif not offers or rng.random() < EXPIRE_SOMETIMES:
            assert game.deadline_at is not None, "a game that waits for no action must have a deadline"
            assert game_expire(game_id=game.pk, version=version, now=game.deadline_at + timedelta(seconds=1))
        else:
            acted += act(rng.choice(sorted(offers)))
        game.refresh_from_db()
        assert game.version == version + 1
    else:
        pytest.fail(f"{kind.slug}: not over after {MAX_ACTIONS} actions")

    assert game.status == Game.Status.FINISHED and game.deadline_at is None
    state = check_state(game, kind)
    assert Move.objects.filter(game=game, by_timeout=False).count() == acted > 0
    # Ended before any scored round: abandoned, and nobody won it.
    assert game.abandoned == (not kind.round_scored(state))
    winners = set(kind.engine.winners(state)) if not game.abandoned else set()
    assert winners <= {seat.position for seat in game.seats.all() if not seat.has_resigned}
    assert {seat.position for seat in game.seats.filter(is_winner=True)} == winners
    assert [seat.score for seat in game.seats.order_by("position")] == list(state.scores)
    check_pages(game, viewers)
    return game


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("kind", KINDS, ids=kind_ids)
def test_random_play_to_the_end(kind, seed, content):
    content(kind)
    game = play_at_random(kind, seed)
    assert game.seats.filter(is_winner=True).exists() or game.seats.filter(has_resigned=False).count() < 2


class LeakyPresentation(type(ODD.presentation)):
    """Odd one out as a careless kind would show it: every pick to everyone, at once."""

    def view(self, *, game, seats, viewer):
        view = super().view(game=game, seats=seats, viewer=viewer)
        if game.state is not None:
            view["all_picks"] = list(ODD.engine.from_dict(game.state).picks.values())
        return view


class LeakyKind(type(ODD)):
    slug = "leaky_odd"
    presentation = LeakyPresentation()

    def sample_action(self, state, *, seat, rng):
        action = super().sample_action(state, seat=seat, rng=rng)
        return action and {"type": "pick", "word": f"secret {rng.randint(1, 999)}"}


@pytest.fixture
def leaky():
    before = dict(kinds._KINDS)
    yield kinds.register(LeakyKind())
    kinds._KINDS.clear()
    kinds._KINDS.update(before)


def test_the_random_play_catches_a_kind_that_shows_a_secret(leaky):
    with pytest.raises(AssertionError, match="sees .*secret"):
        play_at_random(leaky, 1, api=False)  # the API's answers know the kinds of its start only


def test_a_secret_leaks_only_if_it_shows_after_and_did_not_before():
    before = {"words": [{"word": "owl"}], "hand": [{"id": 7}], "version": 3}
    action = {"type": "pick", "word": "Owl", "cards": [7, 4]}
    assert secret_leaks(action, before, before | {"version": 4}) == []
    assert secret_leaks(action, before, before | {"picks": ["owl"]}) == []  # it showed already
    assert secret_leaks({"type": "x", "word": "lantern"}, before, before | {"picks": [" lantern"]}) == [
        ("picks", " lantern")
    ]
    assert secret_leaks(action, before, before | {"table": [{"id": 4}], "version": 4}) == [("id", 4)]


@pytest.mark.parametrize("kind", KINDS, ids=kind_ids)
def test_a_game_just_started_has_no_scored_round(kind, content):
    content(kind)
    game, _users = started(kind, kind.min_seats)
    assert not kind.round_scored(kind.engine.from_dict(game.state))


@pytest.mark.parametrize("kind", KINDS, ids=kind_ids)
def test_letting_every_deadline_pass_ends_the_game(kind, content):
    content(kind)
    game, users = started(kind, kind.min_seats)
    for _ in range(MAX_ACTIONS):
        if game.status == Game.Status.FINISHED or game.is_paused:
            break
        check_state(game, kind)
        version = game.version
        assert game_expire(game_id=game.pk, version=version, now=game.deadline_at + timedelta(seconds=1))
        game.refresh_from_db()
        assert game.version == version + 1
        # The same deadline a second time, or a racing worker: nothing more happens.
        assert not game_expire(game_id=game.pk, version=version, now=game.deadline_at or game.created_at)
    else:
        pytest.fail(f"{kind.slug}: not over after {MAX_ACTIONS} deadlines")
    state = check_state(game, kind)
    if game.status == Game.Status.FINISHED:
        assert game.deadline_at is None
        # Abandoned exactly when no round was scored (a kind may score a round nobody played in); then won by no one.
        assert game.abandoned == (not kind.round_scored(state))
        assert not (game.abandoned and game.seats.filter(is_winner=True).exists())
    else:  # every player absent: the kind pauses the game, with no deadline to wait for
        assert kind.engine.is_paused(state) and game.deadline_at is None
    # Nobody acted: the history holds only what the deadlines did, one move per seat passed over.
    assert not Move.objects.filter(game=game, by_timeout=False).exists()
    assert Move.objects.filter(game=game, by_timeout=True, kind="timeout").exists()
    response = Client().get(reverse("games:board", args=[game.pk]))
    assert response.status_code == 200


@pytest.mark.parametrize("kind", KINDS, ids=kind_ids)
def test_a_kind_samples_only_for_the_seats_it_waits_for(kind, content):
    content(kind)
    game, users = started(kind, kind.min_seats)
    state = kind.engine.from_dict(game.state)
    rng = random.Random(0)
    waiting = kind.engine.to_act(state)
    for seat in range(kind.min_seats):
        action = kind.sample_action(state, seat=seat, rng=rng)
        if seat not in waiting:
            assert action is None
        elif action is not None:
            assert isinstance(action, dict) and isinstance(action.get("type"), str)
