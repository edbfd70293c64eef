import os

from infrastructure import memtrace

memtrace.start_from_environment("web")  # FABULA_TRACEMALLOC only (bench/soak.py --tracemalloc)

import django  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application() does

from django.conf import settings  # noqa: E402

from infrastructure.undocumented.asgi_handler import PooledThreadsASGIHandler  # noqa: E402

django_asgi_app = PooledThreadsASGIHandler(threads=settings.FABULA_WEB_THREADS)

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from games.routing import websocket_urlpatterns  # noqa: E402
from infrastructure.origins import SocketOrigins  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": django_asgi_app,
        # Only pages of the site's own origin (scheme, host and port) or a listed one: infrastructure/origins.py.
        "websocket": SocketOrigins(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

from infrastructure.warm import ready_and_freeze  # noqa: E402

ready_and_freeze()
