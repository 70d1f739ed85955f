"""The survey-equivalence section of ``humanly report`` (Resnick et al., *Survey Equivalence*).

Two analyses, as the paper's running example and case studies: the Anonymous Bayesian Combiner scored by
cross-entropy (models calibrated in-sample, the default calibration, Appendix A; with the information view
c_k − c_0 and the headroom estimate) and majority vote (two classes) or plurality scored by agreement.
Both run on every model that gives labels or probabilities, so the embedded results are what
``humanly equivalence --json`` prints. Which rows the page shows follows one rule (``METHODS_TEXT``):
when the predictions hold both hard models (a label per item) and soft ones (a probability per class),
hard models appear under majority/plurality + agreement and soft ones under ABC + cross-entropy — the
paper's Figs. 4 and 5 — and the section says in words what differs; otherwise every model appears under
both. With ``states`` (a simulation's true item states) each table adds HSCORE* and SEQ*, the score and
equivalence against the states (section 6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...study import StudyResult
from ...verdicts.equivalence import (
    baseline_meaning,
    headroom_line,
    percent,
    tails,
    worth_words,
)
from ...verdicts.study import TITLES, run_notes, section_note, section_verdicts
from ...verdicts.targets import target_label, targets_sentence
from ...verdicts.text import number_text
from .._page import Figure, Section, Table, View

if TYPE_CHECKING:
    from ..._core.result import Interval
    from ...study import EquivalenceRun
    from ...survey import EquivalenceResult, ModelEquivalence

__all__ = ["METHODS_TEXT", "equivalence_section"]

METHODS_TEXT = (
    "Survey equivalence (Resnick, Kong, Schoenebeck & Weninger). The power curve c_k is the "
    "expected score of a combiner of k raters' labels at predicting a held-out rater's label "
    "(Algorithm 3), computed exactly from each item's label counts (multivariate hypergeometric "
    "weights over the possible count vectors of k labels) instead of the paper's 200 sampled "
    "subsets; an item takes part at level k when it has at least k + 1 labels. A classifier's score "
    "(Algorithm 1) is read off the curve: its survey equivalence is the fractional k where the "
    "curve first reaches it (Algorithm 4). A score at or below c_0 — the score of the combiner's "
    "prediction from no labels: for the ABC each class's share of the other items' labels, for "
    "majority vote or plurality a label picked at random — is worth less than 0 raters; a score "
    "above every point of the curve is worth more than the largest survey measured. The Anonymous "
    "Bayesian Combiner (Algorithms 5–6) learns the joint distribution of labels from the other "
    "items; with cross-entropy (bits), c_k − c_0 is the information k raters give about a held-out "
    "one (Theorem 1), and the headroom is the information an ideal classifier that knows each "
    "item's state would give, estimated by a nonparametric mixture (NPMLE) of item states. Ranges "
    "are percentile bootstrap intervals over items at the study's confidence level (95% by default; "
    "the ABC is re-learned on each replicate); in the equivalence's range and its bootstrap mean a "
    "replicate at or below c_0 counts as 0 raters, and a replicate above the curve leaves the range "
    "open and the mean undefined. Which analyses the page shows: the ABC scored by cross-entropy, "
    "with probability and label models calibrated in-sample (Appendix A; the default of the API "
    "and the command line: isotonic regression, per value for labels of more than two classes), "
    "and majority vote (two classes) or plurality (more) scored by agreement. When the predictions "
    "hold both hard models (labels) and soft ones (probabilities), hard models are shown under "
    "majority or plurality + agreement and soft ones under ABC + cross-entropy, as in the paper's "
    "running example (Figs. 4 and 5); otherwise every model is shown under both. On simulated data, "
    "HSCORE* and SEQ* score the same predictions against each item's true state instead of a "
    "held-out rater (section 6), with the same combiner, scorer and calibration."
)

_TITLE = TITLES["equivalence"]
_RULE = (
    "Every model is shown under two analyses, as in the paper: the Anonymous Bayesian Combiner (ABC) "
    "scored by cross-entropy, which asks how much information a prediction carries about a rater's "
    "label, in bits (models calibrated in-sample, Appendix A), and majority "
    "vote (two classes) or plurality scored by agreement, which asks how often a label matches a "
    "rater's. The paper prefers the first (section 4): the ABC gives the highest cross-entropy power "
    "curve of any combiner (Theorem 3), hence the lowest equivalence. The verdict sentences quote the first."
)
_NAMES = {"abc": "ABC", "cross_entropy": "cross-entropy"}


def _bracket(rng: Interval) -> str:
    """``[lo, hi]``, or "—" without a bootstrap."""
    lo, hi = rng
    return "—" if lo is None and hi is None else f"[{number_text(lo)}, {number_text(hi)}]"


def _eq_cell(eq: float | None, note: str | None, largest_k: int) -> str:
    if eq is not None:
        return f"{eq:.2f}"
    return {"below_0": "below 0 (at or below c_0)", "above_max": f"above {largest_k}"}.get(
        note or "", "—"
    )


def _range_cell(m: ModelEquivalence, largest_k: int) -> str:
    lo, hi = m.equivalence_interval
    if lo is None and hi is None:
        return f"above {largest_k}" if m.equivalence_note == "above_max" else "—"
    low = "0" if lo == 0 else number_text(lo, ".2f")
    high = f"above {largest_k}" if hi is None else ("0" if hi == 0 else number_text(hi, ".2f"))
    return f"{low} – {high}"


def _items_cell(m: ModelEquivalence, width: float, needed: int | None) -> str:
    lo, hi = m.equivalence_interval
    if m.equivalence is None or lo is None or hi is None or needed is None:
        return "—"
    if hi - lo <= width:
        return f"already narrower ({hi - lo:.2f})"
    return f"{needed:,}"


class _Run:
    """One analysis: its result, its truth counterpart (or ``None``), the models the page shows and,
    with a target width, the items each model's range would need (recorded by the analysis)."""

    def __init__(self, run: EquivalenceRun, width: float | None) -> None:
        assert run.result is not None
        self.res, self.truth, self.shown = run.result, run.truth, tuple(run.shown)
        self.needed = run.items_needed
        self.width = width if run.items_needed is not None else None

    def items(self, m: ModelEquivalence) -> int | None:
        """The items the analysis recorded for model ``m``'s range at the target width."""
        if self.needed is None:
            return None
        return self.needed[self.res.models.index(m)]

    @property
    def what(self) -> str:
        return " + ".join(_NAMES.get(x, x) for x in (self.res.combiner, self.res.scorer))

    @property
    def largest_k(self) -> int:
        return self.res.power_curve[-1].k if self.res.power_curve else 0

    def models(self) -> list[ModelEquivalence]:
        return [m for m in self.res.models if m.model in self.shown]


def _model_table(run: _Run, calibration: str) -> Table | None:
    res, truth, kmax = run.res, run.truth, run.largest_k
    info = res.information is not None
    pct = percent(res.level)
    headers = ["model", f"score [{pct} interval]"]
    headers += ["bits over c_0", "performance ratio"] if info else []
    headers += ["equivalent raters", f"{pct} interval", "bootstrap mean"]
    width = run.width
    headers += [f"items for a {pct} interval < {width:g} raters"] if width is not None else []
    headers += ["HSCORE* (true states)", "SEQ* (true states)"] if truth is not None else []
    rows = []
    for m in run.models():
        row = [m.model, f"{m.score:.4f} {_bracket(m.score_interval)}".removesuffix(" —")]
        if info:
            ratio = m.performance_ratio
            good = ratio is not None and m.information is not None and m.information > 0
            row += [
                number_text(m.information),
                f"{ratio:.0%}" if good and ratio is not None else "—",
            ]
        mean = m.equivalence_mean
        row += [
            _eq_cell(m.equivalence, m.equivalence_note, kmax),
            _range_cell(m, kmax),
            "0" if mean == 0 else number_text(mean, ".2f"),
        ]
        if width is not None:
            row.append(_items_cell(m, width, run.items(m)))
        if truth is not None:
            t = next((x for x in truth.models if x.model == m.model), None)
            k_star = truth.power_curve[-1].k if truth.power_curve else 0
            row += (
                ["—", "—"]
                if t is None
                else [f"{t.score:.4f}", _eq_cell(t.equivalence, t.equivalence_note, k_star)]
            )
        rows.append(tuple(row))
    if not rows:
        return None
    cal = "" if calibration == "none" else f" (models calibrated: {calibration})"
    caption = (
        f"{run.what}{cal}: each model's score and survey equivalence ({pct} intervals and bootstrap "
        f"mean over {res.bootstrap} bootstraps)"
    )
    return Table(caption, tuple(headers), tuple(rows))


def _curve_table(run: _Run) -> Table:
    res, truth = run.res, run.truth
    star = truth is not None and [p.k for p in truth.power_curve] == [p.k for p in res.power_curve]
    headers = ["k raters", "score c_k", f"{percent(res.level)} interval", "items"]
    headers += ["c_k − c_0 (bits)"] if res.information is not None else []
    headers += ["c*_k (true states)"] if star else []
    rows = []
    for i, p in enumerate(res.power_curve):
        row: list[Any] = [
            p.k,
            f"{p.score:.4f}",
            _bracket(p.score_interval),
            f"{p.n_items:,}",
        ]
        row += [f"{res.information[i]:.4f}"] if res.information is not None else []
        row += [f"{truth.power_curve[i].score:.4f}"] if star and truth is not None else []
        rows.append(tuple(row))
    return Table(f"{run.what}: power curve", tuple(headers), tuple(rows))


def _cell_notes(run: _Run) -> list[str]:
    """Sentences for the cells that need words (below 0, above the curve, an end at 0, "—")."""
    res, ms, kmax = run.res, run.models(), run.largest_k
    pct, (tail, _) = percent(res.level), tails(res.level)
    out = []
    if any(m.equivalence_note == "below_0" for m in ms) and res.power_curve:
        out.append(
            f"{run.what}: 'below 0' means the model's score is at or below c_0 = "
            f"{res.power_curve[0].score:.4f}, the score of {baseline_meaning(res.combiner)}; it is "
            "worth less than 0 raters."
        )
    if any(m.equivalence_note == "above_max" for m in ms):
        out.append(
            f"{run.what}: 'above {kmax}' means the score is above every point of the curve: the "
            f"model is worth more than {kmax} raters, the largest survey measured."
        )
    if any(m.equivalence_interval.low == 0 for m in ms):
        out.append(
            f"{run.what}: a range starting at 0 means at least {tail} of the bootstrap replicates "
            "are at or below c_0 (they count as 0 raters in the range and the mean)."
        )
    if any(
        m.equivalence_interval.high is None and m.equivalence_interval.low is not None for m in ms
    ):
        out.append(
            f"{run.what}: a range ending 'above {kmax}' means at least {tail} of the replicates lie "
            "above the curve; the bootstrap mean is then undefined (—)."
        )
    if res.bootstrap == 0:
        out.append(f"{run.what}: ranges and bootstrap means are '—' because no bootstrap was run.")
    width = run.width
    if width is not None and any(_items_cell(m, width, run.items(m)) == "—" for m in ms):
        out.append(
            f"{run.what}: items '—' means there is no equivalence to narrow (the score is below 0 or "
            "above the curve) or its range has no upper end."
        )
    if width is not None and ms:
        out.append(
            f"{run.what}: the items for a {pct} interval narrower than {width:g} raters assume the "
            f"range narrows as 1/√N from its width on the {res.n_items:,} items at hand (an "
            "approximation)."
        )
    if res.headroom is not None and any(
        m.information is not None and m.information <= 0 for m in ms
    ):
        out.append(
            f"{run.what}: a performance ratio '—' means the model gives no information over c_0."
        )
    return out


def _headroom_text(res: EquivalenceResult) -> str | None:
    line = headroom_line(res)
    if line is None:
        return None
    return (
        f"{line[:1].upper()}{line[1:]}; a model's performance ratio is the information it gives "
        "divided by that."
    )


def _truth_text(runs: Sequence[_Run]) -> str | None:
    parts = [f"{r.truth.ideal_score:.4f} under {r.what}" for r in runs if r.truth is not None]
    if not parts:
        return None
    return (
        "These data are simulated, so each item's true state is known: HSCORE* scores a model against "
        "the state instead of a held-out rater, c*_k scores k raters the same way and SEQ* reads "
        "HSCORE* off c*_k (the paper's section 6). The ideal classifier, which outputs each item's "
        f"state and is the limit of c*_k as k grows, scores {' and '.join(parts)}."
    )


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-9 * max(1.0, abs(a))


def _paper_text(ce: _Run, ag: _Run, hard: Sequence[str], soft: Sequence[str]) -> list[str]:
    """What differs between the two analyses when the predictions hold hard and soft models (the
    paper's running example), and why rows would coincide."""
    worth = [
        f"{m.model} is worth {worth_words(m, ag.largest_k)} under {ag.what}" for m in ag.models()
    ]
    worth += [
        f"{m.model} is worth {worth_words(m, ce.largest_k)} under {ce.what}" for m in ce.models()
    ]
    out = [
        f"The predictions hold hard models ({', '.join(hard)}: a label per item) and soft ones "
        f"({', '.join(soft)}: a probability per class). As in the paper's running example, hard "
        f"models are shown under {ag.what}, which asks how often a label matches a random rater's "
        f"(Fig. 4), and soft ones under {ce.what}, which asks how much information a prediction "
        f"carries about a rater's label, in bits (Fig. 5): {'; '.join(worth)}. The paper prefers the "
        "second (section 4): the ABC gives the highest cross-entropy power curve of any combiner "
        "(Theorem 3), hence the lowest equivalence, while other combiners and scorers make a "
        "classifier look better than it is at predicting a rater's label."
    ]
    ce_score = {m.model: m.score for m in ce.res.models}
    ag_score = {m.model: m.score for m in ag.res.models}
    twins = []
    for h in hard:
        for s in soft:
            if h in ce_score and s in ce_score and h in ag_score and s in ag_score:
                if _same(ce_score[h], ce_score[s]) and _same(ag_score[h], ag_score[s]):
                    twins.append((h, s))
    for h in hard:
        if h not in ce_score:
            continue
        same = [s for s in soft if s in ce_score and _same(ce_score[h], ce_score[s])]
        out.append(
            f"{h} is not in the {ce.what} table: a label is not a probability, so it has no "
            "cross-entropy of its own (scored as a near-certain probability it loses heavily "
            "whenever a rater disagrees). Calibrated — each label replaced by the share of each class "
            f"among the raters' labels of the items given that label — it scores "
            f"{ce_score[h]:.4f} bits" + (f", the same as {', '.join(same)}." if same else ".")
        )
    for s in soft:
        if s not in ag_score:
            continue
        same = [h for h in hard if h in ag_score and _same(ag_score[s], ag_score[h])]
        out.append(
            f"{s} is not in the {ag.what} table: scored by agreement, a soft model counts as its "
            f"most likely class; it scores {ag_score[s]:.4f}"
            + (f", the same as {', '.join(same)}." if same else ".")
        )
    for h, s in twins:
        out.append(
            f"So {h} and {s} carry the same information here, as in the paper's running example "
            "(where the soft classifier's probability depends only on the hard classifier's label): "
            "under either analysis they would have identical rows. The difference between the two "
            "tables is the analysis, not the classifier."
        )
    return out


def equivalence_section(study: StudyResult, view: View) -> Section:
    """Lay out ``study.equivalence``: per analysis its model table, power curve table and figure, the
    words for the cells that need them, and one verdict per model; a one-sentence note when the data
    cannot support a power curve."""
    from ...plots.equivalence import plot_power_curve

    if not study.equivalence:
        return Section("equivalence", _TITLE, note=section_note(study, "equivalence"))
    names = [m for m, k in zip(study.models, study.model_kinds, strict=True) if k != "score"]
    hard = [m for m, k in zip(study.models, study.model_kinds, strict=True) if k == "label"]
    soft = [n for n in names if n not in hard]
    paper = bool(hard and soft)
    paragraphs: list[str] = []
    notes: list[str] = []
    tables, figures = [], []
    if not names:
        paragraphs.append(
            "No model predictions were given, so only the power curves are shown (pass --predictions "
            "to place a model on them)."
        )
    runs: list[_Run] = []
    for r in study.equivalence:
        missing, truth_missing = run_notes(r)
        if r.result is None:
            paragraphs += [missing] if missing else []
            continue
        notes += [truth_missing] if truth_missing else []
        run = _Run(r, study.settings.target_width)
        runs.append(run)
        table = _model_table(run, r.result.calibration)
        tables += [t for t in (table, _curve_table(run)) if t is not None]
        figures.append(_figure(plot_power_curve, run, view.colors))
        if r.result.targets:  # AnalyzeOptions(targets=...): one curve per target panel
            figures.append(_targets_figure(run, view.colors))
            paragraphs += [
                t for t in (targets_sentence(r.result, m) for m in run.shown) if t is not None
            ]
        notes += _cell_notes(run)
        head = _headroom_text(r.result)
        paragraphs += [head] if head else []
    by_kind = {r.res.combiner == "abc": r for r in runs}
    if paper and True in by_kind and False in by_kind:
        paragraphs[:0] = _paper_text(by_kind[True], by_kind[False], hard, soft)
    elif names:
        paragraphs.insert(0, _RULE)
    truth_text = _truth_text(runs)
    return Section(
        "equivalence",
        _TITLE,
        paragraphs=tuple(paragraphs + ([truth_text] if truth_text else []) + notes),
        tables=tuple(tables),
        figures=tuple(figures),
        verdicts=section_verdicts(study, "equivalence"),
    )


def _targets_figure(run: _Run, colors: Mapping[str, str]) -> Figure:
    from ...plots.equivalence import plot_target_panels

    panels = ", ".join(target_label(e.target) for e in run.res.targets)
    caption = (
        f"Power curves of {run.what} against each target panel ({panels}): c_k when the panels of k "
        "raters and the models are scored against the plurality of t other raters (t = ∞: the "
        "latent-class model's posterior state); a marker on each curve where a model crosses it."
    )
    fig = plot_target_panels(run.res, colors=colors, models=run.shown)
    return Figure.from_matplotlib(fig, caption)


def _figure(plot: Any, run: _Run, colors: Mapping[str, str]) -> Figure:
    star = "; dashed: c*_k, k raters scored against the true states" if run.truth else ""
    pct = percent(run.res.level)
    notes = {m.equivalence_note for m in run.models()}
    ends = "".join(
        text
        for note, text in (
            ("below_0", "; a triangle at k = 0 marks a score at or below c_0"),
            ("above_max", f"; a triangle at k = {run.largest_k} marks a score above the curve"),
        )
        if note in notes
    )
    caption = (
        f"Power curve, {run.what}: c_k with its {pct} bootstrap interval (grey band){star}. Each model "
        f"shown is a horizontal line in its colour (light band: its score's {pct} interval); a diamond "
        f"on the curve marks its survey equivalence and a thick segment that equivalence's {pct} "
        f"range{ends}."
    )
    fig = plot(run.res, colors=colors, models=run.shown, truth=run.truth)
    return Figure.from_matplotlib(fig, caption)
