"""The typer application object and the conventions every command follows.

* Bad input raises :class:`~humanly.data.errors.InputError` anywhere below a command; the group turns it
  into one line on stderr (``humanly: error: ...``) and exit status 2 — no traceback, no output file.
* ``--json`` prints exactly one JSON object on stdout; everything else (progress, notes) goes to stderr.
"""

from __future__ import annotations

from typing import Any

import typer
from typer.core import TyperGroup

from ..data.errors import InputError

__all__ = ["HumanlyGroup", "new_typer"]


class HumanlyGroup(TyperGroup):
    """Command group that turns :class:`InputError` into one line on stderr and exit status 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            typer.echo(f"humanly: error: {exc}", err=True)
            raise typer.Exit(code=2) from None


def new_typer(**kwargs: Any) -> typer.Typer:
    """A :class:`typer.Typer` with humanly's defaults (no rich tracebacks, errors as one line)."""
    kwargs.setdefault("cls", HumanlyGroup)
    kwargs.setdefault("no_args_is_help", True)
    kwargs.setdefault("add_completion", False)
    kwargs.setdefault("pretty_exceptions_enable", False)
    kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
    return typer.Typer(**kwargs)
