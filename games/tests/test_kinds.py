"""The registry of kinds of game and its system check; the core names no game."""

import re
from pathlib import Path

import pytest
from django.core import checks
from django.core.management import call_command
from django.utils.translation import gettext_lazy as _

import games
from games import kinds
from games.kinds import GameKind, KindPresentation, KindTemplates
from games.models import Game
from games.tests.factories import UserFactory
from games.tests.odd_one_out.kind import KIND as ODD

ROOT = Path(games.__file__).resolve().parent.parent

GOOD_TEMPLATES = ODD.presentation.templates
# Everything the test-only kind says of itself, its rules and its presentation: a complete kind to take pieces out of.
COMPLETE = {name: value for name, value in vars(type(ODD)).items() if not name.startswith("__")}
COMPLETE_PRESENTATION = {
    name: value for name, value in vars(type(ODD.presentation)).items() if not name.startswith("__")
}


def make_kind(slug="broken_kind", without=(), **attributes) -> GameKind:
    """A kind of game made for one test: complete, but for what ``without`` names and ``attributes`` change, in
    whichever half has them (its rules or its presentation)."""

    def shown(name):
        return name in COMPLETE_PRESENTATION or hasattr(KindPresentation, name)

    changes = {"slug": slug, "label": _("Broken")} | attributes
    rules = COMPLETE | {name: value for name, value in changes.items() if not shown(name)}
    presentation = COMPLETE_PRESENTATION | {name: value for name, value in changes.items() if shown(name)}
    rules["presentation"] = type("TestPresentation", (KindPresentation,), _without(presentation, without))()
    return type("TestKind", (GameKind,), _without(rules, without))()


def _without(body: dict, names) -> dict:
    return {name: value for name, value in body.items() if name not in names}


@pytest.fixture
def registered():
    """``registered(kind)`` adds a kind for one test; the registry is as it was afterwards."""
    before = dict(kinds._KINDS)
    yield kinds.register
    kinds._KINDS.clear()
    kinds._KINDS.update(before)


def errors_about(kind) -> list[checks.CheckMessage]:
    return [error for error in kinds.check_kinds() if repr(kind) in error.msg]


# ``manage.py check`` as Django 6.1 runs it asks the database too (JSONField's check reads whether SQLite supports
# JSON), where 5.2 ran no database check unless told which: the tests that run it may use the database.
@pytest.mark.django_db
def test_every_installed_kind_passes_the_check():
    assert kinds.check_kinds() == []
    call_command("check")  # raises SystemCheckError on an error


def test_the_registry_holds_the_installed_kinds_in_order():
    slugs = [kind.slug for kind in kinds.every()]
    assert "odd_one_out" in slugs and len(slugs) == len(set(slugs)) >= 3
    assert kinds.choices() == [(kind.slug, kind.label) for kind in kinds.every()]
    assert all(kinds.get(slug).slug == slug for slug in slugs)
    assert kinds.get("no_such_game") is None


def test_a_complete_kind_registers_and_passes(registered):
    kind = registered(make_kind())
    assert kinds.get("broken_kind") is kind and kinds.every()[-1] is kind
    assert errors_about(kind) == []


def test_a_kind_missing_a_template_is_reported(registered):
    templates = KindTemplates(**(vars(GOOD_TEMPLATES) | {"reveal": "no_such_kind/partials/reveal.html"}))
    kind = registered(make_kind(templates=templates))
    [error] = errors_about(kind)
    assert error.id == "games.E005"
    assert "reveal" in error.msg and "no_such_kind/partials/reveal.html" in error.msg


def test_an_optional_template_left_empty_is_not_reported(registered):
    kind = registered(make_kind(templates=KindTemplates(**(vars(GOOD_TEMPLATES) | {"head": "", "replay": ""}))))
    assert errors_about(kind) == []


@pytest.mark.parametrize("hook", ["new_state", "action_to_engine", "view", "options_form"])
def test_a_kind_missing_a_hook_is_reported(registered, hook):
    kind = registered(make_kind(without=[hook]))  # GameKind's or KindPresentation's, which only raise
    [error] = errors_about(kind)
    assert error.id == "games.E004" and hook in error.msg
    assert ("its presentation" in error.msg) == (hook in ("view", "options_form"))


@pytest.mark.parametrize("attribute", ["engine", "templates", "label", "presentation"])
def test_a_kind_missing_an_attribute_is_reported(registered, attribute):
    kind = registered(make_kind(without=[attribute]))
    assert "games.E002" in {error.id for error in errors_about(kind)}


def test_a_presentation_that_is_not_one_is_reported(registered):
    kind = registered(make_kind())
    kind.presentation = object()  # the rules' hooks where the presentation's should be
    [error] = errors_about(kind)
    assert error.id == "games.E002" and "presentation" in error.msg


@pytest.mark.parametrize("attribute", ["action_adapter", "api_view"])
def test_a_kind_that_does_not_say_its_actions_or_its_api_view_is_reported(registered, attribute):
    kind = registered(make_kind(**{attribute: None}))
    [error] = errors_about(kind)
    assert error.id == "games.E006" and (attribute == "api_view") == ("api_view" in error.msg)


def test_the_rules_and_the_presentation_of_a_kind_are_apart():
    """What people see is the presentation's alone: the rules hold none of its hooks, and the reverse."""
    rules, shown = ({*dir(half), *half.__annotations__} for half in (GameKind, KindPresentation))
    assert {"view", "templates", "api_view", "options_form", "replay", "showcase", "timeout_texts"}.isdisjoint(rules)
    assert {"apply", "engine", "new_state", "clean_options", "record", "rule_messages"}.isdisjoint(shown)
    assert {name for name in rules & shown if not name.startswith("__")} == set()


def test_a_kind_with_more_seats_at_least_than_at_most_is_reported(registered):
    kind = registered(make_kind(min_seats=5, max_seats=4))
    assert [error.id for error in errors_about(kind)] == ["games.E003"]


@pytest.mark.django_db  # the system checks may read the database (above)
def test_the_check_runs_with_the_system_checks(registered):
    registered(make_kind(templates=KindTemplates(**(vars(GOOD_TEMPLATES) | {"play": "nowhere.html"}))))
    with pytest.raises(Exception, match="nowhere.html"):
        call_command("check")


def test_no_kind_at_all_is_reported(monkeypatch):
    monkeypatch.setattr(kinds, "_KINDS", {})
    assert [error.id for error in kinds.check_kinds()] == ["games.E001"]


def test_two_kinds_with_one_slug_fail(registered):
    first = registered(make_kind(slug="twin"))
    with pytest.raises(ValueError, match="twin"):
        registered(make_kind(slug="twin"))
    assert kinds.get("twin") is first
    with pytest.raises(ValueError, match="odd_one_out"):
        registered(make_kind(slug="odd_one_out"))
    assert kinds.get("odd_one_out") is ODD


def test_registering_the_same_kind_again_changes_nothing():
    assert kinds.register(ODD) is ODD
    assert [kind.slug for kind in kinds.every()].count("odd_one_out") == 1


def test_unregister_takes_a_kind_out(registered):
    registered(make_kind(slug="passing"))
    kinds.unregister("passing")
    assert kinds.get("passing") is None
    kinds.unregister("passing")  # twice: nothing to take


@pytest.mark.django_db
def test_a_game_knows_its_kind():
    game = Game(kind="odd_one_out", max_seats=3, phase_seconds=60, creator=UserFactory())
    assert game.game_kind is ODD
    assert str(game) == "Odd one out #None"
    game.kind = "gone"
    with pytest.raises(LookupError, match="gone"):
        assert not game.game_kind


@pytest.mark.django_db
def test_the_kind_field_takes_the_registered_kinds():
    field = Game._meta.get_field("kind")
    assert [slug for slug, _label in field.choices] == [kind.slug for kind in kinds.every()]


# --- the core names no game -----------------------------------------------------------

GAME_NAMES = re.compile(r"storyteller|think[ _-]?alike", re.IGNORECASE)
CORE_APPS = ["games", "stats", "notifications", "accounts"]


def core_python_files() -> list[Path]:
    files = []
    for app in CORE_APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = path.relative_to(ROOT).parts
            if "tests" in parts or "migrations" in parts:
                continue
            files.append(path)
    return files


def naming_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for n, line in enumerate(text.splitlines(), 1)
        if GAME_NAMES.search(line)
    ]


def test_the_scan_sees_the_core_and_would_see_a_name():
    names = {str(path.relative_to(ROOT)) for path in core_python_files()}
    assert {
        "games/services/games.py",
        "games/kinds.py",
        "stats/services.py",
        "notifications/services.py",
        "accounts/models.py",
    } <= names
    assert not any("/tests/" in name or "/migrations/" in name for name in names)
    assert GAME_NAMES.search("a game of Think Alike") and GAME_NAMES.search("from think_alike import x")
    assert GAME_NAMES.search("class ThinkAlikeKind") and GAME_NAMES.search("# the Storyteller's card")


def test_no_python_file_of_the_core_names_a_game():
    """Code, comments and docstrings alike (issue 11: "no Python file ... names either game")."""
    found = [line for path in core_python_files() for line in naming_lines(path)]
    assert found == []
