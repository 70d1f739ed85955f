"""The one exception type for bad input.

Every reader and every analysis raises :class:`InputError` for input a person can fix. Its message is a
single line that names the file, row, column or value at fault and says what to do about it; the command
line prints that line to stderr and exits with status 2 (no traceback, no output file).
"""

from __future__ import annotations

__all__ = ["InputError"]


class InputError(ValueError):
    r"""Bad input: the message names what is wrong and how to fix it, in one line.

    Subclasses :class:`ValueError`, so code that already catches ``ValueError`` keeps working.

    Parameters
    ----------
    message : str
        What is wrong and what to do; line breaks are folded into spaces.

    Examples
    --------
    >>> InputError("level=1.5: give a probability\nbetween 0 and 1").args[0]
    'level=1.5: give a probability between 0 and 1'
    """

    def __init__(self, message: str) -> None:
        # Keep it to one line: newlines would break the CLI's one-line contract.
        super().__init__(" ".join(str(message).split()))
