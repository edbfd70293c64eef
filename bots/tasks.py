"""The bots' Celery task: one bot's turn, a moment after it came (``bots.scheduling``)."""

from celery import shared_task

from .services import bot_turn_play


@shared_task(name="bots.play_turn", ignore_result=True)
def play_turn(*, game_id: int, user_id: int, phase_key: list) -> bool:
    return bot_turn_play(game_id=game_id, user_id=user_id, phase_key=phase_key)
