from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from config import ids

        from . import personal  # noqa: F401  (connects to the accounts' signals)

        ids.register()  # <id:...> in every URLconf, loaded after this
