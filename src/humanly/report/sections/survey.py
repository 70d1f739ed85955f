"""The survey-equivalence section of ``humanly report`` (Resnick et al., *Survey Equivalence*).

Two analyses, as the paper's case studies: the Anonymous Bayesian Combiner scored by cross-entropy (with
the information view c_k − c_0 and the headroom estimate) and majority vote (two classes) or plurality
scored by agreement. Probability models are calibrated in-sample by isotonic regression for the
cross-entropy analysis, as the paper does (Appendix A); the section says so.
"""

from __future__ import annotations

from typing import Any

from ...data import Gold, InputError, Predictions, Ratings
from ...survey import EquivalenceResult, ModelEquivalence, equivalence
from .._page import Figure, Section, Table

__all__ = ["METHODS_TEXT", "survey_headline", "survey_section"]

METHODS_TEXT = (
    "Survey equivalence (Resnick, Kong, Schoenebeck & Weninger). The power curve c_k is the expected "
    "score of a combiner of k raters' labels at predicting a held-out rater's label (Algorithm 3), "
    "computed exactly from each item's label counts (multivariate hypergeometric weights over the "
    "possible count vectors of k labels) instead of the paper's 200 sampled subsets; an item takes part "
    "at level k when it has at least k + 1 labels. A classifier's score (Algorithm 1) is read off the "
    "curve: its survey equivalence is the fractional k where the curve first reaches it (Algorithm 4), "
    "or 'below 0' / 'above the largest k'. The Anonymous Bayesian Combiner (Algorithms 5–6) learns the "
    "joint distribution of labels from the other items; with cross-entropy (bits), c_k − c_0 is the "
    "information k raters give about a held-out one (Theorem 1), and the headroom is the information an "
    "ideal classifier that knows each item's state would give, estimated by a nonparametric mixture "
    "(NPMLE) of item states. Ranges are 95% percentile bootstrap intervals over items (the ABC is "
    "re-learned on each replicate)."
)


def _analyses(ratings: Ratings) -> list[tuple[str, str, str]]:
    second = "majority" if ratings.n_classes == 2 else "plurality"
    return [("abc", "cross_entropy", "isotonic"), (second, "agreement", "none")]


def _fmt(x: float | None, spec: str = ".3f") -> str:
    return "—" if x is None else format(x, spec)


def _equiv_text(m: ModelEquivalence) -> str:
    if m.equivalence is not None:
        lo = "0" if m.equivalence_low is None else _fmt(m.equivalence_low, ".2f")
        hi = "above max" if m.equivalence_high is None else _fmt(m.equivalence_high, ".2f")
        return f"{m.equivalence:.2f} [{lo}, {hi}]"
    return {"below_0": "below 0 raters", "above_max": "above the largest k"}.get(
        m.equivalence_note or "", "—"
    )


def survey_section(
    ratings: Ratings,
    gold: Gold | None,
    predictions: Predictions | None,
    *,
    seed: int = 0,
    bootstrap: int = 200,
    **_: Any,
) -> tuple[Any, dict[str, Any] | None]:
    """Run both analyses and lay them out; a one-sentence note when the data cannot support them."""
    from ...plots.survey import plot_power_curve

    title = "Survey equivalence: how many raters is the model worth?"
    if int(ratings.labels_per_item.max()) < 2:
        note = "Every item has a single label, so no rater can be held out to build a power curve."
        return Section("survey", title, note=note), None
    usable = None
    if predictions is not None:
        names = [m.name for m in predictions.models if m.kind in ("label", "proba")]
        usable = predictions.select(names) if names else None
    results: dict[str, Any] = {}
    tables, figures, paragraphs = [], [], []
    if usable is None:
        paragraphs.append(
            "No model predictions were given, so only the power curves are shown (pass --predictions "
            "to place a model on them)."
        )
    for combiner, scorer, calibrate in _analyses(ratings):
        key = f"{combiner}+{scorer}"
        try:
            res: EquivalenceResult = equivalence(
                ratings,
                usable,
                combiner=combiner,
                scorer=scorer,
                bootstrap=bootstrap,
                seed=seed,
                calibrate=calibrate if usable is not None else "none",
                headroom=combiner == "abc",
                progress=False,
            )
        except InputError as exc:
            paragraphs.append(f"{combiner} + {scorer}: not applicable ({exc}).")
            continue
        results[key] = res.to_dict()
        what = f"{combiner.upper() if combiner == 'abc' else combiner} combiner, {scorer} scorer"
        cal = (
            ""
            if calibrate == "none" or usable is None
            else " (models calibrated: isotonic, in-sample)"
        )
        rows = tuple(
            (
                m.model,
                f"{m.score:.4f} [{_fmt(m.low, '.4f')}, {_fmt(m.high, '.4f')}]",
                _equiv_text(m),
                _fmt(m.performance_ratio),
            )
            for m in res.models
        )
        if rows:
            tables.append(
                Table(
                    f"{what}{cal}: each model's score and survey equivalence (95% ranges, "
                    f"{res.bootstrap} bootstraps)",
                    ("model", "score", "equivalent raters", "performance ratio"),
                    rows,
                )
            )
        curve_rows = tuple(
            (
                p.k,
                f"{p.score:.4f}",
                f"[{_fmt(p.low, '.4f')}, {_fmt(p.high, '.4f')}]",
                f"{p.n_items:,}",
                "—" if res.information is None else f"{res.information[i]:.4f}",
            )
            for i, p in enumerate(res.power_curve)
        )
        tables.append(
            Table(
                f"{what}: power curve",
                ("k raters", "score c_k", "95% range", "items", "c_k − c_0 (bits)"),
                curve_rows,
            )
        )
        if res.headroom is not None:
            paragraphs.append(
                f"Headroom: an ideal classifier that knows each item's state would gain "
                f"{res.headroom.information:.4f} bits "
                f"over the k = 0 baseline (NPMLE of item states); a model's performance ratio is the "
                f"information it gives divided by that."
            )
        figures.append(
            Figure.from_matplotlib(
                plot_power_curve(res),
                f"Power curve, {what}: mean score of k raters with 95% bootstrap ranges; each model is a "
                "horizontal band, its survey equivalence a diamond.",
            )
        )
    section = Section(
        "survey",
        title,
        paragraphs=tuple(paragraphs),
        tables=tuple(tables),
        figures=tuple(figures),
    )
    return section, (results or None)


def survey_headline(d: dict[str, Any] | None) -> str | None:
    """One line for the terminal from the embedded results (the ABC + cross-entropy analysis)."""
    if not d:
        return None
    res = d.get("abc+cross_entropy") or next(iter(d.values()))
    parts = []
    for m in res["models"]:
        if m["equivalence"] is not None:
            lo, hi = m["equivalence_low"], m["equivalence_high"]
            rng = f" [{0 if lo is None else lo:.1f}, {'max' if hi is None else f'{hi:.1f}'}]"
            parts.append(f"{m['model']} worth {m['equivalence']:.2f} raters{rng}")
        else:
            parts.append(f"{m['model']} {m['equivalence_note']}")
    curve = res["power_curve"]
    top = f"curve {curve[0]['score']:.3f} → {curve[-1]['score']:.3f} at k = {curve[-1]['k']}"
    head = f"survey equivalence ({res['combiner']} + {res['scorer']}): "
    return head + ("; ".join(parts) if parts else top)
