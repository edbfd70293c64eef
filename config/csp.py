"""django-csp's middleware, with the policy of a JSON answer (the API's) built once per process.

django-csp builds a response's policies (the enforced one and the report-only one) from the settings
for every response, about 1.5% of an API action's CPU. A JSON answer has no inline script or style for a
nonce to let in, and no view of this project gives one a policy of its own (django-csp's decorators are
used nowhere): its headers are the same every time. So a JSON answer whose request used no nonce gets
the headers django-csp's ``build_policy`` built once from the settings (kept until a CSP setting changes,
as tests change them), honouring ``EXCLUDE_URL_PREFIXES`` and a header the view set itself; every other
answer is django-csp's own middleware's, called as any middleware is. Only django-csp's public parts:
the middleware, ``csp.utils.build_policy`` and ``request.csp_nonce`` (false until a nonce is asked for).
"""

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CSPMiddleware as DjangoCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# (header, its policy for a JSON answer, the path prefixes it is not sent for), for each header sent
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


class CSPMiddleware:
    """django-csp's ``CSPMiddleware`` for every answer but a JSON one that used no nonce (see above)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.csp = DjangoCSPMiddleware(get_response)

    def __call__(self, request):
        self.csp.process_request(request)
        response = self.get_response(request)
        kind = response.get("Content-Type", "").partition(";")[0].strip().lower()
        if request.csp_nonce or kind != "application/json":
            return self.csp.process_response(request, response)
        if settings.DEBUG and response.status_code in (404, 500):  # Django's debug answers, as django-csp
            return response
        for header, policy, excluded in _kept():
            if header and header not in response and not request.path_info.startswith(excluded):
                response[header] = policy
        return response
