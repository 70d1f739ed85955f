"""Budget figures (issue 15): at least 450 pt wide, legible text, titles inside the figure's width and no
wider than it, every line and bar group in the legend; ``size_figure`` draws label budgets per m and
``convergence_figure`` the paper's Fig. 3 a. Every figure draws a result (a curve computed by
:mod:`humanly.budget`) and computes nothing: the drawn points are the result's numbers."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pytest

from humanly.budget import (
    CorrelatedErrors,
    IndependentErrors,
    accuracy_curve,
    capacity_curve,
    cramer_convergence,
    rate_curve,
    sample_size,
    win_curve,
)
from humanly.plots import budget as pl
from humanly.plots.style import save_figure

PLAN_ESTIMATES = CorrelatedErrors(0.730695, 0.773124, 0.690373, 0.800624, 0.813958, check=False)


def _figures() -> dict[str, object]:
    fig2 = IndependentErrors(0.8, 0.01, 0.8)
    return {
        "capacity": pl.capacity_figure(
            capacity_curve(IndependentErrors(0.75, 0.1, 0.75), budgets=range(30, 3001, 300))
        ),
        "win_vs_q": pl.win_vs_q_figure(accuracy_curve(qs=[0.6, 0.8, 0.95])),
        "win_vs_budget (plan --plot)": pl.win_vs_budget_figure(
            win_curve(PLAN_ESTIMATES, (1, 3, 5), budgets=range(5, 3000, 300))
        ),
        "rates": pl.rates_figure(rate_curve()),
        "convergence": pl.convergence_figure(
            cramer_convergence(IndependentErrors(0.7, 0.1, 0.75), (1, 3), range(30, 3001, 30))
        ),
        "size": pl.size_figure(sample_size(fig2, 0.95, (1, 3, 5))),
    }


@pytest.fixture(scope="module")
def figures() -> dict[str, object]:
    figs = _figures()
    yield figs
    for f in figs.values():
        plt.close(f)  # type: ignore[arg-type]


def test_figures_are_wide_and_legible(figures: dict[str, object]) -> None:
    for name, fig in figures.items():
        width_pt = fig.get_figwidth() * 72  # type: ignore[attr-defined]
        assert width_pt >= 450, name
        ax = fig.axes[0]  # type: ignore[attr-defined]
        assert ax.title.get_fontsize() >= 10 and ax.xaxis.label.get_fontsize() >= 9, name
        for tick in ax.get_xticklabels() + ax.get_yticklabels():
            assert tick.get_fontsize() >= 8, name


def test_titles_fit_the_figure(figures: dict[str, object]) -> None:
    for name, fig in figures.items():
        fig.canvas.draw()  # type: ignore[attr-defined]
        renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
        ax = fig.axes[0]  # type: ignore[attr-defined]
        title = ax.title.get_window_extent(renderer)
        axes = ax.get_window_extent(renderer)
        assert title.width <= axes.width + 1, name  # no wider than its axes
        assert title.x0 >= 0 and title.x1 <= fig.bbox.width, name  # type: ignore[attr-defined]


def test_every_line_is_labelled(figures: dict[str, object]) -> None:
    for name, fig in figures.items():
        ax = fig.axes[0]  # type: ignore[attr-defined]
        legend = ax.get_legend() or next(iter(fig.legends), None)  # type: ignore[attr-defined]
        assert legend is not None, name
        shown = {t.get_text() for t in legend.get_texts()}
        for line in ax.get_lines():
            assert not line.get_label().startswith("_"), (name, line.get_label())
            assert line.get_label() in shown, (name, line.get_label())


def test_size_figure_draws_budgets_per_m(figures: dict[str, object]) -> None:
    fig = figures["size"]
    ax = fig.axes[0]  # type: ignore[attr-defined]
    assert ax.get_ylabel().startswith("label budget")
    heights = sorted(round(p.get_height()) for p in ax.patches)
    assert 23762 in heights and 41001 in heights  # exact budgets for m = 1 and 3 (Fig. 2's setting)
    assert [t.get_text() for t in ax.get_xticklabels()] == ["m = 1 (single)", "m = 3", "m = 5"]


def test_convergence_figure_marks_the_crossing(figures: dict[str, object]) -> None:
    ax = figures["convergence"].axes[0]  # type: ignore[attr-defined]
    labels = [line.get_label() for line in ax.get_lines()]
    assert "exact, m = 1" in labels and "Cramér rate, m = 3" in labels
    assert any("k ≥ 1,800" in lab for lab in labels)


def test_figures_save(tmp_path: Path) -> None:
    fig = pl.size_figure(sample_size(IndependentErrors(0.7, 0.1, 0.9), 0.95, (1, 3)))
    out = save_figure(fig, tmp_path / "size.svg")
    assert out.exists() and out.stat().st_size > 1000


def test_figures_draw_the_curves_numbers() -> None:
    """The lines are the curves' points, unchanged: a curve read back from its JSON draws the same."""
    import json

    from humanly.budget import WinCurve

    curve = win_curve(PLAN_ESTIMATES, (1, 3), budgets=[30, 300, 900])
    again = WinCurve.from_dict(json.loads(curve.to_json()))
    for c in (curve, again):
        fig = pl.win_vs_budget_figure(c)
        lines = fig.axes[0].get_lines()
        for line, m in zip(lines, (1, 3), strict=True):
            assert tuple(line.get_xdata()) == curve.series(m)[0]
            assert tuple(line.get_ydata()) == curve.series(m)[1]
        plt.close(fig)
    cap = capacity_curve(IndependentErrors(0.75, 0.1, 0.75), 0.95, [300, 1500])
    fig = pl.capacity_figure(cap)
    exact = fig.axes[0].get_lines()[0]
    assert tuple(exact.get_ydata()) == tuple(r.ratio_exact for r in cap.rows)
    assert "level 0.95" in fig.axes[0].get_ylabel()
    plt.close(fig)
    rates = rate_curve(0.7, 0.1, (1, 3), qs=[0.6, 0.75, 0.9])
    fig = pl.rates_figure(rates)
    cramer_m3 = fig.axes[0].get_lines()[2]
    assert tuple(cramer_m3.get_ydata()) == rates.series(3)[1]
    plt.close(fig)
