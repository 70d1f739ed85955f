"""The typer application object and the conventions every command follows.

* Bad input raises :class:`~humanly.data.errors.InputError` anywhere below a command; the group turns it
  into one line on stderr (``humanly: error: ...``) and exit status 2 — no traceback, no output file.
* Library messages name Python parameters (``missing="drop"``, ``item_col=``) because the same checks
  serve Python callers; :func:`to_flags` rewrites them as the flags a command-line user types
  (``--missing drop``, ``--item-col``) in this one place.
* ``--json`` prints exactly one JSON object on stdout; everything else (progress, notes) goes to stderr.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import typer
from typer.core import TyperGroup

from ..data.errors import InputError

__all__ = ["PYTHON_TO_FLAG", "HumanlyGroup", "new_typer", "to_flags"]

#: Python parameter names of the library that the command line spells differently (the rest are
#: found on the commands themselves: ``item_col`` → ``--item-col``).
PYTHON_TO_FLAG: dict[str, str] = {
    "total_col": "--total",
    "n_draws": "--draws",
    "rater_cols": "--rater-cols",
    "q_b": "--qb",
    "q_w": "--qw",
    "p_w": "--pw",
    "p_b0": "--pb0",
    "p_b1": "--pb1",
    "n_values": "--n",
    "m_values": "--m",
    "upper_kind": "--upper",
}

# name=value where value is "text", 'text' or a bare token; a name is a Python identifier not preceded
# by a word character, a dash or a dot (so "U_N=0.9" inside a formula is left alone unless U_N were a
# parameter, and "--item-col" is never touched)
_ASSIGN = re.compile(
    r"(?<![\w.\-])(?P<name>[a-z][a-z0-9_]*)=(?:\"(?P<dq>[^\"]*)\"|'(?P<sq>[^']*)'|(?P<bare>[^\s,;]*))"
)


def _parameters(command: Any) -> Iterator[Any]:
    """Every parameter of a command and its sub-commands (click objects, read by duck typing: typer
    ships its own copy of click)."""
    yield from getattr(command, "params", ())
    for sub in getattr(command, "commands", {}).values():
        yield from _parameters(sub)


def _flag_table(root: Any) -> dict[str, tuple[str, bool]]:
    """Python name → (how a command-line user writes it, whether it is a flag without a value)."""
    table: dict[str, tuple[str, bool]] = {}
    if root is not None:
        for p in _parameters(root):
            if p.name is None or p.name in table:
                continue
            if p.param_type_name == "option":
                longs = [o for o in p.opts if o.startswith("--")] or list(p.opts)
                table[p.name] = (longs[0], bool(p.is_flag))
    for name, flag in PYTHON_TO_FLAG.items():
        table.setdefault(name, (flag, False))
    return table


def to_flags(message: str, root: Any) -> str:
    """``message`` with each ``name=value`` of a known parameter written as the command line's
    ``--flag value`` (``--flag`` alone for on/off flags).

    >>> to_flags('3 items have no ratings; pass missing="drop"', None)
    '3 items have no ratings; pass missing="drop"'
    """
    table = _flag_table(root)

    def swap(m: re.Match[str]) -> str:
        known = table.get(m.group("name"))
        if known is None:
            return m.group(0)
        flag, is_flag = known
        value = next(
            (v for v in (m.group("dq"), m.group("sq"), m.group("bare")) if v is not None), ""
        )
        if is_flag:
            return flag
        return f"{flag} {value}" if value else flag

    return _ASSIGN.sub(swap, message)


class HumanlyGroup(TyperGroup):
    """Command group that turns :class:`InputError` into one line on stderr and exit status 2."""

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except InputError as exc:
            root = ctx.find_root().command
            typer.echo(f"humanly: error: {to_flags(str(exc), root)}", err=True)
            raise typer.Exit(code=2) from None


def new_typer(**kwargs: Any) -> typer.Typer:
    """A :class:`typer.Typer` with humanly's defaults (no rich tracebacks, errors as one line)."""
    kwargs.setdefault("cls", HumanlyGroup)
    kwargs.setdefault("no_args_is_help", True)
    kwargs.setdefault("add_completion", False)
    kwargs.setdefault("pretty_exceptions_enable", False)
    kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
    return typer.Typer(**kwargs)
