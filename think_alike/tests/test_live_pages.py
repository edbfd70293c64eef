"""Think Alike's page live, against a real ASGI server: the roll and the move reach the
others without a reload, and an answer half typed survives the others' answers."""

import pytest
from playwright.sync_api import expect

from games.tests.live.test_pages import open_page, socket_open
from games.tests.play import view_for
from think_alike.tests.content import course_ids, small_content, think_alike_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_table_moves_live_and_a_half_typed_answer_stays(asgi_server, browser):
    content = small_content()
    game, users = think_alike_game(3, pace="live", options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    writer, third = [u for u in users if u != holder]
    holder_page = open_page(browser, asgi_server, holder, game.get_absolute_url())
    writer_page = open_page(browser, asgi_server, writer, game.get_absolute_url())
    socket_open(holder_page)
    socket_open(writer_page)

    holder_page.get_by_role("button", name="Roll the die").click()
    expect(writer_page.locator("svg.die")).to_be_visible()  # no reload: the roll came live
    holder_page.locator(".move-form button[value=cw]").click()
    expect(writer_page.locator(".task-card")).to_be_visible()
    writer_page.locator(".answer-form input[name=answers]").fill("half an ans")

    # Another player's answer changes the page (their tick), not what the writer typed.
    third_page = open_page(browser, asgi_server, third, game.get_absolute_url())
    third_page.locator(".answer-form input[name=answers]").fill("owl")
    third_page.get_by_role("button", name="Hand in my answers").click()
    expect(writer_page.locator(".player.acting")).to_have_count(2)
    expect(writer_page.locator(".answer-form input[name=answers]")).to_have_value("half an ans")
    assert writer_page.evaluate("window.fabulaSamePage") is True
    writer_page.locator(".answer-form input[name=answers]").fill("half an answer")
    writer_page.get_by_role("button", name="Hand in my answers").click()

    holder_page.locator(".answer-form input[name=answers]").fill("owls")
    holder_page.get_by_role("button", name="Hand in my answers").click()
    expect(writer_page.locator(".review .group")).to_have_count(2)  # the review reached the writer live
    expect(writer_page.locator(".review")).to_contain_text("half an answer")
