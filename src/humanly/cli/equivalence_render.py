"""Tables for ``humanly equivalence``: the power curve, each model's score, its survey equivalence (with
range, bootstrap mean and the items a target width needs), scores against the true item states of a
simulation, what k amateurs are worth in experts, and the footnotes that say what a "< 0", "> K" or
"—" cell means. Views of the results; no statistics here."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ..verdicts.curve import curve_notes, flag_cell, share_cell
from ..verdicts.equivalence import percent, tails
from ..verdicts.targets import target_label, target_words
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..survey import (
        EquivalenceResult,
        ExpertEquivalence,
        ModelEquivalence,
        ScenarioResult,
        TargetEquivalence,
        TruthEquivalence,
    )

__all__ = [
    "footnotes",
    "render",
    "render_models",
    "render_scenario",
    "render_targets",
    "render_truth",
    "render_worth",
    "target_lines",
]


def _f(x: object, spec: str = ".4f") -> str:
    """A number as text; ``None`` and non-finite numbers as "—" (never ``nan``)."""
    if x is None:
        return "—"
    if isinstance(x, float):
        return format(x, spec) if math.isfinite(x) else "—"
    return str(x)


def _pair(rng: Interval) -> str:
    """A range ``lo – hi``; "—" when there is none (no bootstrap)."""
    lo, hi = rng
    return "—" if lo is None and hi is None else f"{_f(lo)} – {_f(hi)}"


def _largest(res: EquivalenceResult | TruthEquivalence | TargetEquivalence) -> int:
    return res.power_curve[-1].k if res.power_curve else 0


def equivalence_cell(eq: float | None, note: str | None, largest_k: int) -> str:
    """``1.91``, ``< 0`` (at or below c_0), ``> 9`` (above the curve) or ``—``."""
    if eq is not None:
        return _f(eq, ".2f")
    return {"below_0": "< 0", "above_max": f"> {largest_k}"}.get(note or "", "—")


def range_cell(m: ModelEquivalence, largest_k: int) -> str:
    """The equivalence's range: ``0 – 2.38`` when replicates fall at or below c_0, ``2.70 – > 9``
    when some lie above the curve, ``> 9`` when nearly all do, ``—`` without a bootstrap."""
    lo, hi = m.equivalence_interval
    if lo is None and hi is None:
        return "—" if m.equivalence_note != "above_max" else f"> {largest_k}"
    low = "0" if lo == 0 else _f(lo, ".2f")
    high = f"> {largest_k}" if hi is None else ("0" if hi == 0 else _f(hi, ".2f"))
    return f"{low} – {high}"


def render(res: EquivalenceResult, truth: TruthEquivalence | None = None) -> CleanTable:
    """The power curve c_k with its ranges (and, for ABC + cross-entropy, c_k − c_0 in bits; with
    ``truth``, the curve against the true item states c*_k)."""
    info = res.information is not None
    star = truth is not None and [p.k for p in truth.power_curve] == [p.k for p in res.power_curve]
    t = new_table(
        f"humanly equivalence · {res.combiner} + {res.scorer} · {res.method} · "
        f"{res.n_items:,} items · {res.bootstrap} bootstraps"
    )
    shares = any(p.fallback_share is not None for p in res.power_curve)
    flags = any(p.flags for p in res.power_curve)
    cols = ["k", "c_k", f"{percent(res.level)} interval", "items"]
    cols += ["c_k − c_0 (bits)"] if info else []
    cols += ["c*_k (states)"] if star else []
    cols += ["fallback"] if shares else []
    for col in cols:
        t.column(col, justify="right")
    if flags:
        t.column("flags")
    for i, p in enumerate(res.power_curve):
        extra = [_f(res.information[i])] if res.information is not None else []
        extra += [_f(truth.power_curve[i].score)] if star and truth is not None else []
        extra += [share_cell(p.fallback_share)] if shares else []
        extra += [flag_cell(p.flags)] if flags else []
        t.row(str(p.k), _f(p.score), _pair(p.score_interval), f"{p.n_items:,}", *extra)
    return t


def render_targets(res: EquivalenceResult) -> tuple[CleanTable, CleanTable]:
    """The target panels side by side: the power curve against each target (one column per t),
    and each model's score and equivalence against each (one row per model and target)."""
    entries = res.targets
    curve = new_table(
        f"power curve c_k against each target panel t · {res.combiner} + {res.scorer}"
    )
    curve.column("k", justify="right")
    for e in entries:
        curve.column(f"c_k {target_label(e.target)}", justify="right")
    by_k = [{p.k: p.score for p in e.power_curve} for e in entries]
    for k in sorted({k for found in by_k for k in found}):
        curve.row(str(k), *(_f(found[k]) if k in found else "" for found in by_k))
    pct = percent(res.level)
    models = new_table(f"each model against each target panel: score and raters, {pct} intervals")
    for i, col in enumerate(("model", "target", "items", "score", "raters", f"{pct} interval")):
        models.column(col, justify="left" if i < 2 else "right")
    for name in (m.model for m in res.models):
        for e in entries:
            m = next((x for x in e.models if x.model == name), None)
            if m is None:
                continue
            kmax = _largest(e)
            models.row(
                name,
                target_label(e.target),
                f"{e.n_items:,}",
                _f(m.score),
                equivalence_cell(m.equivalence, m.equivalence_note, kmax),
                range_cell(m, kmax),
            )
    return curve, models


def target_lines(res: EquivalenceResult) -> list[str]:
    """What each target is (with its items, and for t = ∞ the latent-class model it rests on)."""
    return [target_words(e, res.n_items) for e in res.targets]


def render_models(
    res: EquivalenceResult,
    target_width: float | None = None,
    items_needed: Sequence[int | None] | None = None,
) -> tuple[CleanTable, CleanTable]:
    """Two tables, one row per model: its score with its range (and, for ABC + cross-entropy, the bits
    over c_0 and the share of the ideal classifier's); its survey equivalence with its range, the
    bootstrap mean and, with ``target_width``, the items that would narrow the range
    (``items_needed``, one per model)."""
    info = res.information is not None
    ratio = res.headroom is not None
    width = target_width if items_needed is not None else None
    needed = tuple(items_needed) if items_needed is not None else (None,) * len(res.models)
    kmax = _largest(res)
    pct = percent(res.level)
    unit = " (bits)" if res.scorer == "cross_entropy" else ""
    scores = new_table(f"each model's score (Algorithm 1): {res.scorer}{unit}, {pct} intervals")
    cols = ["model", "score", f"{pct} interval"]
    cols += ["bits over c_0"] if info else []
    cols += ["% of ideal"] if ratio else []
    for i, col in enumerate(cols):
        scores.column(col, justify="left" if i == 0 else "right")
    equiv = new_table(
        f"each model's survey equivalence (Algorithm 4): raters, {pct} interval, bootstrap mean"
    )
    cols = ["model", "raters", f"{pct} interval", "mean"]
    cols += [f"items for width < {width:g}"] if width is not None else []
    for i, col in enumerate(cols):
        equiv.column(col, justify="left" if i == 0 else "right")
    for m, n in zip(res.models, needed, strict=True):
        cells = [m.model, _f(m.score), _pair(m.score_interval)]
        cells += [_f(m.information)] if info else []
        cells += [_percent(m)] if ratio else []
        scores.row(*cells)
        cells = [
            m.model,
            equivalence_cell(m.equivalence, m.equivalence_note, kmax),
            range_cell(m, kmax),
            "0" if m.equivalence_mean == 0 else _f(m.equivalence_mean, ".2f"),
        ]
        cells += [_items_cell(m, width, n)] if width is not None else []
        equiv.row(*cells)
    return scores, equiv


def _percent(m: ModelEquivalence) -> str:
    r = m.performance_ratio
    if r is None or m.information is None or m.information <= 0:
        return "—"
    return f"{r:.0%}"


def _items_cell(m: ModelEquivalence, width: float, needed: int | None) -> str:
    lo, hi = m.equivalence_interval
    if m.equivalence is None:
        return "—"
    if lo is not None and hi is not None and hi - lo <= width:
        return "already"
    return "—" if needed is None else f"{needed:,}"


def render_truth(res: EquivalenceResult, truth: TruthEquivalence) -> CleanTable:
    """HSCORE* and SEQ* (against the true item states, section 6) beside HSCORE and SEQ (against
    held-out raters), and the ideal classifier that outputs each item's state."""
    t = new_table(
        f"against the true item states (simulation) · {truth.combiner} + {truth.scorer} · "
        f"{truth.n_items:,} items"
    )
    for i, col in enumerate(("model", "HSCORE*", "SEQ*", "HSCORE", "SEQ")):
        t.column(col, justify="left" if i == 0 else "right")
    rater = {m.model: m for m in res.models}
    k_star, k = _largest(truth), _largest(res)
    for tm in truth.models:
        m = rater.get(tm.model)
        seq = equivalence_cell(tm.equivalence, tm.equivalence_note, k_star)
        if m is None:
            t.row(tm.model, _f(tm.score), seq, "—", "—")
            continue
        eq = equivalence_cell(m.equivalence, m.equivalence_note, k)
        t.row(tm.model, _f(tm.score), seq, _f(m.score), eq)
    t.row("ideal", _f(truth.ideal_score), "∞", "", "")
    return t


def footnotes(
    res: EquivalenceResult,
    truth: TruthEquivalence | None = None,
    target_width: float | None = None,
    items_needed: Sequence[int | None] | None = None,
) -> list[str]:
    """One line for each kind of cell that needs words: "< 0", "> K", an end at 0 or open, "—"."""
    from ..verdicts.equivalence import baseline_meaning

    ms = res.models
    kmax = _largest(res)
    tail, _ = tails(res.level)
    notes = []
    below = any(m.equivalence_note == "below_0" for m in ms) or any(
        m.equivalence_note == "below_0" for m in (truth.models if truth else ())
    )
    if below and res.power_curve:
        star = ""
        if truth is not None and any(m.equivalence_note == "below_0" for m in truth.models):
            star = f" (for SEQ*, c*_0 = {truth.power_curve[0].score:.4f}, against the true states)"
        notes.append(
            f"< 0: the score is at or below c_0 = {res.power_curve[0].score:.4f}{star}, the score "
            f"of {baseline_meaning(res.combiner)}; the model is worth less than 0 raters."
        )
    if any(m.equivalence_note == "above_max" for m in ms):
        raters = "rater" if kmax == 1 else "raters"
        notes.append(
            f"> {kmax}: the score is above every point of the curve; the model is worth more than "
            f"{kmax} {raters}, the largest survey measured."
        )
    if any(m.equivalence_interval.low == 0 for m in ms):
        notes.append(
            f"a range starting at 0: at least {tail} of the bootstrap replicates are at or "
            "below c_0 (they count as 0 raters, in the range and the mean)."
        )
    if any(
        m.equivalence_interval.high is None and m.equivalence_interval.low is not None for m in ms
    ):
        notes.append(
            f"a range ending at > {kmax}: at least {tail} of the bootstrap replicates lie above "
            "the curve."
        )
    if res.bootstrap > 0 and any(m.equivalence_mean is None for m in ms):
        notes.append(
            "mean —: some bootstrap replicates lie above the curve, so the mean is unbounded."
        )
    if res.bootstrap == 0:
        notes.append("no ranges or bootstrap mean (—): --bootstrap 0.")
    if target_width is not None and items_needed is not None:
        cells = [_items_cell(m, target_width, n) for m, n in zip(ms, items_needed, strict=True)]
        if "—" in cells:
            notes.append(
                "items —: no equivalence to narrow (the score is below 0 or above the "
                "curve) or its range has no upper end."
            )
        if "already" in cells:
            notes.append(
                f"already: the range is narrower than {target_width:g} raters on the "
                f"{res.n_items:,} items at hand."
            )
    if res.headroom is not None and any(_percent(m) == "—" for m in ms):
        notes.append("% of ideal —: the model gives no information over c_0.")
    notes += curve_notes(res.power_curve, res.informative_max_k, res.level)
    if truth is not None:
        notes.append(
            "HSCORE*, SEQ*: score and survey equivalence against each item's true state (section 6 "
            "of the paper); HSCORE, SEQ: against held-out raters, as above. ideal: the classifier "
            "that outputs each item's state, the limit of c*_k as k grows (SEQ* ∞)."
        )
    return notes


def render_worth(ex: ExpertEquivalence) -> CleanTable:
    """How many experts k amateurs are worth."""
    t = new_table(f"k amateurs are worth x experts · {ex.combiner} + {ex.scorer}")
    for col in ("amateurs k", "a_k", "experts x", f"{percent(ex.level)} interval"):
        t.column(col, justify="right")
    kmax = ex.expert_curve[-1].k if ex.expert_curve else 0
    for p, w in zip(ex.amateur_curve, ex.worth, strict=True):
        x = equivalence_cell(w.experts, w.note, kmax)
        lo, hi = w.experts_interval
        t.row(str(p.k), _f(p.score), x, f"{_f(lo, '.2f')} – {_f(hi, '.2f')}")
    return t


def render_scenario(res: ScenarioResult) -> tuple[CleanTable, CleanTable]:
    """The scenario mode: per target its κ, the classifier's score, one rater's, the ideal score and
    the classifier's rater equivalence; and the power curves side by side (one column per t)."""
    unit = " (bits)" if res.scorer == "cross_entropy" else ""
    targets = new_table(
        f"humanly simulate equivalence · {res.scorer}{unit} · {res.combiner} panels · population "
        "(exact)"
    )
    for i, col in enumerate(("target", "κ", "classifier", "1 rater", "ideal", "raters")):
        targets.column(col, justify="left" if i == 0 else "right")
    for t in res.targets:
        one = t.power_curve[1].score if len(t.power_curve) > 1 else None
        targets.row(
            target_label(t.target),
            _f(t.kappa, ".4f"),
            _f(t.classifier_score, ".6f"),
            _f(one, ".6f"),
            _f(t.ideal_score, ".6f"),
            equivalence_cell(t.equivalence, t.equivalence_note, res.max_sources),
        )
    curve = new_table("power curve c_k against each target panel t")
    curve.column("k", justify="right")
    for t in res.targets:
        curve.column(f"c_k {target_label(t.target)}", justify="right")
    for k in range(res.max_sources + 1):
        curve.row(str(k), *(_f(t.power_curve[k].score, ".6f") for t in res.targets))
    return targets, curve
