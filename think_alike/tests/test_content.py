"""Think Alike's content: the built-in files loaded once (and the languages a card lacks
filled in), imports all or nothing with a reason per bad row, the six languages' texts
checked, exports that import back unchanged, and the admin pages."""

import importlib
import json

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation

from games.tests.factories import UserFactory
from think_alike.models import LANGS, TEXT_COLUMNS, BoardField, TaskCard
from think_alike.services.content import (
    FIELDS,
    TASKS,
    ContentImportError,
    content_export,
    content_import,
    content_rows_read,
)

from .content import small_content, texts, think_alike_game

pytestmark = pytest.mark.django_db


class TestBuiltin:
    def test_load_content_adds_only_what_is_missing(self, capsys):
        call_command("load_content")
        assert (TaskCard.objects.count(), BoardField.objects.count()) == (310, 69)
        assert BoardField.objects.get(is_start=True).key == "start"
        assert TaskCard.objects.filter(answers__gt=1).count() >= 40
        TaskCard.objects.filter(key="fruit-not-round").update(text_en="Edited by an admin")
        TaskCard.objects.filter(key="breakfast").delete()
        call_command("load_decks")  # the command's old name does the same
        assert TaskCard.objects.count() == 310
        assert TaskCard.objects.get(key="fruit-not-round").text_en == "Edited by an admin"
        assert "think alike tasks: 1 added, 309 already there\n" in capsys.readouterr().out

    def test_every_card_and_field_has_its_six_texts(self):
        call_command("load_content")
        for model in (TaskCard, BoardField):
            for column in TEXT_COLUMNS:
                assert not model.objects.filter(**{column: ""}).exists(), (model, column)
        card = TaskCard.objects.get(key="fruit-not-round")
        assert [card.text(lang) for lang in LANGS] == [
            "A fruit that is not round",
            "En frugt, der ikke er rund",
            "En frukt som inte är rund",
            "En frukt som ikke er rund",
            "Hedelmä, joka ei ole pyöreä",
            "Un fruit qui n'est pas rond",
        ]
        assert BoardField.objects.get(key="start").text("fr") == "Départ"

    def test_a_database_from_before_the_languages_gets_them_and_keeps_its_edits(self, capsys):
        call_command("load_content")
        TaskCard.objects.filter(key="soup").update(text_en="A soup (edited)", text_sv="", text_fi="")
        BoardField.objects.update(text_nb="", text_fr="")
        capsys.readouterr()
        call_command("load_content")
        soup = TaskCard.objects.get(key="soup")
        assert (soup.text_en, soup.text_sv, soup.text_fi, soup.text_da) == (
            "A soup (edited)",
            "En soppa",
            "Keitto",
            "En suppe",
        )
        assert (
            not BoardField.objects.filter(text_nb="").exists()
            and BoardField.objects.get(key="winter").text_fr == "Hiver"
        )
        out = capsys.readouterr().out
        assert "tasks: 0 added, 309 already there, 1 given the languages they lacked" in out
        assert "fields: 0 added, 0 already there, 69 given the languages they lacked" in out

    def test_a_text_missing_reads_as_english(self):
        card = TaskCard.objects.create(key="old", text_en="Old", text_da="Gammel")
        assert (card.text("da"), card.text("sv"), card.text("fr"), card.text("de")) == ("Gammel", "Old", "Old", "Old")

    def test_the_audit_migration_retires_and_rewrites_only_what_nobody_edited(self):
        audit = importlib.import_module("think_alike.migrations.0005_content_audit")
        TaskCard.objects.create(key="two-planets", text_en="Two planets", text_da="To planeter", answers=2)
        TaskCard.objects.create(key="pizza-two", text_en="Two pizzas you like", text_da="To pizzaer", answers=2)
        TaskCard.objects.create(key="home-town", text_en="A city in Europe", text_da="En by i Danmark")
        TaskCard.objects.create(key="scary", text_en="Something scary", text_da="Noget rigtig uhyggeligt")
        audit.audit(apps, None)
        assert TaskCard.objects.get(key="two-planets").is_retired
        assert not TaskCard.objects.get(key="pizza-two").is_retired  # edited by an admin: left alone
        assert TaskCard.objects.get(key="home-town").text_en == "A town or city in Britain"
        assert TaskCard.objects.get(key="scary").text_en == "Something scary"  # its Danish was edited
        call_command("load_content")
        assert TaskCard.objects.get(key="seven-dwarfs").text_fi == "Kaksi seitsemästä kääpiöstä"
        assert TaskCard.objects.get(key="home-town").text_sv == "En stad i Sverige"


class TestImport:
    def test_json_in_the_builtin_shape_and_flat_csv(self):
        text = {"en": "Two blue things", "da": "To blå ting", "sv": "Två blå saker", "nb": "To blå ting"}
        text |= {"fi": "Kaksi sinistä asiaa", "fr": "Deux choses bleues"}
        rows = content_rows_read(
            name="tasks.json", data=json.dumps([{"key": "sky", "answers": 2, "text": text}]).encode()
        )
        assert content_import(content=TASKS, rows=rows).created == 1
        assert TaskCard.objects.get(key="sky").text("fi") == "Kaksi sinistä asiaa"
        csv = (
            "key,answers,text_en,text_da,text_sv,text_nb,text_fi,text_fr,retired\n"
            "sky,3,Three blue things,Tre blå ting,Tre blå saker,Tre blå ting,Kolme sinistä asiaa,Trois bleus,1\n"
            "sea,1,Sea things,Ting i havet,Saker i havet,Ting i havet,Meren asiat,Choses de la mer,\n"
        )
        done = content_import(content=TASKS, rows=content_rows_read(name="more.CSV", data=csv.encode()))
        assert (done.created, done.updated, done.unchanged) == (1, 1, 0)
        sky = TaskCard.objects.get(key="sky")
        assert (sky.answers, sky.is_retired, sky.text_da, sky.text_fr) == (
            3,
            True,
            "Tre blå ting",
            "Trois bleus",
        )
        assert TaskCard.objects.get(key="sea").is_retired is False

    def test_the_six_languages_are_checked(self):
        def row(key, answers=1, **changed):
            return {"key": key, "answers": answers, **texts(f"Card {key}", f"Kort {key}"), **changed}

        fine = row("three", 3, text_en="Three things", text_da="Tre ting", text_sv="Tre saker", text_nb="Tre ting")
        fine |= {"text_fi": "Kolme asiaa", "text_fr": "Trois choses"}
        bad = [
            {k: v for k, v in row("no-swedish").items() if k != "text_sv"},
            row("blank-finnish", text_fi="  "),
            {**fine, "key": "no-count", "text_fi": "Asioita"},
            row("digits", text_en="A number from 1 to 10", text_da="Et tal fra 1 til 10"),
            row("placeholder", text_fr="Une chose %(n)s"),
            row("same-as-fine", text_nb="Tre ting!"),
            {"key": "german", "text": {**dict.fromkeys(LANGS, "x"), "de": "y"}},
        ]
        with pytest.raises(ContentImportError) as refused:
            content_import(content=TASKS, rows=[fine, *bad[:5], *[_flat(item) for item in bad[6:]]])
        problems = dict(refused.value.problems)
        assert "text_sv is missing" in problems["row 2 (no-swedish)"]
        assert "text_fi is missing" in problems["row 3 (blank-finnish)"]
        assert "text_fi does not say how many answers" in problems["row 4 (no-count)"]
        assert "same numbers" in problems["row 5 (digits)"]
        assert "placeholder" in problems["row 6 (placeholder)"]
        assert "unknown columns: text" in problems["row 7 (german)"]
        with pytest.raises(ContentImportError) as refused:
            content_import(content=TASKS, rows=[fine, bad[5]])
        assert refused.value.problems == [("same-as-fine", "text_nb is the same as three's.")]
        assert not TaskCard.objects.exists()
        content_import(content=TASKS, rows=[fine])
        with pytest.raises(ContentImportError) as refused:  # an admin's import: nor as a card in play
            content_import(content=TASKS, rows=[{**row("copy"), "text_sv": "tre SAKER"}])
        assert refused.value.problems == [("copy", "text_sv is the same as three's.")]
        TaskCard.objects.filter(key="three").update(is_retired=True)
        assert content_import(content=TASKS, rows=[{**row("copy"), "text_sv": "tre SAKER"}]).created == 1

    def test_one_bad_row_and_nothing_is_imported_with_a_reason_per_row(self):
        TaskCard.objects.create(key="kept", **texts("Kept", "Beholdt"))
        other = ",sv,nb,fi,fr"
        csv = (
            "key,answers,text_en,text_da,text_sv,text_nb,text_fi,text_fr\n"
            f"fine,1,Fine,Fin{other}\n"
            f"Bad Key,1,x,y{other}\n"
            f"no-text,1,,y{other}\n"
            f"too-many,11,x,y{other}\n"
            f"fine,1,Again,Igen{other}\n"
            f"kept,one,x,y{other}\n"
        )
        with pytest.raises(ContentImportError) as refused:
            content_import(content=TASKS, rows=content_rows_read(name="t.csv", data=csv.encode()))
        problems = dict(refused.value.problems)
        assert list(problems) == [
            "row 2 (Bad Key)",
            "row 3 (no-text)",
            "row 4 (too-many)",
            "row 5 (fine)",
            "row 6 (kept)",
        ]
        assert "slug" in problems["row 2 (Bad Key)"] and "text_en is missing" in problems["row 3 (no-text)"]
        assert "1 to 10" in problems["row 4 (too-many)"] and "also in row 1" in problems["row 5 (fine)"]
        assert "whole number" in problems["row 6 (kept)"]
        assert "5 of 6 rows" in str(refused.value.message)
        assert list(TaskCard.objects.values_list("key", "text_en")) == [("kept", "Kept")]

    def test_action_fields_may_share_their_texts_association_fields_not(self):
        rows = [
            {"key": "move-1", "kind": "move", **texts("Move", "Flyt")},
            {"key": "move-2", "kind": "move", **texts("Move", "Flyt")},
            {"key": "sea", "kind": "association", **texts("Sea", "Hav")},
        ]
        assert content_import(content=FIELDS, rows=rows).created == 3
        with pytest.raises(ContentImportError) as refused:
            content_import(content=FIELDS, rows=[{"key": "ocean", "kind": "association", **texts("Ocean", "Hav")}])
        assert refused.value.problems == [("ocean", "text_da is the same as sea's.")]

    @pytest.mark.parametrize(
        "name, data, words",
        [
            ("t.txt", b"key\n", ".csv or a .json"),
            ("t.json", b"{", "not valid JSON"),
            ("t.json", b"{}", "list of objects"),
            ("t.json", b"[]", "no rows"),
            ("t.csv", b"text_en\nx\n", "header row"),
            ("t.csv", b"\xff\xfe", "UTF-8"),
        ],
    )
    def test_unreadable_files(self, name, data, words):
        with pytest.raises(ContentImportError) as refused:
            content_rows_read(name=name, data=data)
        assert words in str(refused.value.message)

    def test_fields_and_their_rules(self):
        rows = [
            {"key": "start", "kind": "swap", "start": True, **texts("Start", "Start")},
            {"key": "duel", "kind": "duel", "bonus": "4", **texts("Duel", "Duel")},
            {"key": "sea", "kind": "association", **texts("Sea", "Hav")},
        ]
        assert content_import(content=FIELDS, rows=rows).created == 3
        bad = [
            {"key": "duel-3", "kind": "duel", "bonus": 3, **texts("x", "y")},
            {"key": "hint-bonus", "kind": "association", "bonus": 2, **texts("x", "y")},
            {"key": "second-start", "kind": "swap", "start": "1", **texts("x", "y")},
            {"key": "move-start", "kind": "move", "start": "yes", **texts("x", "y")},
            {"key": "odd", "kind": "teleport", **texts("x", "y")},
            {"key": "extra", "kind": "move", **texts("x", "y"), "colour": "red"},
        ]
        with pytest.raises(ContentImportError) as refused:
            content_import(content=FIELDS, rows=bad)
        assert len(refused.value.problems) == 5  # the second start is judged once the rows are fine
        with pytest.raises(ContentImportError) as refused:
            content_import(content=FIELDS, rows=[bad[2]])
        assert "already start" in refused.value.problems[0][1]
        unmake = {"key": "start", "kind": "swap", "start": False, **texts("Start", "Start")}
        with pytest.raises(ContentImportError):
            content_import(content=FIELDS, rows=[unmake])
        assert BoardField.objects.count() == 3

    @pytest.mark.parametrize("fmt", ["csv", "json"])
    def test_an_export_imports_back_unchanged(self, fmt):
        small_content()
        BoardField.objects.filter(key="move").update(is_retired=True)
        for content in (TASKS, FIELDS):
            body, content_type, name = content_export(content=content, items=content.model.objects.all(), fmt=fmt)
            assert name.endswith(f".{fmt}") and content_type.startswith(("text/csv", "application/json"))
            done = content_import(content=content, rows=content_rows_read(name=name, data=body))
            assert (done.created, done.updated) == (0, 0) and done.unchanged == content.model.objects.count()


class TestAdmin:
    def test_only_staff(self, client):
        client.force_login(UserFactory())
        for url in (reverse("admin:think_alike_taskcard_changelist"), reverse("admin:think_alike_taskcard_import")):
            response = client.get(url)
            assert response.status_code == 302 and response["Location"].startswith(reverse("admin:login"))

    def test_lists_search_and_filters(self, admin_client):
        content = small_content()
        think_alike_game(3)
        page = admin_client.get(reverse("admin:think_alike_taskcard_changelist"), {"q": "Task 1"}).content.decode()
        assert "Task 1" in page and "Task 2<" not in page
        assert reverse("admin:think_alike_taskcard_import") in page
        page = admin_client.get(
            reverse("admin:think_alike_boardfield_changelist"), {"kind__exact": "duel"}
        ).content.decode()
        assert "Duel for 2" in page and "Theme 0" not in page
        assert (
            admin_client.get(reverse("admin:think_alike_boardfield_change", args=[content["move"].pk])).status_code
            == 200
        )

    def test_retire_restore_and_export_actions(self, admin_client):
        content = small_content()
        url = reverse("admin:think_alike_boardfield_changelist")
        chosen = [content["start"].pk, content["move"].pk]
        response = admin_client.post(url, {"action": "retire", "_selected_action": chosen}, follow=True)
        assert "The start field stays in play" in response.content.decode()
        assert list(BoardField.objects.filter(is_retired=True).values_list("key", flat=True)) == ["move"]
        admin_client.post(url, {"action": "restore", "_selected_action": chosen})
        assert not BoardField.objects.filter(is_retired=True).exists()
        response = admin_client.post(url, {"action": "export_json", "_selected_action": chosen})
        assert response["Content-Disposition"] == 'attachment; filename="think-alike-fields.json"'
        assert [row["key"] for row in json.loads(response.content)] == ["move", "start"]
        response = admin_client.post(
            reverse("admin:think_alike_taskcard_changelist"),
            {"action": "export_csv", "_selected_action": [content["tasks"][0].pk]},
        )
        assert response.content.decode().splitlines() == [
            "key,answers,text_en,text_da,text_sv,text_nb,text_fi,text_fr,retired",
            "task-0,1,Task 0,Opgave 0,Task 0 (sv),Task 0 (nb),Task 0 (fi),Task 0 (fr),0",
        ]

    def test_import_page(self, admin_client):
        url = reverse("admin:think_alike_taskcard_import")
        assert admin_client.get(url).status_code == 200
        header = b"key,answers,text_en,text_da,text_sv,text_nb,text_fi,text_fr\n"
        bad = SimpleUploadedFile("t.csv", header + b"ok,1,Fine,Fin,a,b,c,d\nno,99,x,y,a,b,c,d\n")
        page = admin_client.post(url, {"file": bad}).content.decode()
        assert "Nothing was imported" in page and "row 2 (no)" in page and not TaskCard.objects.exists()
        good = SimpleUploadedFile("t.json", json.dumps([{"key": "ok", **texts("Fine", "Fin")}]).encode())
        response = admin_client.post(url, {"file": good}, follow=True)
        assert "1 added, 0 updated, 0 unchanged" in response.content.decode()
        assert TaskCard.objects.get().key == "ok"

    def test_a_card_is_edited_in_six_languages(self, admin_client):
        content = small_content(tasks=2)
        card = content["tasks"][0]
        url = reverse("admin:think_alike_taskcard_change", args=[card.pk])
        page = admin_client.get(url).content.decode()
        for column in TEXT_COLUMNS:
            assert f'name="{column}"' in page
        assert "Text (Finnish)" in page and "Text (French)" in page
        form = {"key": card.key, "answers": 2, "is_retired": "", **texts("Two round things", "To runde ting")}
        form |= {"text_sv": "Två runda saker", "text_nb": "To runde ting", "text_fi": "Kaksi pyöreää asiaa"}
        form |= {"text_fr": "Deux choses rondes"}
        response = admin_client.post(url, form)
        assert response.status_code == 302, response.content.decode()
        card.refresh_from_db()
        assert (card.answers, card.text("fi"), card.text("fr")) == (2, "Kaksi pyöreää asiaa", "Deux choses rondes")
        page = admin_client.post(url, {**form, "text_fi": "Pyöreitä asioita"}).content.decode()
        assert "text_fi does not say how many answers the card asks for (2)." in page
        TaskCard.objects.create(key="other", **{**texts("Two others", "To andre"), "text_sv": "Två andra saker"})
        page = admin_client.post(url, {**form, "text_sv": "två andra saker!"}).content.decode()
        assert "text_sv is the same as other&#x27;s." in page
        page = admin_client.post(url, {**form, "text_nb": ""}).content.decode()
        assert "This field is required." in page
        card.refresh_from_db()
        assert card.text("sv") == "Två runda saker"

    def test_the_list_shows_the_admins_language(self, admin_client):
        small_content(tasks=2)
        TaskCard.objects.filter(key="task-1").update(text_nb="")
        with translation.override("fi"):
            page = admin_client.get(reverse("admin:think_alike_taskcard_changelist"), HTTP_ACCEPT_LANGUAGE="fi")
        page = page.content.decode()
        assert "Task 0 (fi)" in page and "Task 0 (sv)" not in page
        assert "nb" in page  # task-1 lacks Norwegian


def _flat(item: dict) -> dict:
    """A row in the built-in files' shape, as an import reads it."""
    from think_alike.services.content import _flatten

    return _flatten(item)
