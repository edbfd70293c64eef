"""infrastructure.raw_sql: the hot path's statements written out as SQL give what their querysets (``build``) give."""

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import IntegrityError, connection, transaction
from django.db.models.sql.compiler import SQLCompiler, SQLInsertCompiler, SQLUpdateCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.services import _token as token_by_hash
from accounts.services import token_create, token_hash
from games.models import Game, Move, Seat
from games.selectors.games import (
    _game,
    _seats,
    _seats_with_users,
    game_get_for_viewer,
    game_view,
    recent_games,
    seats_of,
)
from games.services.games import _game_by_id, _moves_insert, _seats_by_id, game_act
from games.services.locking import _locked
from games.tests.factories import UserFactory, started_game
from infrastructure.raw_sql import raw_sql, raw_sql_insert, raw_sql_update
from notifications.models import Notification, Turn
from notifications.services import (
    _asked_already,
    _notifications,
    _open_turns,
    _open_turns_but,
    _unread_counts,
    _unread_of,
)

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


@pytest.fixture
def update_compiles(monkeypatch):
    """How many UPDATEs the ORM compiles (their SQL)."""
    return _counting(monkeypatch, SQLUpdateCompiler)


def fields_of(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def same(rows) -> list:
    """Rows as comparable values: a model instance by its fields, anything else as it is."""
    return [fields_of(row) if hasattr(row, "_meta") else row for row in rows]


def a_played_table():
    """Two games, their seats, turns and notifications, a token and a bot: rows for every statement to find."""
    game, users = started_game(4)
    other, _ = started_game(3)
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    hand = game_view(game=game, seats=seats_of(game, with_users=True), user=seats[0].user)["hand"]
    game_act(game_id=game.pk, user=seats[0].user, action={"type": "clue", "card": hand[0]["id"], "text": "a clue"})
    bot = UserFactory(is_bot=True)
    _token, raw = token_create(user=users[1], name="bot")
    return game, other, users, seats, bot, raw


def test_every_raw_sql_read_gives_what_its_queryset_gives():
    game, other, users, seats, bot, raw = a_played_table()
    seat_ids = [seat.pk for seat in seats]
    user_ids = [user.pk for user in users]
    key = Turn.objects.filter(seat__game=game).values_list("phase_key", flat=True).first()
    assert key and Notification.objects.filter(game=game, read_at__isnull=True).exists()
    calls = [
        (_locked, (game.pk,)),
        (_locked, (10**12,)),
        (_game, (game.pk,)),
        (_seats, (game.pk,)),
        (_seats_with_users, (other.pk,)),
        (_asked_already, (seat_ids, key)),
        (_asked_already, (seat_ids, "no-such-phase")),
        (_unread_of, ([game.pk, other.pk], user_ids)),
        (_unread_of, ([game.pk], [])),
        (_unread_counts, (user_ids,)),
        (_unread_counts, (user_ids[1:2],)),  # (users[0] gave the clue: their "started" closed with it)
        (token_by_hash, (token_hash(raw),)),
        (token_by_hash, ("no such hash",)),
    ]
    found = 0
    for statement, args in calls:
        with transaction.atomic():
            got, expected = statement(*args), list(statement.build(*args))
        assert isinstance(got, list)
        assert same(got) == same(expected), statement.build
        found += bool(got)
    assert found == 9  # the calls that ask for rows that are there find them
    # Converted as the ORM converts: an aware datetime, a dict of JSON, the database it came from.
    game_row = _game(game.pk)[0]
    assert timezone.is_aware(game_row.created_at) and isinstance(game_row.state, dict)
    assert game_row._state.db == "default" and not game_row._state.adding


def test_related_rows_come_with_their_rows_and_are_not_read_again(django_assert_num_queries):
    game, users = started_game(4)
    expected = list(Seat.objects.filter(game_id=game.pk).select_related("user").order_by("position"))
    with django_assert_num_queries(1):  # the seats with their users joined, as select_related reads them
        got = _seats_with_users(game.pk)
        loaded = [seat.user for seat in got]
    assert [fields_of(user) for user in loaded] == [fields_of(seat.user) for seat in expected]
    with django_assert_num_queries(1):
        assert _seats_with_users(10**12) == []  # no seat: no user to read


def test_raw_sql_reads_compile_nothing(compiles):
    game, users = started_game(3)
    compiles.clear()
    _seats_with_users(game.pk), _unread_counts([user.pk for user in users]), _game(game.pk)
    assert compiles == []


def test_arguments_that_would_not_reach_the_sql_as_they_are_are_refused():
    game, _users = started_game(3)
    with pytest.raises(TypeError):
        _seats(True)  # a bool would be written as one
    with pytest.raises(TypeError):
        _seats(float(game.pk))
    with pytest.raises(TypeError):
        _seats_by_id([game.pk, None], score=1)


def test_select_for_update_locks_in_a_transaction_and_says_so_only_where_the_database_has_it():
    game, _users = started_game(3)
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert [locked.pk for locked in _locked(game.pk)] == [game.pk]
    assert ("FOR UPDATE" in queries.captured_queries[-1]["sql"]) == connection.features.has_select_for_update


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite locks at BEGIN IMMEDIATE")
def test_select_for_update_is_refused_outside_a_transaction_as_the_orm_refuses_it():
    game, _users = started_game(3)
    with pytest.raises(TransactionManagementError):
        _locked(game.pk)
    with pytest.raises(TransactionManagementError):
        list(Game.objects.select_for_update().filter(pk=game.pk))


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not connection.features.has_select_for_update, reason="SQLite locks at BEGIN IMMEDIATE")
def test_a_locked_game_holds_back_another_lock_until_commit():
    """On PostgreSQL the row is really locked: another connection asking without waiting is refused."""
    import threading

    from django.db import DatabaseError

    game, _users = started_game(3)
    refused = {}

    def other():
        try:
            with transaction.atomic():
                list(Game.objects.select_for_update(nowait=True).filter(pk=game.pk))
        except DatabaseError as error:
            refused["error"] = error
        finally:
            connection.close()

    with transaction.atomic():
        _locked(game.pk)
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert "error" in refused


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


def test_an_api_token_is_looked_up_without_compiling_its_query(compiles):
    from accounts.services import token_authenticate

    user, other_user = UserFactory(), UserFactory()
    _token, raw = token_create(user=user, name="bot")
    _other, other_raw = token_create(user=other_user, name="bot")
    assert token_authenticate(raw=raw).user == user
    compiles.clear()
    found = token_authenticate(raw=other_raw)
    assert found.user == other_user and found.user.username == other_user.username
    assert not any("token" in sql.lower() and sql.lstrip().upper().startswith("SELECT") for sql in compiles)
    assert token_authenticate(raw=raw + "x") is None and token_authenticate(raw="") is None
    other_user.is_active = False
    other_user.save()
    assert token_authenticate(raw=other_raw) is None


# --- raw SQL update -------------------------------------------------------------------


@raw_sql_update(
    Seat,
    lambda sql, game_id, positions: (
        f"{sql.column(Seat, 'game')} = %s AND NOT {sql.is_in(sql.column(Seat, 'position'), positions)}",
        [game_id, *positions],
    ),
)
def seats_of_game_but(game_id, positions):
    return Seat.objects.filter(game_id=game_id).exclude(position__in=positions)


def seat_rows(game):
    return [(s.position, s.score, s.to_act) for s in Seat.objects.filter(game=game).order_by("position")]


@pytest.mark.parametrize("positions", [[0, 2], []])
def test_a_raw_sql_update_writes_what_the_orms_update_writes(update_compiles, positions):
    game, users = started_game(4)
    twin, _ = started_game(4)
    # The ORM's own update on one game, the prepared one on its twin: the same rows change the same way.
    expected = seats_of_game_but.build(twin.pk, positions).update(score=7, to_act=True)
    update_compiles.clear()
    assert seats_of_game_but(game.pk, positions, score=7, to_act=True) == expected == 4 - len(positions)
    assert seat_rows(game) == seat_rows(twin)
    assert seats_of_game_but(10**12, [1, 3], score=2, to_act=False) == 0
    assert update_compiles == []  # written out: the ORM compiled none


def test_the_hot_paths_updates_write_what_their_querysets_would():
    game, other, users, seats, bot, raw = a_played_table()
    seat_ids = [seat.pk for seat in seats]
    key = Turn.objects.filter(seat__game=game).values_list("phase_key", flat=True).first()
    waiting = [seat.pk for seat in seats[1:3]]
    when = timezone.now().replace(microsecond=123456)
    for statement, args, values in [
        (_open_turns_but, (seat_ids, key, waiting), {"remind_at": when}),
        (_open_turns_but, (seat_ids, key, []), {"remind_at": when}),
        (_open_turns, (seat_ids,), {"closed_at": when}),
        (_seats_by_id, (seat_ids[:2],), {"score": 5}),
        (_game_by_id, (game.pk,), {"round": 3, "deadline_at": None}),
    ]:
        model = statement.model
        with transaction.atomic():
            by_orm = statement.build(*args).update(**values)
            rows_by_orm = sorted(map(fields_of, model.objects.all()), key=lambda row: row["id"])
            transaction.set_rollback(True)
        assert statement(*args, **values) == by_orm
        assert sorted(map(fields_of, model.objects.all()), key=lambda row: row["id"]) == rows_by_orm, statement.build
    note = Notification.objects.filter(user=users[0], game=game).first()
    # A datetime, None and a model instance for a foreign key, made ready as the ORM makes them.
    assert _notifications([note.pk], actor=users[1], created_at=when, read_at=None, won=True) == 1
    note.refresh_from_db()
    assert (note.actor_id, note.created_at, note.read_at, note.won) == (users[1].pk, when, None, True)
    assert _notifications([note.pk], actor=None) == 1
    note.refresh_from_db()
    assert note.actor_id is None


def test_a_raw_sql_update_refuses_nothing_to_set_and_what_it_cannot_pass_as_it_is():
    game, _users = started_game(3)
    with pytest.raises(TypeError):
        _seats_by_id([1])
    with pytest.raises(TypeError):
        _seats_by_id(True, score=1)  # a bool would be written as one
    assert _seats_by_id([], score=1) == 0
    assert _seats_by_id([seat.pk for seat in game.seats.all()], score=4) == 3


def test_a_raw_sql_update_rolls_back_with_its_transaction():
    game, _users = started_game(3)
    with pytest.raises(RuntimeError), transaction.atomic():
        _seats_by_id([seat.pk for seat in game.seats.all()], score=9)
        raise RuntimeError
    assert not Seat.objects.filter(game=game, score=9).exists()


def test_a_statement_written_here_reads_as_any_other():
    by_name = raw_sql(
        lambda sql, name: (
            f"SELECT {sql.column(get_user_model(), 'pk')} FROM {sql.table(get_user_model())}"
            f" WHERE {sql.column(get_user_model(), 'username')} = %s",
            [name],
        ),
        flat=True,
    )(lambda name: get_user_model().objects.filter(username=name).values_list("pk", flat=True))
    zed = UserFactory(username="zed")
    assert by_name("zed") == list(by_name.build("zed")) == [zed.pk]
    assert by_name("nobody") == []


# --- conversions by documented means ----------------------------------------------------------


def test_values_for_hand_written_sql_are_what_the_orm_writes():
    """``sql_values`` gives a datetime and JSON as the ORM's own field preparation does on this database: the rows
    a hand-written INSERT or UPDATE leaves read back equal, and compare in SQL as the ORM's own."""
    from datetime import UTC, datetime, timedelta
    from datetime import timezone as fixed

    from infrastructure.raw_sql import sql_values

    sql = sql_values()
    game, _users = started_game(3)
    field = Game._meta.get_field("deadline_at")
    for when in (
        datetime(2026, 12, 6, 17, 30, 1, 123456, tzinfo=UTC),
        datetime(2026, 12, 6, 17, 30, tzinfo=UTC),  # no microseconds: no fraction written
        datetime(2026, 12, 6, 19, 30, 1, tzinfo=fixed(timedelta(hours=2))),  # another zone, the same instant
    ):
        expected = field.get_db_prep_save(when, connection)
        assert str(sql.datetime(when)) == str(expected)
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {connection.ops.quote_name(Game._meta.db_table)} SET deadline_at = %s WHERE id = %s",
                [sql.datetime(when), game.pk],
            )
        game.refresh_from_db()
        assert game.deadline_at == when
        assert Game.objects.filter(pk=game.pk, deadline_at=when).exists()
    state = {"b": [1, "é"], "a": None}
    assert str(sql.json(state)) == str(Game._meta.get_field("state").get_db_prep_save(state, connection))


def test_a_raw_sql_read_refuses_a_field_it_cannot_convert():
    from django.db import models

    from infrastructure.raw_sql import _conversion

    on = models.DurationField()  # no model of the site has one yet: a raw SQL read of one must say so
    on.set_attributes_from_name("on")
    on.model = Game
    with pytest.raises(TypeError, match="games.Game.on"):
        _conversion(on, "default", "sqlite")
    assert _conversion(Game._meta.get_field("id"), "default", "sqlite") is None


def test_a_raw_sql_read_gives_a_persons_quiet_hours_as_times():
    import datetime

    from accounts.models import User
    from infrastructure.raw_sql import _conversion

    start = User._meta.get_field("quiet_hours_start")
    assert _conversion(start, "default", "sqlite")("23:00:00", None) == datetime.time(23, 0)
    assert _conversion(start, "default", "sqlite")(datetime.time(7, 30), None) == datetime.time(7, 30)
    assert _conversion(start, "default", "postgresql") is None  # psycopg gives a time already


def test_a_raw_sql_update_takes_an_instance_only_of_the_related_model():
    game, other, users, seats, bot, raw = a_played_table()
    note = Notification.objects.filter(user=users[0], game=game).first()
    with pytest.raises(TypeError):
        _notifications([note.pk], actor=game)  # a game is no user
    with pytest.raises(TypeError):
        _notifications([note.pk], kind=users[0])  # not a relation


# --- raw SQL insert -------------------------------------------------------------------


def move_rows(game) -> list[tuple]:
    return list(
        Move.objects.filter(game=game)
        .order_by("pk")
        .values_list("seat__position", "round", "kind", "payload", "by_timeout", "version", "created_at")
    )


def test_a_raw_sql_insert_writes_what_bulk_create_writes_and_compiles_nothing(monkeypatch):
    game, _users = started_game(3)
    twin, _ = started_game(3)
    when = timezone.now().replace(microsecond=654321)

    def moves(of):
        seats = list(of.seats.order_by("position"))
        return [
            Move(game=of, seat=seats[0], round=2, kind="vote", payload={"position": 3, "é": [1, None]}, version=9),
            Move(game=of, seat=None, round=2, kind="timeout", payload={}, by_timeout=True, version=9, created_at=when),
        ]

    Move.objects.bulk_create(moves(twin))
    inserts = _counting(monkeypatch, SQLInsertCompiler)
    written = moves(game)
    before = timezone.now()
    with CaptureQueriesContext(connection) as queries:
        assert _moves_insert(written) == 2
    assert len(queries.captured_queries) == 1 and inserts == []  # one statement, written out once
    after = timezone.now()
    mine, theirs = move_rows(game), move_rows(twin)
    assert [row[:-1] for row in mine] == [row[:-1] for row in theirs]
    # auto_now_add: the time of the insert, set on the instance, over any time given (as the ORM does: the twin's)
    assert [row[-1] for row in mine] == [move.created_at for move in written]
    assert all(before <= row[-1] <= after for row in mine) and when not in [row[-1] for row in mine + theirs]
    assert _moves_insert([]) == 0


def test_a_raw_sql_insert_meets_the_databases_constraints_as_the_orm_does():
    game, _users = started_game(3)
    seat = game.seats.order_by("position").first()
    _moves_insert([Move(game=game, seat=seat, round=1, kind="clue", payload={}, version=5)])
    with pytest.raises(IntegrityError), transaction.atomic():  # one clue per player and round: Django's error
        _moves_insert([Move(game=game, seat=seat, round=2, kind="clue", payload={}, version=6)])  # (written)
        _moves_insert([Move(game=game, seat=seat, round=1, kind="clue", payload={}, version=6)])
    # the whole transaction rolled back, the row before the refused one with it
    assert list(Move.objects.filter(game=game, kind="clue").values_list("round", flat=True)) == [1]


def test_a_raw_sql_insert_takes_only_new_rows_of_its_model():
    game, _users = started_game(3)
    move = Move.objects.create(game=game, round=1, kind="timeout", payload={}, version=5)
    with pytest.raises(TypeError):
        _moves_insert([move])  # has its key already
    with pytest.raises(TypeError):
        _moves_insert([Seat(game=game, user=_users[0], position=7, colour="red")])
    with pytest.raises(ValueError):
        raw_sql_insert(Session)  # its key is not the database's to choose


def test_a_raw_sql_insert_of_many_rows_keeps_each_statement_under_999_values():
    game, _users = started_game(3)
    moves = [Move(game=game, round=n, kind="timeout", payload={"n": n}, version=n) for n in range(300)]
    with CaptureQueriesContext(connection) as queries:
        assert _moves_insert(moves) == 300
    width = len([field for field in Move._meta.concrete_fields if not field.primary_key])
    per_statement = 999 // width
    assert len(queries.captured_queries) == -(-300 // per_statement) > 1
    assert all(query["sql"].count("(") <= per_statement + 1 for query in queries.captured_queries)
    rows = Move.objects.filter(game=game, kind="timeout").order_by("round").values_list("round", "payload", "version")
    assert list(rows) == [(n, {"n": n}, n) for n in range(300)]
