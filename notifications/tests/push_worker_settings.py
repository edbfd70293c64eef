"""The site's settings for a push worker that a test starts: endpoints on 127.0.0.1 allowed (the
tests' push services live there), which no environment variable can turn on."""

from config.settings.base import *  # noqa: F401,F403

FABULA_PUSH_ALLOW_LOOPBACK = True
