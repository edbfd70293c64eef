"""The rules pages and the API documentation page in Chromium, on a desktop (1280 px) and a phone
(390 px), in English and French: the rules show the game's own pictures (every one loaded, each
with its alt text), no page scrolls sideways, and axe-core finds nothing.
Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from games.tests.browser import assert_accessible, wait_until
from games.tests.browser import screenshot as artefact_screenshot
from storyteller.decks.services.builtin import decks_load_builtin
from think_alike.tests.content import builtin_content

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
PAGES = {
    "rules": "/games/rules/",
    "storyteller": "/games/rules/storyteller/",
    "think_alike": "/games/rules/think_alike/",
    "api": "/api/v1/docs",
}


def screenshot(page, name: str, *, full_page: bool = True) -> Path:
    return artefact_screenshot(page, name, full_page=full_page, timeout=90_000)


def assert_no_sideways_scroll(page):
    # Against the viewport asked for: a phone's window.innerWidth grows with a page that overflows.
    width, inner = page.evaluate("document.scrollingElement.scrollWidth"), page.viewport_size["width"]
    assert width <= inner, f"{page.url} is {width} px wide in a {inner} px window"


def broken_images(page) -> list[str]:
    page.evaluate("Promise.all([...document.images].map((img) => img.loading = 'eager'))")
    wait_until(page, "[...document.images].every((img) => img.complete)")
    return page.evaluate("[...document.images].filter((img) => !img.naturalWidth).map((img) => img.src)")


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("device", list(VIEWPORTS))
def test_rules_and_api_pages_are_illustrated_accessible_and_fit(live_server, browser, device, lang):
    decks_load_builtin()
    builtin_content()
    context = browser.new_context(**VIEWPORTS[device], locale=lang)
    page = context.new_page()
    for name, path in PAGES.items():
        page.goto(live_server.url + path)
        expect(page.locator("html")).to_have_attribute("lang", lang)
        if name == "storyteller":
            cards = page.locator(".rules-cards img, .rules-card, .rules-example img")
            assert cards.count() >= 1 + 6 + 5 + 5 + 5
            assert all(alt.strip() for alt in cards.evaluate_all("(imgs) => imgs.map((img) => img.alt)"))
            expect(page.locator(".rules-example td.example-points")).to_have_text(["3", "5", "1", "0", "0"])
            assert broken_images(page) == []
            # The worked example fits inside its card: nothing cut off on the right.
            table, card = page.evaluate(
                """[document.querySelector('.rules-example').getBoundingClientRect().right,
                    document.querySelector('article.rules').getBoundingClientRect().right]"""
            )
            assert table <= card
        if name == "think_alike":
            expect(page.locator(".ring .ring-field")).to_have_count(16)
            expect(page.locator(".rules-tasks .task-card")).to_have_count(2)
        if name == "api":
            expect(page.locator(".api-operation").first).to_be_visible()
            expect(page.locator(".api-schema").first).to_be_visible()
        assert_no_sideways_scroll(page)
        # The API page is some 40 screens long: its first screen, and one of its schemas.
        screenshot(page, f"pages-{name}-{device}-{lang}", full_page=name != "api")
        if name == "api":
            page.locator(".api-schema").nth(3).scroll_into_view_if_needed()
            screenshot(page, f"pages-{name}-schemas-{device}-{lang}", full_page=False)
        assert_accessible(page)
    context.close()
