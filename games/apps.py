from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from infrastructure import ids

        from . import away, personal_data  # noqa: F401  (connect to the accounts' signals)

        ids.register()  # <id:...> in every URLconf, loaded after this
