from celery import shared_task
from django.utils import timezone

from .emails import emails_send_due


@shared_task(name="notifications.send_due_emails", ignore_result=True)
def send_due_emails() -> int:
    """Beat: the turn emails and reminders that are due (see ``notifications.emails``)."""
    return emails_send_due(now=timezone.now())
