"""The media door: uploaded files that are not for everyone go out only through views that first check who asks.

``MEDIA_ROOT`` is not served by path. A kind's view finds the file for the viewer (its own selector:
who may see it, and when) and answers with ``media_response``; anyone else gets 404 from that view.
Drawn and sung clues go out this way, and so will players' own card pictures.

- The stored name is never given away (no ``Content-Disposition`` naming it) and is not a credential:
  the URL a viewer gets names the row, and the row is checked for that viewer on every request.
- The answer is ``Cache-Control: private`` (a shared cache must not keep it for someone else).
- Files kept on this machine (``FileSystemStorage``) are streamed; files kept elsewhere (S3 through
  django-storages, whose ``storage.path`` raises ``NotImplementedError``) are answered with a redirect
  to the storage's signed URL, short-lived (``querystring_expire`` of the ``protected`` storage).
"""

from django.core.files.storage import storages
from django.db.models.fields.files import FieldFile
from django.http import FileResponse, Http404, HttpResponse, HttpResponseRedirect

from accounts.services import token_authenticate

# The storage alias (settings.STORAGES) of files served only through the door.
PROTECTED_STORAGE = "protected"


def protected_storage():
    """The storage of files served only through the door (a model field's ``storage``: a callable, so that
    the migrations do not hold the settings)."""
    return storages[PROTECTED_STORAGE]


def media_viewer(request):
    """Who asks for a file: the page's session, or else an API client's bearer token (anonymous otherwise)."""
    user = request.user
    header = request.headers.get("Authorization", "")
    if not user.is_authenticated and header.startswith("Bearer "):
        token = token_authenticate(raw=header.removeprefix("Bearer ").strip())
        user = token.user if token is not None else user
    return user


def media_response(*, file: FieldFile, content_type: str, download_name: str, max_age: int = 3600) -> HttpResponse:
    """The answer that gives ``file`` to a viewer already checked: streamed, or a redirect to a signed URL.

    ``download_name`` is what a browser offers to save it as (say "clue.png"): never the stored name.
    """
    storage = file.storage
    try:
        storage.path(file.name)
    except NotImplementedError:  # kept elsewhere: the storage signs a URL that works for a short while
        response: HttpResponse = HttpResponseRedirect(storage.url(file.name))
        # The signed URL expires: the redirect itself is kept by nobody.
        response["Cache-Control"] = "private, no-store"
        return response
    try:
        handle = file.open("rb")
    except FileNotFoundError:  # a row whose file is gone (deleted by hand, a restore without files)
        raise Http404("no such file") from None
    response = FileResponse(handle, content_type=content_type, filename=download_name)
    response["Cache-Control"] = f"private, max-age={max_age}"
    response["X-Content-Type-Options"] = "nosniff"
    response["Content-Security-Policy"] = "default-src 'none'; sandbox"
    return response
