"""Hostile input against a really started site: the checks that ``bench/fault.py --hostile`` replays.

Each module of this package holds the checks of one area (``requests``, ``media``, ``push``,
``accounts``, ...) in a list ``CHECKS``. A check is a function ``check(site: Site) -> str``: it
attacks the running site through HTTP (and sockets) only, as an outsider would, and returns what
it saw when the site held (a short line for the report), or raises ``Fell("what happened")``
when it did not. Any other exception is reported as an error of the check itself.

The site is the embedded default started as ``bin/run`` starts it (web server, Celery worker and
beat, in a throw-away ``FABULA_VAR_DIR``), unless ``--base`` names one already running.
"""

from __future__ import annotations

import itertools
import os
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx


class Fell(Exception):
    """The site did not hold: the message says what happened."""


@dataclass
class Account:
    username: str
    password: str
    token: str
    api: httpx.Client  # sends ``Authorization: Bearer <token>``; base_url is the site's /api/v1


@dataclass
class Site:
    base: str  # http://127.0.0.1:PORT, no trailing slash
    var_dir: Path | None = None  # the site's FABULA_VAR_DIR when this script started it
    _accounts: list[Account] = field(default_factory=list)
    _counter: itertools.count = field(default_factory=lambda: itertools.count(1))

    @property
    def host_port(self) -> tuple[str, int]:
        url = httpx.URL(self.base)
        return url.host, url.port or 80

    def client(self, **kwargs) -> httpx.Client:
        """A plain client of the site (no account)."""
        return httpx.Client(base_url=self.base, timeout=kwargs.pop("timeout", 10), **kwargs)

    def account(self) -> Account:
        """A new account, signed up and holding an API token, through the public API."""
        number = next(self._counter)
        username = f"hostile{os.getpid()}x{number}{secrets.token_hex(2)}"
        password = secrets.token_urlsafe(16)
        with self.client() as plain:
            signup = {"username": username, "email": f"{username}@example.com", "password": password}
            answer = self._post_waiting(plain, "/api/v1/accounts", signup)
            if answer.status_code != 201:
                raise RuntimeError(f"sign-up failed: {answer.status_code} {answer.text[:200]}")
            answer = self._post_waiting(plain, "/api/v1/tokens", {"username": username, "password": password})
            if answer.status_code != 201:
                raise RuntimeError(f"token failed: {answer.status_code} {answer.text[:200]}")
            token = answer.json()["token"]
        api = httpx.Client(base_url=self.base + "/api/v1", headers={"Authorization": f"Bearer {token}"}, timeout=10)
        account = Account(username, password, token, api)
        self._accounts.append(account)
        return account

    @staticmethod
    def _post_waiting(client: httpx.Client, path: str, body: dict, tries: int = 4) -> httpx.Response:
        """POST, waiting out the site's sign-up and token rates (429 with Retry-After) as a patient client
        would: every area's checks together sign up more accounts than one address may in a minute."""
        for _ in range(tries):
            answer = client.post(path, json=body)
            if answer.status_code != 429:
                return answer
            time.sleep(min(float(answer.headers.get("Retry-After", "10")), 65.0))
        return answer

    def browser(self, account: Account) -> httpx.Client:
        """A client signed in through the log-in page, as a browser is: session cookie and CSRF token kept
        (``client.headers["X-CSRFToken"]`` is set for the pages' POSTs)."""
        client = self.client(follow_redirects=False)
        page = client.get("/accounts/login/")
        csrf = client.cookies.get("csrftoken", "")
        answer = client.post(
            "/accounts/login/",
            data={"username": account.username, "password": account.password, "csrfmiddlewaretoken": csrf},
            headers={"Referer": self.base + "/accounts/login/"},
        )
        if answer.status_code not in (302, 303):
            raise RuntimeError(f"log-in failed: {answer.status_code} (page {page.status_code})")
        client.headers["X-CSRFToken"] = client.cookies.get("csrftoken", csrf)
        client.headers["Referer"] = self.base + "/"
        return client

    def close(self) -> None:
        for account in self._accounts:
            account.api.close()


def all_checks():
    """Every area's checks, in a fixed order: (area, check)."""
    import importlib
    import pkgutil

    package = Path(__file__).parent
    for module in sorted(info.name for info in pkgutil.iter_modules([str(package)])):
        checks = getattr(importlib.import_module(f"{__name__}.{module}"), "CHECKS", [])
        for check in checks:
            yield module, check
