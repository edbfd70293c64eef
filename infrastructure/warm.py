"""A web process made ready before it serves, and what it made kept out of the garbage collector's walks.

A server process builds most of its long-lived objects when it starts (modules, settings,
models, the URL resolver) and the rest on its first requests (each template compiled the
first time it is drawn, each language's catalogue the first time it is spoken). Python's
cyclic garbage collector walks every tracked object at each full collection: in the live
benchmark's server, some 230,000 objects, about 150 ms a walk, with a walk every few
hundred requests. That was about a tenth of the server's CPU, and a pause of that length
for whichever request met it (py-spy put it on whatever line happened to allocate).

``ready_and_freeze`` builds those objects up front (our apps' templates compiled, the URL
resolver filled, every language's catalogue loaded), collects what the start left over,
and then ``gc.freeze()``: the objects alive at that moment move to the collector's
permanent generation and are no longer walked. They are kept alive and freed as before
by their reference counts; only a cycle among them that became garbage later would not
be collected, and what is built at start (modules, compiled templates, catalogues) lives
as long as the process. Collections then walk only what requests make.

Templates are compiled by the loaders the site renders with (the cached loader keeps
them), so a template that does not compile fails the start, not a player's request.
"""

import gc
import sys
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.template import engines
from django.urls import get_resolver
from django.utils import translation


def _own_template_dirs(engine) -> list[Path]:
    """The template folders of the project and its own apps (not the installed packages')."""
    installed = {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
    own = [Path(d).resolve() for d in engine.dirs]
    for config in apps.get_app_configs():
        folder = Path(config.path).resolve() / "templates"
        if folder.is_dir() and not any(folder.is_relative_to(prefix) for prefix in installed):
            own.append(folder)
    return own


def compile_templates() -> int:
    """Compile every template of the project and its apps with the site's loaders; how many."""
    compiled = 0
    for engine in engines.all():
        for folder in _own_template_dirs(engine):
            for path in sorted(folder.rglob("*")):
                if path.is_file() and not path.name.startswith("."):
                    engine.get_template(path.relative_to(folder).as_posix())
                    compiled += 1
    return compiled


def load_languages() -> None:
    """Every language's catalogue, and the URL resolver (filled per language)."""
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            get_resolver().reverse_dict  # noqa: B018 (the property fills the resolver)


def ready_and_freeze() -> None:
    compile_templates()
    load_languages()
    gc.collect()
    gc.freeze()
