"""config.prepared: queries built and compiled once, run with new values, giving what the ORM gives."""

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Count
from django.db.models.sql.compiler import SQLCompiler, SQLUpdateCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.prepared import prepared, prepared_update
from games.models import Game, Seat
from games.selectors.games import game_get_for_viewer, game_view, recent_games, seats_of
from games.services.games import game_act
from games.tests.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db


def _counting(monkeypatch, compiler) -> list:
    """The SQL of each statement ``compiler`` (a compiler class) compiles from now on, in a list."""
    seen = []
    original = compiler.as_sql

    def counting(self, *args, **kwargs):
        sql, params = original(self, *args, **kwargs)
        seen.append(sql)
        return sql, params

    monkeypatch.setattr(compiler, "as_sql", counting)
    return seen


@pytest.fixture
def compiles(monkeypatch):
    """How many SELECTs the ORM compiles (a list, one entry per compile, its SQL)."""
    return _counting(monkeypatch, SQLCompiler)


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


@prepared
def seats_with_users(game_id):
    return Seat.objects.filter(game_id=game_id).select_related("user").order_by("position")


def test_model_instances_equal_the_orms_own_with_their_related_rows_loaded(django_assert_num_queries):
    game, _users = started_game(4)
    expected = list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("position"))
    with django_assert_num_queries(1):
        got = list(seats_with_users(game.pk))
        users = [seat.user for seat in got]  # loaded with the seats: no query more
    assert [fields_of(seat) for seat in got] == [fields_of(seat) for seat in expected]
    assert [fields_of(user) for user in users] == [fields_of(seat.user) for seat in expected]
    assert all(seat._state.db == "default" and not seat._state.adding for seat in got)


def test_each_call_runs_with_its_own_values_and_compiles_nothing(compiles):
    first, _ = started_game(3)
    second, _ = started_game(4)
    seats_with_users(first.pk)  # the first call of this shape may compile
    compiles.clear()
    assert [seat.game_id for seat in seats_with_users(second.pk)] == [second.pk] * 4
    assert [seat.game_id for seat in seats_with_users(first.pk)] == [first.pk] * 3
    assert list(seats_with_users(10**12)) == []
    assert compiles == []


@prepared
def unread_counts(user_ids):
    return (
        Seat.objects.filter(user_id__in=user_ids, to_act=True)
        .order_by()
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )


@prepared
def named(username):
    return get_user_model().objects.filter(username=username).values_list("pk", flat=True)


def test_values_lists_aggregates_strings_and_lists_of_every_length(compiles):
    game, users = started_game(4)
    ids = [user.pk for user in users]
    expected = dict(
        Seat.objects.filter(user_id__in=ids, to_act=True)
        .order_by()
        .values("user_id")
        .annotate(n=Count("id"))
        .values_list("user_id", "n")
    )
    assert expected  # somebody is asked for the first clue
    assert dict(unread_counts(ids)) == expected
    assert dict(unread_counts(ids[:1])) == {k: v for k, v in expected.items() if k == ids[0]}
    assert list(unread_counts([])) == []  # no SQL at all for an empty list
    zed = UserFactory(username="zed")
    assert list(named("zed")) == [zed.pk]
    assert list(named("nobody")) == []
    # One compile per shape: two lengths of list (4 and 1; the empty one compiles to nothing) and one string.
    compiles.clear()
    dict(unread_counts(ids)), dict(unread_counts(ids[1:2])), list(named("x"))
    assert compiles == []


def test_a_call_shares_the_built_query_and_leaves_it_as_it_was():
    game, users = started_game(4)
    ids = [user.pk for user in users]
    list(seats_with_users(game.pk)), dict(unread_counts(ids))  # built and compiled
    built = [
        compiled.queryset.query
        for compiled in [*seats_with_users._compiled.values(), *unread_counts._compiled.values()]
    ]

    def state(query):
        return (str(query.where), dict(query.alias_map), dict(query.alias_refcount), query.annotations.copy())

    before = [state(query) for query in built]
    runs = [seats_with_users(game.pk), seats_with_users(10**12), unread_counts(ids), unread_counts(ids[::-1])]
    assert runs[0].query is not built[0] and runs[0].query.where is built[0].where  # shared, not copied
    assert [len(list(run)) for run in runs] == [4, 0, len(dict(unread_counts(ids))), len(dict(unread_counts(ids)))]
    assert [state(query) for query in built] == before
    assert list(seats_with_users(game.pk))[0].user.pk == ids[0]  # and the next call is as good as the first


def test_a_long_list_runs_as_a_plain_queryset_and_is_not_kept():
    from config.prepared import LONGEST_KEPT

    _game, users = started_game(4)
    ids = [user.pk for user in users]
    many = ids + list(range(10**12, 10**12 + LONGEST_KEPT))  # longer than any kept shape
    expected = dict(unread_counts(ids))
    assert dict(unread_counts(many)) == expected
    assert unread_counts(many).filter(n__gt=0).count() == len(expected)  # a queryset like any other
    lengths = [len(shape[0][1]) for _using, shape in unread_counts._compiled]
    assert len(ids) in lengths and max(lengths) <= LONGEST_KEPT


@prepared
def names_like(prefix):
    return get_user_model().objects.filter(username__startswith=prefix)  # the ORM makes it "prefix%"


def test_a_value_the_orm_changes_on_its_way_to_the_sql_is_refused_when_first_built():
    with pytest.raises(ValueError, match="parameter"):
        list(names_like("zed"))


def test_values_it_cannot_pass_untouched_and_chaining_are_refused():
    game, _users = started_game(3)
    with pytest.raises(TypeError):
        seats_with_users(True)  # a bool would be written as one
    with pytest.raises(TypeError):
        seats_with_users(float(game.pk))
    with pytest.raises(TypeError, match="as it was built"):
        seats_with_users(game.pk).filter(position=0)  # would still run the kept SQL


@prepared
def game_for_update(game_id):
    return Game.objects.select_for_update().filter(pk=game_id)


def test_select_for_update_locks_in_a_transaction_and_is_refused_outside_one():
    game, _users = started_game(3)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert [locked.pk for locked in game_for_update(game.pk)] == [game.pk]
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in queries.captured_queries[-1]["sql"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite locks at BEGIN IMMEDIATE")
def test_select_for_update_is_refused_outside_a_transaction_as_the_orm_refuses_it():
    game, _users = started_game(3)
    with transaction.atomic():
        list(game_for_update(game.pk))  # compiled inside one
    with pytest.raises(TransactionManagementError):
        list(game_for_update(game.pk))
    with pytest.raises(TransactionManagementError):
        list(Game.objects.select_for_update().filter(pk=game.pk))


def test_an_action_and_the_boards_it_causes_compile_no_read_twice(compiles, update_compiles):
    """The hot path's reads: an action under its lock, the notifications it writes, the fresh reads of the game;
    and its writes: none of its UPDATEs (the game's row, its seats, turns, notifications) is compiled again. Two
    games play the same actions: the first's may compile (each shape the first time), the second's must not."""

    def play(measured: bool):
        game, users = started_game(4)
        seats = seats_of(game, with_users=True)

        def act(user, action):
            if measured:
                compiles.clear()  # what the action and the reads after it compile
                update_compiles.clear()
            game_act(game_id=game.pk, user=user, action=action)
            recent_games.clear()  # as another process would: read the game and its seats again
            for player in users:
                game_get_for_viewer(game_id=game.pk, user=player)
            if measured:
                assert [sql for sql in compiles if sql.lstrip().upper().startswith("SELECT")] == []
                assert update_compiles == []

        hand = game_view(game=game, seats=seats, user=seats[0].user)["hand"]
        act(seats[0].user, {"type": "clue", "card": hand[0]["id"], "text": "a clue"})
        for seat in seats[1:]:
            fresh = Game.objects.get(pk=game.pk)
            view = game_view(game=fresh, seats=seats_of(fresh, with_users=True), user=seat.user)
            act(
                seat.user, {"type": "submit", "cards": [card["id"] for card in view["hand"][: view["cards_to_submit"]]]}
            )

    play(measured=False)
    play(measured=True)


@pytest.mark.django_db(transaction=True)  # another thread reads the game: it must be committed
def test_the_columns_converters_are_found_once_and_serve_every_threads_connection(monkeypatch):
    """Converting a column (text to an aware datetime, JSON to a dict) is decided when the query is built;
    a later call, on this thread or another with a connection of its own, converts as the ORM does."""
    import threading

    game, _users = started_game(3)
    by_pk = prepared(lambda pk: Game.objects.filter(pk=pk))
    expected = fields_of(Game.objects.get(pk=game.pk))
    assert fields_of(next(iter(by_pk(game.pk)))) == expected  # built here, its converters found
    found = []
    original = SQLCompiler.get_converters
    monkeypatch.setattr(SQLCompiler, "get_converters", lambda self, exprs: found.append(exprs) or original(self, exprs))
    assert fields_of(next(iter(by_pk(game.pk)))) == expected
    assert found == []  # not looked for again
    assert Game.objects.get(pk=game.pk) and found  # (the ORM's own queries still look)
    on_thread = {}

    def read():
        try:
            on_thread["fields"] = fields_of(next(iter(by_pk(game.pk))))
        finally:
            connection.close()

    if connection.vendor == "sqlite" and connection.settings_dict["NAME"].startswith("file:memorydb"):
        pytest.skip("an in-memory SQLite database is not shared with another thread")
    thread = threading.Thread(target=read)
    thread.start()
    thread.join()
    assert on_thread["fields"] == expected
    assert timezone.is_aware(on_thread["fields"]["created_at"]) and isinstance(on_thread["fields"]["state"], dict)


def test_an_api_token_is_looked_up_without_compiling_its_query_again(compiles):
    from accounts.services import token_authenticate, token_create

    user = UserFactory()
    _token, raw = token_create(user=user, name="bot")
    other_user = UserFactory()
    _other, other_raw = token_create(user=other_user, name="bot")
    assert token_authenticate(raw=raw).user == user  # the first may compile
    compiles.clear()
    found = token_authenticate(raw=other_raw)
    assert found.user == other_user and found.user.username == other_user.username
    assert not any(
        "api" in sql.lower() and "token" in sql.lower() and sql.lstrip().upper().startswith("SELECT")
        for sql in compiles
    )
    assert token_authenticate(raw=raw + "x") is None and token_authenticate(raw="") is None
    other_user.is_active = False
    other_user.save()
    assert token_authenticate(raw=other_raw) is None


# --- prepared updates -------------------------------------------------------------------


@pytest.fixture
def update_compiles(monkeypatch):
    """How many UPDATEs the ORM compiles (their SQL)."""
    return _counting(monkeypatch, SQLUpdateCompiler)


@prepared_update
def seats_of_game_but(game_id, positions):
    return Seat.objects.filter(game_id=game_id).exclude(position__in=positions)


def test_a_prepared_update_writes_what_the_orms_update_writes(update_compiles):
    game, users = started_game(4)
    twin, _ = started_game(4)
    when = timezone.now().replace(microsecond=123456)
    # The ORM's own update on one game, the prepared one on its twin: the same rows change the same way.
    expected = Seat.objects.filter(game_id=twin.pk).exclude(position__in=[0, 2]).update(score=7, to_act=True)
    assert seats_of_game_but(game.pk, [0, 2], score=7, to_act=True) == expected == 2
    assert [(s.position, s.score, s.to_act) for s in Seat.objects.filter(game=game).order_by("position")] == [
        (s.position, s.score, s.to_act) for s in Seat.objects.filter(game=twin).order_by("position")
    ]
    update_compiles.clear()
    assert seats_of_game_but(game.pk, [1, 3], score=2, to_act=False) == 2  # the same shape: nothing compiled
    assert seats_of_game_but(10**12, [1, 3], score=2, to_act=False) == 0
    assert update_compiles == []
    # A datetime, None and a model instance for a foreign key, made ready as the ORM makes them.
    from notifications.models import Notification

    note = Notification.objects.get(user=users[0], game=game, read_at__isnull=True)  # "the game started"
    touch = prepared_update(lambda pk: Notification.objects.filter(pk=pk))
    assert touch(note.pk, actor=users[1], created_at=when, read_at=None, won=True) == 1
    note.refresh_from_db()
    assert (note.actor_id, note.created_at, note.read_at, note.won) == (users[1].pk, when, None, True)
    assert touch(note.pk, actor=None) == 1
    note.refresh_from_db()
    assert note.actor_id is None


def test_a_prepared_update_with_nothing_to_match_runs_no_sql_and_refuses_nothing_to_set():
    game, _users = started_game(3)
    by_ids = prepared_update(lambda ids: Seat.objects.filter(pk__in=ids))
    with CaptureQueriesContext(connection) as queries:
        assert by_ids([], score=1) == 0
    assert len(queries) == 0
    with pytest.raises(TypeError):
        by_ids([1])
    with pytest.raises(TypeError):
        by_ids(True, score=1)  # a bool would be written as one
    assert by_ids([seat.pk for seat in game.seats.all()], score=4) == 3


def test_a_prepared_update_rolls_back_with_its_transaction():
    game, _users = started_game(3)
    by_game = prepared_update(lambda game_id: Seat.objects.filter(game_id=game_id))
    with pytest.raises(RuntimeError), transaction.atomic():
        by_game(game.pk, score=9)
        raise RuntimeError
    assert not Seat.objects.filter(game=game, score=9).exists()
