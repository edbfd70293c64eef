"""The translations in locale/ are complete, compiled and used.

The .po files are read with the standard library only: every entry must have a
translation (every plural form), no entry may be fuzzy, and the placeholders and
HTML tags of each translation must be those of its English source. The .mo files
must hold what the .po files say, and a few pages are rendered in Danish
and French to see that the site speaks them.
"""

import ast
import gettext as gettext_module
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, ngettext

LOCALE = Path(settings.BASE_DIR) / "locale"
LANGS = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]

PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]")
TAG = re.compile(r"</?[a-zA-Z][^>]*>")


def parse_po(path: Path) -> list[dict]:
    """The entries of a .po file: msgctxt, msgid, msgid_plural, msgstr (a dict of forms), flags."""
    entries, entry, key = [], None, None

    def finish():
        if entry is not None and "msgid" in entry:
            entries.append(entry)

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#~"):  # obsolete entries are not used
            continue
        if line.startswith("#"):
            if entry is not None and "msgid" in entry and key is not None:
                finish()
                entry, key = None, None
            if entry is None:
                entry = {"flags": set(), "msgstr": {}}
            if line.startswith("#,"):
                entry["flags"] |= {flag.strip() for flag in line[2:].split(",")}
            continue
        match = re.match(r"^(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
        if match:
            word, index, value = match.groups()
            starts_entry = word in ("msgctxt", "msgid") and not (word == "msgid" and key == "msgctxt")
            if starts_entry and entry is not None and "msgid" in entry and key is not None:
                finish()
                entry = None
            if entry is None:
                entry = {"flags": set(), "msgstr": {}}
            text = ast.literal_eval(value)
            if word == "msgstr":
                key = ("msgstr", int(index or 0))
                entry["msgstr"][key[1]] = text
            else:
                key = word
                entry[word] = text
            continue
        assert line.startswith('"'), f"{path}: cannot read {raw!r}"
        text = ast.literal_eval(line)
        if isinstance(key, tuple):
            entry["msgstr"][key[1]] += text
        else:
            entry[key] += text
    finish()
    return entries


def catalogue(lang: str) -> list[dict]:
    return [e for e in parse_po(LOCALE / lang / "LC_MESSAGES" / "django.po") if e["msgid"]]


@pytest.mark.parametrize("lang", LANGS)
def test_po_is_complete(lang):
    entries = catalogue(lang)
    assert len(entries) > 500, "the catalogue looks too small: was makemessages run?"
    untranslated = [e["msgid"] for e in entries if not all(e["msgstr"].values()) or not e["msgstr"]]
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert not untranslated, f"{lang}: {len(untranslated)} untranslated, e.g. {untranslated[:5]}"
    assert not fuzzy, f"{lang}: {len(fuzzy)} fuzzy, e.g. {fuzzy[:5]}"
    plurals = [e for e in entries if "msgid_plural" in e]
    assert all(len(e["msgstr"]) == 2 for e in plurals), f"{lang}: a plural entry lacks a form"


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_and_tags_are_kept(lang):
    wrong = []
    for e in catalogue(lang):
        source = set(PLACEHOLDER.findall(e["msgid"])) | set(PLACEHOLDER.findall(e.get("msgid_plural", "")))
        for form, text in e["msgstr"].items():
            found = set(PLACEHOLDER.findall(text))
            if "msgid_plural" in e:
                # A singular may leave the count out ("one card"), never anything else.
                needed = set(PLACEHOLDER.findall(e["msgid"] if form == 0 else e["msgid_plural"]))
                ok = needed <= found <= source
            else:
                ok = found == source
            if not ok:
                wrong.append((e["msgid"], text))
            if sorted(TAG.findall(text)) != sorted(TAG.findall(e["msgid"])):
                wrong.append((e["msgid"], text))
            if "{{" in text or "{%" in text:
                wrong.append((e["msgid"], text))
    assert not wrong, f"{lang}: {wrong[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_mo_is_compiled_from_the_po(lang):
    """The .mo the site loads holds exactly the translations of the .po (compilemessages was run)."""
    po = LOCALE / lang / "LC_MESSAGES" / "django.po"
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run manage.py compilemessages"
    with mo.open("rb") as handle:
        compiled = gettext_module.GNUTranslations(handle)
    stale = []
    for e in catalogue(lang):
        key = e["msgid"] if "msgctxt" not in e else f"{e['msgctxt']}\x04{e['msgid']}"
        if "msgid_plural" in e:
            got = [compiled._catalog.get((key, form)) for form in sorted(e["msgstr"])]
            want = [e["msgstr"][form] for form in sorted(e["msgstr"])]
        else:
            got, want = compiled._catalog.get(key), e["msgstr"][0]
        if got != want:
            stale.append(e["msgid"])
    assert not stale, f"{mo} is out of date for {len(stale)} entries (run compilemessages), e.g. {stale[:3]}"


@pytest.mark.parametrize("lang", LANGS)
def test_key_strings_are_translated(lang):
    with translation.override(lang):
        for text in ["My games", "Your turn", "Sign up", "Log in", "New game", "Rules", "Your hand", "Deadline"]:
            assert gettext(text) != text, (lang, text)
        assert ngettext("%(n)s card", "%(n)s cards", 2) != "%(n)s cards"


def test_plural_forms_follow_the_language():
    with translation.override("fr"):
        # French takes the singular for 0 and 1.
        assert ngettext("%(n)s vote", "%(n)s votes", 0) % {"n": 0} == "0 vote"
        assert ngettext("%(n)s vote", "%(n)s votes", 2) % {"n": 2} == "2 votes"
    with translation.override("da"):
        assert ngettext("%(n)s vote", "%(n)s votes", 0) % {"n": 0} == "0 stemmer"
        assert ngettext("%(n)s vote", "%(n)s votes", 1) % {"n": 1} == "1 stemme"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("da", "Spil selskabsspil med venner, når det passer dig."),
        ("fr", "Jouez à des jeux d'ambiance entre amis, quand ça vous arrange."),
        ("fi", "Pelaa seurapelejä ystävien kanssa silloin, kun sinulle sopii."),
    ],
)
def test_home_page_speaks_the_language(client, lang, expected):
    response = client.get(reverse("home"), headers={"accept-language": lang})
    html = response.content.decode()
    assert response.status_code == 200
    assert f'<html lang="{lang}">' in html
    assert expected in html
    assert "Play party games with friends" not in html


@pytest.mark.django_db
def test_lobby_in_danish_by_accept_language(client):
    response = client.get(reverse("games:lobby"), headers={"accept-language": "da"})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Offentlige spil, der venter på spillere." in html
    assert "Public games waiting for players." not in html


@pytest.mark.django_db
def test_lobby_in_french_by_language_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    response = client.get(reverse("games:lobby"))
    html = response.content.decode()
    assert response.status_code == 200
    assert "Parties publiques en attente de joueurs." in html
    assert "Salon" in html
    assert "Public games waiting for players." not in html


@pytest.mark.django_db
def test_language_switch_in_the_footer_sets_the_cookie(client):
    response = client.post(reverse("set_language"), {"language": "sv", "next": reverse("games:lobby")})
    assert response.status_code == 302
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "sv"
    html = client.get(reverse("games:lobby")).content.decode()
    assert "Offentliga spel som väntar på spelare." in html


@pytest.mark.django_db
def test_sign_up_page_in_french(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse("accounts:signup")).content.decode()
    assert "Créer mon compte" in html
    assert "Create my account" not in html
