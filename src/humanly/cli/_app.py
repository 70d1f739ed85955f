"""The typer application object and the conventions every command follows.

* Bad input raises :class:`~humanly.errors.InputError` anywhere below a command, and a usage error
  (``--seed abc``) is raised by the parser; :meth:`HumanlyGroup.main` turns both into one line on stderr
  (``humanly: error: ...``) and exit status 2 — no traceback, no usage box, no output file.
* Library messages name parameters as data (:func:`humanly.errors.setting`): Python callers read
  ``missing="drop"``; :func:`spelling` writes the same part as the flag the running command has
  (``--missing drop``), and nothing else in the message is touched. A command's parameter carries the
  Python name of what it passes on (``n_items`` for ``--n-items``), so the table of flags is read off
  the commands.
* ``--json`` prints exactly one JSON object on stdout; everything else (progress, notes) goes to stderr.
* Help is plain text (:class:`HumanlyCommand`): what a user types is shown as written (``[model]`` is not
  rich markup), flags without a value show no type, and options are grouped by their help panel.

This module imports typer only: ``humanly --help`` loads no numpy, pandas or rich.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import typer
from typer.core import TyperCommand, TyperGroup

from ..errors import InputError, Setting
from ._console import clean

__all__ = ["PYTHON_TO_FLAG", "HumanlyCommand", "HumanlyGroup", "new_typer", "spelling"]

#: Python parameter names of the library that no command parameter carries (the rest are read off the
#: commands: the parameter ``n_items`` of ``--n-items`` gives ``n_items`` → ``--n-items``).
PYTHON_TO_FLAG: dict[str, str] = {
    "sampling_weights": "--weights",  # ReadOptions(sampling_weights=): humanly judge --weights
}

_NUMBER = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")


def _parameters(command: Any) -> Iterator[Any]:
    """Every parameter of a command and its sub-commands (read by duck typing: typer ships its own
    copy of click)."""
    yield from getattr(command, "params", ())
    for sub in (getattr(command, "commands", None) or {}).values():
        yield from _parameters(sub)


def _flag_table(root: Any) -> dict[str, tuple[str, bool]]:
    """Python name → (how a command-line user writes it, whether it is a flag without a value)."""
    table: dict[str, tuple[str, bool]] = {}
    if root is not None:
        for p in _parameters(root):
            if p.name is None or p.name in table or p.param_type_name != "option":
                continue
            longs = [o for o in p.opts if o.startswith("--")] or list(p.opts)
            table[p.name] = (longs[0], bool(p.is_flag))
            off = [o for o in getattr(p, "secondary_opts", ()) or () if o.startswith("--")]
            if off:  # an on/off pair: ``name=False`` is written as the off flag
                table[f"{p.name}=False"] = (off[0], True)
    for name, flag in PYTHON_TO_FLAG.items():
        table.setdefault(name, (flag, False))
    return table


def spelling(command: Any) -> Callable[[Setting], str | None]:
    """How a command-line user of ``command`` writes a parameter an error names: the command's own
    ``--flag value`` (``--flag`` alone for on/off flags), or None (the Python spelling stays) when
    the command has no such flag — advice never names a flag the command does not have.

    >>> from humanly.errors import Setting
    >>> spell = spelling(None)
    >>> spell(Setting("sampling_weights", "w", text=True))
    '--weights w'
    >>> spell(Setting("missing", "drop", text=True)) is None
    True
    """
    table = _flag_table(command)

    def spell(s: Setting) -> str | None:
        known = table.get(s.name)
        if s.value == "False" and f"{s.name}=False" in table:
            known = table[f"{s.name}=False"]
        if known is None:
            return None
        flag, is_flag = known
        if is_flag:  # an on/off flag: dawid_skene=False is --no-dawid-skene
            off = s.value == "False" and flag.startswith("--") and not flag.startswith("--no-")
            return f"--no-{flag[2:]}" if off else flag
        if s.value is None:
            return flag
        return f"{flag} {_as_typed(s.value)}"

    return spell


def _as_typed(value: str) -> str:
    """A Python value's text as typed on a command line: ``[0.8, 0.7]`` → ``0.8,0.7``."""
    if value[:1] in "[(" and value[-1:] in "])":
        return ",".join(v.strip().strip("'\"") for v in value[1:-1].split(",") if v.strip())
    return value


def _invoked(root: Any, args: Sequence[str]) -> Any:
    """The (sub)command the arguments run: ``judge select ...`` → the ``select`` command."""
    command = root
    for tok in args:
        commands = getattr(command, "commands", None)
        if not commands:
            break
        if tok in commands:
            command = commands[tok]
        elif not tok.startswith("-"):
            break
    return command


def _click_exception() -> type[Exception]:
    """click's ``ClickException`` (typer's own copy or click's), found through typer's public
    ``BadParameter``."""
    for cls in typer.BadParameter.__mro__:
        if cls.__name__ == "ClickException":
            return cls
    return Exception  # pragma: no cover - every click has it


def error_line(message: str) -> None:
    """Print ``humanly: error: MESSAGE`` as one line on stderr (control characters removed)."""
    text = " ".join(clean(message).split())
    typer.echo(f"humanly: error: {text}", err=True)


def _given_value(opts: Sequence[str], args: Sequence[str]) -> str | None:
    """The last value given to an option with one of the names ``opts`` (``--seed abc`` or
    ``--seed=abc``)."""
    value = None
    for i, tok in enumerate(args):
        for opt in opts:
            if tok == opt and i + 1 < len(args):
                value = args[i + 1]
            elif tok.startswith(opt + "="):
                value = tok[len(opt) + 1 :]
    return value


def _usage_message(exc: Any, args: Sequence[str]) -> str:
    """A parser error as ``--flag VALUE: reason`` when it is about one option's value, else the
    parser's own message."""
    message = str(exc.format_message())
    param = getattr(exc, "param", None)
    opts = [o for o in getattr(param, "opts", ()) if o.startswith("-")]
    value = _given_value(opts, args) if opts and type(exc).__name__ == "BadParameter" else None
    if value is None:
        ctx = getattr(exc, "ctx", None)
        path = " ".join(str(getattr(ctx, "command_path", None) or "").split())
        return f"{message.rstrip('.')}; see '{path} --help'" if path else message
    reason = message.split(": ", 1)[-1] if message.startswith("Invalid value") else message
    reason = reason[:1].lower() + reason[1:]
    longs = [o for o in opts if o.startswith("--")] or opts
    return f"{longs[0]} {value}: {reason}"


class HumanlyGroup(TyperGroup):
    """The ``humanly`` group: one-line errors, plain help."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Run the command line; bad input and usage errors become one line on stderr and exit
        status 2 (``--help`` and ``--version`` work as usual)."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        try:
            code = super().main(args, prog_name, complete_var, False, **extra)
        except InputError as exc:
            given = sys.argv[1:] if args is None else list(args)
            error_line(exc.render(spelling(_invoked(self, given))))
            sys.exit(2)
        except _click_exception() as exc:
            if type(exc).__name__ == "NoArgsIsHelpError":  # bare "humanly budget": its help
                typer.echo(exc.format_message())  # type: ignore[attr-defined]
            else:
                error_line(_usage_message(exc, sys.argv[1:] if args is None else list(args)))
            sys.exit(getattr(exc, "exit_code", 2))
        except Exception as exc:
            if type(exc).__name__ != "Abort":
                raise
            typer.echo("humanly: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)
        self.format_commands(ctx, formatter)


def _expand_several(command: Any, args: list[str]) -> list[str]:
    """``--lower 0.949 0.971`` → ``--lower 0.949 --lower 0.971`` for every option of ``command`` that
    may be repeated (numbers only: anything else ends the list)."""
    several = {o for p in command.params if getattr(p, "multiple", False) for o in p.opts}
    out: list[str] = []
    current: str | None = None
    for tok in args:
        if tok in several:
            current = tok
        elif current is not None and _NUMBER.match(tok):
            if out and out[-1] != current:
                out.append(current)
        else:
            current = None
        out.append(tok)
    return out


#: order of the help panels; options without a panel are listed under "Options"
PANELS = ("Input files", "Error model", "Options", "Ratings layout", "Columns")


def _format_options(command: Any, ctx: Any, formatter: Any) -> None:
    """Arguments, then each help panel of options (in :data:`PANELS` order, then any other)."""
    args: list[tuple[str, str]] = []
    panels: dict[str, list[tuple[str, str]]] = {}
    for param in command.get_params(ctx):
        record = param.get_help_record(ctx)
        if record is None:
            continue
        if param.param_type_name == "argument":
            args.append(
                (str(param.metavar or param.name).upper(), getattr(param, "help", "") or "")
            )
        else:
            panel = getattr(param, "rich_help_panel", None) or "Options"
            # some typer versions escape "[default: ...]" for rich markup even in plain help
            panels.setdefault(panel, []).append((record[0], record[1].replace("\\[", "[")))
    if args:
        with formatter.section("Arguments"):
            formatter.write_dl(args)
    order = [p for p in PANELS if p in panels] + [p for p in panels if p not in PANELS]
    for name in order:
        with formatter.section(name):
            formatter.write_dl(panels[name])


#: metavar by annotation, where a parameter does not name its own
_METAVARS = {"Path": "PATH", "int": "INTEGER", "float": "NUMBER", "str": "TEXT"}


def _metavar(param: Any) -> str | None:
    """A metavar for help (``RATINGS``, ``INTEGER``), or ``None`` to keep the parser's own."""
    if param.param_type_name == "argument":
        return str(param.name).upper()
    descriptor = getattr(param, "type_descriptor", None)  # typer ≥ 0.20; older typer says TEXT etc.
    if descriptor is None or getattr(param, "is_flag", False):
        return None
    text = str(descriptor.annotation)
    for name, metavar in _METAVARS.items():
        if re.search(rf"\b{name}\b", text):
            return metavar
    return None


class HumanlyCommand(TyperCommand):
    """A command with plain help (panels as sections, metavars as users type them) and options that
    take several values after one flag (``--labels-per-item 1 3 5``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for param in self.params:
            if getattr(param, "metavar", None) is None:
                param.metavar = _metavar(param)

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        return super().parse_args(ctx, _expand_several(self, list(args)))

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        """``[OPTIONS] RATINGS`` (an optional argument in brackets)."""
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name == "argument":
                name = str(param.metavar or param.name).upper()
                pieces.append(name if param.required else f"[{name}]")
        return pieces

    def format_options(self, ctx: Any, formatter: Any) -> None:
        _format_options(self, ctx, formatter)


def new_typer(**kwargs: Any) -> typer.Typer:
    """A :class:`typer.Typer` with humanly's defaults (plain help, errors as one line)."""
    kwargs.setdefault("cls", HumanlyGroup)
    kwargs.setdefault("no_args_is_help", True)
    kwargs.setdefault("add_completion", False)
    kwargs.setdefault("pretty_exceptions_enable", False)
    kwargs.setdefault("rich_markup_mode", None)
    kwargs.setdefault("context_settings", {"help_option_names": ["-h", "--help"]})
    return typer.Typer(**kwargs)


def add_command(app: typer.Typer, name: str, function: Any) -> None:
    """Register ``function`` as command ``name`` of ``app`` (a :class:`HumanlyCommand`)."""
    app.command(name, cls=HumanlyCommand)(function)
