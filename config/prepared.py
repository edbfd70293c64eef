"""The hot path's few statements, written out as SQL once and run through Django's public doors.

An action and the boards it causes ask the same dozen statements every time (lock the game,
read its seats, close the turns, count the unread notes...). Built through the ORM, each call
resolves its lookups and compiles them to SQL again: on the hot path that was a fifth of the
server's CPU. A prepared statement is the same queryset, kept as ``build`` (what the statement
means, and what the tests hold the SQL to), beside its SQL written out with the model's own
names (``Model._meta``, quoted by ``connection.ops.quote_name``) so that it runs alike on SQLite
and PostgreSQL. Model rows come through ``Manager.raw`` (the columns' converters are the ORM's:
text to an aware datetime, JSON to a dict), plain values through a cursor, and UPDATEs through
``cursor.execute`` with each new value made ready by its field (``get_db_prep_save``).

    @prepared(lambda sql, game_id: sql.select(Seat, where=f"{sql.column(Seat, 'game')} = %s",
                                              params=[game_id], order_by=["position"]), model=Seat)
    def seats_of_game(game_id):
        return Seat.objects.filter(game_id=game_id).order_by("position")

    seats = seats_of_game(game.pk)  # a list of Seat

``related`` names foreign keys whose rows come with them (as ``select_related`` gives them: joined
in the same statement, ``Sql.select`` adding their columns and a LEFT OUTER JOIN on each). A
statement with ``FOR UPDATE`` keeps it on PostgreSQL and drops it on SQLite, where the
connection's IMMEDIATE transaction takes the database's write lock at BEGIN.
"""

import functools
from collections.abc import Callable, Sequence

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.transaction import TransactionManagementError

from config.caches import register


class Sql:
    """Names and pieces of SQL for one connection: tables, columns and placeholders, quoted its way."""

    def __init__(self, connection, *, model=None, joins: Sequence = ()):
        self.connection = connection
        self.quote = connection.ops.quote_name
        # a prepared read's model, and its foreign keys whose rows ``select`` joins to that model's rows
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
        return " FOR UPDATE" if self.connection.features.has_select_for_update else ""

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


register("config.prepared._columns", _columns.cache_clear)  # one text per model and database


@functools.cache
def _loader(alias: str, vendor: str, model) -> tuple:
    """How ``model``'s rows are made from its columns (``Sql.columns``' order) on this database: the fields'
    attribute names, and for each column that has any, its converters with the column they convert, as the
    ORM's compiler finds them for a queryset's columns (the backend's first, then the field's own)."""
    connection = connections[alias]
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if found:
            converters.append((index, tuple(found), column))
    return tuple(field.attname for field in fields), tuple(converters)


register("config.prepared._loader", _loader.cache_clear)  # one per model and database


@functools.cache
def _pk_index(model) -> int:
    return model._meta.concrete_fields.index(model._meta.pk)


def _make(model, using: str, connection, values: list):
    """One instance of ``model`` from its columns' values, converted as the ORM converts them."""
    names, converters = _loader(using, connection.vendor, model)
    for index, functions, column in converters:
        value = values[index]
        for function in functions:
            value = function(value, column, connection)
        values[index] = value
    return model.from_db(using, names, values)


def _arguments(args: tuple) -> None:
    """A statement's arguments are ints, strings or lists of them: each reaches the SQL as a parameter of its
    own (a bool or a float would be written as something else than the ORM writes)."""
    for arg in args:
        for value in arg if isinstance(arg, (list, tuple)) else (arg,):
            if type(value) not in (int, str):
                raise TypeError(f"a prepared statement takes ints, strings and lists of them, not {type(value)}")


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
                    # what select_related leaves in the row's cache (no related row: nothing, as the key is NULL)
                    field.set_cached_value(obj, _make(other, using, connection, values))
                start = end
            made.append(obj)
        return made


def prepared(sql: Callable, *, model=None, related: Sequence[str] = (), flat: bool = False):
    """Decorate a function that builds a queryset from its arguments with ``sql``, a function of an ``Sql``
    and the same arguments that gives the queryset's SQL and parameters: calls run that SQL, giving
    ``model`` instances (``related`` foreign keys loaded), or else tuples of values (``flat``: the first)."""
    return lambda build: PreparedQuery(build, sql, model=model, related=related, flat=flat)


class PreparedUpdate:
    """``build(*args).update(**values)`` as ``UPDATE <model's table> SET ... WHERE <where(Sql, *args)>``.

        @prepared_update(Turn, lambda sql, seat_ids: (sql.is_in(sql.column(Turn, "seat"), seat_ids), seat_ids))
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
            raise TypeError("a prepared update sets at least one field")
        _arguments(args)
        connection = connections[using]
        sql = Sql(connection)
        meta = self.model._meta
        assignments, new = [], []
        for name in sorted(values):
            field = meta.get_field(name)
            if hasattr(field, "get_placeholder") or field.model is not meta.concrete_model or not field.concrete:
                raise ValueError(f"{self.build!r}: {field.name} cannot be set by a prepared update")
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
    if hasattr(value, "prepare_database_save"):
        if not field.remote_field:
            raise TypeError(f"{field.name} takes no model instance ({value!r})")
        value = value.prepare_database_save(field)
    return field.get_db_prep_save(value, connection=connection)


def prepared_update(model, where: Callable):
    """Decorate a function that builds a queryset to update with ``model`` and ``where``, a function of an
    ``Sql`` and the same arguments that gives the WHERE clause and its parameters."""
    return lambda build: PreparedUpdate(build, model, where)
