"""accounts.0004: players whose names look alike are told apart before the database keeps names unique."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("accounts", "0003_name_key_deleted_at")


def migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor


@pytest.mark.django_db(transaction=True)
def test_look_alike_names_get_a_number_in_order_of_sign_up():
    executor = migrate([BEFORE])
    try:
        User = executor.loader.project_state([BEFORE]).apps.get_model("accounts", "User")
        made = {}
        for username, display_name in [
            ("anna", ""),  # the first: keeps the name
            ("x2", "Anna"),
            ("x3", "ＡＮＮＡ"),  # full-width
            ("x4", "\u0410nna"),  # a Cyrillic А
            ("bo", "Bo"),
            ("x5", "A" * 40),
            ("x6", "a" * 40),
        ]:
            made[username] = User.objects.create(username=username, display_name=display_name, password="!").pk
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    from accounts.models import User as Current

    names = {user.username: (user.display_name, user.name_key) for user in Current.objects.filter(pk__in=made.values())}
    assert names["anna"] == ("", "anna")
    assert names["x2"][0] == "Anna 2"
    assert names["x3"][0] == "ＡＮＮＡ 3"
    assert names["x4"][0] == "\u0410nna 4"
    assert names["bo"][0] == "Bo"
    assert names["x6"][0] == "a" * 38 + " 2" and len(names["x6"][0]) == 40
    assert len({key for _name, key in names.values()}) == len(names)
