"""Errors raised by the pure rules engines."""


class RuleError(Exception):
    """An action the rules do not allow now.

    ``code`` is a stable slug for clients (the API returns it); ``message`` is an
    English sentence for a person. Services translate by code where needed.
    """

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
