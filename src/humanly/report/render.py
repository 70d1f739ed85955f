"""Render a :class:`~humanly.report.build.Report` to one self-contained HTML page (jinja2, autoescape)."""

from __future__ import annotations

from importlib.resources import files
from typing import TYPE_CHECKING

import jinja2

if TYPE_CHECKING:
    from .build import Report

__all__ = ["render"]


def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("humanly.report", "templates"),
        autoescape=jinja2.select_autoescape(["html", "j2"], default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    return env


def render(report: Report) -> str:
    css = files("humanly.report").joinpath("templates/style.css").read_text(encoding="utf-8")
    template = _environment().get_template("report.html.j2")
    return template.render(report=report, css=css, embedded=report.to_dict())
