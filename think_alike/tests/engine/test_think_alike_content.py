"""The Think Alike content: task cards and board fields, in the six content languages.

The content audit's rules are ``think_alike/tests/test_content_audit.py``."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

import think_alike
from think_alike.engine import rules as ta

CONTENT = Path(think_alike.__file__).parent / "content"
LANGS = ("en", "da", "sv", "nb", "fi", "fr")
KEY = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def load(name: str) -> list[dict]:
    return json.loads((CONTENT / name).read_text(encoding="utf-8"))


TASKS = load("tasks.json")
FIELDS = load("fields.json")


def test_counts():
    assert len(TASKS) >= 200
    assert sum(1 for t in TASKS if t["answers"] > 1) >= 40
    assert len(FIELDS) >= 40
    kinds = [f["kind"] for f in FIELDS]
    assert kinds.count("association") >= 40
    assert kinds.count("swap") >= 2  # the start field and at least one more
    assert kinds.count("move") >= 1
    assert {f["bonus"] for f in FIELDS if f["kind"] == "duel"} == {2, 4}


@pytest.mark.parametrize(("name", "items"), [("tasks", TASKS), ("fields", FIELDS)])
def test_keys_are_unique_slugs(name, items):
    keys = [item["key"] for item in items]
    assert len(keys) == len(set(keys)), name
    assert all(KEY.match(key) for key in keys), [k for k in keys if not KEY.match(k)]


@pytest.mark.parametrize(("name", "items"), [("tasks", TASKS), ("fields", FIELDS)])
def test_every_text_is_in_every_language(name, items):
    for item in items:
        assert set(item["text"]) == set(LANGS), item["key"]
        for lang in LANGS:
            text = item["text"][lang]
            assert isinstance(text, str) and text.strip() == text and text, item["key"]
            assert len(text) <= 120, item["key"]


@pytest.mark.parametrize("lang", LANGS)
def test_task_texts_are_distinct(lang):
    texts = [t["text"][lang] for t in TASKS]
    assert len(texts) == len(set(texts))


def test_tasks_ask_for_at_least_one_answer():
    for task in TASKS:
        assert isinstance(task["answers"], int) and 1 <= task["answers"] <= 3, task["key"]


def test_multi_answer_tasks_say_how_many():
    numbers = {
        "en": {2: "Two", 3: "Three"},
        "da": {2: "To", 3: "Tre"},
        "sv": {2: "Två", 3: "Tre"},
        "nb": {2: "To", 3: "Tre"},
        "fi": {2: "Kaksi", 3: "Kolme"},
        "fr": {2: "Deux", 3: "Trois"},
    }
    for task in TASKS:
        if task["answers"] > 1:
            for lang in LANGS:
                assert task["text"][lang].startswith(numbers[lang][task["answers"]]), task["key"]


def test_fields():
    starts = [f for f in FIELDS if f.get("start")]
    assert len(starts) == 1 and starts[0]["key"] == "start" and starts[0]["kind"] == "swap"
    for f in FIELDS:
        assert f["kind"] in ta.FIELD_KINDS, f["key"]
        assert ("bonus" in f) == (f["kind"] == "duel"), f["key"]


@pytest.mark.parametrize("lang", ta.LANGS)
def test_the_content_plays(lang):
    """The service's way in: ids given, one language chosen."""
    fields = [
        {
            "id": n,
            "kind": f["kind"],
            "text": f["text"][lang],
            "bonus": f.get("bonus"),
            "start": f.get("start", False),
        }
        for n, f in enumerate(FIELDS, start=1)
    ]
    tasks = [{"id": n, "text": t["text"][lang], "answers": t["answers"]} for n, t in enumerate(TASKS, start=1)]
    state = ta.new_game(seats=10, rng=random.Random(1), options={"lang": lang}, fields=fields, tasks=tasks)
    assert len(state.pile) == len(TASKS) and len(state.board) == ta.BOARD_SIZE
