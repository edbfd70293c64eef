from django.core.management.base import BaseCommand

from notifications.push import vapid_keys_generate


class Command(BaseCommand):
    help = 'Print a fresh VAPID key pair for Web Push, as environment lines (README, "Push notifications").'

    def handle(self, *args, **options) -> None:
        public, private = vapid_keys_generate()
        self.stdout.write(f"FABULA_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"FABULA_VAPID_PRIVATE_KEY={private}")
        self.stdout.write("FABULA_VAPID_SUBJECT=mailto:you@example.org")
