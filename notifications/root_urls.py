"""At the site's root (config/urls.py): a service worker's scope is the folder it is served from."""

from django.urls import path

from . import views

urlpatterns = [
    path("sw.js", views.service_worker, name="service_worker"),
    path("manifest.webmanifest", views.manifest, name="web_manifest"),
]
