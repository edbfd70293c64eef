"""Think Alike's task cards and board fields: the built-in content, imports and
exports as CSV or JSON, retiring and restoring.

An import is all or nothing: every row is checked first, and one bad row refuses
the whole file with a reason per bad row. Rows are matched to what exists by their
``key``: a known key updates its card or field, a new one adds it. The built-in
content loads the same way, but only adds what is missing, so an admin's edits
survive ``manage.py load_content``.

JSON is a list of objects, either flat (the CSV's columns) or as the built-in
files write them (``"text": {"en": ..., "da": ...}``). CSV has a header row.
"""

import csv
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from django.utils.translation import gettext as _

from think_alike.engine import rules as engine
from think_alike.models import MAX_ANSWERS, TEXT_MAX_LENGTH, BoardField, TaskCard

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_IMPORT_ROWS = 5000
KEY = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
TRUE, FALSE = {"1", "true", "yes", "y", "x"}, {"", "0", "false", "no", "n"}


class ContentImportError(Exception):
    """Nothing was imported. ``problems``: (row, why) for each refused row."""

    def __init__(self, message, problems: list[tuple[str, str]] = ()):
        super().__init__(str(message))
        self.message = message
        self.problems = list(problems)


@dataclass(frozen=True)
class ContentImport:
    created: int
    updated: int
    unchanged: int


@dataclass(frozen=True)
class Content:
    """One kind of content: its model, its columns, and how a row becomes model values."""

    name: str  # "tasks" or "fields"
    model: type
    columns: tuple[str, ...]
    builtin: str  # the file under CONTENT_DIR


TASKS = Content("tasks", TaskCard, ("key", "answers", "text_en", "text_da", "retired"), "tasks.json")
FIELDS = Content(
    "fields", BoardField, ("key", "kind", "bonus", "start", "text_en", "text_da", "retired"), "fields.json"
)
CONTENTS = {content.name: content for content in (TASKS, FIELDS)}


def content_of(model) -> Content:
    return next(content for content in CONTENTS.values() if content.model is model)


# --- reading a file ----------------------------------------------------------------


def content_rows_read(*, name: str, data: bytes) -> list[dict]:
    """The rows of an uploaded CSV or JSON file (by its name's ending), as flat dicts of strings or values."""
    if len(data) > MAX_IMPORT_BYTES:
        raise ContentImportError(_("The file is too large: at most %(mb)d MB.") % {"mb": MAX_IMPORT_BYTES // 2**20})
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ContentImportError(_("The file is not UTF-8 text.")) from None
    suffix = Path(name).suffix.lower()
    if suffix == ".json":
        try:
            items = json.loads(text)
        except ValueError as error:
            raise ContentImportError(_("The file is not valid JSON: %(error)s") % {"error": error}) from None
        if not isinstance(items, list):
            raise ContentImportError(_("A JSON import is a list of objects."))
        rows = [_flatten(item) if isinstance(item, dict) else item for item in items]
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(text, newline=""))
        if not reader.fieldnames or "key" not in reader.fieldnames:
            raise ContentImportError(_("A CSV import starts with a header row naming its columns, key first."))
        rows = [{k: v for k, v in row.items() if k is not None} for row in reader]
    else:
        raise ContentImportError(_("Import a .csv or a .json file."))
    if not rows:
        raise ContentImportError(_("The file holds no rows."))
    if len(rows) > MAX_IMPORT_ROWS:
        raise ContentImportError(_("At most %(n)d rows at a time.") % {"n": MAX_IMPORT_ROWS})
    return rows


def _flatten(item: dict) -> dict:
    """The built-in files' shape ({"text": {"en", "da"}}) as the flat columns."""
    row = dict(item)
    text = row.pop("text", None)
    if isinstance(text, dict):
        row.setdefault("text_en", text.get("en"))
        row.setdefault("text_da", text.get("da"))
    elif text is not None:
        row["text"] = text  # refused below as an unknown column
    return row


# --- checking rows -----------------------------------------------------------------


class _RowProblem(Exception):
    pass


def _text(row: dict, column: str) -> str:
    value = row.get(column)
    if not isinstance(value, str) or not value.strip():
        raise _RowProblem(_("%(column)s is missing.") % {"column": column})
    value = " ".join(value.split())
    if len(value) > TEXT_MAX_LENGTH:
        raise _RowProblem(_("%(column)s is longer than %(n)d characters.") % {"column": column, "n": TEXT_MAX_LENGTH})
    if "\x00" in value:
        raise _RowProblem(_("%(column)s holds a NUL character.") % {"column": column})
    return value


def _number(row: dict, column: str) -> int | None:
    value = row.get(column)
    if value is None or value == "":
        return None
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    raise _RowProblem(_("%(column)s is not a whole number.") % {"column": column})


def _flag(row: dict, column: str) -> bool | None:
    """True, False, or None where the row does not say."""
    if column not in row or row[column] is None:
        return None
    value = row[column]
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in TRUE | FALSE:
        return value.strip().lower() in TRUE
    raise _RowProblem(_("%(column)s is yes or no (1 or 0).") % {"column": column})


def _task_values(row: dict) -> dict:
    answers = _number(row, "answers")
    answers = 1 if answers is None else answers
    if not 1 <= answers <= MAX_ANSWERS:
        raise _RowProblem(_("answers is from 1 to %(n)d.") % {"n": MAX_ANSWERS})
    return {"answers": answers, "text_en": _text(row, "text_en"), "text_da": _text(row, "text_da")}


def _field_values(row: dict) -> dict:
    kind = row.get("kind")
    if kind not in BoardField.Kind.values:
        raise _RowProblem(_("kind is one of %(kinds)s.") % {"kinds": ", ".join(BoardField.Kind.values)})
    bonus = _number(row, "bonus")
    if kind == BoardField.Kind.DUEL and bonus not in engine.DUEL_BONUSES:
        raise _RowProblem(_("A duel field has a bonus of 2 or 4."))
    if kind != BoardField.Kind.DUEL and bonus is not None:
        raise _RowProblem(_("Only a duel field has a bonus."))
    start = bool(_flag(row, "start"))
    if start and kind != BoardField.Kind.SWAP:
        raise _RowProblem(_("The start field is a swap field."))
    return {
        "kind": kind,
        "bonus": bonus,
        "is_start": start,
        "text_en": _text(row, "text_en"),
        "text_da": _text(row, "text_da"),
    }


VALUES = {"tasks": _task_values, "fields": _field_values}


def _check(content: Content, rows: list) -> tuple[list[tuple[str, dict]], list[tuple[str, str]]]:
    """(key, model values) for each row, and the problems: (row label, why)."""
    checked, problems, seen = [], [], {}
    for number, row in enumerate(rows, start=1):
        label = _("row %(n)d") % {"n": number}
        if not isinstance(row, dict):
            problems.append((label, _("not an object")))
            continue
        key = row.get("key")
        if isinstance(key, str) and key:
            label = f"{label} ({key})"
        try:
            unknown = set(row) - set(content.columns)
            if unknown:
                raise _RowProblem(_("unknown columns: %(names)s") % {"names": ", ".join(sorted(map(str, unknown)))})
            if not isinstance(key, str) or len(key) > 80 or not KEY.match(key):
                raise _RowProblem(_("key is missing or not a slug (small letters, digits and dashes)."))
            if key in seen:
                raise _RowProblem(_("the key %(key)s is also in row %(n)d.") % {"key": key, "n": seen[key]})
            seen[key] = number
            values = VALUES[content.name](row)
            retired = _flag(row, "retired")
            if retired is not None:
                values["is_retired"] = retired
            if values.get("is_start") and values.get("is_retired"):
                raise _RowProblem(_("The start field cannot be retired: every board needs it."))
        except _RowProblem as problem:
            problems.append((label, str(problem)))
            continue
        checked.append((key, values))
    return checked, problems


# --- writing -----------------------------------------------------------------------


def content_import(*, content: Content, rows: list, update: bool = True) -> ContentImport:
    """Add or update every row, or nothing (``ContentImportError`` with the problems).

    ``update``: whether a known key takes the row's values (an admin's import) or is
    left as it is (the built-in content, which only adds what is missing).
    """
    checked, problems = _check(content, rows)
    model = content.model
    with transaction.atomic():
        existing = {
            item.key: item for item in model.objects.select_for_update().filter(key__in=[k for k, _ in checked])
        }
        if content is FIELDS and not problems:
            problems += _start_problems(checked, existing)
        if problems:
            raise ContentImportError(
                _("Nothing was imported: %(n)d of %(total)d rows have problems.")
                % {"n": len(problems), "total": len(rows)},
                problems,
            )
        created = updated = unchanged = 0
        new, changed, names = [], [], set()
        for key, values in checked:
            item = existing.get(key)
            if item is None:
                new.append(model(key=key, **values))
                created += 1
            elif update and any(getattr(item, name) != value for name, value in values.items()):
                for name, value in values.items():
                    setattr(item, name, value)
                changed.append(item)
                names.update(values)
                updated += 1
            else:
                unchanged += 1
        model.objects.bulk_create(new)
        if changed:
            model.objects.bulk_update(changed, sorted(names))
    return ContentImport(created=created, updated=updated, unchanged=unchanged)


def _start_problems(checked, existing) -> list[tuple[str, str]]:
    """One start field, before and after: a row may not make a second one, nor unmake the only one."""
    current = BoardField.objects.filter(is_start=True).values_list("key", flat=True).first()
    starts = [key for key, values in checked if values["is_start"]]
    problems = []
    for key in starts:
        if current is not None and key != current:
            problems.append((key, _("The start field is already %(key)s: there is only one.") % {"key": current}))
    if len(starts) > 1:
        problems.append((", ".join(starts), _("Only one field is the start field.")))
    for key, values in checked:
        if key == current and not values["is_start"]:
            problems.append((key, _("This is the start field: it stays the start field.")))
    return problems


def content_load_builtin() -> dict[str, ContentImport]:
    """Add the task cards and fields shipped with Fabula that the database lacks."""
    loaded = {}
    for content in CONTENTS.values():
        items = json.loads((CONTENT_DIR / content.builtin).read_text(encoding="utf-8"))
        loaded[content.name] = content_import(content=content, rows=[_flatten(item) for item in items], update=False)
    return loaded


def content_retire(*, items) -> tuple[int, int]:
    """Retire task cards or fields (the start field never is); returns (retired, kept)."""
    pks = list(items.values_list("pk", flat=True))
    model = items.model
    keep = model.objects.filter(pk__in=pks, is_start=True) if model is BoardField else model.objects.none()
    kept = keep.count()
    retired = model.objects.filter(pk__in=pks, is_retired=False).exclude(pk__in=keep).update(is_retired=True)
    return retired, kept


def content_restore(*, items) -> int:
    return items.model.objects.filter(pk__in=list(items.values_list("pk", flat=True)), is_retired=True).update(
        is_retired=False
    )


# --- exporting ---------------------------------------------------------------------


def _row(content: Content, item) -> dict:
    row = {"key": item.key}
    if content is TASKS:
        row["answers"] = item.answers
    else:
        row.update(kind=item.kind, bonus=item.bonus, start=item.is_start)
    row.update(text_en=item.text_en, text_da=item.text_da, retired=item.is_retired)
    return row


def content_export(*, content: Content, items, fmt: str) -> tuple[bytes, str, str]:
    """(body, content type, file name) of the items as CSV or JSON; an import reads either back."""
    rows = [_row(content, item) for item in items.order_by("key")]
    if fmt == "json":
        body = json.dumps(rows, ensure_ascii=False, indent=1).encode()
        return body, "application/json", f"think-alike-{content.name}.json"
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=content.columns, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({k: ("" if v is None else int(v) if isinstance(v, bool) else v) for k, v in row.items()})
    return out.getvalue().encode("utf-8"), "text/csv; charset=utf-8", f"think-alike-{content.name}.csv"
