"""``manage.py group_answers``: JSON lines in, the game's grouping out."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

import pytest
from django.conf import settings
from django.core.management import call_command, load_command_class
from django.core.management.base import CommandError

from think_alike.engine.matching import group_answers


def run(text: str) -> tuple[list, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("group_answers", stdin=io.StringIO(text), stdout=out, stderr=err)
    return [json.loads(line) for line in out.getvalue().splitlines()], err.getvalue()


def test_one_line_of_groups_per_line_of_answers():
    lines = [
        {"lang": "en", "answers": ["Horses", "horse", "the house", "houses", "cat"]},
        {"lang": "da", "answers": ["Hundene", "en hund", "bær", "bar"]},
        {"lang": "fr", "answers": ["côte", "Côtes", "cote", "côté"]},
        {"lang": "fi", "answers": ["koirat", "koira", "   "]},
    ]
    groups, err = run("\n".join(json.dumps(line) for line in lines) + "\n\n")
    assert err == ""
    assert groups == [
        [["Horses", "horse"], ["the house", "houses"], ["cat"]],
        [["Hundene", "en hund"], ["bar"], ["bær"]],  # equal groups: by key
        [["côte", "Côtes", "cote"], ["côté"]],
        [["koirat", "koira"]],  # a blank answer is in no group
    ]


def test_the_same_grouping_as_the_game():
    answers = ["sofa", "Sofas", "couch", "spagetti", "spaghetti", "Ett äpple", "äpplen", "päron"]
    for lang in ("en", "sv"):
        (groups,), _ = run(json.dumps({"lang": lang, "answers": answers}))
        game = group_answers([(seat, 0, text) for seat, text in enumerate(answers)], lang)
        assert groups == [[answers[seat] for seat, _ in group.items] for group in game]


def test_bad_lines_are_reported_with_their_number_and_the_command_fails():
    text = "\n".join(
        [
            '{"lang": "en", "answers": ["cat", "cats"]}',
            "not json",
            '{"lang": "de", "answers": ["Hund"]}',
            '{"lang": "en", "answers": "cat"}',
            '["en", ["cat"]]',
            '{"lang": "en", "answers": ["dog", 7]}',
            '{"lang": "en", "answers": ["dog", "dogs"]}',
        ]
    )
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="5 bad lines"):
        call_command("group_answers", stdin=io.StringIO(text), stdout=out, stderr=err)
    # The good lines are still grouped.
    assert [json.loads(line) for line in out.getvalue().splitlines()] == [[["cat", "cats"]], [["dog", "dogs"]]]
    errors = err.getvalue().splitlines()
    assert [line.split(":")[0] for line in errors] == ["line 2", "line 3", "line 4", "line 5", "line 6"]
    assert "not JSON" in errors[0]
    assert '"de"' in errors[1] and "en, da, nb, sv, fi, fr" in errors[1]
    assert "list of strings" in errors[2] and "list of strings" in errors[4]


def test_with_the_process_standard_input_and_output():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "PYTHONIOENCODING": "utf-8"}
    manage = str(settings.BASE_DIR / "manage.py")
    good = subprocess.run(
        [sys.executable, manage, "group_answers"],
        input='{"lang": "nb", "answers": ["Ei jente", "jentene", "gutt"]}\n',
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert good.returncode == 0, good.stderr
    assert good.stdout.splitlines() == ['[["Ei jente", "jentene"], ["gutt"]]']
    bad = subprocess.run(
        [sys.executable, manage, "group_answers"],
        input="{oops\n",
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert bad.returncode == 1
    assert bad.stdout == ""
    assert "line 1: not JSON" in bad.stderr
    assert "Traceback" not in bad.stderr


def test_the_help_says_what_it_reads():
    out = io.StringIO()
    command = load_command_class("think_alike", "group_answers")
    command.create_parser("manage.py", "group_answers").print_help(out)
    assert "JSON lines" in out.getvalue()
