"""Think Alike's content: the built-in files loaded once, imports all or nothing with a
reason per bad row, exports that import back unchanged, and the admin pages."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from games.tests.factories import UserFactory
from think_alike.models import BoardField, TaskCard
from think_alike.services.content import (
    FIELDS,
    TASKS,
    ContentImportError,
    content_export,
    content_import,
    content_rows_read,
)

from .content import small_content, think_alike_game

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
        assert "think alike tasks: 1 added, 309 already there" in capsys.readouterr().out


class TestImport:
    def test_json_in_the_builtin_shape_and_flat_csv(self):
        rows = content_rows_read(
            name="tasks.json",
            data=json.dumps([{"key": "sky", "answers": 2, "text": {"en": "Blue things", "da": "Blå ting"}}]).encode(),
        )
        assert content_import(content=TASKS, rows=rows).created == 1
        csv = "key,answers,text_en,text_da,retired\nsky,3,Blue things,Blå ting,1\nsea,1,Sea things,Ting i havet,\n"
        done = content_import(content=TASKS, rows=content_rows_read(name="more.CSV", data=csv.encode()))
        assert (done.created, done.updated, done.unchanged) == (1, 1, 0)
        sky = TaskCard.objects.get(key="sky")
        assert (sky.answers, sky.is_retired, sky.text_da) == (3, True, "Blå ting")
        assert TaskCard.objects.get(key="sea").is_retired is False

    def test_one_bad_row_and_nothing_is_imported_with_a_reason_per_row(self):
        TaskCard.objects.create(key="kept", text_en="Kept", text_da="Beholdt")
        csv = (
            "key,answers,text_en,text_da\n"
            "fine,1,Fine,Fin\n"
            "Bad Key,1,x,y\n"
            "no-text,1,,y\n"
            "too-many,11,x,y\n"
            "fine,1,Again,Igen\n"
            "kept,one,x,y\n"
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
            {"key": "start", "kind": "swap", "start": True, "text_en": "Start", "text_da": "Start"},
            {"key": "duel", "kind": "duel", "bonus": "4", "text_en": "Duel", "text_da": "Duel"},
            {"key": "sea", "kind": "association", "text_en": "Sea", "text_da": "Hav"},
        ]
        assert content_import(content=FIELDS, rows=rows).created == 3
        bad = [
            {"key": "duel-3", "kind": "duel", "bonus": 3, "text_en": "x", "text_da": "y"},
            {"key": "hint-bonus", "kind": "association", "bonus": 2, "text_en": "x", "text_da": "y"},
            {"key": "second-start", "kind": "swap", "start": "1", "text_en": "x", "text_da": "y"},
            {"key": "move-start", "kind": "move", "start": "yes", "text_en": "x", "text_da": "y"},
            {"key": "odd", "kind": "teleport", "text_en": "x", "text_da": "y"},
            {"key": "extra", "kind": "move", "text_en": "x", "text_da": "y", "colour": "red"},
        ]
        with pytest.raises(ContentImportError) as refused:
            content_import(content=FIELDS, rows=bad)
        assert len(refused.value.problems) == 5  # the second start is judged once the rows are fine
        with pytest.raises(ContentImportError) as refused:
            content_import(content=FIELDS, rows=[bad[2]])
        assert "already start" in refused.value.problems[0][1]
        unmake = {"key": "start", "kind": "swap", "start": False, "text_en": "Start", "text_da": "Start"}
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
            assert response.status_code == 302 and "/admin/login/" in response["Location"]

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
            "key,answers,text_en,text_da,retired",
            "task-0,1,Task 0,Opgave 0,0",
        ]

    def test_import_page(self, admin_client):
        url = reverse("admin:think_alike_taskcard_import")
        assert admin_client.get(url).status_code == 200
        bad = SimpleUploadedFile("t.csv", b"key,answers,text_en,text_da\nok,1,Fine,Fin\nno,99,x,y\n")
        page = admin_client.post(url, {"file": bad}).content.decode()
        assert "Nothing was imported" in page and "row 2 (no)" in page and not TaskCard.objects.exists()
        good = SimpleUploadedFile("t.json", json.dumps([{"key": "ok", "text_en": "Fine", "text_da": "Fin"}]).encode())
        response = admin_client.post(url, {"file": good}, follow=True)
        assert "1 added, 0 updated, 0 unchanged" in response.content.decode()
        assert TaskCard.objects.get().key == "ok"
