"""The ``humanly`` command line: one typer app, a thin layer over the public API."""

from __future__ import annotations

from typing import Annotated

import typer

from .. import __version__
from ._app import new_typer
from .budget_cmd import budget_app
from .certify_cmd import CertifyCommand, certify_command
from .demo_cmd import demo
from .inspect_cmd import inspect
from .report_cmd import report
from .simulate_cmd import simulate_app
from .survey_cmd import equivalence_cmd

app = new_typer(
    name="humanly",
    help="How good is this model when the only reference is a crowd of fallible humans?",
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"humanly {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool | None,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = None,
) -> None:
    """How good is this model when the only reference is a crowd of fallible humans?"""


app.command("inspect")(inspect)
app.command("report")(report)
app.command("demo")(demo)
app.command("certify", cls=CertifyCommand)(certify_command)
app.command("equivalence")(equivalence_cmd)
app.add_typer(simulate_app, name="simulate")
app.add_typer(budget_app, name="budget")


def main() -> None:
    """Entry point of the ``humanly`` script and ``python -m humanly``."""
    app(prog_name="humanly")
