from celery import shared_task
from django.utils import timezone

from .services import outbox_sweep


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> int:
    """Beat, every FABULA_OUTBOX_SWEEP_SECONDS: the queued tasks the broker did not take after their commit."""
    return outbox_sweep(now=timezone.now())
