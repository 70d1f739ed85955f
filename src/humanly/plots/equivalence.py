"""Survey power curve figure (Survey Equivalence, Figures 4–7): the curve c_k with its bootstrap band
(at the result's ``level``), each model's score as a horizontal line in the model's colour (its range a
light band) with
its survey equivalence marked on the curve, and — for a simulation — the curve against the true item
states. The legend sits below the axes, off the data."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._core.result import Interval
from ..errors import InputError
from .style import figure, model_colors

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, ModelEquivalence, PowerCurve, TruthEquivalence

__all__ = ["plot_power_curve"]

#: The crowd's curve: a neutral grey, apart from the model palette.
_CURVE = "#4d4d4d"
_NAMES = {"abc": "ABC", "cross_entropy": "cross-entropy"}
_YLABELS = {"cross_entropy": "score c_k: cross-entropy (bits)", "agreement": "score c_k: agreement"}


def _percent(level: float) -> str:
    """``0.95`` → ``"95%"``."""
    return f"{round(100.0 * level, 6):g}%"


def _shifted(rng: Interval, shift: float) -> tuple[float | None, float | None]:
    lo, hi = rng
    return (None if lo is None else lo - shift), (None if hi is None else hi - shift)


def _model_range(
    m: ModelEquivalence, shift: float, information: bool
) -> tuple[float | None, float | None]:
    """The band of a model's line: its stored information range in the information view (taken
    replicate by replicate by the analysis), else its score range (shifted by c_0 when the
    information view is asked for a result that has no information range)."""
    if information and m.information_range is not None:
        return m.information_range.low, m.information_range.high
    return _shifted(m.score_range, shift)


def _label(m: ModelEquivalence, largest_k: int) -> str:
    if m.equivalence is not None:
        text = f"{m.model}: {m.equivalence:.2f} raters"
        lo, hi = m.equivalence_range
        if lo is not None:
            top = f"> {largest_k}" if hi is None else f"{hi:.2f}"
            text += f" [{lo:.2f}, {top}]"
        return text
    if m.equivalence_note == "below_0":
        return f"{m.model}: < 0 raters (at or below c_0)"
    if m.equivalence_note == "above_max":
        return f"{m.model}: > {largest_k} raters (above the curve)"
    return m.model


def _draw_model(
    ax: Any, m: ModelEquivalence, col: str, shift: float, info: bool, kmax: int
) -> None:
    y = m.score - shift
    lo, hi = _model_range(m, shift, info)
    if lo is not None and hi is not None:
        ax.axhspan(lo, hi, color=col, alpha=0.12, linewidth=0)
    ax.axhline(y, color=col, linewidth=1.3, label=_label(m, kmax))
    if m.equivalence is not None:
        ax.axvline(m.equivalence, color=col, linestyle=":", linewidth=0.9)
        e_lo, e_hi = m.equivalence_range
        if e_lo is not None:
            right = kmax if e_hi is None else e_hi
            ax.plot([e_lo, right], [y, y], color=col, linewidth=4, alpha=0.45)
        ax.plot([m.equivalence], [y], marker="D", color=col, markersize=5, zorder=5)
    elif m.equivalence_note == "below_0":
        ax.plot([0], [y], marker="<", color=col, markersize=6, zorder=5)
    elif m.equivalence_note == "above_max":
        ax.plot([kmax], [y], marker=">", color=col, markersize=6, zorder=5)


def _ends(ranges: Sequence[Interval]) -> tuple[np.ndarray, np.ndarray]:
    return (
        np.array([np.nan if r.low is None else r.low for r in ranges], dtype=float),
        np.array([np.nan if r.high is None else r.high for r in ranges], dtype=float),
    )


def plot_power_curve(
    result: EquivalenceResult | PowerCurve,
    *,
    information: bool | None = None,
    colors: Mapping[str, str] | None = None,
    models: Sequence[str] | None = None,
    truth: TruthEquivalence | None = None,
    title: str | None = None,
) -> Any:
    """Figure of an :class:`~humanly.survey.EquivalenceResult` (or ``PowerCurve``), 6.4 in (461 pt)
    wide, drawn from the result's fields alone (a result read back from its JSON draws the same).

    ``information`` (default: on for ABC + cross-entropy) plots c_k − c_0 in bits; ``colors`` maps
    model names to colours (default :func:`~humanly.plots.style.model_colors` of the models drawn);
    ``models`` draws only those models; ``truth`` (a simulation's
    :func:`~humanly.survey.truth_equivalence` with the same combiner and scorer) adds the curve
    against the true item states, dashed. ``title`` defaults to "combiner + scorer".

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import equivalence
    >>> d = running_example(100, 4, seed=1)
    >>> fig = plot_power_curve(equivalence(d.ratings, d.predictions, bootstrap=0))
    >>> fig.axes[0].get_xlabel()
    'number of raters k'
    """
    pts = result.power_curve
    ks = np.array([p.k for p in pts], dtype=float)
    ys = np.array([p.score for p in pts])
    if information is None:
        information = result.combiner == "abc" and result.scorer == "cross_entropy"
    shift = float(ys[0]) if information else 0.0
    if information and result.information_range is not None:
        band_lo, band_hi = _ends(result.information_range)
    else:
        band_lo, band_hi = _ends([Interval(*_shifted(p.score_range, shift)) for p in pts])
    fig, ax = figure()
    ax.fill_between(ks, band_lo, band_hi, color=_CURVE, alpha=0.18, linewidth=0)
    label = f"k raters ({_percent(result.level)} range)"
    ax.plot(ks, ys - shift, color=_CURVE, marker="o", markersize=3.5, label=label)
    if truth is not None:
        ax.plot(
            [p.k for p in truth.power_curve], [p.score - shift for p in truth.power_curve],
            color=_CURVE, linestyle="--", linewidth=1.1, label="k raters vs the true states",
        )  # fmt: skip
    known = [m.model for m in getattr(result, "models", ())]
    unknown = [name for name in models or () if name not in known]
    if unknown:  # a misspelt name would silently draw no model
        shown = ", ".join(known) if known else "none"
        raise InputError(f"models: no model {unknown[0]!r}; the models are: {shown}")
    drawn = [m for m in getattr(result, "models", ()) if models is None or m.model in models]
    cols = dict(colors) if colors is not None else model_colors(m.model for m in drawn)
    kmax = int(ks[-1]) if len(ks) else 0
    for m in drawn:
        _draw_model(ax, m, cols.get(m.model, _CURVE), shift, information, kmax)
    ax.set_xlabel("number of raters k")
    ylab = _YLABELS.get(result.scorer, f"score c_k: {result.scorer}")
    ax.set_ylabel("information gain c_k − c_0 (bits)" if information else ylab)
    ax.set_xticks(ks if len(ks) <= 12 else ks[:: max(1, len(ks) // 10)])
    ax.set_xlim(left=min(-0.3, float(ks[0]) - 0.3) if len(ks) else None)
    names = " + ".join(_NAMES.get(x, x) for x in (result.combiner, result.scorer))
    ax.set_title(title if title is not None else names, loc="left")
    n_entries = len(drawn) + 1 + (truth is not None)
    ax.legend(
        frameon=False, loc="upper left", bbox_to_anchor=(0.0, -0.16), borderaxespad=0.0,
        ncol=2 if n_entries > 1 else 1,
    )  # fmt: skip
    return fig
