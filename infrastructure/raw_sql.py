"""The hot path's few statements, written out as SQL once and run through Django's public doors.

An action and the boards it causes ask the same dozen statements every time (lock the game,
read its seats, close the turns, count the unread notes...). Built through the ORM, each call
resolves its lookups and compiles them to SQL again: on the hot path that was a fifth of the
server's CPU. A raw SQL statement is the same queryset, kept as ``build`` (what the statement
means, and what the tests hold the SQL to), beside its SQL written out with the model's own
names (``Model._meta``, quoted by ``connection.ops.quote_name``) so that it runs alike on SQLite
and PostgreSQL. It runs through ``connection.cursor()``; model rows are made by ``Model.from_db``
from the cursor's values, converted by documented means only (``Converters``): a field's own
``from_db_value`` (JSON text to a dict), and where the database has no type of its own for them
(SQLite) datetimes made aware in the database's ``TIME_ZONE`` (UTC unless set) and booleans made
``bool``; PostgreSQL's driver gives those as they are. Plain values come as the cursor gives them,
and UPDATEs go through ``cursor.execute`` with each new value made ready by its field
(``get_db_prep_save``).

    @raw_sql(lambda sql, game_id: sql.select(Seat, where=f"{sql.column(Seat, 'game')} = %s",
                                              params=[game_id], order_by=["position"]), model=Seat)
    def seats_of_game(game_id):
        return Seat.objects.filter(game_id=game_id).order_by("position")

    seats = seats_of_game(game.pk)  # a list of Seat

``related`` names foreign keys whose rows come with them (as ``select_related`` gives them: joined
in the same statement, ``Sql.select`` adding their columns and a LEFT OUTER JOIN on each, the
related instance set through the foreign key's attribute). A statement with ``FOR UPDATE`` keeps
it on PostgreSQL and drops it on SQLite, where the connection's IMMEDIATE transaction takes the
database's write lock at BEGIN.
"""

import datetime
import functools
import json
import zoneinfo
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError
from django.utils.dateparse import parse_date, parse_datetime, parse_time

from infrastructure.caches import register


class Sql:
    """Names and pieces of SQL for one connection: tables, columns and placeholders, quoted its way."""

    def __init__(self, connection, *, model=None, joins: Sequence = ()):
        self.connection = connection
        self.quote = connection.ops.quote_name
        # a raw SQL read's model, and its foreign keys whose rows ``select`` joins to that model's rows
        self.model, self.joins = model, tuple(joins)

    def table(self, model) -> str:
        return self.quote(model._meta.db_table)

    def column(self, model, name: str, *, qualified: bool = True) -> str:
        """A field's column (``pk`` for the primary key), with its table unless ``qualified`` is False."""
        field = model._meta.pk if name == "pk" else model._meta.get_field(name)
        column = self.quote(field.column)
        return f"{self.table(model)}.{column}" if qualified else column

    def columns(self, model) -> str:
        return _columns(self.connection.alias, self.connection.vendor, model)

    def is_in(self, column: str, values: Sequence) -> str:
        """``column IN (%s, ...)``, one placeholder per value; no value matches no row (as the ORM's ``__in``
        of an empty list, which also makes its negation match every row)."""
        if not values:
            return "1 = 0"
        return f"{column} IN ({', '.join(['%s'] * len(values))})"

    @property
    def for_update(self) -> str:
        return "" if self.connection.vendor == "sqlite" else " FOR UPDATE"

    def select(self, model, *, where: str, params: Sequence, order_by: Sequence[str] = (), for_update=False):
        """Every column of ``model``'s rows that match ``where``, in the order of ``order_by`` (field names, a
        leading ``-`` for descending): the SQL and its parameters."""
        order = ", ".join(
            f"{self.column(model, name.lstrip('-'))}{' DESC' if name.startswith('-') else ''}" for name in order_by
        )
        columns, tables = self.columns(model), self.table(model)
        for field in self.joins if model is self.model else ():
            other = field.related_model
            columns += f", {self.columns(other)}"
            key = f"{self.table(other)}.{self.quote(field.target_field.column)}"
            tables += f" LEFT OUTER JOIN {self.table(other)} ON {key} = {self.column(model, field.name)}"
        text = f"SELECT {columns} FROM {tables} WHERE {where}"
        text += f" ORDER BY {order}" if order else ""
        text += self.for_update if for_update else ""
        return text, list(params)


@functools.cache
def _columns(alias: str, vendor: str, model) -> str:
    quote = connections[alias].ops.quote_name
    table = quote(model._meta.db_table)
    return ", ".join(f"{table}.{quote(field.column)}" for field in model._meta.concrete_fields)


register("infrastructure.raw_sql._columns", _columns.cache_clear)  # one text per model and database


# Databases whose driver gives datetimes aware and booleans as bool (psycopg, documented); on the others (SQLite)
# a datetime comes naive or as text in the database's time zone, a boolean as a number or a bool.
TYPED = frozenset({"postgresql"})
# Columns whose values the cursor gives as the field holds them on every database.
AS_THEY_COME = frozenset(
    {
        "AutoField",
        "BigAutoField",
        "SmallAutoField",
        "ForeignKey",
        "OneToOneField",
        "IntegerField",
        "BigIntegerField",
        "SmallIntegerField",
        "PositiveIntegerField",
        "PositiveBigIntegerField",
        "PositiveSmallIntegerField",
        "FloatField",
        "CharField",
        "TextField",
        "SlugField",
        "FileField",
    }
)


@functools.cache
def _loader(alias: str, vendor: str, model) -> tuple:
    """How ``model``'s rows are made from its columns (``Sql.columns``' order) on this database: the fields'
    attribute names, and for each column that needs one, its conversion with the column's index."""
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        convert = _conversion(field, alias, vendor)
        if convert is not None:
            converters.append((index, convert))
    return tuple(field.attname for field in fields), tuple(converters)


register("infrastructure.raw_sql._loader", _loader.cache_clear)  # one per model and database


def _conversion(field, alias: str, vendor: str):
    """A function of a value (never None) and the connection giving what the field holds, or None for none."""
    if hasattr(field, "from_db_value"):  # the Field API's own conversion (JSONField: the text parsed)
        return functools.partial(_from_db_value, field)
    kind = field.get_internal_type()
    if kind in AS_THEY_COME:
        return None
    if kind == "DateTimeField":
        if vendor in TYPED:
            return None
        return functools.partial(_aware, _zone(alias))
    if kind == "BooleanField":
        return None if vendor in TYPED else _bool
    if kind == "TimeField":  # SQLite keeps "HH:MM[:SS[.ffffff]]" text (a person's quiet hours)
        return None if vendor in TYPED else _time
    if kind == "DateField":
        return None if vendor in TYPED else _date
    raise TypeError(f"a raw SQL read does not convert {model_label(field)}, a {kind}: add its conversion here")


def _time(value, connection):
    return value if isinstance(value, datetime.time) else parse_time(value)


def _date(value, connection):
    return value if isinstance(value, datetime.date) else parse_date(value)


def _zone(alias: str):
    """The time zone a database without one of its own keeps datetimes in: its ``TIME_ZONE``, else UTC (as the
    ``DATABASES`` setting's documentation says Django reads and writes them)."""
    zone = settings.DATABASES[alias].get("TIME_ZONE")
    return zoneinfo.ZoneInfo(zone) if zone else datetime.UTC


def model_label(field) -> str:
    return f"{field.model._meta.label}.{field.name}"


def _from_db_value(field, value, connection):
    return field.from_db_value(value, None, connection)


def _aware(zone, value, connection):
    if isinstance(value, str):
        value = parse_datetime(value)
    return value.replace(tzinfo=zone) if value.tzinfo is None else value


def _bool(value, connection):
    return bool(value)


@functools.cache
def _pk_index(model) -> int:
    return model._meta.concrete_fields.index(model._meta.pk)


def _make(model, using: str, connection, values: list):
    """One instance of ``model`` from its columns' values, converted to what its fields hold."""
    names, converters = _loader(using, connection.vendor, model)
    for index, convert in converters:
        value = values[index]
        if value is not None:
            values[index] = convert(value, connection)
    return model.from_db(using, names, values)


def _arguments(args: tuple) -> None:
    """A statement's arguments are ints, strings or lists of them: each reaches the SQL as a parameter of its
    own (a bool or a float would be written as something else than the ORM writes)."""
    for arg in args:
        for value in arg if isinstance(arg, (list, tuple)) else (arg,):
            if type(value) not in (int, str):
                raise TypeError(f"a raw SQL statement takes ints, strings and lists of them, not {type(value)}")


class PreparedQuery:
    """``build(*args)`` (a queryset) as ``sql(Sql, *args)`` writes it out: called, the rows it gives, a list."""

    def __init__(self, build, sql, *, model=None, related: Sequence[str] = (), flat: bool = False):
        self.build = build
        self.sql = sql
        self.model = model
        self.related = tuple(related)
        self.flat = flat
        self.__doc__ = build.__doc__

    def __call__(self, *args, using: str = DEFAULT_DB_ALIAS) -> list:
        _arguments(args)
        connection = connections[using]
        joins = [self.model._meta.get_field(name) for name in self.related]
        text, params = self.sql(Sql(connection, model=self.model, joins=joins), *args)
        if "FOR UPDATE" in text and connection.get_autocommit():
            raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
        with connection.cursor() as cursor:
            cursor.execute(text, params)
            rows = cursor.fetchall()
        if self.model is None:
            return [row[0] for row in rows] if self.flat else [tuple(row) for row in rows]
        width = len(self.model._meta.concrete_fields)
        made = []
        for row in rows:
            obj = _make(self.model, using, connection, list(row[:width]))
            start = width
            for field in joins:
                other = field.related_model
                end = start + len(other._meta.concrete_fields)
                values = list(row[start:end])
                if values[_pk_index(other)] is not None:
                    # as select_related leaves it (no related row: nothing, as the key is NULL)
                    setattr(obj, field.name, _make(other, using, connection, values))
                start = end
            made.append(obj)
        return made


def raw_sql(sql: Callable, *, model=None, related: Sequence[str] = (), flat: bool = False):
    """Decorate a function that builds a queryset from its arguments with ``sql``, a function of an ``Sql``
    and the same arguments that gives the queryset's SQL and parameters: calls run that SQL, giving
    ``model`` instances (``related`` foreign keys loaded), or else tuples of values (``flat``: the first)."""
    return lambda build: PreparedQuery(build, sql, model=model, related=related, flat=flat)


class PreparedUpdate:
    """``build(*args).update(**values)`` as ``UPDATE <model's table> SET ... WHERE <where(Sql, *args)>``.

        @raw_sql_update(Turn, lambda sql, seat_ids: (sql.is_in(sql.column(Turn, "seat"), seat_ids), seat_ids))
        def close_turns(seat_ids):
            return Turn.objects.filter(seat_id__in=seat_ids)

        close_turns([1, 2], closed_at=now)  # the rows updated, as QuerySet.update() gives

    The values are any the fields take (a datetime, None, a model instance for a foreign key), made ready
    for the database as the ORM makes them. A field that wants a placeholder of its own, or one the table
    does not hold (a parent model's), is refused."""

    def __init__(self, build, model, where: Callable):
        self.build = build
        self.model = model
        self.where = where
        self.__doc__ = build.__doc__

    def __call__(self, *args, using: str = DEFAULT_DB_ALIAS, **values) -> int:
        if not values:
            raise TypeError("a raw SQL update sets at least one field")
        _arguments(args)
        connection = connections[using]
        sql = Sql(connection)
        meta = self.model._meta
        assignments, new = [], []
        for name in sorted(values):
            field = meta.get_field(name)
            if hasattr(field, "get_placeholder") or field.model is not meta.concrete_model or not field.concrete:
                raise ValueError(f"{self.build!r}: {field.name} cannot be set by a raw SQL update")
            assignments.append(f"{sql.quote(field.column)} = %s")
            new.append(_db_value(field, values[name], connection))
        where, params = self.where(sql, *args)
        text = f"UPDATE {sql.table(self.model)} SET {', '.join(assignments)} WHERE {where}"
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(text, [*new, *params])
            return cursor.rowcount


def _db_value(field, value, connection):
    """A new value as ``QuerySet.update`` writes it: an instance of a related model by its key, any other
    value made ready by its field."""
    if isinstance(value, Model):
        if not _takes_instance(field) or not isinstance(value, field.related_model):
            raise TypeError(f"{field.name} takes no model instance ({value!r})")
        value = value.pk
    return field.get_db_prep_save(value, connection=connection)


@functools.cache
def _takes_instance(field) -> bool:
    """Whether ``field`` is a relation to its model's primary key (``to_field`` unset), which takes an instance."""
    return field.is_relation and "to_field" not in field.deconstruct()[3]


def raw_sql_update(model, where: Callable):
    """Decorate a function that builds a queryset to update with ``model`` and ``where``, a function of an
    ``Sql`` and the same arguments that gives the WHERE clause and its parameters."""
    return lambda build: PreparedUpdate(build, model, where)


INSERT_VALUES_AT_MOST = 999


class PreparedInsert:
    """``model.objects.bulk_create(rows)`` as ``INSERT INTO <model's table> (<columns>) VALUES (...), ...``, its text
    written once per number of rows (as many statements as 999 values a statement ask):

        _moves_insert = raw_sql_insert(Move)
        _moves_insert([Move(game=game, seat=seat, round=1, kind="clue", payload={}, version=7)])  # rows written

    Each value is made ready as the ORM's INSERT makes it: the field's ``pre_save`` for an added row (an
    ``auto_now_add`` time set on the instance) and then its ``get_db_prep_save``. The primary key is left to the
    database and not read back (no RETURNING: the instances keep ``pk`` None), so it is for rows nothing reads again
    in the same request; as ``bulk_create``, it sends no ``pre_save`` or ``post_save``. A database error (a
    constraint) is Django's, as the ORM raises it, and marks the transaction for rollback."""

    def __init__(self, model):
        meta = model._meta
        if meta.parents:
            raise ValueError(f"{meta.label}: a raw SQL insert writes one table, not a model with parents")
        self.model = model
        self.fields = _inserted_fields(model)
        if meta.pk.get_internal_type() not in ("AutoField", "BigAutoField", "SmallAutoField"):
            raise ValueError(f"{meta.label}: a raw SQL insert leaves the primary key to the database")
        for field in self.fields:
            if hasattr(field, "get_placeholder") or getattr(field, "generated", False):
                raise ValueError(f"{model_label(field)} cannot be written by a raw SQL insert")

    def __call__(self, rows, *, using: str = DEFAULT_DB_ALIAS) -> int:
        rows = list(rows)
        if not rows:
            return 0
        connection = connections[using]
        params = []
        for row in rows:
            if not isinstance(row, self.model) or row.pk is not None:
                raise TypeError(f"a raw SQL insert of {self.model._meta.label} takes new rows of it, not {row!r}")
            for field in self.fields:
                value = field.pre_save(row, True)
                if hasattr(value, "resolve_expression"):
                    raise TypeError(f"{model_label(field)}: a raw SQL insert writes values, not {value!r}")
                params.append(field.get_db_prep_save(value, connection=connection))
        width = len(self.fields)
        # At most 999 values a statement: the fewest any SQLite takes (SQLITE_MAX_VARIABLE_NUMBER before 3.32).
        per_statement = max(1, INSERT_VALUES_AT_MOST // width)
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            for start in range(0, len(rows), per_statement):
                count = min(per_statement, len(rows) - start)
                text = _insert_sql(using, self.model, count)
                cursor.execute(text, params[start * width : (start + count) * width])
        return len(rows)


def _inserted_fields(model) -> list:
    """The fields a new row of ``model`` writes, in the INSERT's order: every concrete one but the primary key."""
    meta = model._meta
    return [field for field in meta.concrete_fields if field is not meta.pk]


@functools.cache
def _insert_sql(alias: str, model, count: int) -> str:
    quote = connections[alias].ops.quote_name
    columns = [quote(field.column) for field in _inserted_fields(model)]
    row = f"({', '.join(['%s'] * len(columns))})"
    return f"INSERT INTO {quote(model._meta.db_table)} ({', '.join(columns)}) VALUES {', '.join([row] * count)}"


register("infrastructure.raw_sql._insert_sql", _insert_sql.cache_clear)  # one text per model, database and size


def raw_sql_insert(model) -> PreparedInsert:
    """A ``PreparedInsert`` of ``model``'s new rows."""
    return PreparedInsert(model)


class SqlValues(NamedTuple):
    """How a value goes into hand-written SQL on one database, as the ORM would write it into a field of that type
    (a parameter of ``cursor.execute``, or a row of PostgreSQL's COPY)."""

    datetime: Callable[[datetime.datetime], Any]
    json: Callable[[Any], Any]


@functools.cache
def sql_values(alias: str = DEFAULT_DB_ALIAS) -> SqlValues:
    """``SqlValues`` for the database ``alias``. PostgreSQL: an aware datetime as it is and JSON as psycopg's
    ``Jsonb`` (psycopg's own adaptation, as Django's JSONField writes it there); elsewhere (SQLite) a datetime as
    its text in the database's time zone, without an offset, and JSON as its text: what the ORM stores."""
    if connections[alias].vendor in TYPED:
        from psycopg.types.json import Jsonb  # only where PostgreSQL is (psycopg is its driver)

        return SqlValues(datetime=_as_it_is, json=Jsonb)
    return SqlValues(datetime=functools.partial(_naive_text, _zone(alias)), json=json.dumps)


register("infrastructure.raw_sql.sql_values", sql_values.cache_clear)


def _as_it_is(value):
    return value


def _naive_text(zone, value: datetime.datetime) -> str:
    if value.tzinfo is not None:
        value = value.astimezone(zone).replace(tzinfo=None)
    return str(value)
