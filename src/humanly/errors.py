"""The one exception type for bad input.

Every reader and every analysis raises :class:`InputError` for input a person can fix. Its message is a
single line that names the file, row, column or value at fault and says what to do about it; the command
line prints that line to stderr and exits with status 2 (no traceback, no output file).

A message names parameters through :func:`setting`, so the parameter is data, not text: Python callers
read ``missing='drop'``, and the command line writes the same part as the flag its user types
(``--missing drop``) without rewriting the rest of the sentence — values from the user's data are never
touched.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["InputError", "Setting", "plain", "setting"]

# A setting travels inside message text between these private-use characters, so an f-string can hold
# it: U+E000 name U+E001 kind value U+E002, kind "-" (the parameter alone), "s" (a text value) or "v".
_OPEN, _SEP, _CLOSE = "\ue000", "\ue001", "\ue002"
_MARKED = re.compile("\ue000([^\ue000-\ue002]*)\ue001([-sv])([^\ue000-\ue002]*)\ue002")
_UNSET = object()


@dataclass(frozen=True)
class Setting:
    """A parameter named by a message, and the value it is or should be set to.

    Parameters
    ----------
    name : str
        The Python parameter name (``missing``).
    value : str or None
        The value as text (``drop``, ``1.5``, ``False``); None names the parameter alone.
    text : bool
        Whether the value is a string (Python spells it as ``repr`` does: ``missing='drop'``).

    Examples
    --------
    >>> Setting("missing", "drop", text=True).python()
    "missing='drop'"
    >>> Setting("item_col").python()
    'item_col='
    """

    name: str
    value: str | None = None
    text: bool = False

    def python(self) -> str:
        """How a Python caller writes it: ``name='value'``, ``name=1.5`` or ``name=``.

        Returns
        -------
        str
            The parameter as Python code sets it.

        Examples
        --------
        >>> Setting("level", "1.5").python()
        'level=1.5'
        """
        if self.value is None:
            return f"{self.name}="
        return f"{self.name}={self.value!r}" if self.text else f"{self.name}={self.value}"


def setting(name: str, value: object = _UNSET, *, raw: bool = False) -> str:
    """Name the parameter ``name`` (set to ``value``) inside an :class:`InputError` message.

    Parameters
    ----------
    name : str
        The Python parameter name.
    value : object, optional
        The value it is, or should be, set to; omitted to name the parameter alone.
    raw : bool, default False
        ``value`` is text already written as Python shows it (``'abc'``, ``[1, 2]``): keep it as it is.

    Returns
    -------
    str
        Text to place in the message (an f-string field); :class:`InputError` turns it back into a
        :class:`Setting`.

    Examples
    --------
    >>> str(InputError(f"3 items have no ratings; pass {setting('missing', 'drop')}"))
    "3 items have no ratings; pass missing='drop'"
    >>> str(InputError(f"{setting('level', 1.5)}: give a probability"))
    'level=1.5: give a probability'
    """
    if value is _UNSET:
        return _marked(Setting(name))
    if isinstance(value, str) and not raw:
        return _marked(Setting(name, value, text=True))
    item = getattr(value, "item", None)  # a numpy scalar is written as its Python value
    shown = item() if callable(item) and getattr(value, "ndim", None) == 0 else value
    return _marked(Setting(name, str(shown)))


def plain(message: str) -> str:
    """A message that may name parameters (:func:`setting`) as Python callers read it, for text kept
    beside a result rather than raised.

    Parameters
    ----------
    message : str
        The message, with parameters marked by :func:`setting`.

    Returns
    -------
    str
        The message with each parameter written as ``name=value`` (strings quoted as Python does).

    Examples
    --------
    >>> plain(f"{setting('strata', 'topic')}: a column")
    "strata='topic': a column"
    """
    return InputError(message).args[0]


def _parts(message: str) -> tuple[str | Setting, ...]:
    out: list[str | Setting] = []
    at = 0
    for m in _MARKED.finditer(message):
        if m.start() > at:
            out.append(message[at : m.start()])
        kind, value = m.group(2), m.group(3)
        out.append(Setting(m.group(1), None if kind == "-" else value, text=kind == "s"))
        at = m.end()
    if at < len(message):
        out.append(message[at:])
    return tuple(out)


def _one_line(text: str) -> str:
    return " ".join(text.split())


class InputError(ValueError):
    r"""Bad input: the message names what is wrong and how to fix it, in one line.

    Subclasses :class:`ValueError`, so code that already catches ``ValueError`` keeps working.

    Parameters
    ----------
    message : str
        What is wrong and what to do; line breaks are folded into spaces. Parameters are named with
        :func:`setting`.

    Attributes
    ----------
    parts : tuple of str and Setting
        The message as text and the parameters it names, in order.

    Examples
    --------
    >>> InputError("level=1.5: give a probability\nbetween 0 and 1").args[0]
    'level=1.5: give a probability between 0 and 1'
    >>> exc = InputError(f"pass {setting('missing', 'drop')} to drop them")
    >>> [s.name for s in exc.settings]
    ['missing']
    >>> exc.render(lambda s: f"--{s.name} {s.value}")
    'pass --missing drop to drop them'
    """

    def __init__(self, message: str) -> None:
        self.parts = _parts(str(message))
        # Keep it to one line: newlines would break the CLI's one-line contract.
        super().__init__(self.render(lambda s: None))

    @property
    def settings(self) -> tuple[Setting, ...]:
        """The parameters the message names, in order."""
        return tuple(p for p in self.parts if isinstance(p, Setting))

    def render(self, spell: Callable[[Setting], str | None]) -> str:
        """The message with each parameter written by ``spell`` (its Python spelling where ``spell``
        returns None), as one line.

        Parameters
        ----------
        spell : callable
            Takes a :class:`Setting`, returns how to write it (or None).

        Returns
        -------
        str
            The message.

        Examples
        --------
        >>> InputError(f"pass {setting('force', True)}").render(lambda s: "--force")
        'pass --force'
        """
        text = "".join(p if isinstance(p, str) else (spell(p) or p.python()) for p in self.parts)
        return _one_line(text)

    def __format__(self, spec: str) -> str:
        # an f-string that wraps this error in another keeps its settings (the markers are parsed again
        # by the outer InputError); str() gives the Python spelling
        return format(str(self), spec) if spec else self._marked_text()

    def __reduce__(self) -> tuple[type[InputError], tuple[str]]:
        # pickled (e.g. to a worker and back) with its settings
        return (type(self), (self._marked_text(),))

    def _marked_text(self) -> str:
        """The message with its settings marked, as :func:`setting` writes them."""
        return "".join(p if isinstance(p, str) else _marked(p) for p in self.parts)


def _marked(s: Setting) -> str:
    """A setting as it travels inside message text (see :func:`setting`)."""
    if s.value is None:
        return f"{_OPEN}{s.name}{_SEP}-{_CLOSE}"
    return f"{_OPEN}{s.name}{_SEP}{'s' if s.text else 'v'}{s.value}{_CLOSE}"
