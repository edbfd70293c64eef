"""Errors the API's own handlers raise (the services raise ``GameError``)."""

from .schemas import Error


class ApiError(Exception):
    def __init__(self, status: int, code: str, message, **extra):
        super().__init__(str(message))
        self.status = status
        self.code = code
        self.message = message
        self.extra = extra


def errors(*statuses: int) -> dict:
    """The error answers an operation documents; every one may answer 503 (busy: ``games.busy``)."""
    return dict.fromkeys((*statuses, 503), Error)
