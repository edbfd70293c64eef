from django.db import models


class QueuedTask(models.Model):
    """A Celery task queued by a change, written in the change's transaction (``outbox.services.task_queue``).

    Sent to the broker right after the commit and deleted then; a row still here a while after it was made is
    one the broker did not take (down, or the process ended first): the sweep (``outbox.tasks.sweep``) sends it.
    """

    name = models.CharField(max_length=200)  # the task's registered name ("bots.play_turn")
    kwargs = models.JSONField(default=dict)
    eta_at = models.DateTimeField(null=True, blank=True)  # not to run before (a bot's human-like delay)
    created_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["created_at"], name="queuedtask_created_idx")]

    def __str__(self) -> str:
        return f"{self.name} {self.kwargs}"
