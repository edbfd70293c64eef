"""Every time on the pages in the viewer's own time zone (issue 38): Django's documented way, ``timezone.activate``
per request (https://docs.djangoproject.com/en/5.2/topics/i18n/timezones/#selecting-the-current-time-zone)."""

from django.utils import timezone

from . import clock


class TimeZoneMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            timezone.activate(clock.zone(user.time_zone))
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
