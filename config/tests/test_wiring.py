"""config/ is the wiring only: it names no game kind, and each kind's pages come through the kind seam."""

import re
from pathlib import Path

from django.conf import settings
from django.urls import resolve, reverse

from games import kinds

CONFIG = Path(__file__).resolve().parents[1]


def wiring_files():
    return [path for path in CONFIG.rglob("*.py") if "tests" not in path.relative_to(CONFIG).parts]


def test_no_file_of_the_wiring_names_a_game_kind():
    # the site's kinds (the tests' own odd_one_out, which the test settings install, is not one)
    names = set(settings.GAME_KIND_APPS) | {kind.slug for kind in kinds.every() if kind.slug != "odd_one_out"}
    names |= {name.replace("_", "-") for name in names} | {name.replace("-", "_") for name in names}
    assert len(wiring_files()) >= 6  # settings (3), urls, asgi, wsgi, celery
    named = {
        f"{path.relative_to(CONFIG)}: {name}"
        for path in wiring_files()
        for name in names
        if re.search(rf"\b{re.escape(name)}\b", path.read_text())
    }
    assert named == set()


def test_the_kinds_are_installed_from_the_project_list_and_bring_their_own_settings():
    assert settings.GAME_KIND_APPS == ["storyteller", "think_alike"]
    assert set(settings.GAME_KIND_APPS) <= set(settings.INSTALLED_APPS)
    # storyteller/conf.py's, read from the same environment, its routes' body limits merged into the site's
    assert settings.FABULA_OWN_CARDS_MAX == 300
    assert settings.FABULA_BODY_LIMITS["decks:card_upload"] > settings.FABULA_BODY_MAX_BYTES
    assert kinds.default_slug() == "storyteller"


def test_a_kinds_pages_are_mounted_through_its_url_patterns():
    (storyteller,) = [kind for kind in kinds.every() if kind.slug == "storyteller"]
    own = {pattern.pattern.describe() for pattern in storyteller.url_patterns()}
    assert any("decks/" in name for name in own)
    assert reverse("decks:list") == "/decks/"
    assert resolve("/decks/").view_name == "decks:list"
    assert resolve("/media/cards/one.webp").view_name == "card_picture"
    assert reverse("storyteller:card_report", args=[5]) == "/games/5/cards/report/"
    think_alike = kinds.get("think_alike")
    assert think_alike is not None and think_alike.url_patterns() == []
