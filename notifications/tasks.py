from celery import shared_task
from django.utils import timezone

from .emails import emails_send_due
from .invitations import rematch_invitations_send
from .letters import letters_send_due
from .notices import notices_send_due
from .push import turn_pushes_send


@shared_task(name="notifications.send_due_emails", ignore_result=True)
def send_due_emails() -> int:
    """Beat: the turn emails and reminders that are due (see ``notifications.emails``)."""
    return emails_send_due(now=timezone.now())


@shared_task(name="notifications.send_turn_pushes", ignore_result=True)
def send_turn_pushes(*, game_id: int, phase_key: str, seat_ids: list[int]) -> int:
    """After a game asked these seats to act: "your turn" to their devices (``notifications.push``)."""
    return turn_pushes_send(game_id=game_id, phase_key=phase_key, seat_ids=seat_ids)


@shared_task(name="notifications.send_rematch_invitations", ignore_result=True)
def send_rematch_invitations(*, game_id: int, user_ids: list[int]) -> int:
    """After a rematch held seats for these players: the email (as each chose) and the push to their devices."""
    return rematch_invitations_send(game_id=game_id, user_ids=user_ids)


@shared_task(name="notifications.send_due_notices", ignore_result=True)
def send_due_notices() -> int:
    """Beat: turn pushes held by quiet hours, and the notices that are due (nudges...: ``notifications.notices``)."""
    return notices_send_due(now=timezone.now())


@shared_task(name="notifications.send_due_letters", ignore_result=True)
def send_due_letters() -> int:
    """Beat: the daily letters whose hour has come (``notifications.letters``)."""
    return letters_send_due(now=timezone.now())
