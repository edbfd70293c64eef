import json
import os
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from notifications.push import vapid_keys_generate


class Command(BaseCommand):
    help = (
        "Print a fresh VAPID key pair for Web Push, as environment lines; with --ensure, make the pair "
        "in the data folder (FABULA_VAPID_KEYS_FILE) unless there is one, or the environment gives one."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--ensure",
            action="store_true",
            help="bin/run's first start: keep a pair in the data folder, made once (the settings read it "
            "when the environment gives no keys).",
        )

    def handle(self, *args, ensure: bool = False, **options) -> None:
        if not ensure:
            public, private = vapid_keys_generate()
            self.stdout.write(f"FABULA_VAPID_PUBLIC_KEY={public}")
            self.stdout.write(f"FABULA_VAPID_PRIVATE_KEY={private}")
            self.stdout.write("FABULA_VAPID_SUBJECT=mailto:you@example.org")
            return
        path = Path(settings.FABULA_VAPID_KEYS_FILE)
        if path.exists():
            self.stdout.write(f"Web Push keys: {path} (kept)")
            return
        if settings.FABULA_VAPID_PUBLIC_KEY or settings.FABULA_VAPID_PRIVATE_KEY:  # with no file: the environment's
            self.stdout.write("Web Push keys: from the environment (nothing written)")
            return
        public, private = vapid_keys_generate()
        path.parent.mkdir(parents=True, exist_ok=True)
        # Written whole under another name, readable by this user only, then put in place in one step.
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".vapid-", suffix=".tmp")
        try:
            with os.fdopen(handle, "w") as file:
                json.dump({"public_key": public, "private_key": private}, file)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
        self.stdout.write(f"Web Push keys: made {path}")
