from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BotsConfig(AppConfig):
    name = "bots"
    verbose_name = _("Bots")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import scheduling  # noqa: F401  (connects to the games' signals)
