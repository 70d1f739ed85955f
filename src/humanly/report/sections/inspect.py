"""The data section of ``humanly report``: the ratings at a glance (what ``humanly inspect`` prints) —
sizes, agreement with its bootstrap intervals, gold and models; with named raters the raters table and
a figure of rater quality; and the study-level verdicts (:mod:`humanly.verdicts.inspect`)."""

from __future__ import annotations

import math
from typing import Any

from ...crowd.inspect import InspectResult
from ...study import StudyResult
from ...verdicts.agreement import family_caption, family_headers, family_rows
from ...verdicts.inspect import (
    RATERS_SHOWN,
    bootstrap_caption,
    dawid_skene_text,
    interval_text,
    rater_spreads,
    shown_raters,
    undefined_reason,
)
from ...verdicts.notes import notes_text
from ...verdicts.study import TITLES, section_note, section_verdicts
from .._page import Figure, Section, Table, View

__all__ = ["METHODS_TEXT", "inspect_section"]

METHODS_TEXT = (
    "Data. Pairwise agreement is the mean over items with at least two labels of the share of "
    "agreeing ordered pairs of distinct raters, Σ_c n_c(n_c − 1) / (n(n − 1)). Fleiss' kappa (Fleiss "
    "1971) uses that mean as observed agreement and the pooled class shares for chance agreement; with "
    "unequal numbers of labels per item this is the usual generalisation and reduces to Fleiss' kappa "
    "when every item has the same number. Krippendorff's alpha is the nominal alpha computed from the "
    "coincidence matrix of per-item counts. Kappa and alpha are undefined (shown as —) when every label "
    "is the same class. Ties of the plurality label get fractional credit 1/|tied classes|. "
    "The intervals in brackets are percentile bootstrap intervals over items: each replicate "
    "(seed as on the page) resamples the items with replacement and recomputes the three statistics, "
    "and the interval runs between the (1 − level)/2 and (1 + level)/2 order statistics of the "
    "replicates. Raters are not resampled: the intervals treat items as independent draws and ignore "
    "rater effects shared across items, so with a few raters who give many of the labels they are too "
    "narrow. Per rater (named raters only): agreement is the mean credit of the rater's labels against "
    "the plurality of the other labels of the same item (1 for its strict plurality, 1/|T| when tied "
    "with |T| − 1 other top classes, 0 otherwise; a label alone on its item is skipped), and the crowd "
    "agreement is the same mean over every compared label, so raters who give many labels weigh more "
    "in it than in the median over raters. The Dawid–Skene accuracy Σ_c π_c θ_r[c, c] comes from the "
    "maximum-likelihood Dawid & Skene (1979) model (EM from 22 starts — the plurality, the vote shares "
    "and seeded random perturbations of each — screened a few steps at a time, the best run to "
    "convergence and the highest likelihood kept; accelerated with SQUAREM; converged when π and θ "
    "are estimated to be within 1e-6 of EM's fixed point); it assumes raters are independent "
    "given the true class and that their confusion matrices do not depend on the item. Gold accuracy "
    "is the share of a rater's labels on gold items that equal gold. The per-rater numbers have no "
    "intervals: a rater with few labels has a noisy score, so read it next to the number of labels. "
    "The agreement family table gives each chance-corrected coefficient at the labels' measurement "
    "scale (Gwet 2014; Krippendorff 2011): its estimate, Gwet's analytic standard error (conditional "
    "on the raters, over items) with a t interval on n − 1 degrees of freedom capped at 1, the "
    "percentile bootstrap interval over items, and Gwet's benchmark reading — the highest Landis & "
    "Koch band whose probability, under a normal distribution centred on the estimate with that "
    "standard error and truncated to [−1, 1], reaches the confidence level."
)


def _fmt(x: Any, digits: int = 4) -> str:
    if isinstance(x, float):
        return "—" if not math.isfinite(x) else f"{x:.{digits}f}"
    return "—" if x is None else str(x)


def _statistic(s: InspectResult, name: str) -> str:
    """``0.6287 [0.617, 0.640]``, or "— (undefined: why)"."""
    value = getattr(s.agreement, name)
    if not math.isfinite(value):
        return f"— (undefined: {undefined_reason(s)})"
    ci = s.agreement_intervals
    return _fmt(value) + ("" if ci is None else " " + interval_text(getattr(ci, name)))


def _counts(c: Any) -> str:
    return f"{c.min:,} / {c.median:,g} / {c.mean:,.1f} / {c.max:,}"


def _glance(s: InspectResult) -> Table:
    rows: list[tuple[str, str]] = [
        ("items", f"{s.n_items:,}"),
        ("raters", "anonymous counts" if s.n_raters is None else f"{s.n_raters:,}"),
        ("labels", f"{s.n_labels:,}"),
        ("classes", ", ".join(map(str, s.classes))),
        ("labels per item (min / median / mean / max)", _counts(s.labels_per_item)),
    ]
    if s.labels_per_rater is not None:
        rows.append(("labels per rater (min / median / mean / max)", _counts(s.labels_per_rater)))
    rows += [(f"share of '{k}'", f"{v:.1%}") for k, v in s.class_frequencies.items()]
    rows += [
        ("items with ≥ 2 labels", f"{s.agreement.n_items:,}"),
        ("pairwise agreement", _statistic(s, "pairwise")),
        ("Fleiss' κ", _statistic(s, "fleiss_kappa")),
        ("Krippendorff's α (nominal)", _statistic(s, "krippendorff_alpha")),
    ]
    if s.raters is not None:
        rows.append(("crowd agreement (mean over labels)", _fmt(s.raters.crowd_agreement)))
        rows.append(("Dawid–Skene", dawid_skene_text(s.raters)))
    if s.gold:
        rows += [
            ("items with gold", f"{s.gold.n_items:,}"),
            ("plurality label = gold", _fmt(s.gold.plurality_accuracy)),
            ("single label = gold", _fmt(s.gold.label_accuracy)),
        ]
    caption = "The ratings at a glance."
    if s.agreement_intervals is not None and math.isfinite(s.agreement.pairwise):
        caption += " " + bootstrap_caption(s.agreement_intervals) + "."
    return Table(caption, ("quantity", "value"), tuple(rows))


def _models(s: InspectResult) -> Table:
    return Table(
        "Models. — : a score has no plurality label to agree with; no gold labels.",
        ("model", "output", "items", "agrees with plurality", "gold accuracy"),
        tuple(
            (
                m.model,
                m.kind,
                f"{m.n_items:,}",
                _fmt(m.plurality_agreement),
                _fmt(m.gold_accuracy),
            )
            for m in s.models
        ),
    )


def _raters_table(s: InspectResult) -> Table:
    """Top and bottom raters by labels given, then the spread of each column over all raters."""
    assert s.raters is not None
    keys = ["agreement"]
    keys += ["dawid_skene_accuracy"] * (s.raters.dawid_skene is not None)
    keys += ["gold_accuracy"] * (s.gold is not None)
    headers = {
        "agreement": "agreement",
        "dawid_skene_accuracy": "Dawid–Skene accuracy",
        "gold_accuracy": "gold accuracy",
    }
    shown, hidden = shown_raters(s.raters)
    rows: list[tuple[str, ...]] = []
    for i, r in enumerate(shown):
        if hidden and i == RATERS_SHOWN:
            rows.append((f"… {hidden:,} more raters", "", "", *([""] * len(keys))))
        values = (_fmt(getattr(r, k), 3) for k in keys)
        rows.append((str(r.rater), f"{r.n_labels:,}", f"{r.n_compared:,}", *values))
    spreads = rater_spreads(s.raters)
    for name, part in (("median", "median"), ("middle half", "q1"), ("range", "min")):
        cells = []
        for k in keys:
            sp = spreads[k]
            if sp is None:
                cells.append("—")
            elif part == "median":
                cells.append(f"{sp.median:.2f}")
            elif part == "q1":
                cells.append(f"{sp.q1:.2f}–{sp.q3:.2f}")
            else:
                cells.append(f"{sp.min:.2f}–{sp.max:.2f}")
        rows.append((f"{name} over raters", "", "", *cells))
    crowd = [_fmt(s.raters.crowd_agreement, 3)] + [""] * (len(keys) - 1)
    if s.gold is not None and "gold_accuracy" in keys:
        crowd[-1] = _fmt(s.gold.label_accuracy, 3)
    rows.append(("crowd (mean over labels)", f"{s.n_labels:,}", "", *crowd))
    which = (
        f"the {RATERS_SHOWN} with the most and the {RATERS_SHOWN} with the fewest"
        if hidden
        else "all"
    )
    caption = (
        f"Raters by labels given ({which}; every rater is in the embedded JSON). Agreement: mean "
        "credit against the plurality of the other labels of the same item; — : undefined (no other "
        "label on the rater's items, or no gold item, or a Dawid–Skene fit that did not converge)."
    )
    return Table(caption, ("rater", "labels", "compared", *(headers[k] for k in keys)), tuple(rows))


def inspect_section(study: StudyResult, view: View) -> Section:
    """The data section: the ratings at a glance, the models, the raters and their figures, and the
    study-level verdicts, from ``study.inspect``.

    >>> from humanly import analyze, simulate
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> res = analyze(d.ratings, d.predictions, d.gold, bootstrap=100)
    >>> section = inspect_section(res, View({}, res.models, {}))
    >>> len(section.tables), len(section.figures), len(section.verdicts)
    (4, 2, 2)
    """
    from ...plots.inspect import data_overview, rater_quality

    s = study.inspect
    if s is None:  # a study of pairwise votes (its page has no data section)
        return Section("inspect", TITLES["inspect"], note=section_note(study, "inspect"))
    tables = [_glance(s)]
    if s.models:
        tables.append(_models(s))
    figures = [
        Figure.from_matplotlib(
            data_overview(s),
            "Labels per item (left: how many items received each number of labels) and the share "
            "of all labels in each class (right).",
        )
    ]
    if s.raters is not None:
        tables.append(_raters_table(s))
        if any(r.agreement is not None for r in s.raters.rows):
            figures.append(Figure.from_matplotlib(rater_quality(s.raters), _rater_caption(s)))
    if s.family is not None:
        caption = "The agreement family, one row per coefficient. " + family_caption(s.family)
        notes = " ".join(notes_text(s.family.notes)) or None
        rows = tuple(family_rows(s.family))
        tables.append(Table(caption + ".", family_headers(s.family), rows, notes))
    return Section(
        "inspect",
        TITLES["inspect"],
        tables=tuple(tables),
        figures=tuple(figures),
        verdicts=section_verdicts(study, "inspect"),
    )


def _rater_caption(s: InspectResult) -> str:
    assert s.raters is not None
    fit = s.raters.dawid_skene
    crosses = (
        "crosses: the rater's Dawid–Skene accuracy; "
        if fit is not None and fit.converged
        else "no Dawid–Skene accuracies (the fit did not converge); "
        if fit is not None
        else ""
    )
    return (
        "Rater quality. Each point is a rater's agreement with the plurality of the other labels of "
        f"the same items (area: labels given), raters sorted by it; {crosses}dashed line: the crowd "
        "agreement (the mean over every compared label, so raters with many labels count more). "
        "Raters whose labels never share an item with another label are left out."
    )
