"""Generated avatars: the same player always gets the same picture, different players differ,
and a hostile name stays text."""

import re

import pytest
from django.template import Context, Template

from accounts.avatars import SHAPES, avatar_svg, initials, ink_for, shape_of, table_letters
from games.tests.factories import UserFactory


def test_the_same_player_gets_the_same_avatar_every_time():
    first = avatar_svg(key="anna", name="Anna Berg", colour="red")
    avatar_svg.cache_clear()
    assert avatar_svg(key="anna", name="Anna Berg", colour="red") == first
    assert 'fill="#d64545"' in first and ">AB</text>" in first


def test_players_differ_by_shape_not_only_by_colour():
    shapes = {shape_of(f"player{n}") for n in range(60)}
    assert len(shapes) == len(SHAPES)  # every shape is used by someone
    # A table gives each seat its own shape: six seats, six outlines.
    paths = {re.search(r'd="([^"]+)"', avatar_svg(key=f"p{n}", name="X", colour="blue", shape=n))[1] for n in range(6)}
    assert len(paths) == 6
    assert 'class="avatar shape-3"' in avatar_svg(key="zed", name="Zed", colour="blue", shape=3)


def test_initials_of_names():
    assert initials("anna") == "A"
    assert initials("Anna Maria Berg") == "AM"
    assert initials("bo_lind") == "BL"
    assert initials("   ") == "?"
    assert initials("élodie") == "É"
    # Names that differ only by their number keep it: "Player 11" and "Player 12" are not both P1.
    assert (initials("Player 11"), initials("Player 12"), initials("anna2")) == ("P11", "P12", "A2")
    assert initials("2049") == "2"


def test_a_hostile_name_is_escaped():
    svg = avatar_svg(key="x", name='<script>alert(1)</script> "q', colour="red", label=True)
    assert "<script" not in svg
    assert 'aria-label="&lt;script&gt;alert(1)&lt;/script&gt; &quot;q"' in svg
    assert ">&lt;&quot;</text>" in svg  # its initials: the first letters of its two words


def test_decorative_or_named():
    assert 'aria-hidden="true"' in avatar_svg(key="a", name="Anna", colour="red")
    named = avatar_svg(key="a", name="Anna", colour="red", label=True)
    assert 'role="img" aria-label="Anna"' in named and "aria-hidden" not in named


def test_letters_read_on_every_colour():
    assert ink_for("#e6c229") == "#231f1a"  # dark on yellow
    assert ink_for("#e9e4da") == "#231f1a"  # dark on white
    assert ink_for("#3b7dd8") != ink_for("#e9e4da")
    # An unknown colour still draws (grey).
    assert 'fill="#888888"' in avatar_svg(key="a", name="A", colour="no-such-colour")


@pytest.mark.django_db
def test_the_template_tag_takes_a_user_or_a_views_player():
    user = UserFactory(display_name="Kim Ode", colour="green")
    html = Template(
        "{% load avatars %}{% avatar user label=True %}|{% avatar 'bo' 'Bo' 'teal' shape=2 size=20 %}"
    ).render(Context({"user": user}))
    from_user, from_player = html.split("|")
    assert 'aria-label="Kim Ode"' in from_user and 'fill="#3fa36b"' in from_user and ">KO<" in from_user
    assert 'fill="#2a9d8f"' in from_player and 'width="20"' in from_player and "shape-2" in from_player


def test_no_two_players_of_a_table_show_the_same_letters():
    from bots.services import BOT_NAMES, NAME_PREFIX

    bots = [f"{NAME_PREFIX} {name}" for name in BOT_NAMES]
    for size in range(3, 11):
        table = tuple(bots[:size])
        letters = table_letters(table)
        assert len(set(letters)) == size, (table, letters)
        assert all(1 <= len(text) <= 3 for text in letters)
    assert table_letters(("Bot Ada", "Bot Alan", "Bot Grace")) == ("Ad", "Al", "BG")


def test_letters_lengthen_only_where_they_clash():
    assert table_letters(("Anna Berg", "Carl", "Dora")) == ("AB", "C", "D")
    assert table_letters(("Anna", "Alan", "Bo")) == ("An", "Al", "B")
    # Names alike to the letter are numbered rather than shared.
    letters = table_letters(("bo", "Bo", "BO."))
    assert len(set(letters)) == 3


def test_a_bot_table_draws_avatars_that_all_differ():
    """Letters, shape and colour: a board of four bots shows four different drawings."""
    players = [
        {"username": f"bot{n}", "name": name, "colour": colour, "seat": n}
        for n, (name, colour) in enumerate(
            [("Bot Ada", "red"), ("Bot Alan", "blue"), ("Bot Annie", "green"), ("Bot Grace", "pink")]
        )
    ]
    template = Template(
        "{% load avatars %}{% for p in players %}"
        "{% avatar p.username p.name p.colour shape=p.seat table=players %}{% endfor %}"
    )
    html = template.render(Context({"players": players}))
    texts = re.findall(r">([^<>]+)</text>", html)
    assert texts == ["Ad", "Al", "An", "BG"]
    assert len(set(re.findall(r'd="([^"]+)"', html))) == 4
    assert len(set(re.findall(r'fill="(#[0-9a-f]{6})" stroke', html))) == 4
