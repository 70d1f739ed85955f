"""Test helper: one report section drawn from a study's results, as the page draws it — the data are
analysed once (:func:`humanly.analyze`), then the section builder lays the result out."""

from __future__ import annotations

from typing import Any

from humanly.report._page import Section, View
from humanly.report.build import BUILDERS
from humanly.study import AnalyzeOptions, StudyResult, analyze


def view_of(study: StudyResult, colors: dict[str, str] | None = None) -> View:
    """The view the page uses (each model its colour unless ``colors`` says otherwise)."""
    from humanly.plots.style import model_colors

    return View(
        colors=colors if colors is not None else model_colors(study.models),
        models=study.models,
        kinds=dict(zip(study.models, study.model_kinds, strict=True)),
    )


def section(
    name: str,
    ratings: Any,
    predictions: Any = None,
    gold: Any = None,
    *,
    colors: dict[str, str] | None = None,
    states: Any = None,
    **settings: Any,
) -> tuple[Section, Any]:
    """The section ``name`` ("inspect", "certify", "equivalence", "plan") and the analysis' result
    (``StudyResult.<name>``), from ``analyze(ratings, predictions, gold, **settings)``."""
    study = analyze(ratings, predictions, gold, options=AnalyzeOptions(states=states), **settings)
    return BUILDERS[name](study, view_of(study, colors)), getattr(study, name)
