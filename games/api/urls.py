from django.urls import path, re_path

from .api import api, not_found

urlpatterns = [
    path("", api.urls),
    re_path(r"^(?P<rest>.*)$", not_found),
]
