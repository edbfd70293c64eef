"""Think Alike's task cards and board fields: the built-in content, imports and
exports as CSV or JSON, retiring and restoring.

An import is all or nothing: every row is checked first, and one bad row refuses
the whole file with a reason per bad row. Rows are matched to what exists by their
``key``: a known key updates its card or field, a new one adds it. The built-in
content loads the same way, but only adds what is missing, so an admin's edits
survive ``manage.py load_content`` (of a known card or field it only fills in the
languages it lacks, as after a new content language).

Every card and field has a text in each content language (``models.LANGS``: en, da,
sv, nb, fi, fr), each written for its language. The checks a row passes: all six
texts, none empty; no two cards (nor two association fields) with the same text in
a language, case, spacing and punctuation aside; a card asking for several answers
says how many in every language (the number as a word or a digit), and the digits a
text names are the same in every language; no template placeholders.

JSON is a list of objects, either flat (the CSV's columns) or as the built-in
files write them (``"text": {"en": ..., "da": ..., ...}``). CSV has a header row.
"""

import csv
import io
import json
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from think_alike.engine import rules as engine
from think_alike.models import LANGS, MAX_ANSWERS, TEXT_COLUMNS, TEXT_MAX_LENGTH, BoardField, TaskCard

CONTENT_DIR = Path(__file__).resolve().parent.parent / "content"
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_IMPORT_ROWS = 5000
KEY = re.compile(r"^[a-z0-9]+(?:[-_][a-z0-9]+)*$")
TRUE, FALSE = {"1", "true", "yes", "y", "x"}, {"", "0", "false", "no", "n"}


class ContentImportError(Exception):
    """Nothing was imported. ``problems``: (row, why) for each refused row."""

    def __init__(self, message, problems: Sequence[tuple[str, str]] = ()):
        super().__init__(str(message))
        self.message = message
        self.problems = list(problems)


@dataclass(frozen=True)
class ContentImport:
    created: int
    updated: int  # the built-in load: rows given the languages they lacked
    unchanged: int


@dataclass(frozen=True)
class Content:
    """One kind of content: its model, its columns, and how a row becomes model values."""

    name: str  # "tasks" or "fields"
    model: type[TaskCard] | type[BoardField]
    columns: tuple[str, ...]
    builtin: str  # the file under CONTENT_DIR


TASKS = Content("tasks", TaskCard, ("key", "answers", *TEXT_COLUMNS, "retired"), "tasks.json")
FIELDS = Content("fields", BoardField, ("key", "kind", "bonus", "start", *TEXT_COLUMNS, "retired"), "fields.json")

# How a card asking for several answers says how many, per language (a digit also does).
COUNT_WORDS: dict[int, dict[str, str]] = {
    2: {"en": "two", "da": "to", "sv": "två", "nb": "to", "fi": "kaksi", "fr": "deux"},
    3: {"en": "three", "da": "tre", "sv": "tre", "nb": "tre", "fi": "kolme", "fr": "trois"},
    4: {"en": "four", "da": "fire", "sv": "fyra", "nb": "fire", "fi": "neljä", "fr": "quatre"},
    5: {"en": "five", "da": "fem", "sv": "fem", "nb": "fem", "fi": "viisi", "fr": "cinq"},
    6: {"en": "six", "da": "seks", "sv": "sex", "nb": "seks", "fi": "kuusi", "fr": "six"},
    7: {"en": "seven", "da": "syv", "sv": "sju", "nb": "sju", "fi": "seitsemän", "fr": "sept"},
    8: {"en": "eight", "da": "otte", "sv": "åtta", "nb": "åtte", "fi": "kahdeksan", "fr": "huit"},
    9: {"en": "nine", "da": "ni", "sv": "nio", "nb": "ni", "fi": "yhdeksän", "fr": "neuf"},
    10: {"en": "ten", "da": "ti", "sv": "tio", "nb": "ti", "fi": "kymmenen", "fr": "dix"},
}
PLACEHOLDER = re.compile(r"%\(|\{|\}|%[sd]")
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
    """The built-in files' shape ({"text": {"en": ..., "da": ..., ...}}) as the flat columns."""
    row = dict(item)
    text = row.pop("text", None)
    if isinstance(text, dict):
        for lang in LANGS:
            row.setdefault(f"text_{lang}", text.get(lang))
        if set(text) - set(LANGS):
            row["text"] = text  # a language not known: refused below as an unknown column
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
    if PLACEHOLDER.search(value):
        raise _RowProblem(_("%(column)s holds a placeholder or a brace.") % {"column": column})
    return value


def _texts(row: dict) -> dict[str, str]:
    """The six texts of a row; each language's is there and not empty."""
    return {column: _text(row, column) for column in TEXT_COLUMNS}


def normalized(text: str) -> str:
    """A text as compared for duplicates: case, punctuation and spacing aside."""
    text = unicodedata.normalize("NFKC", text).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


def _count_check(texts: dict[str, str], answers: int) -> None:
    """A card asking for several answers says how many in each language; all name the same digits."""
    digits = {tuple(sorted(re.findall(r"\d+", text))) for text in texts.values()}
    if len(digits) > 1:
        raise _RowProblem(_("The texts do not name the same numbers in every language."))
    if answers > 1:
        words = COUNT_WORDS.get(answers, {})
        for column, text in texts.items():
            found = normalized(text).split()
            if str(answers) not in found and words.get(column.removeprefix("text_")) not in found:
                raise _RowProblem(
                    _("%(column)s does not say how many answers the card asks for (%(n)d).")
                    % {"column": column, "n": answers}
                )


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
    texts = _texts(row)
    _count_check(texts, answers)
    return {"answers": answers, **texts}


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
        **_texts(row),
    }


VALUES = {"tasks": _task_values, "fields": _field_values}


def _check(content: Content, rows: list) -> tuple[list[tuple[str, dict]], list[tuple[str, str]]]:
    """(key, model values) for each row, and the problems: (row label, why)."""
    checked: list[tuple[str, dict]] = []
    problems: list[tuple[str, str]] = []
    seen: dict[str, int] = {}  # key: the row it is in
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


def _compared(content: Content, values: dict) -> bool:
    """Whether a row's texts must differ from the others': every card's, and association fields'
    (the action fields share theirs: "Swap", "Move", "Duel for 2")."""
    return content is TASKS or values.get("kind") == BoardField.Kind.ASSOCIATION


def _duplicate_problems(content: Content, checked, others) -> list[tuple[str, str]]:
    """Two rows with the same text in a language, or a row and one of ``others``: (key, {column: text})
    of what else must differ (for an admin's import, what is in play under another key)."""
    problems: list[tuple[str, str]] = []
    seen: dict[tuple[str, str], str] = {}
    for key, texts in others:
        for column in TEXT_COLUMNS:
            if texts.get(column):
                seen.setdefault((column, normalized(texts[column])), key)
    for key, values in checked:
        if not _compared(content, values):
            continue
        for column in TEXT_COLUMNS:
            other = seen.setdefault((column, normalized(values[column])), key)
            if other != key:
                problems.append((key, _("%(column)s is the same as %(other)s's.") % {"column": column, "other": other}))
    return problems


def content_problems(*, content: Content, values: dict, key: str | None) -> list[str]:
    """What an import would refuse in one card or field as an admin's form gives it (model values).

    The row's own checks, and no text the same as one of another card or association field in play.
    """
    row = {"key": key, **{column: values.get(column) for column in TEXT_COLUMNS}}
    if content is TASKS:
        row["answers"] = values.get("answers")
    else:
        row.update(kind=values.get("kind"), bonus=values.get("bonus"), start=bool(values.get("is_start")))
    checked, problems = _check(content, [row])
    if problems:
        return [why for _label, why in problems]
    others = content.model.objects.in_play().exclude(key=key)
    if content is FIELDS:
        others = others.filter(kind=BoardField.Kind.ASSOCIATION)
    found = _duplicate_problems(content, checked, [(row["key"], row) for row in others.values("key", *TEXT_COLUMNS)])
    return [why for _key, why in found]


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
        if not problems:
            others: list = []
            if update:  # an admin's import: nor the same as a card or field in play under another key
                in_play = model.objects.in_play().exclude(key__in=[k for k, _ in checked])
                if content is FIELDS:
                    in_play = in_play.filter(kind=BoardField.Kind.ASSOCIATION)
                others = [(row["key"], row) for row in in_play.values("key", *TEXT_COLUMNS)]
            problems += _duplicate_problems(content, checked, others)
        if problems:
            raise ContentImportError(
                _("Nothing was imported: %(n)d of %(total)d rows have problems.")
                % {"n": len(problems), "total": len(rows)},
                problems,
            )
        created = updated = unchanged = 0
        # Instances of ``model``, one of two: mypy cannot tie the list to which one.
        new: list[Any] = []
        changed, names = [], set[str]()
        for key, values in checked:
            item = existing.get(key)
            if item is None:
                new.append(model(key=key, **values))
                created += 1
                continue
            if not update:  # the built-in content: only the languages the row lacks
                values = {name: values[name] for name in TEXT_COLUMNS if not getattr(item, name)}
            if any(getattr(item, name) != value for name, value in values.items()):
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
    row.update({column: getattr(item, column) for column in TEXT_COLUMNS}, retired=item.is_retired)
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
