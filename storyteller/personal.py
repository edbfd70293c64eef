"""What Storyteller keeps about a person: their drawn and sung clues, in their data export (the files
themselves) and gone with their account (``accounts.signals``).

A deleted account's uploads go, rows and files (after commit): a recording is a voice, and
nobody keeps it once its owner has left. The clues that named them keep their words.
"""

import base64

from django.dispatch import receiver

from accounts.signals import account_deleting, personal_data

from .models import ClueMedia
from .services.media import clue_media_delete


@receiver(personal_data, dispatch_uid="storyteller.personal_data")
def storyteller_personal_data(sender, *, user, **kwargs) -> dict:
    """The person's uploads, each with its file's bytes (base64: the export is one JSON file)."""
    uploads = []
    for media in ClueMedia.objects.filter(seat__user=user).order_by("created_at", "pk"):
        with media.file.open("rb") as file:
            data = file.read()
        uploads.append(
            {
                "game": media.game_id,
                "kind": media.kind,
                "content_type": media.content_type,
                "size": media.size,
                "duration": media.duration,
                "uploaded_at": media.created_at.isoformat(),
                "file_base64": base64.b64encode(data).decode("ascii"),
            }
        )
    return {"clue_media": uploads}


@receiver(account_deleting, dispatch_uid="storyteller.account_deleting")
def storyteller_let_go(sender, *, user, **kwargs) -> None:
    clue_media_delete(queryset=ClueMedia.objects.filter(seat__user=user))
