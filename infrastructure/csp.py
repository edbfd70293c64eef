"""django-csp's middleware, with the policies of an answer that asked for no nonce built once per process.

django-csp builds a response's policies (the enforced one and the report-only one) from the settings
for every response: about 33 us, some 1% of an action's CPU through the API or the pages. An answer
whose request never asked for ``request.csp_nonce`` (every JSON answer, most board fragments) gets the
same headers every time, unless its view set a policy of its own through django-csp's decorators, and
no view of this project does (a test holds the code to it: a view that wants one must make this
middleware hand its answers to django-csp). So such an answer gets the headers django-csp's
``build_policy`` built once from the settings (kept until a CSP setting changes, as tests change them),
honouring ``EXCLUDE_URL_PREFIXES`` and a header the view set itself; every other answer is django-csp's
own middleware's, called as any middleware is. As django-csp, a nonce asked for after the header was
written is refused (``CSPNonceError``). Only django-csp's documented parts: the middleware,
``csp.utils.build_policy``, ``request.csp_nonce`` (false until a nonce is asked for) and its exception.
"""

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.exceptions import CSPNonceError
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# (header, its policy for an answer without a nonce, the path prefixes it is not sent for), for each header sent
_KEPT: list[tuple[str, str, tuple[str, ...]]] = []


def _kept() -> list[tuple[str, str, tuple[str, ...]]]:
    if not _KEPT:
        kept = []
        for header, name, report_only in (
            (HEADER, "CONTENT_SECURITY_POLICY", False),
            (HEADER_REPORT_ONLY, "CONTENT_SECURITY_POLICY_REPORT_ONLY", True),
        ):
            excluded = tuple((getattr(settings, name, None) or {}).get("EXCLUDE_URL_PREFIXES") or ())
            if policy := build_policy(report_only=report_only):
                kept.append((header, policy, excluded))
        _KEPT[:] = kept or [("", "", ())]  # nothing to send: kept as one empty entry
    return _KEPT


@receiver(setting_changed)
def _forget(*, setting, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _KEPT.clear()


class NonceTooLate:
    """What ``request.csp_nonce`` is once the header was written without a nonce: false, as django-csp's nonce not
    asked for, and refused (``CSPNonceError``) when it is read as text, as django-csp's own after its header."""

    def __bool__(self) -> bool:
        return False

    def __str__(self) -> str:
        raise CSPNonceError(
            "The 'csp_nonce' attribute is not available after the CSP header has been written. "
            "Consider adjusting your MIDDLEWARE order."
        )

    __html__ = __str__  # a template asking for it


_TOO_LATE = NonceTooLate()


class CSPMiddleware:
    """django-csp's ``CSPMiddleware`` for every answer but one whose request asked for no nonce (see above)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.csp = DjangoCSPMiddleware(get_response)

    def __call__(self, request):
        self.csp.process_request(request)
        response = self.get_response(request)
        if request.csp_nonce:
            return self.csp.process_response(request, response)
        if settings.DEBUG and response.status_code in (404, 500):  # Django's debug answers, as django-csp
            return response
        for header, policy, excluded in _kept():
            if header and header not in response and not request.path_info.startswith(excluded):
                response[header] = policy
        request.csp_nonce = _TOO_LATE
        return response
