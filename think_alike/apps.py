from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ThinkAlikeConfig(AppConfig):
    name = "think_alike"
    verbose_name = _("Think Alike")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kinds

        from .kind import KIND

        kinds.register(KIND)
