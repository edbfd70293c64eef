from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_login_failed

        from . import backends, throttle

        backends.connect()  # a user saved or deleted leaves the cache of signed-in users
        # An account's failed log-ins from every address together (axes counts each address apart).
        user_login_failed.connect(throttle.login_failed, dispatch_uid="accounts.login_failed")
