"""Whole games of each kind with one person, acting through the API, and bots filling every other seat.

The person's every action is followed (after its commit) by whatever the bots have to do,
as the tasks would run on a worker; the game must come to its end without anyone's
deadline passing: the bots never stall it.
"""

import json
import random
from pathlib import Path

import pytest

from games.models import Game, Move
from games.tests.api.conftest import load_bot
from games.tests.factories import DeckFactory
from storyteller import bots as storyteller_bots
from storyteller.models import Card, StorytellerRound
from storyteller.services.media import clue_media_upload, media_sniff
from storyteller.tests import media_files
from think_alike.tests.content import builtin_content

pytestmark = pytest.mark.django_db

example = load_bot()


def _play_as_the_person(client, game_id, capture, rng, max_steps=400) -> dict:
    for _ in range(max_steps):
        view = client.get(f"/games/{game_id}").json()
        if view["status"] == "finished":
            return view
        action = example.choose_action(view, rng)
        assert action is not None, f"the game waits for {view['waiting_for']} in {view['phase']}: the bots stalled"
        with capture(execute=True):
            response = client.post(f"/games/{game_id}/actions", action)
        assert response.status_code == 200, response.content
    raise AssertionError("the game did not end")


def _fill_with_bots(client, game_id, seats, capture) -> dict:
    for _ in range(seats - 1):
        with capture(execute=True):
            response = client.post(f"/games/{game_id}/bots")
        assert response.status_code == 201, response.content
    return response.json()


def _assert_bots_played(game_id, caplog):
    # Every bot action was its strategy's, taken at once: no refusal, no fallback to random play.
    assert not [r.getMessage() for r in caplog.records if r.name.startswith("bots")]
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.Status.FINISHED
    bot_moves = Move.objects.filter(game=game, seat__user__is_bot=True)
    assert bot_moves.filter(by_timeout=False).count() > 0
    assert not Move.objects.filter(game=game, by_timeout=True).exists()  # nobody waited for a deadline


def test_storyteller_one_person_and_three_bots(deck, make_player, django_capture_on_commit_callbacks, caplog):
    _user, client = make_player()
    game_id = client.post("/games", {"seats": 4}).json()["id"]
    view = _fill_with_bots(client, game_id, 4, django_capture_on_commit_callbacks)
    assert [p["bot"] for p in view["players"]] == [False, True, True, True]
    final = _play_as_the_person(client, game_id, django_capture_on_commit_callbacks, random.Random(1))
    assert final["winners"]
    _assert_bots_played(game_id, caplog)
    kinds = set(Move.objects.filter(game_id=game_id, seat__user__is_bot=True).values_list("kind", flat=True))
    assert kinds == {"clue", "submit", "vote"}


def test_think_alike_one_person_and_two_bots(make_player, django_capture_on_commit_callbacks, caplog):
    builtin_content()
    _user, client = make_player()
    created = client.post("/games", {"kind": "think_alike", "seats": 3, "stop": "tasks", "count": 4, "board": "draft"})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    _fill_with_bots(client, game_id, 3, django_capture_on_commit_callbacks)
    _play_as_the_person(client, game_id, django_capture_on_commit_callbacks, random.Random(2))
    _assert_bots_played(game_id, caplog)
    kinds = set(Move.objects.filter(game_id=game_id, seat__user__is_bot=True).values_list("kind", flat=True))
    assert {"place_field", "answer"} <= kinds


# --- in the game's language, and without words ----------------------------------------------------

DREAM = json.loads(
    (Path(storyteller_bots.__file__).parent / "decks" / "builtin" / "dream.json").read_text(encoding="utf-8")
)


def _play_with_media(client, user, game_id, capture, rng, modes, max_steps=400) -> dict:
    """As ``_play_as_the_person``, the person's own clue a drawing or a sound where words are not allowed."""
    for _ in range(max_steps):
        view = client.get(f"/games/{game_id}").json()
        if view["status"] == "finished":
            return view
        action = example.choose_action(view, rng)
        assert action is not None, f"the game waits for {view['waiting_for']} in {view['phase']}: the bots stalled"
        if action["type"] == "clue" and not action["text"]:
            data = media_files.png() if "drawing" in modes else media_files.ogg_opus(2)
            action["media"] = clue_media_upload(game_id=game_id, user=user, data=data).pk
        with capture(execute=True):
            response = client.post(f"/games/{game_id}/actions", action)
        assert response.status_code == 200, response.content
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("modes", [["drawing"], ["sound"]])
def test_bots_tell_in_a_game_whose_clues_are_not_words(
    deck, make_player, django_capture_on_commit_callbacks, caplog, settings, tmp_path, modes
):
    settings.MEDIA_ROOT = tmp_path / "media"
    user, client = make_player()
    created = client.post("/games", {"seats": 3, "clue_modes": modes})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    for level in ("easy", "hard"):
        with django_capture_on_commit_callbacks(execute=True):
            assert client.post(f"/games/{game_id}/bots", {"level": level}).status_code == 201
    _play_with_media(client, user, game_id, django_capture_on_commit_callbacks, random.Random(3), modes)
    _assert_bots_played(game_id, caplog)
    told = StorytellerRound.objects.filter(game_id=game_id, skipped=False, storyteller_seat__user__is_bot=True)
    assert told.exists()
    kind = "drawing" if modes == ["drawing"] else "sound"
    for row in told.select_related("clue_media__seat"):
        # Its own drawing or sound, uploaded through the service a person's goes through, and no words.
        assert row.clue == "" and row.clue_media.kind == kind and row.clue_media.seat_id == row.storyteller_seat_id
        media_sniff(row.clue_media.file.open("rb").read())


def test_bot_clues_are_in_the_game_s_language(make_player, django_capture_on_commit_callbacks, caplog):
    deck = DeckFactory()
    Card.objects.bulk_create(
        Card(
            deck=deck,
            image=f"cards/test/dream-{n}.webp",
            alt_text=card["alt"],
            alt_texts=card["alt_texts"],
            tags=",".join(card["tags"]),
        )
        for n, card in enumerate(DREAM["cards"])
    )
    _user, client = make_player()
    created = client.post("/games", {"seats": 4, "lang": "fi", "target_score": 10})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert Game.objects.get(pk=game_id).options["lang"] == "fi"
    for level in ("easy", "normal", "hard"):
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/games/{game_id}/bots", {"level": level})
    _play_as_the_person(client, game_id, django_capture_on_commit_callbacks, random.Random(4))
    _assert_bots_played(game_id, caplog)
    told = StorytellerRound.objects.filter(game_id=game_id, skipped=False, storyteller_seat__user__is_bot=True)
    assert told.exists()
    for row in told.select_related("storyteller_card"):
        finnish = storyteller_bots.tokens(row.storyteller_card.alt_texts["fi"], "fi")
        english = storyteller_bots.tokens(row.storyteller_card.alt_text, "en")
        assert row.clue and " ".join(row.clue.split()) in " ".join(finnish), row.clue
        assert not set(row.clue.split()) <= set(english) or set(row.clue.split()) <= set(finnish)
