"""Ids from a URL (path or query) that the database can hold, or none at all.

Every table's key is a 64-bit integer (``DEFAULT_AUTO_FIELD`` is ``BigAutoField``). A number
past its range is no row of ours, but handed to the ORM it fails in the database driver (SQLite:
"Python int too large to convert to SQLite INTEGER"), a 500 where a 404 is the answer. So a
route names its ids ``<id:game_id>`` (pages) or ``{id:game_id}`` (the API: ninja hands the route
to Django's own converters): a number past the range matches no route, a 404. A query
parameter goes through ``id_from_query``.
"""

from django.urls import register_converter

ID_MAX = 2**63 - 1  # the largest value of a 64-bit signed integer column


class IdConverter:
    """``<id:name>``: a whole number from 0 to ``ID_MAX``; anything past it is no match (404)."""

    regex = "[0-9]{1,19}"  # 2**63 - 1 has 19 digits: no longer string is read as a number

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > ID_MAX:
            raise ValueError("past a 64-bit id")  # Django: this route does not match
        return number

    def to_url(self, value) -> str:
        return str(int(value))


def register() -> None:
    """Make ``<id:...>`` known to every URLconf (``games``' ``AppConfig.ready``, before any is loaded)."""
    register_converter(IdConverter, "id")


def id_from_query(value: str | None) -> int | None:
    """``value`` (a query parameter) as an id the database can hold, else ``None``: absent, empty, not ASCII
    digits ("²" is a digit to ``str.isdigit``), or past ``ID_MAX``."""
    if not value or len(value) > 19 or not value.isascii() or not value.isdigit():
        return None
    number = int(value)
    return number if number <= ID_MAX else None
