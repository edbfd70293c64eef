"""The table in one screen on a phone (390 x 844), in Chromium (issue 39).

Storyteller's vote (six players, the tallest table) and Think Alike's answers: the first control starts in
the top 80% of the first screen and the page is at most 1.5 screens long; what the move at hand does not need
(the score track, the hand, the table talk, Think Alike's board) is a tap away. A page kept open through a round
shows what a fresh load shows (the old round's reveal folded, in the same place). axe-core finds nothing with
the WCAG 2.2 AA and best-practice rules. Screenshots: $FABULA_ARTEFACTS/screenshots/one-screen-*.png."""

import random
from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone, translation
from playwright.sync_api import expect

from games.pages import time_left
from games.services.games import game_act, game_create
from games.tests.browser import WCAG22_AA, assert_accessible, log_in
from games.tests.browser import screenshot as artefact_screenshot
from games.tests.factories import UserFactory, deck_with_cards, started_game
from games.tests.play import play_to_end, view_for
from stats.services import stats_rebuild
from storyteller.tests.own_decks import own_deck
from storyteller.tests.test_browser_reveal import others_act
from think_alike.tests.content import course_ids, small_content, think_alike_game
from think_alike.tests.play import play_step as think_alike_play_step

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
SCREEN = 844
# What a fresh load and a page kept open must agree on: the board's parts in order, each <details> open or not.
SHAPE = """() => [...document.querySelectorAll('#board > *, #board details')].map((e) =>
    `${e.tagName}#${e.id}.${[...e.classList].sort().join('.')}${e.tagName === 'DETAILS' && e.open ? '[open]' : ''}`)"""


def fits(page, control: str) -> tuple[float, float]:
    """The first ``control``'s top (in the page) and the page's height, after checking them."""
    top, height, width = page.evaluate(
        """(sel) => [document.querySelector(sel).getBoundingClientRect().top + scrollY,
                     document.documentElement.scrollHeight, document.documentElement.scrollWidth]""",
        control,
    )
    assert width <= 390, f"{width} px wide"
    assert top <= 0.8 * SCREEN, f"the first control starts at {top:.0f} px, below 80% of the first screen"
    assert height <= 1.5 * SCREEN, f"the page is {height} px long, over 1.5 screens"
    return top, height


def assert_no_axe_violations(page):
    assert_accessible(page, tags=WCAG22_AA)


def refresh(page, game):
    """As the socket's word would: the board fetches itself, up to the game's version."""
    game.refresh_from_db()
    page.evaluate("htmx.trigger(document.getElementById('board'), 'fabula:refresh')")
    expect(page.locator("#board")).to_have_attribute("data-version", str(game.version))


def test_storyteller_s_vote_fits_one_screen_fresh_and_after_a_round_played_with_the_page_open(live_server, browser):
    game, users = started_game(6)
    me = users[2]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    others_act(game, users[:1], me, "clue")
    others_act(game, users, me, "submit")
    page.goto(live_server.url + game.get_absolute_url())
    page.locator(".submit-form .card-pick").first.click()
    page.get_by_role("button", name="Hand in my card").click()
    expect(page.locator(".submit-form")).to_have_count(0)
    others_act(game, users, me, "vote")
    page.reload()
    fits(page, ".vote-form .card-pick")
    # A tap away: the score track, the hand, the table talk; resigning and reporting as before.
    for fold in (".track-fold", ".hand-fold", "#table-more"):
        expect(page.locator(fold)).not_to_have_attribute("open", "")
    page.locator(".hand-fold > summary").click()
    expect(page.locator(".hand-fold .card-pick").first).to_be_visible()
    page.locator(".hand-fold > summary").click()
    page.locator("#table-more > summary").click()
    expect(page.get_by_role("heading", name="Table talk")).to_be_visible()
    expect(page.get_by_role("button", name="Mute this game")).to_be_visible()
    page.locator("#table-more > summary").click()
    assert_no_axe_violations(page)
    artefact_screenshot(page, "one-screen-vote")

    # I vote; the reveal opens in the board's one place for it, above the next round.
    form = page.locator(".vote-form")
    form.locator(".card-pick:not(.mine)").first.click()
    expect(form.locator("input[name=position]:checked")).to_have_count(1)
    form.get_by_role("button", name="Cast my vote").click()
    expect(page.locator("#last-round details")).to_have_attribute("open", "")
    artefact_screenshot(page, "one-screen-reveal")

    # The next round, played with the page open: the old reveal folds away, as a fresh load shows it.
    others_act(game, users, me, "clue")
    refresh(page, game)
    expect(page.locator("#last-round details")).not_to_have_attribute("open", "")
    page.locator(".submit-form .card-pick").first.click()
    page.get_by_role("button", name="Hand in my card").click()
    expect(page.locator(".submit-form")).to_have_count(0)
    others_act(game, users, me, "submit")
    refresh(page, game)
    live_top, live_height = fits(page, ".vote-form .card-pick")
    live_shape = page.evaluate(SHAPE)
    artefact_screenshot(page, "one-screen-vote-live")
    fresh = context.new_page()
    fresh.goto(live_server.url + game.get_absolute_url())
    assert fresh.evaluate(SHAPE) == live_shape
    assert fits(fresh, ".vote-form .card-pick") == (live_top, live_height)
    assert_no_axe_violations(fresh)
    context.close()


def three_bots(game, users) -> None:
    """``users`` become the bots "Play now with bots" seats (normal level), as the table shows them."""
    for user, name in zip(users, ("Bot Ada", "Bot Alan", "Bot Grace"), strict=True):
        user.is_bot, user.display_name = True, name
        user.save(update_fields=["is_bot", "display_name"])
    game.seats.filter(user__in=users).update(bot_level="normal")


def test_play_now_s_table_of_three_bots_fits_one_screen_in_its_second_round(live_server, browser):
    """What "Play now with bots" seats (issue 39's newcomer): four on a phone sit two by two, each bot's seat with its
    badge ("bot, normal") on a line of its own; from the second round the last round's reveal is folded above the
    vote and the head links to the replay. That table's vote measured 1287 px on a phone, over the 1.5 screens."""
    game, users = started_game(4)
    three_bots(game, users[:3])
    me = users[3]
    me.display_name = "newcomer5121"
    me.save(update_fields=["display_name"])
    for phase in ("clue", "submit", "vote", "clue", "submit"):  # the first round, then the second to its vote
        others_act(game, users, None, phase)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator(".board-head").get_by_role("link", name="Replay")).to_be_visible()
    expect(page.locator("#last-round details")).not_to_have_attribute("open", "")
    # A phone marks each bot by its name, its level read out; a wide window shows the level's badge.
    expect(page.locator(".players .bot-badge").first).to_be_hidden()
    marks = page.locator(".players .seat-line .bot-mark")
    expect(marks).to_have_count(3)
    for mark in marks.all():
        expect(mark).to_be_visible()
        expect(mark).to_have_text("bot, normal")
    fits(page, ".vote-form .card-pick")
    # Folded, the score track and the reveal share a line, and each opens at a tap.
    track, reveal = page.locator(".track-fold > summary"), page.locator("#last-round summary")
    boxes = track.bounding_box(), reveal.bounding_box()
    tops, middles = ({box["y"] for box in boxes}, [box["y"] + box["height"] / 2 for box in boxes])
    assert len(tops) == 1 or abs(middles[0] - middles[1]) < 8  # one line: the same top, or centred on one line
    reveal.click()
    expect(page.locator("#last-round .table-cards .card-pick").first).to_be_visible()
    reveal.click()
    track.click()
    expect(page.locator(".track-board")).to_be_visible()
    track.click()
    assert_no_axe_violations(page)
    artefact_screenshot(page, "one-screen-vote-with-bots")
    context.close()
    wide = browser.new_context(viewport={"width": 1280, "height": 800})
    desk = wide.new_page()
    log_in(desk, live_server.url, me.username)
    desk.goto(live_server.url + game.get_absolute_url())
    expect(desk.locator(".players .bot-badge", has_text="bot, normal")).to_have_count(3)
    expect(desk.locator(".players .bot-badge").first).to_be_visible()
    expect(desk.locator(".players .bot-mark").first).to_be_hidden()
    wide.close()


def test_think_alike_s_answers_fit_one_screen(live_server, browser):
    content = small_content(answers=3)
    game, users = think_alike_game(3, options={"board": "course", "course": course_ids(content)})
    holder = next(u for u in users if u.username == view_for(game, users[0])["turn"])
    game_act(game_id=game.pk, user=holder, action={"type": "roll"})
    game_act(game_id=game.pk, user=holder, action={"type": "move", "direction": "cw"})
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, users[1].username)
    page.goto(live_server.url + game.get_absolute_url())
    fits(page, ".answer-form input[name=answers]")
    hint = view_for(game, users[1])["hint"]
    expect(page.locator(".task-card .hint-line")).to_contain_text(f"Hint: {hint}")
    expect(page.locator(".task-card .hint-line")).to_contain_text("it binds nobody")
    ring = page.locator(".ring-fold")
    expect(ring).not_to_have_attribute("open", "")
    ring.locator("summary").click()
    expect(ring.locator(".ring-center")).to_be_visible()
    ring.locator("summary").click()
    assert_no_axe_violations(page)
    artefact_screenshot(page, "one-screen-answers")
    context.close()


def test_think_alike_s_second_round_folds_the_first_and_its_answers_fit_one_screen(live_server, browser):
    """Four at the table, three of them bots (the new-game form's "Bots take the empty seats"): the first round's
    answers, open while the next turn holder rolls and moves, fold into their title once everyone answers again, as
    Storyteller's reveal does. Open, they had put the second round's answer field at 1181 px of a 1627 px page."""
    content = small_content(answers=3)
    game, users = think_alike_game(4, options={"board": "course", "course": course_ids(content)})
    me = users[3]
    rng = random.Random(4)

    def play_until(done) -> dict:
        for _ in range(200):
            view = view_for(game, me)
            if done(view):
                return view
            think_alike_play_step(game, users, rng)
        raise AssertionError("the game never got there")

    view = play_until(lambda v: v["round"] == 2)
    assert view["phase"] in ("roll", "move", "swap", "move_to", "duel") and view["last_round"]["fresh"]
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    page.goto(live_server.url + game.get_absolute_url())
    expect(page.locator("#last-round details")).to_have_attribute("open", "")
    expect(page.locator("#last-round")).to_contain_text("Round 1: the answers")

    # The others become bots now (bots play at once in the tests: seated from the start, they would have rolled and
    # moved before the page could see the first round open).
    three_bots(game, users[:3])
    view = play_until(lambda v: v["round"] == 2 and v["phase"] == "answer")
    assert not view["last_round"]["fresh"] and view["you"]["to_act"]
    refresh(page, game)
    expect(page.locator("#last-round details")).not_to_have_attribute("open", "")
    expect(page.locator(".players .seat-line .bot-mark")).to_have_count(3)
    live_top, live_height = fits(page, ".answer-form input[name=answers]")
    fresh = context.new_page()
    fresh.goto(live_server.url + game.get_absolute_url())
    assert fresh.evaluate(SHAPE) == page.evaluate(SHAPE)
    assert fits(fresh, ".answer-form input[name=answers]") == (live_top, live_height)
    summary = fresh.locator("#last-round summary")
    summary.click()
    expect(fresh.locator("#last-round .points li")).to_have_count(4)
    summary.click()
    assert_no_axe_violations(fresh)
    artefact_screenshot(fresh, "one-screen-answers-round-2")
    context.close()


@pytest.mark.parametrize(("lang", "unlike"), [("en", None), ("da", "23h 59m"), ("fi", "23h 59m"), ("fr", "23h 59m")])
def test_the_time_left_is_counted_in_the_page_s_language(live_server, browser, lang, unlike):
    game, users = started_game(3)
    context = browser.new_context(**PHONE)
    context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}])
    page = context.new_page()
    log_in(page, live_server.url, users[0].username)
    page.goto(live_server.url + game.get_absolute_url())
    left = page.locator("time[data-deadline]")
    expected = page.evaluate(
        "(lang) => new Intl.DurationFormat(lang, {style: 'narrow'}).format({hours: 23, minutes: 59})", lang
    )
    expect(left).to_have_text(expected)  # a day a phase: 23 hours and 59 minutes left, once counted
    if unlike:
        assert expected != unlike
    context.close()


@pytest.mark.parametrize("lang", [code for code, _ in settings.LANGUAGES])
def test_the_page_comes_with_the_time_left_worded_as_its_countdown_then_counts_it(browser, lang):
    """The server's wording is the countdown's (Chromium's ``Intl.DurationFormat``, narrow), in every language:
    when the countdown takes over after the first paint, the phase line keeps its length and the table stays
    where it was (the server's "23 hours, 59 minutes" took a second line on a phone, and put the vote lower)."""
    page = browser.new_page()
    now = timezone.now()
    for left, parts in [
        (timedelta(days=2, hours=3, minutes=10), {"days": 2, "hours": 3}),
        (timedelta(hours=23, minutes=59, seconds=30), {"hours": 23, "minutes": 59}),
        (timedelta(hours=1, minutes=5), {"hours": 1, "minutes": 5}),
    ]:
        with translation.override(lang):
            served = time_left(now + left, now)
        counted = page.evaluate(
            "([lang, parts]) => new Intl.DurationFormat(lang, {style: 'narrow'}).format(parts)", [lang, parts]
        )
        assert served == counted, (lang, parts)
    page.close()


def test_a_bots_seat_is_confirmed_once_not_for_the_whole_game(live_server, browser):
    creator = UserFactory()
    game = game_create(creator=creator, max_seats=3, options={"deck": deck_with_cards().pk})
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, creator.username)
    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("button", name="Add a bot").click()
    message = page.locator(".messages .message.success")
    expect(message).to_have_text("A bot has taken a seat.")
    page.get_by_role("button", name="Add a bot").click()  # the last seat: the game starts
    expect(message).to_have_text("A bot has taken a seat.")
    refresh(page, game)  # the game moves on (as the socket's word would bring it)
    expect(message).to_have_count(0)
    context.close()


def test_the_lobby_the_profile_and_the_deck_pages_meet_wcag_2_2_aa(live_server, browser, settings, tmp_path):
    """axe-core's WCAG 2.2 AA and best-practice rules find nothing on a phone: the empty lobby (with its "Play now
    with bots"), a player's page after a finished game, the profile's settings, the deck list and a deck."""
    settings.MEDIA_ROOT = tmp_path
    game, users = started_game(3)
    play_to_end(game, users, random.Random(2))
    stats_rebuild(now=timezone.now())
    me = users[0]
    deck = own_deck(me, cards=5)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    log_in(page, live_server.url, me.username)
    for name, url in (
        ("lobby", reverse("games:lobby")),
        ("player", reverse("stats:player", args=[me.username])),
        ("profile", reverse("accounts:profile")),
        ("decks", reverse("decks:list")),
        ("deck", reverse("decks:deck", args=[deck.pk])),
    ):
        page.goto(live_server.url + url)
        if name == "lobby":
            expect(page.get_by_role("button", name="Play now with bots")).to_be_visible()
        assert_no_axe_violations(page)
        artefact_screenshot(page, f"one-screen-axe-{name}")
    context.close()
