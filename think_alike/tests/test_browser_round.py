"""Three people play a full round of Think Alike through the pages in Chromium: one
creates the game with a course, the others join by the link; the turn holder rolls,
picks the direction and carries out the action field the die reaches, everyone
answers, the turn holder merges two groups, and everyone sees the points."""

import re

import pytest
from playwright.sync_api import expect

from games.tests.browser import sign_up
from think_alike.models import BoardField
from think_alike.tests.content import small_content

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("action", ["swap", "move", "duel"])
def test_three_people_play_a_round_of_think_alike(live_server, browser, action):
    content = small_content()
    # Clockwise, the die reaches places 1 to 6: all of them action fields of one kind.
    actions = [
        BoardField.objects.create(
            key=f"extra-{action}-{n}",
            kind=action,
            bonus=2 if action == "duel" else None,
            text_en=action.title(),
            text_da=action.title(),
        )
        for n in range(6)
    ]
    course = actions + content["associations"][:9]
    base = live_server.url
    contexts = [
        browser.new_context(),
        browser.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True),
        browser.new_context(),
    ]
    pages = [ctx.new_page() for ctx in contexts]
    for page, name in zip(pages, ("anna", "bo", "cy")):
        sign_up(page, base, name)
    anna = pages[0]

    # Anna creates a private game of Think Alike for three, on a course of her own.
    anna.goto(f"{base}/games/new/")
    anna.check("input[name=kind][value=think_alike]")
    expect(anna.locator("#id_deck")).to_be_hidden()  # Storyteller's options make way
    anna.select_option("#id_max_seats", "3")
    anna.check("input[name=visibility][value=private]")
    anna.uncheck("input[name=with_bots]")  # a newcomer's form offers bots for the empty seats (issue 39)
    anna.check("input[name=board][value=course]")
    anna.locator(".course-lists summary").click()  # the lists, folded under the course drawn as a circle
    for place, field in enumerate(course, start=1):
        anna.select_option(f"#id_course_{place}", str(field.pk))
    anna.get_by_role("button", name="Create the game").click()
    expect(anna.locator("#status")).to_contain_text("1 of 3 seats taken")
    invite = anna.input_value("#invite-link")
    for page in pages[1:]:
        page.goto(invite)
        page.get_by_role("button", name="Join the game").click()

    # Everyone sees the board, the starting roll, and who holds the turn.
    for page in pages:
        page.reload()
        expect(page.locator(".ring-field")).to_have_count(16)
        expect(page.locator(".start-rolls")).to_contain_text("rolled highest and starts")
    holder = next(page for page in pages if page.locator(".roll-form").count())
    others = [page for page in pages if page is not holder]

    holder.get_by_role("button", name="Roll the die").click()
    expect(holder.locator("svg.die")).to_be_visible()
    die = int(re.search(r"shows (\d)", holder.locator("svg.die").get_attribute("aria-label")).group(1))
    for page in others:
        page.reload()
        expect(page.locator("svg.die")).to_have_attribute("aria-label", f"The die shows {die}")
    holder.locator(".move-form button[value=cw]").click()

    # The action field at place ``die``.
    if action == "swap":
        form = holder.locator(".swap-form")
        form.locator(".ring-field.pickable").nth(8).click()
        form.locator(".chips .chip").first.click()
        form.get_by_role("button", name="Swap").click()
        expect(holder.locator(".turn-line")).to_contain_text("made way for")
    elif action == "move":
        form = holder.locator(".move-to-form")
        form.locator(".ring-field.pickable.kind-association").last.click()
        form.get_by_role("button", name="Move the token there").click()
        expect(holder.locator(".turn-line")).to_contain_text("the token went to")
    else:
        form = holder.locator(".duel-form")
        expect(holder.locator(".task-card")).to_be_visible()  # a duel draws the card first
        form.locator(".chips .chip").first.click()
        form.locator(".ring-field.pickable").first.click()
        form.get_by_role("button", name="Challenge").click()
        expect(holder.locator(".turn-line")).to_contain_text("challenges")

    # Everyone answers; nobody sees another's answer before the review.
    answers = {id(holder): "Apple", id(others[0]): "banana", id(others[1]): "apples"}
    for page in [holder, *others]:
        page.reload()
        expect(page.locator(".task-card")).to_contain_text("Task")
        expect(page.locator("body")).not_to_contain_text("banana")
        page.fill(".answer-form input[name=answers]", answers[id(page)])
        page.get_by_role("button", name="Hand in my answers").click()
        expect(page.locator(".answer-form")).to_have_count(0)

    # The review: "Apple" and "apples" are one group already; the turn holder merges "banana" in.
    holder.reload()
    groups = holder.locator(".merge-form .group")
    expect(groups).to_have_count(2)
    expect(groups.first).to_contain_text("+1 point each")
    holder.locator(".merge-form input[type=checkbox]").nth(0).check()
    holder.locator(".merge-form input[type=checkbox]").nth(1).check()
    holder.get_by_role("button", name="Merge the ticked groups").click()
    expect(holder.locator(".merge-form .group")).to_have_count(1)
    for page in others:
        page.reload()
        expect(page.locator(".review .group .badge")).to_have_text("merged")
    holder.get_by_role("button", name="The groups are right: score the round").click()
    expect(holder.locator("#last-round")).to_be_visible()

    # The points, for everyone; round 2 passes the turn on.
    for page in pages:
        page.reload()
        last = page.locator("#last-round")
        expect(last).to_contain_text("Round 1: the answers")
        expect(last).to_contain_text("+2 points each")
        expect(last.locator(".points li")).to_have_count(3)
        expect(page.locator("#status")).to_contain_text("Round 2")
        expect(page.locator(".player .score").first).to_have_text(re.compile(r"^[2-6]$"))
    if action == "duel":
        expect(holder.locator(".duel-outcome")).to_contain_text("a tie, no bonus")
    # Nothing overflows the phone's width.
    assert pages[1].evaluate("document.documentElement.scrollWidth") <= 375
    for ctx in contexts:
        ctx.close()
