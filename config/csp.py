"""django-csp's middleware, with the policies of a plain response built once per process.

django-csp builds both of a response's policies, the enforced one and the report-only one,
from the settings for every response: about a tenth of the CPU of a board fragment served
from the cache. A response that used no nonce and has no policy of its own (no
``@csp_update``, ``@csp_replace`` or ``@csp_override``) gets the same headers every time,
so they are built once, by django-csp's own ``build_policy``, and kept until a CSP
setting changes (tests override them). Any other response is django-csp's to answer.
"""

from csp.constants import HEADER, HEADER_REPORT_ONLY
from csp.middleware import CheckableLazyObject
from csp.middleware import CSPMiddleware as BaseCSPMiddleware
from csp.utils import build_policy
from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

# report_only -> (the policy of a plain response, the path prefixes it is not sent for)
_KEPT: dict[bool, tuple[str, tuple[str, ...]]] = {}

_OWN = ("_csp_config", "_csp_update", "_csp_replace", "_csp_config_ro", "_csp_update_ro", "_csp_replace_ro")


def _kept(report_only: bool) -> tuple[str, tuple[str, ...]]:
    if report_only not in _KEPT:
        policy = getattr(
            settings, "CONTENT_SECURITY_POLICY_REPORT_ONLY" if report_only else "CONTENT_SECURITY_POLICY", None
        )
        _KEPT[report_only] = (
            build_policy(report_only=report_only),
            tuple((policy or {}).get("EXCLUDE_URL_PREFIXES") or ()),
        )
    return _KEPT[report_only]


@receiver(setting_changed)
def _forget(*, setting, **kwargs) -> None:
    if setting.startswith("CONTENT_SECURITY_POLICY"):
        _KEPT.clear()


class CSPMiddleware(BaseCSPMiddleware):
    def process_response(self, request, response):
        if getattr(request, "_csp_nonce", None) is not None or any(
            getattr(response, a, None) is not None for a in _OWN
        ):
            return super().process_response(request, response)
        if response.status_code in (404, 500) and settings.DEBUG:  # Django's debug pages, as django-csp
            return response
        for report_only, header in ((False, HEADER), (True, HEADER_REPORT_ONLY)):
            policy, excluded = _kept(report_only)
            exempt = getattr(response, "_csp_exempt_ro" if report_only else "_csp_exempt", False) is not False
            if policy and header not in response and not exempt and not request.path_info.startswith(excluded):
                response[header] = policy
        # As django-csp: a nonce asked for after this would not be in the header.
        request.csp_nonce = CheckableLazyObject(self._csp_nonce_post_response)
        return response
