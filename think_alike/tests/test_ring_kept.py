"""The ring on Think Alike's board (issue 41): where nobody picks on it, it is the same for every viewer of a game's
version and drawn once for all of them, in each language; the turn holder who picks a field on it gets their own,
and nobody else ever gets theirs. Each field's marks for screen readers are made once per kind, place and language."""

import logging
import random
import re

import pytest
from django.test import Client
from django.test.signals import template_rendered
from django.urls import reverse

from games.models import Game
from games.tests.play import view_for

from .content import course_ids, small_content, think_alike_game
from .play import play_step

pytestmark = pytest.mark.django_db

RING = "think_alike/partials/ring.html"
MARKS = "think_alike/partials/field_marks.html"
RING_HTML = re.compile(r'<div class="ring[ "].*?<div class="ring-center">', re.S)


def boards(game, users, language="en") -> tuple[dict, list[str]]:
    """Each user's board at the game's version (in that order), and the templates drawn for them."""
    drawn = []

    def note(sender, template, **kwargs):
        drawn.append(template.name)

    template_rendered.connect(note)
    try:
        shown = {}
        for user in users:
            client = Client(HTTP_ACCEPT_LANGUAGE=language)
            client.force_login(user)
            response = client.get(reverse("games:board", args=[game.pk]), HTTP_HX_REQUEST="true")
            assert response.status_code == 200
            shown[user] = response.content.decode()
    finally:
        template_rendered.disconnect(note)
    return shown, drawn


def a_game_on_a_course():
    content = small_content(answers=1)
    return think_alike_game(4, options={"board": "course", "course": course_ids(content, "swap", "move", "duel2")})


def test_where_nobody_picks_the_ring_is_drawn_once_a_version_and_the_same_for_everyone():
    game, users = a_game_on_a_course()
    assert view_for(game, users[0])["phase"] == "roll"
    shown, drawn = boards(game, users)
    assert drawn.count(RING) == 1
    rings = {RING_HTML.search(html).group() for html in shown.values()}
    assert len(rings) == 1 and rings.pop().count('class="ring-field') == 16
    # The marks of each kind and place were made once: none again for the others, nor for the next version.
    assert drawn.count(MARKS) <= 16
    holder = next(user for user in users if view_for(game, user)["you"]["to_act"])
    play_step(game, [holder], random.Random(1))  # the die rolled: the next version
    game.refresh_from_db()
    _shown, drawn = boards(game, users)
    assert drawn.count(RING) <= 2 and drawn.count(MARKS) == 0  # the holder's ring if they pick, and the others'


def test_the_ring_is_drawn_in_each_viewers_language():
    game, users = a_game_on_a_course()
    english, _ = boards(game, users[:2])
    french, drawn = boards(game, users[2:], language="fr")
    assert drawn.count(RING) == 1  # the French one: the English one is not reused
    assert ", place 1</span>" in english[users[1]] and ", position 1</span>" not in english[users[1]]
    assert ", position 1</span>" in french[users[3]] and ", place 1</span>" not in french[users[3]]


def test_a_ring_to_pick_on_is_the_turn_holders_alone():
    game, users = a_game_on_a_course()
    rng = random.Random(5)
    for _ in range(400):
        views = {user: view_for(game, user) for user in users}
        holder = next((user for user in users if views[user]["you"]["to_act"]), None)
        if (
            holder
            and views[holder]["phase"] in ("swap", "move_to")
            or (holder and views[holder]["phase"] == "duel" and views[holder]["choices"]["positions"])
        ):
            break
        if not play_step(game, users, rng):
            pytest.fail("the game ended before a field to pick on")
    else:
        pytest.fail("no field to pick on came up")
    game = Game.objects.get(pk=game.pk)
    others = [user for user in users if user != holder]
    # The holder first: what they were drawn is never kept for the others.
    shown, drawn = boards(game, [holder, *others])
    assert drawn.count(RING) == 2
    assert 'class="ring picking"' in shown[holder] and "pickable" in shown[holder]
    for user in others:
        assert 'class="ring picking"' not in shown[user] and "pickable" not in shown[user]
        assert RING_HTML.search(shown[user]).group() == RING_HTML.search(shown[others[0]]).group()


def test_the_ring_looks_up_no_missing_name_for_each_field(caplog):
    """Each failed lookup in a template costs an exception and its traceback: the ring asks once whether it is
    picked on, not once per field."""
    game, users = a_game_on_a_course()
    with caplog.at_level(logging.DEBUG, logger="django.template"):
        boards(game, users[:1])
    failed = [record.args[0] for record in caplog.records if record.name == "django.template" and record.args]
    assert failed.count("pick") <= 1 and failed.count("destinations") <= 1
