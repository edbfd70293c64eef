"""The pages work in Chromium under the Content-Security-Policy, and it refuses nothing on them: a
game page acted on through htmx, the new-game page (a style element with a nonce), Think Alike's
ring (style attributes), the moved inline handlers, the API docs page (Swagger UI)."""

import pytest
from playwright.sync_api import expect

from games.services.games import game_create
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.live.test_pages import open_page
from think_alike.tests.content import small_content, think_alike_game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every violation the page itself sees (Playwright's init script runs outside the page's policy).
WATCH = """
window.fabulaViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  const where = `${event.sourceFile}:${event.lineNumber}`;
  window.fabulaViolations.push(`${event.violatedDirective} ${event.blockedURI || "inline"} ${where}`);
});
"""


class Watched:
    """A signed-in page whose CSP violations (events and console errors) are collected."""

    def __init__(self, browser, server, user, path):
        self.console = []
        self.page = open_page(browser, server, user, "/healthz")
        self.page.context.add_init_script(WATCH)
        self.page.on("console", self._console)
        self.goto(path)

    def _console(self, message):
        text = message.text
        if "Content Security Policy" in text or "Content-Security-Policy" in text or "unsafe-eval" in text:
            self.console.append(text)

    def goto(self, path):
        response = self.page.goto(path)
        assert response.status < 500, (path, response.status)
        assert response.headers["content-security-policy"]
        return response

    def violations(self):
        return self.page.evaluate("window.fabulaViolations || []") + self.console


def test_a_game_played_through_htmx_breaks_no_rule(asgi_server, browser):
    game, (anna, *_others) = started_game(3, pace="live")
    watched = Watched(browser, asgi_server, anna, game.get_absolute_url())
    page = watched.page
    expect(page.locator("#board")).to_be_visible()
    # htmx added no style element of its own; its indicator comes from site.css.
    assert page.evaluate("document.querySelectorAll('head style').length") == 0
    page.locator(".clue-form .card-pick").first.click()
    page.fill("#clue-text", "A door to nowhere")
    page.get_by_role("button", name="Give the clue").click()
    expect(page.locator("#status")).to_contain_text("to hand in cards")  # swapped in by htmx
    assert page.evaluate("window.fabulaViolations !== undefined")  # the same page: no reload

    # Resigning asks first (formerly an inline onsubmit); saying no sends nothing.
    questions = []
    page.once("dialog", lambda dialog: (questions.append(dialog.message), dialog.dismiss()))
    page.locator("details.resign summary").click()
    page.get_by_role("button", name="Resign").click()
    assert questions == ["Resign for good? The game goes on without you."]
    expect(page.locator("#status")).to_contain_text("to hand in cards")
    assert watched.violations() == []


def test_the_site_pages_break_no_rule(asgi_server, browser):
    deck = deck_with_cards(84)
    anna = UserFactory()
    waiting = game_create(creator=anna, max_seats=3, options={"deck": deck.pk}, visibility="private")
    watched = Watched(browser, asgi_server, anna, waiting.get_absolute_url())
    page = watched.page

    # The invite link selects itself to be copied (formerly onclick="this.select()").
    page.locator("#invite-link").click()
    assert page.evaluate("(() => { const i = document.getElementById('invite-link');"
                         " return i.selectionStart === 0 && i.selectionEnd === i.value.length; })()")  # fmt: skip

    # The new-game page's style element has this response's nonce: the other kinds' options hide.
    watched.goto("/games/new/")
    page.check("input[name=kind][value=storyteller]")
    expect(page.locator(".kind-options.for-think_alike")).to_be_hidden()
    page.check("input[name=kind][value=think_alike]")
    expect(page.locator(".kind-options.for-storyteller")).to_be_hidden()

    # A new API token's secret selects itself (formerly onfocus="this.select()").
    watched.goto("/accounts/tokens/")
    page.fill("input[name=name]", "my bot")
    page.locator("form button[type=submit]").first.click()
    page.locator(".token-secret").wait_for()
    page.wait_for_load_state("load")  # its script listens for the focus once the page has loaded
    page.locator(".token-secret").focus()
    assert page.evaluate("(() => { const i = document.querySelector('.token-secret');"
                         " return i.selectionEnd - i.selectionStart === i.value.length; })()")  # fmt: skip

    for path in ("/", "/games/", "/games/mine/", "/leaderboards/", "/notifications/", "/privacy/", "/no/such/"):
        watched.goto(path)

    # The language menu sends itself (formerly onchange="this.form.submit()").
    watched.goto("/")
    with page.expect_navigation():
        page.select_option("#language", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert watched.violations() == []


def test_think_alikes_ring_breaks_no_rule(asgi_server, browser):
    small_content()
    game, users = think_alike_game(3, pace="live")
    watched = Watched(browser, asgi_server, users[0], game.get_absolute_url())
    expect(watched.page.locator("#board")).to_be_visible()
    assert watched.violations() == []


def test_the_api_docs_page_works_and_breaks_no_rule(asgi_server, browser):
    watched = Watched(browser, asgi_server, UserFactory(), "/api/v1/docs")
    expect(watched.page.locator(".api-docs h1")).to_be_visible(), watched.violations()
    expect(watched.page.locator(".api-operation").first).to_be_visible()  # the operations, from the schema
    assert watched.violations() == []
