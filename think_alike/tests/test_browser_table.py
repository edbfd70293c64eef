"""Think Alike's table in Chromium, on a phone (390 x 844) and on a desktop (1280 x 800): the
answer form counts the answers written and asks in a dialog before blanks are handed in;
the new-game form's course is laid by clicking places of the drawn circle and fields of a
palette (and by the keyboard), and the game gets that course. Nothing scrolls sideways.
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from accounts.models import User
from games.models import Game
from games.services.games import game_act
from games.tests.browser import assert_accessible, sign_up
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory
from games.tests.play import view_for

from .content import course_ids, small_content, think_alike_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

VIEWPORTS = {
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "device_scale_factor": 2,
        "is_mobile": True,
        "has_touch": True,
    },
    "desktop": {"viewport": {"width": 1280, "height": 800}},
}


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"think_alike-{name}")


def assert_no_sideways_scroll(page):
    width, inner = page.evaluate("[document.scrollingElement.scrollWidth, window.innerWidth]")
    assert width <= inner, f"the page is {width} px wide in a {inner} px window"


@pytest.fixture(params=list(VIEWPORTS))
def device(request, browser):
    context = browser.new_context(**VIEWPORTS[request.param])
    yield request.param, context.new_page()
    context.close()


def test_answers_are_counted_and_blanks_asked_about(live_server, device):
    name, page = device
    content = small_content(answers=5)
    sign_up(page, live_server.url, "anna")
    users = [User.objects.get(username="anna"), *UserFactory.create_batch(2)]
    game, users = think_alike_game(3, users=users, options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    game_act(game_id=game.pk, user=holder, action={"type": "roll"})
    game_act(game_id=game.pk, user=holder, action={"type": "move", "direction": "cw"})

    page.goto(live_server.url + game.get_absolute_url())
    form = page.locator(".answer-form")
    counter = form.locator(".answer-count")
    expect(counter).to_have_text("0 of 5 answers written — 5 to go")
    expect(counter).to_have_attribute("aria-live", "polite")
    inputs = form.locator("input[name=answers]")
    expect(inputs).to_have_count(5)
    inputs.nth(0).fill("Owl")
    expect(counter).to_have_text("1 of 5 answers written — 4 to go")
    inputs.nth(2).press_sequentially("Cat")
    inputs.nth(4).fill("Dog")
    expect(counter).to_have_text("3 of 5 answers written — 2 to go")
    inputs.nth(1).fill("   ")  # spaces are no answer
    expect(counter).to_have_text("3 of 5 answers written — 2 to go")
    # Another player answers; the board refreshes itself (as on the socket's word) and keeps the count.
    game_act(game_id=game.pk, user=users[1], action={"type": "answer", "answers": ["a", "b", "c", "d", "e"]})
    game.refresh_from_db()
    page.evaluate("htmx.trigger(document.querySelector('[data-live=game]'), 'fabula:refresh')")
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))
    expect(inputs.nth(2)).to_have_value("Cat")
    expect(counter).to_have_text("3 of 5 answers written — 2 to go")
    assert_no_sideways_scroll(page)
    screenshot(page, f"answers-{name}")
    assert_accessible(page, "#play")

    # Handing in with two blank: a modal dialog asks; "Keep writing" goes back to the first blank.
    form.get_by_role("button", name="Hand in my answers").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You left 2 answers blank. Hand in anyway?")
    assert page.evaluate("document.querySelector('dialog[data-blank-dialog]').matches(':modal')")
    assert_no_sideways_scroll(page)
    screenshot(page, f"answers-blank-dialog-{name}")
    assert_accessible(page, "dialog[data-blank-dialog]")
    dialog.get_by_role("button", name="Keep writing").click()
    expect(dialog).to_be_hidden()
    expect(inputs.nth(1)).to_be_focused()
    assert view_for(game, users[0])["you"]["answers"] is None  # nothing handed in

    # Escape closes it too; then "Hand in anyway" hands the answers in, blanks and all.
    form.get_by_role("button", name="Hand in my answers").click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert view_for(game, users[0])["you"]["answers"] is None
    form.get_by_role("button", name="Hand in my answers").click()
    dialog.get_by_role("button", name="Hand in anyway").click()
    expect(page.locator(".answer-form")).to_have_count(0)
    expect(page.locator(".blank-count")).to_have_text("You left 2 answers blank: they score nothing.")
    expect(page.locator(".my-answers li")).to_have_text(["Owl", "(blank)", "Cat", "(blank)", "Dog"])
    assert view_for(game, users[0])["you"]["answers"] == ["Owl", "", "Cat", "", "Dog"]
    assert_no_sideways_scroll(page)
    screenshot(page, f"answers-handed-in-{name}")


def test_all_answers_written_hand_in_without_a_question(live_server, device):
    name, page = device
    content = small_content(answers=2)
    sign_up(page, live_server.url, "anna")
    users = [User.objects.get(username="anna"), *UserFactory.create_batch(2)]
    game, users = think_alike_game(3, users=users, options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    game_act(game_id=game.pk, user=holder, action={"type": "roll"})
    game_act(game_id=game.pk, user=holder, action={"type": "move", "direction": "cw"})
    page.goto(live_server.url + game.get_absolute_url())
    page.fill("#answer-1", "Owl")
    page.fill("#answer-2", "Cat")
    expect(page.locator(".answer-count")).to_have_text("All 2 answers written")
    page.get_by_role("button", name="Hand in my answers").click()
    expect(page.locator(".answer-form")).to_have_count(0)
    expect(page.locator(".blank-count")).to_have_count(0)
    assert view_for(game, users[0])["you"]["answers"] == ["Owl", "Cat"]


def test_a_course_laid_on_the_circle(live_server, device):
    name, page = device
    content = small_content()
    sign_up(page, live_server.url, "anna")
    page.goto(f"{live_server.url}/games/new/?kind=think_alike")
    page.select_option("#id_max_seats", "3")
    page.uncheck("input[name=with_bots]")  # a newcomer's form offers bots for the empty seats (issue 39)
    page.check("input[name=board][value=course]")
    builder = page.locator("[data-course-builder]")
    expect(builder).to_be_visible()
    expect(page.locator("details.course-lists")).not_to_have_attribute("open", "")
    expect(page.locator("#id_course_1")).to_be_hidden()  # folded under the circle
    expect(builder.locator(".course-place")).to_have_count(15)
    expect(builder.locator(".course-start")).to_contain_text("Start")

    # Place 1 is chosen first; each field laid moves on to the next empty place.
    course = course_ids(content, "duel2", "move", "swap", "duel4")
    for field in course[1:5]:
        builder.locator(f"[data-field='{field}']").click()
    expect(builder.locator("[data-place='5']")).to_have_attribute("aria-pressed", "true")
    expect(builder.locator("[data-place='1'] .field-text")).to_have_text("Duel for 2")
    expect(builder.locator("[data-course-count]")).to_have_text("4 of 15 fields chosen")
    expect(builder.locator("[data-course-status]")).to_contain_text("Field 4: Duel for 4. Next: field 5.")

    # A place chosen by clicking it: the last one, then back to the fifth.
    builder.locator("[data-place='15']").click()
    builder.locator(f"[data-field='{course[15]}']").click()
    builder.locator("[data-place='5']").click()
    for field in course[5:12]:
        builder.locator(f"[data-field='{field}']").click()

    # A field already laid moves where it is laid again; the place it left is empty.
    builder.locator("[data-place='12']").click()
    builder.locator(f"[data-field='{course[2]}']").click()
    expect(page.locator("#id_course_2")).to_have_value("")
    expect(page.locator("#id_course_12")).to_have_value(str(course[2]))
    builder.locator("[data-place='2']").click()
    builder.locator(f"[data-field='{course[2]}']").click()
    expect(page.locator("#id_course_12")).to_have_value("")

    # The keyboard: arrow keys along the circle, Tab to the fields, arrows along them, Enter lays.
    builder.locator("[data-place='11']").focus()
    page.keyboard.press("ArrowRight")
    expect(builder.locator("[data-place='12']")).to_be_focused()
    expect(builder.locator("[data-place='12']")).to_have_attribute("aria-pressed", "true")
    for place in (12, 13, 14):
        if place > 12:
            builder.locator(f"[data-place='{place}']").focus()
            page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        for _ in range(100):
            if page.evaluate("document.activeElement.dataset.field") == str(course[place]):
                break
            page.keyboard.press("ArrowRight")
        page.keyboard.press("Enter")
        expect(page.locator(f"#id_course_{place}")).to_have_value(str(course[place]))

    expect(builder.locator("[data-course-count]")).to_have_text("15 of 15 fields chosen")
    # A place emptied, and laid again.
    builder.locator("[data-place='3']").click()
    builder.get_by_role("button", name="Empty the chosen place").click()
    expect(page.locator("#id_course_3")).to_have_value("")
    expect(builder.locator("[data-course-count]")).to_have_text("14 of 15 fields chosen")
    expect(builder.locator("[data-place='3']")).to_have_class(re.compile(r"\bempty\b"))
    builder.locator(f"[data-field='{course[3]}']").click()
    expect(builder.locator("[data-course-count]")).to_have_text("15 of 15 fields chosen")
    for place, field in enumerate(course[1:], start=1):
        expect(page.locator(f"#id_course_{place}")).to_have_value(str(field))
    assert_no_sideways_scroll(page)
    if name == "phone":  # the places are tap-sized
        box = builder.locator("[data-place='3']").bounding_box()
        assert box["width"] >= 44 and box["height"] >= 44, box
    screenshot(page, f"course-builder-{name}")
    assert_accessible(page, ".kind-options.for-think_alike")

    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#status")).to_contain_text("1 of 3 seats taken")
    assert Game.objects.get().options["course"] == course
    assert_no_sideways_scroll(page)


def test_the_course_builder_in_french(live_server, browser):
    content = small_content()
    context = browser.new_context(locale="fr-FR", extra_http_headers={"Accept-Language": "fr"}, **VIEWPORTS["phone"])
    page = context.new_page()
    user = UserFactory()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", "correct horse battery")
    page.locator("main button[type=submit]").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    page.goto(f"{live_server.url}/games/new/?kind=think_alike")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.check("input[name=board][value=course]")
    builder = page.locator("[data-course-builder]")
    page.check("input[name=lang][value=da]")  # the cards in Danish; the page stays French
    builder.locator(f"[data-field='{content['associations'][3].pk}']").click()
    expect(builder.locator("[data-place='1'] .field-text")).to_have_text("Theme 3 (fr)")
    expect(builder.locator(".course-start")).to_contain_text("Start (fr)")
    assert_no_sideways_scroll(page)
    screenshot(page, "course-builder-fr-phone")
    context.close()
