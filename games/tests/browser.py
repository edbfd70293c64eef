"""Helpers for the browser tests of every app (Playwright on Debian's Chromium)."""

import os
import time
from pathlib import Path

import pytest
from django.conf import settings
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect


def wait_until(page, expression: str, arg=None, timeout: float = 5000) -> None:
    """Wait until ``expression`` (a JS expression, or a function of ``arg``) is true in ``page``.

    Polled from here through ``page.evaluate``, not with ``page.wait_for_function``: that one compiles its
    predicate inside the page while it polls, which the site's Content-Security-Policy (no 'unsafe-eval')
    refuses whenever the condition is not already true at the first try.
    """
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(expression, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"still false after {timeout:.0f} ms: {expression}")
        page.wait_for_timeout(20)


def screenshot(page, name: str, *, full_page: bool = True, **options) -> Path:
    """Keep a screenshot of ``page`` as a test artefact: $FABULA_ARTEFACTS/screenshots/``name``.png
    (default: <var dir>/artefacts/screenshots), and say where."""
    folder = Path(os.environ.get("FABULA_ARTEFACTS") or settings.VAR_DIR / "artefacts") / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    for attempt in range(3):
        try:
            page.screenshot(path=str(path), full_page=full_page, **options)
            return path
        except PlaywrightError as error:
            # Headless Chromium on a loaded machine now and then answers a full page's capture with "Unable to
            # capture screenshot" (its compositor had no frame in time); the page is fine, so ask again.
            if "Unable to capture screenshot" not in str(error) or attempt == 2:
                raise
            page.wait_for_timeout(250)
    return path


def sign_up(page, base, username):
    """Sign a new person up through the pages; they land on the lobby, logged in."""
    page.goto(f"{base}/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.com")
    page.fill("#id_password1", "a-Long-pass-123")
    page.fill("#id_password2", "a-Long-pass-123")
    page.click("button[type=submit]")
    expect(page.get_by_role("heading", name="Lobby")).to_be_visible()


def log_in(page, base, username, password="correct horse battery"):
    """Log an existing person in through the log-in page (the factories' password by default)."""
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit]").click()
    expect(page).not_to_have_url(f"{base}/accounts/login/")


def axe_script() -> Path | None:
    """axe-core's script, where there is one: $AXE_CORE_JS, or node_modules/axe-core of the checkout
    (package.json pins it; bin/test installs it with npm ci)."""
    for candidate in (os.environ.get("AXE_CORE_JS"), settings.BASE_DIR / "node_modules/axe-core/axe.min.js"):
        if candidate and Path(candidate).is_file():
            return Path(candidate)
    return None


def axe_required() -> bool:
    """Under CI and in bin/test a missing axe-core fails the test; elsewhere the check is skipped."""
    return os.environ.get("CI", "").lower() == "true" or bool(os.environ.get("FABULA_REQUIRE_AXE"))


# WCAG 2.2 AA and axe's best practices (issue 39): the rules a page of the site is held to where a test asks for them.
WCAG22_AA = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice")


def axe_violations(page, selector: str = "html", tags: tuple[str, ...] | None = None) -> list[str]:
    """axe-core's violations (its default rules, or those of ``tags``) inside ``selector``: one line per
    element, with the rule's id, the element's selector and its HTML."""
    script = axe_script()
    if script is None:
        message = "axe-core is missing: `npm ci` at the checkout's root installs it (or set $AXE_CORE_JS)"
        if axe_required():
            pytest.fail(message)
        pytest.skip(message)
    if not page.evaluate("typeof axe !== 'undefined'"):
        # Evaluated through the browser's debugging protocol: the pages' CSP refuses an added <script>.
        page.evaluate(script.read_text() + "\n;undefined")
    # What is seen once the page has settled, or axe measures the contrast of text still half transparent.
    finish_animations(page)
    return page.evaluate(
        """async ([selector, tags]) => (await axe.run(
            document.querySelector(selector), tags ? {runOnly: {type: "tag", values: tags}} : {})).violations.flatMap(
            (v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} ${n.html.slice(0, 200)}`))""",
        [selector, list(tags) if tags else None],
    )


def finish_animations(page):
    """Every finite animation of the page jumps to its end (a reveal's rows slid in, its points popped).

    ``Animation.finish()``, not a wait for ``Animation.finished``: a promise that a loaded machine's
    throttled frames left pending held a test to its 5 minutes (issue 39's reveal test, once)."""
    page.evaluate(
        "document.getAnimations().forEach((a) => a.effect?.getComputedTiming().endTime !== Infinity && a.finish())"
    )


def assert_accessible(page, selector: str = "html", tags: tuple[str, ...] | None = None):
    """No axe-core violation inside ``selector`` (of its default rules, or of those of ``tags``)."""
    violations = axe_violations(page, selector, tags)
    assert violations == [], "\n".join([f"axe-core on {page.url}:", *violations])
