"""Queries built and compiled by the ORM once per process, then run with new values.

Every ``Game.objects.filter(pk=...)`` builds a query and compiles it to SQL again:
resolving the lookups, choosing the columns, quoting names. On the hot path (an action,
a board) that was a fifth of the server's CPU, for the same few statements every time.
A prepared query is the same ORM queryset, built once per database and shape of its
arguments with stand-ins for the values; its SQL, and what the ORM learnt of the columns
while compiling it, are kept. Each call copies the built queryset and runs the kept SQL
with the call's values: the model instances, ``values_list`` tuples, ``select_related``
objects and converters are the ORM's own, from its own iterables.

    seats_of_game = prepared(lambda game_id: Seat.objects.filter(game_id=game_id).order_by("position"))
    seats = list(seats_of_game(game.pk))

The arguments are ints, strings, or lists of either (a list's length is part of the shape:
``pk__in`` of 3 and of 4 ids are two statements). A value must reach the SQL as a
parameter, untouched: a stand-in the ORM folds into the SQL (a slice's LIMIT) or converts
(a date) is refused when the query is first built, not run wrong. The build reads nothing
but its arguments: anything else it reads (the time, a setting) is kept as it was at the
first call. A list longer than ``LONGEST_KEPT`` runs as a plain queryset, built anew, so the
statements kept per process stay few whatever lengths come.
"""

import secrets
import threading
from dataclasses import dataclass

from django.core.exceptions import EmptyResultSet
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models import Expression, QuerySet
from django.db.models.sql.query import Query
from django.db.models.sql.subqueries import UpdateQuery
from django.db.transaction import TransactionManagementError

_STAND_IN_BASE = -(2**61)  # far from any id; each argument's stand-in is its own number
_STAND_IN_TEXT = f"prepared-{secrets.token_hex(8)}-"
LONGEST_KEPT = 16  # a game's seats and players fit; a longer list is built as any queryset


@dataclass(frozen=True)
class _Compiled:
    queryset: QuerySet  # built with the stand-ins, its query already set up by the compiler
    sql: str | None  # None: nothing can match
    params: tuple  # each ("arg", index into the flattened values, its wrapper or None) or ("const", value, None)
    select: list
    klass_info: dict | None
    annotation_col_map: dict | None
    col_count: int
    has_extra_select: bool
    for_update: bool
    # The columns' converters (text to datetime, JSON...), as ``get_converters`` finds them: what the
    # columns are and the database's settings decide them, not a connection's state, so one thread's
    # serve every thread's connection to the same database.
    converters: dict


class _PreparedSQLQuery(Query):
    """A clone of a prepared query's ``Query``: its compiler answers with the kept SQL and the call's values."""

    prepared: tuple[_Compiled, list] | None = None

    def clone(self):
        # Chained further (``.filter()``, ``.get()``, ``.count()``), it would still run the kept SQL.
        raise TypeError("a prepared query runs as it was built: iterate it (list(), a for loop)")

    def get_compiler(self, using=None, connection=None, elide_empty=True):
        compiler = super().get_compiler(using, connection, elide_empty)
        compiled, values = self.prepared

        def as_sql(with_limits=True, with_col_aliases=False):
            if compiled.for_update and compiler.connection.get_autocommit():
                raise TransactionManagementError("select_for_update cannot be used outside of a transaction.")
            compiler.select = compiled.select
            compiler.klass_info = compiled.klass_info
            compiler.annotation_col_map = compiled.annotation_col_map
            compiler.col_count = compiled.col_count
            compiler.has_extra_select = compiled.has_extra_select
            compiler.get_converters = lambda expressions: compiled.converters  # for the kept columns only
            return compiled.sql, _params(compiled.params, values)

        compiler.as_sql = as_sql
        return compiler


def _shape(args: tuple) -> tuple:
    shape = []
    for arg in args:
        if isinstance(arg, (list, tuple)):
            kinds = tuple(_kind(item) for item in arg)
            shape.append(("list", kinds))
        else:
            shape.append(_kind(arg))
    return tuple(shape)


def _kind(value) -> str:
    if type(value) is int:  # not a bool: the ORM would write it as one
        return "int"
    if type(value) is str:
        return "str"
    raise TypeError(f"a prepared query takes ints, strings and lists of them, not {type(value).__name__}")


def _flatten(args: tuple) -> list:
    values = []
    for arg in args:
        values.extend(arg) if isinstance(arg, (list, tuple)) else values.append(arg)
    return values


def _stand_ins(shape: tuple) -> tuple[tuple, list]:
    """Arguments of ``shape`` made of stand-ins, and the stand-ins in order."""
    made = []

    def one(kind):
        index = len(made)
        made.append(_STAND_IN_BASE - index if kind == "int" else f"{_STAND_IN_TEXT}{index}")
        return made[-1]

    args = tuple([one(kind) for kind in part[1]] if isinstance(part, tuple) else one(part) for part in shape)
    return args, made


class _Prepared:
    """What a prepared query and a prepared update share: ``build``, and what was compiled, by key."""

    def __init__(self, build):
        self.build = build
        self._compiled: dict[tuple, object] = {}
        self._lock = threading.Lock()
        self.__doc__ = build.__doc__

    def _compiled_for(self, key: tuple, compile):
        compiled = self._compiled.get(key)
        if compiled is None:
            with self._lock:
                compiled = self._compiled.get(key) or compile()
                self._compiled[key] = compiled
        return compiled

    def _kept(self, params, stand_ins: list) -> tuple:
        """The compiled statement's parameters, each a call's value or a constant; refused if one of the
        stand-ins did not reach the SQL as a parameter of its own."""
        where = {stand_in: index for index, stand_in in enumerate(stand_ins)}
        kept = tuple(_kept(param, where) for param in params)
        missing = set(range(len(stand_ins))) - {item for kind, item, _wrap in kept if kind == "arg"}
        if missing or any(_holds_stand_in(param) for kind, param, _wrap in kept if kind == "const"):
            raise ValueError(f"{self.build!r}: an argument does not reach the SQL as a parameter of its own")
        return kept

    def clear(self) -> None:
        """Forget what was compiled (a test that changes the database's settings)."""
        with self._lock:
            self._compiled.clear()


def _too_long(shape: tuple) -> bool:
    return any(isinstance(part, tuple) and len(part[1]) > LONGEST_KEPT for part in shape)


class PreparedQuery(_Prepared):
    """``build(*args)`` (a queryset) built and compiled once per database and shape of arguments."""

    def __call__(self, *args, using: str = DEFAULT_DB_ALIAS) -> QuerySet:
        shape = _shape(args)
        if _too_long(shape):
            return self.build(*args).using(using)
        compiled = self._compiled_for((using, shape), lambda: self._compile(using, shape))
        if compiled.sql is None:  # nothing can match (``pk__in=[]``): no SQL to run
            return compiled.queryset.none()
        return _to_run(compiled.queryset, (compiled, _flatten(args)))

    def _compile(self, using: str, shape: tuple) -> _Compiled:
        args, stand_ins = _stand_ins(shape)
        queryset = self.build(*args).using(using)
        compiler = queryset.query.get_compiler(using=using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            return _Compiled(queryset, None, (), [], None, None, 0, False, False, {})
        connection = connections[using]
        return _Compiled(
            queryset=queryset,
            sql=sql,
            params=self._kept(params, stand_ins),
            select=compiler.select,
            klass_info=compiler.klass_info,
            annotation_col_map=compiler.annotation_col_map,
            col_count=compiler.col_count,
            has_extra_select=compiler.has_extra_select,
            for_update=bool(queryset.query.select_for_update and connection.features.has_select_for_update),
            converters=compiler.get_converters([column for column, *_ in compiler.select[: compiler.col_count]]),
        )


def _to_run(built: QuerySet, prepared: tuple) -> QuerySet:
    """A queryset of its own for one call, as ``built._chain()`` makes it, but around a shallow copy of the
    built query: a prepared query is never changed again (chaining it is refused, its compiler answers with
    the kept SQL), so the parts ``Query.clone`` copies (its joins, its WHERE tree) can be shared, and their
    copy was most of a call's cost."""
    query = object.__new__(_PreparedSQLQuery)
    query.__dict__.update(built.query.__dict__)
    query.prepared = prepared
    queryset = built.__class__(model=built.model, query=query, using=built._db, hints=built._hints)
    queryset._sticky_filter = built._sticky_filter
    queryset._for_write = built._for_write
    queryset._prefetch_related_lookups = built._prefetch_related_lookups[:]
    queryset._known_related_objects = built._known_related_objects
    queryset._iterable_class = built._iterable_class
    queryset._fields = built._fields
    return queryset


def _is_stand_in(param, where: dict) -> bool:
    return type(param) in (int, str) and param in where


def _holds_stand_in(param) -> bool:
    """A stand-in the ORM changed on its way to a parameter (it would never be replaced)."""
    if isinstance(param, str):
        return _STAND_IN_TEXT in param
    return isinstance(param, int) and not isinstance(param, bool) and param <= _STAND_IN_BASE + 1 and param > -(2**62)


def prepared(build) -> PreparedQuery:
    """Decorate a function that builds a queryset from its arguments: it is built and compiled once."""
    return PreparedQuery(build)


class _Slot(Expression):
    """Where a prepared UPDATE's new value goes: a parameter of its own, its stand-in replaced on each call."""

    contains_aggregate = False
    contains_over_clause = False

    def __init__(self, stand_in: int, output_field):
        super().__init__(output_field=output_field)
        self.stand_in = stand_in

    def as_sql(self, compiler, connection):
        return "%s", [self.stand_in]


@dataclass(frozen=True)
class _CompiledUpdate:
    sql: str | None  # None: no row can match
    params: tuple  # ("arg", index into the call's values, its wrapper or None) or ("const", value, None)
    names: tuple  # the fields set, as the call names them, in the order of their values after the arguments
    fields: tuple  # and those fields


class PreparedUpdate(_Prepared):
    """``build(*args).update(**values)``, its UPDATE built and compiled once per database, shape of the
    arguments and set of fields written; each call runs the kept SQL with its arguments and values.

        close_turns = prepared_update(lambda seat_ids: Turn.objects.filter(seat_id__in=seat_ids))
        close_turns([1, 2], closed_at=now)  # the rows updated, as QuerySet.update() gives

    The arguments are those of a prepared query (ints, strings, lists of them); the values are any the
    fields take (a datetime, None, a model instance for a foreign key), made ready for the database on each
    call as the ORM makes them (``get_db_prep_save``). A field that wants a placeholder of its own, or one the
    query cannot set directly (a parent model's), is refused when the update is first built."""

    def __call__(self, *args, using: str = DEFAULT_DB_ALIAS, **values) -> int:
        if not values:
            raise TypeError("a prepared update sets at least one field")
        shape = _shape(args)
        names = tuple(sorted(values))
        if _too_long(shape):
            return self.build(*args).using(using).update(**values)
        compiled = self._compiled_for((using, shape, names), lambda: self._compile(using, shape, names))
        if compiled.sql is None:
            return 0
        connection = connections[using]
        new = [_db_value(field, values[name], connection) for name, field in zip(compiled.names, compiled.fields)]
        with transaction.mark_for_rollback_on_error(using), connection.cursor() as cursor:
            cursor.execute(compiled.sql, _params(compiled.params, _flatten(args) + new))
            return cursor.rowcount

    def _compile(self, using: str, shape: tuple, names: tuple) -> _CompiledUpdate:
        args, stand_ins = _stand_ins(shape)
        queryset = self.build(*args).using(using)
        meta = queryset.model._meta
        fields = tuple(meta.get_field(name) for name in names)
        for field in fields:
            if hasattr(field, "get_placeholder") or field.model is not meta.concrete_model or not field.concrete:
                raise ValueError(f"{self.build!r}: {field.name} cannot be set by a prepared update")
        slots = [_STAND_IN_BASE - len(stand_ins) - index for index in range(len(fields))]
        query = queryset.query.chain(UpdateQuery)
        query.add_update_values({name: _Slot(slot, f) for name, f, slot in zip(names, fields, slots, strict=True)})
        try:
            sql, params = query.get_compiler(using=using).as_sql()
        except EmptyResultSet:
            return _CompiledUpdate(None, (), names, fields)
        return _CompiledUpdate(sql, self._kept(params, [*stand_ins, *slots]), names, fields)


def _kept(param, where: dict) -> tuple:
    """A compiled parameter: a call's value (``("arg", index, wrap)``) or a constant. On PostgreSQL the ORM
    passes a small integer field's values wrapped in psycopg's type (``Int2``): a stand-in so wrapped is the
    call's value, wrapped the same way."""
    if _is_stand_in(param, where):
        return ("arg", where[param], None)
    if isinstance(param, int) and not isinstance(param, bool) and int(param) in where:
        return ("arg", where[int(param)], type(param))
    return ("const", param, None)


def _params(kept: tuple, values: list) -> tuple:
    """A call's parameters: its values where the stand-ins were (wrapped as they were), the constants kept."""
    return tuple(
        item if kind == "const" else values[item] if wrap is None else wrap(values[item]) for kind, item, wrap in kept
    )


def _db_value(field, value, connection):
    """A new value as ``QuerySet.update`` writes it (SQLUpdateCompiler): an instance of a related model by its
    key, any other value made ready by its field."""
    if hasattr(value, "prepare_database_save"):
        if not field.remote_field:
            raise TypeError(f"{field.name} takes no model instance ({value!r})")
        value = value.prepare_database_save(field)
    return field.get_db_prep_save(value, connection=connection)


def prepared_update(build) -> PreparedUpdate:
    """Decorate a function that builds a queryset to update: its UPDATE is built and compiled once."""
    return PreparedUpdate(build)
