"""The charts in Chromium, on a phone and a desktop: drawn, inside the screen, their numbers a click away, no axe-core
violation. Screenshots are kept in $FABULA_ARTEFACTS/screenshots (default: <var dir>/artefacts/screenshots)."""

import random
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from playwright.sync_api import expect

from games.tests.browser import axe_violations
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory, deck_with_cards
from stats.services import stats_rebuild
from think_alike.tests.content import course_ids, small_content, think_alike_game
from think_alike.tests.play import play_to_end

from .cases import two_games

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}


def screenshot(page, name: str) -> Path:
    return artefact_screenshot(page, f"{name}")


def test_charts_on_a_phone_and_a_desktop(live_server, browser):
    people = [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]
    ann, bo, cy, _ = people
    now = timezone.now()
    story, _ = two_games(
        people, first_at=now - timedelta(days=2), second_at=now - timedelta(days=1), deck=deck_with_cards(20)
    )
    content = small_content(answers=2)
    options = {"stop": "tasks", "count": 3, "board": "course", "course": course_ids(content, "swap")}
    alike, _ = think_alike_game(3, users=[ann, bo, cy], options=options)
    play_to_end(alike, [ann, bo, cy], random.Random(1))
    stats_rebuild(now=timezone.now())
    client = Client()
    client.force_login(bo)
    pages = {
        "replay-storyteller": (reverse("stats:replay", args=[story.pk]), 1),
        "replay-think-alike": (reverse("stats:replay", args=[alike.pk]), 1),
        "player": (reverse("stats:player", args=["ann"]), 4),  # rating and points, for each kind
    }
    for screen, viewport in SCREENS.items():
        phone = screen == "phone"
        context = browser.new_context(
            base_url=live_server.url, viewport=viewport, is_mobile=phone, has_touch=phone, device_scale_factor=2
        )
        context.add_cookies(
            [
                {
                    "name": settings.SESSION_COOKIE_NAME,
                    "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                    "url": live_server.url,
                }
            ]
        )
        page = context.new_page()
        for name, (path, charts) in pages.items():
            page.goto(path)
            svgs = page.locator("svg.chart")
            expect(svgs).to_have_count(charts)
            for index in range(charts):
                box = svgs.nth(index).bounding_box()
                assert box and box["width"] > 200 and box["height"] > 100, (name, screen, box)
                assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"], (name, screen, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (name, screen)
            # The numbers behind the first chart, a click away.
            numbers = page.locator("details.chart-numbers").first
            expect(numbers.locator("table")).to_be_hidden()
            numbers.locator("summary").click()
            expect(numbers.locator("table")).to_be_visible()
            assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"], (name, screen)
            violations = axe_violations(page)
            assert violations == [], (name, screen, violations)
            screenshot(page, f"charts-{name}-{screen}")
        context.close()
