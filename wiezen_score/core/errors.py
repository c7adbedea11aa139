"""The one exception type of the domain: a user error with a message a player understands."""

from __future__ import annotations


class WiezenError(Exception):
    """A user error (bad deal, unknown player, broken house rules ...).

    The command line turns it into one ``Error:`` line and exit status 1.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message
