from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("", views.notification_list, name="list"),
    path("read/", views.read_all, name="read_all"),
    path("bell/", views.bell, name="bell"),
    path("<int:notification_id>/", views.notification_open_view, name="open"),
    path("emails/", views.email_settings, name="settings"),
    path("unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
