"""The site's URLs and one view that fails, for the 500 page's tests."""

from django.urls import path

from config.urls import handler500
from config.urls import urlpatterns as site_urlpatterns


def fails(request):
    raise RuntimeError("a bug")


urlpatterns = [path("fails/", fails), *site_urlpatterns]
__all__ = ["handler500", "urlpatterns"]
