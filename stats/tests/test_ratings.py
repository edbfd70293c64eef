"""The rating people read: one whole number, never below 0, "provisional" until enough games, with the
estimate it comes from (μ, σ) in its tooltip, on profiles and leaderboards."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from hypothesis import given
from hypothesis import strategies as st

from games.tests.factories import UserFactory
from stats import ratings
from stats.models import PlayerStats
from stats.services import stats_rebuild

from .cases import two_games


@given(st.floats(min_value=0, max_value=100), st.floats(min_value=0.01, max_value=20))
def test_a_shown_rating_is_a_whole_number_never_below_zero(mu, sigma):
    value = ratings.shown(ratings.ordinal(mu, sigma))
    assert isinstance(value, int) and value >= 0


def test_the_shown_rating_keeps_the_order_of_the_estimates_above_zero():
    assert ratings.shown(ratings.ordinal(*ratings.INITIAL)) == 0  # a newcomer: 25 - 3 * 25/3
    assert ratings.shown(2.0) == 80
    assert ratings.shown(-6.6) == 0
    assert ratings.shown(20.5) > ratings.shown(20.4) > ratings.shown(2.0)


@pytest.fixture
def people(db):
    return [UserFactory(username=name, display_name=name.title()) for name in ("ann", "bo", "cy", "di")]


@pytest.fixture
def rated(people):
    now = timezone.now()
    two_games(people, first_at=now - timedelta(days=2), second_at=now - timedelta(days=1))
    stats_rebuild(now=now)
    return people


def test_the_profile_shows_one_number_provisional_with_mu_and_sigma_in_its_tooltip(client, rated, settings):
    ann = rated[0]
    stats = PlayerStats.objects.get(user=ann, kind="storyteller")
    page = client.get(reverse("stats:player", args=["ann"])).content.decode()
    rating = re.search(r'<dt>Rating</dt><dd><span class="rating" title="([^"]+)">(\d+)</span>(.*?)</dd>', page)
    assert rating, page
    title, number, after = rating.groups()
    assert int(number) == ratings.shown(ratings.ordinal(stats.rating_mu, stats.rating_sigma))
    assert f"μ {stats.rating_mu:.1f}" in title and f"σ {stats.rating_sigma:.1f}" in title
    assert "provisional" in after  # two games, ten needed
    assert "(μ" not in page  # no more "2.0 (μ 26.6, σ 8.2)"

    # Explained in words, with the number of games it stays provisional for (issue 39).
    assert "How well this player does against other people" in after and "provisional until 10 games" in after
    assert "OpenSkill" not in page and "Plackett" not in page

    settings.FABULA_RATING_PROVISIONAL_GAMES = 2
    page = client.get(reverse("stats:player", args=["ann"])).content.decode()
    assert 'class="badge muted provisional"' not in page
    assert "provisional until 2 games" in page


def test_the_leaderboard_shows_the_same_numbers_never_negative(client, rated):
    page = client.get(reverse("stats:leaderboard", args=["storyteller", "rating"])).content.decode()
    values = re.findall(r'<td class="value"><span class="rating" title="([^"]+)">(\d+)</span>', page)
    assert len(values) == 4
    by_user = {
        stats.user_id: ratings.shown(ratings.ordinal(stats.rating_mu, stats.rating_sigma))
        for stats in PlayerStats.objects.filter(kind="storyteller")
    }
    assert sorted(int(number) for _title, number in values) == sorted(by_user.values())
    assert all(title.startswith("Estimated skill μ ") for title, _number in values)
    assert page.count("provisional") >= 4
    assert "-" not in "".join(number for _title, number in values)
