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

__all__ = ["K_LINEAR", "k_axis", "plot_power_curve", "plot_target_panels"]

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
    if information and m.information_interval is not None:
        return m.information_interval.low, m.information_interval.high
    return _shifted(m.score_interval, shift)


def _label(m: ModelEquivalence, largest_k: int) -> str:
    if m.equivalence is not None:
        text = f"{m.model}: {m.equivalence:.2f} raters"
        lo, hi = m.equivalence_interval
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
        e_lo, e_hi = m.equivalence_interval
        if e_lo is not None:
            right = kmax if e_hi is None else e_hi
            ax.plot([e_lo, right], [y, y], color=col, linewidth=4, alpha=0.45)
        ax.plot([m.equivalence], [y], marker="D", color=col, markersize=5, zorder=5)
    elif m.equivalence_note == "below_0":
        ax.plot([0], [y], marker="<", color=col, markersize=6, zorder=5)
    elif m.equivalence_note == "above_max":
        ax.plot([kmax], [y], marker=">", color=col, markersize=6, zorder=5)


#: Up to this k the k axis is linear; beyond it the axis is linear to k = 10 and logarithmic after,
#: so the crossings (where the verdicts are read, k ≤ 10 in every data set we know) keep their room
#: at any largest k.
K_LINEAR = 16
_K_TICKS = (0, 1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000)


def k_axis(ax: Any, ks: np.ndarray) -> None:
    """The k axis and its label: linear up to :data:`K_LINEAR`; beyond, linear to 10 and logarithmic
    after (a symmetric-log scale whose linear part takes 60% of the width), ticks at 0, 1, 2, 3, 5,
    10, 20, 50, 100, …"""
    kmax = float(ks[-1]) if len(ks) else 0.0
    ax.set_xlabel("number of raters k")
    if kmax <= K_LINEAR:
        ax.set_xticks(ks if len(ks) <= 12 else ks[:: max(1, len(ks) // 10)])
        ax.set_xlim(left=min(-0.3, float(ks[0]) - 0.3) if len(ks) else None)
        return
    ax.set_xscale("symlog", linthresh=10, linscale=1.5)
    ax.set_xlabel("number of raters k (linear to 10, logarithmic after)")
    ticks = [t for t in _K_TICKS if t <= kmax]
    ticks += [int(kmax)] if kmax - ticks[-1] > 0.25 * ticks[-1] else []
    ax.set_xticks(ticks)
    ax.set_xticklabels([str(t) for t in ticks])
    from matplotlib.ticker import NullLocator

    ax.xaxis.set_minor_locator(NullLocator())  # the symlog minor ticks crowd the linear part
    ax.set_xlim(-0.3, kmax * 1.05)


def _flags(ax: Any, result: Any, ks: np.ndarray, ys: np.ndarray, keep: float) -> int:
    """The points to read with care (``PowerCurvePoint.flags``): the curve past
    ``informative_max_k`` faded, with a dotted line where it stops; fallback points as crosses;
    estimates outside their own interval as open circles. Returns the legend entries added."""
    pts = result.power_curve
    added = 0
    reach = getattr(result, "informative_max_k", None)
    if reach is not None and any("not_informative" in p.flags for p in pts):
        ax.axvline(reach, color=_CURVE, linestyle=":", linewidth=0.9)
        past = ks >= reach
        ax.plot(ks[past], ys[past], color="white", linewidth=2.2, alpha=0.55, zorder=3)
        ax.plot([], [], color=_CURVE, linestyle=":", label=f"not informative past k = {reach}")
        added += 1
        _clip_fall(ax, ks, ys, past, keep)
    for flag, marker, label in (
        ("fallback", "x", "fallback rule for most draws"),
        ("outside_range", "o", "estimate outside its own interval"),
    ):
        at = np.array([i for i, p in enumerate(pts) if flag in p.flags], dtype=int)
        if len(at):
            style = dict(facecolors="none", edgecolors=_CURVE) if marker == "o" else dict(c=_CURVE)
            ax.scatter(
                ks[at],
                ys[at],
                marker=marker,
                s=36,
                linewidths=1.0,
                zorder=6,
                label=label,
                clip_on=True,
                **style,
            )
            added += 1
    return added


def _clip_fall(ax: Any, ks: np.ndarray, ys: np.ndarray, past: np.ndarray, keep: float) -> None:
    """When the curve past ``informative_max_k`` falls far below ``keep`` (the lowest of everything
    else drawn: the informative part with its band, the models' lines and bands), keep the axis on
    the rest — the crossings — and say with an arrow where the fall ends."""
    high = ax.get_ylim()[1]
    span = high - keep
    fall = ys[past]
    if not len(fall) or not np.isfinite(keep) or fall.min() >= keep - 0.15 * span:
        return
    bottom = keep - 0.12 * span
    ax.set_ylim(bottom, high)
    k = int(ks[past][np.argmin(fall)])
    ax.annotate(
        f"falls to {fall.min():.2f} at k = {k}",
        xy=(ks[-1], bottom),
        xytext=(-70, 16),
        textcoords="offset points",
        ha="right",
        va="bottom",
        fontsize=8,
        color=_CURVE,
        arrowprops=dict(arrowstyle="->", color=_CURVE, lw=0.8),
    )


def _lowest(
    result: Any,
    drawn: Sequence[ModelEquivalence],
    ys: np.ndarray,
    band: np.ndarray,
    shift: float,
    information: bool,
) -> float:
    """The lowest value drawn apart from the curve past ``informative_max_k``."""
    reach = getattr(result, "informative_max_k", None)
    ks = np.array([p.k for p in result.power_curve])
    keep = ks <= reach if reach is not None else np.ones(len(ks), dtype=bool)
    values = [ys[keep], band[keep]]
    for m in drawn:
        lo, _ = _model_range(m, shift, information)
        values.append(np.array([m.score - shift, np.nan if lo is None else lo]))
    found = np.concatenate(values)
    return float(np.nanmin(found)) if np.isfinite(found).any() else float("nan")


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
    if information and result.information_intervals is not None:
        band_lo, band_hi = _ends(result.information_intervals)
    else:
        band_lo, band_hi = _ends([Interval(*_shifted(p.score_interval, shift)) for p in pts])
    fig, ax = figure()
    ax.fill_between(ks, band_lo, band_hi, color=_CURVE, alpha=0.18, linewidth=0)
    label = f"k raters ({_percent(result.level)} range)"
    ax.plot(ks, ys - shift, color=_CURVE, marker="o", markersize=3.5, label=label)
    if truth is not None:
        ax.plot(
            [p.k for p in truth.power_curve],
            [p.score - shift for p in truth.power_curve],
            color=_CURVE,
            linestyle="--",
            linewidth=1.1,
            label="k raters vs the true states",
        )
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
    flagged = _flags(
        ax, result, ks, ys - shift, _lowest(result, drawn, ys - shift, band_lo, shift, information)
    )
    ylab = _YLABELS.get(result.scorer, f"score c_k: {result.scorer}")
    ax.set_ylabel("information gain c_k − c_0 (bits)" if information else ylab)
    k_axis(ax, ks)
    names = " + ".join(_NAMES.get(x, x) for x in (result.combiner, result.scorer))
    ax.set_title(title if title is not None else names, loc="left")
    n_entries = len(drawn) + 1 + (truth is not None) + flagged
    ax.legend(
        frameon=False,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.16),
        borderaxespad=0.0,
        ncol=2 if n_entries > 1 else 1,
    )
    return fig


#: The target panels' curves: one grey and one marker per target, in the order of the result.
_TARGET_STYLES = (
    ("#4d4d4d", "-", "o"),
    ("#4d4d4d", "--", "s"),
    ("#4d4d4d", ":", "^"),
    ("#8c8c8c", "-.", "v"),
    ("#8c8c8c", "-", "P"),
)


def _panel_label(t: int | str) -> str:
    return "t = ∞ (the true class)" if t == "inf" else f"t = {t}"


def plot_target_panels(
    result: Any,
    *,
    colors: Mapping[str, str] | None = None,
    models: Sequence[str] | None = None,
    title: str | None = None,
) -> Any:
    """Figure of target panels (the revision of Survey Equivalence): one power curve per target t
    (grey, one line style and marker per t) and, for each model, its crossing of each curve — its
    survey equivalence against that target — as a large marker of the target's shape in the model's
    colour (at k = 0 for a score at or below c_0, at the largest k for one above the curve, hollow).

    Takes an :class:`~humanly.survey.EquivalenceResult` with ``targets`` or a
    :class:`~humanly.survey.ScenarioResult` (its one model, "classifier"). The k axis is that of
    :func:`plot_power_curve`.

    >>> from humanly.survey import scenario_equivalence
    >>> fig = plot_target_panels(scenario_equivalence())
    >>> len(fig.axes[0].get_legend().get_texts())
    4
    """
    entries = list(result.targets)
    if not entries:
        raise InputError(
            "result: no target panels; run with EquivalenceOptions(targets=(1, 3, 'inf'))"
        )
    scenario = type(result).__name__ == "ScenarioResult"
    names = ["classifier"] if scenario else [m.model for m in result.models]
    unknown = [n for n in models or () if n not in names]
    if unknown:
        raise InputError(f"models: no model {unknown[0]!r}; the models are: {', '.join(names)}")
    drawn = [n for n in names if models is None or n in models]
    cols = dict(colors) if colors is not None else model_colors(drawn)
    fig, ax = figure()
    kmax = 0
    crossings: dict[str, list[str]] = {n: [] for n in drawn}
    for j, e in enumerate(entries):
        grey, line, marker = _TARGET_STYLES[j % len(_TARGET_STYLES)]
        ks = np.array([p.k for p in e.power_curve], dtype=float)
        ys = np.array([p.score for p in e.power_curve])
        kmax = max(kmax, int(ks[-1]) if len(ks) else 0)
        ax.plot(
            ks,
            ys,
            color=grey,
            linestyle=line,
            marker=marker,
            markersize=3,
            label=f"k raters, {_panel_label(e.target)}",
        )
        last = int(ks[-1]) if len(ks) else 0
        for name in drawn:
            eq, note, score = _crossing(e, name, scenario)
            col = cols.get(name, _CURVE)
            if eq is not None:
                ax.plot(
                    [eq],
                    [score],
                    marker=marker,
                    color=col,
                    markersize=8,
                    zorder=6,
                    markeredgecolor="white",
                    markeredgewidth=0.6,
                )
                crossings[name].append(f"{eq:.2f} ({_short(e.target)})")
            elif note in ("below_0", "above_max"):
                x = 0 if note == "below_0" else last
                ax.plot(
                    [x],
                    [score],
                    marker=marker,
                    markersize=8,
                    zorder=6,
                    markerfacecolor="none",
                    markeredgecolor=col,
                )
                crossings[name].append(
                    ("< 0" if note == "below_0" else f"> {last}") + f" ({_short(e.target)})"
                )
    for name in drawn:
        ax.plot(
            [],
            [],
            color=cols.get(name, _CURVE),
            marker="D",
            linestyle="none",
            label=f"{name}: " + ", ".join(crossings[name]),
        )
    k_axis(ax, np.arange(kmax + 1))
    scorer = result.scorer
    ax.set_ylabel(_YLABELS.get(scorer, f"score c_k: {scorer}").replace("score c_k", "score"))
    how = " + ".join(_NAMES.get(x, x) for x in (result.combiner, scorer))
    ax.set_title(title if title is not None else f"{how}: against each target panel t", loc="left")
    ax.legend(
        frameon=False,
        loc="upper left",
        bbox_to_anchor=(0.0, -0.16),
        borderaxespad=0.0,
        ncol=2 if len(entries) + len(drawn) > 3 else 1,
    )
    return fig


def _short(t: int | str) -> str:
    return "t = ∞" if t == "inf" else f"t = {t}"


def _crossing(entry: Any, name: str, scenario: bool) -> tuple[float | None, str | None, float]:
    """A model's equivalence, its note and its score against one target."""
    if scenario:
        return entry.equivalence, entry.equivalence_note, entry.classifier_score
    m = entry.model(name)
    return m.equivalence, m.equivalence_note, m.score
