"""The judge section of ``humanly report``: model accuracies from a few human labels and a judge's labels
on every item (prediction-powered inference, PPI++), the human-only intervals beside them, the paired
comparisons and the frontier check (Dorner, Nastl & Hardt).

The numbers come from ``study.judge`` (:func:`humanly.judging.judge`, run once by
:func:`humanly.analyze` when the study carries a judge); this module only lays them out, so
``humanly report --from results.json`` draws the same page. A study without a judge has no judge
section (:func:`judge_section` returns ``None``); one whose judge analysis could not run has the
reason as its note.
"""

from __future__ import annotations

from ...judging import Estimate, JudgeResult
from ...study import StudyResult
from ...verdicts.judge import ESTIMATOR_NAMES, INTERVAL_NAMES, percent, points
from ...verdicts.notes import notes_text
from ...verdicts.study import TITLES, has_section, section_note, section_verdicts
from .._page import Figure, Section, Table, View

__all__ = ["METHODS_TEXT", "judge_section"]

TITLE = TITLES["judge"]

METHODS_TEXT = (
    "Judge-assisted evaluation (prediction-powered inference: Angelopoulos, Bates, Fannjiang, Jordan & "
    "Zrnic, Science 2023; PPI++: Angelopoulos, Duchi & Zrnic 2023). A judge (an LLM or a strong "
    "classifier) labels every item; human raters label n of them. Per item and model, Y is the "
    "model's credit against the human reference (the share of the item's human labels equal to the "
    "model's prediction, or its plurality label) and f the judge's score (its probability of the "
    "model's class; 1 or 0 for a judge that gives labels). The accuracy is θ̂ = λ·mean(f) over the N "
    "unlabelled items + mean(Y − λ·f) over the n labelled ones: unbiased whatever the judge's "
    "quality, with a CLT interval; λ is tuned to minimise the variance (PPI++), 1 (PPI) or 0 (human "
    "labels only, the classical interval). A comparison of two models uses the per-item differences "
    "of both (paired). The effective number of human labels is the n that alone would give the same "
    "standard error (σ²/se²). With an active design (Zrnic & Candès, ICML 2024) the items sent to "
    "raters were drawn with known probabilities π from the judge's uncertainty and every term is "
    "weighted by 1/π. Frontier check (Dorner, Nastl & Hardt, ICLR 2025): the judge's accuracy and "
    "each model's are compared on the labelled items (paired CLT interval); when the judge is not "
    "shown more accurate than the model, no debiasing method can save more than a factor two in "
    "human labels, and the saving measured here is shown beside it. By default (interval='auto') "
    "an estimate from fewer labelled items than the n from which PPI's central-limit interval keeps "
    "its level in simulation (500 for one accuracy, 200 for a difference) takes the small-sample "
    "interval instead: the human labels alone with pseudo-observations at the ends of the range "
    "(Agresti & Coull 1998; Agresti & Min 2005), which does not use the judge; interval='clt' keeps "
    "PPI's, 'adjusted' always takes the small-sample one. Design check: the judges' outputs on "
    "the labelled and the unlabelled items are compared "
    "column by column (exact permutation chi-square with Besag & Clifford's sequential p-value, "
    "Bonferroni, p < 0.01), since PPI assumes the "
    "labelled items are a random sample of all items (or drawn with known probabilities, then "
    "weighted by them); a judge whose outputs are a model's on every item is flagged."
)


def _pct(low: float | None, high: float | None) -> str:
    return f"[{percent(low)}, {percent(high)}]"


def _share(x: float | None) -> str:
    """An accuracy in a table: a fraction with 3 decimals (the export keeps it a number)."""
    return "—" if x is None else f"{x:.3f}"


def _shares(low: float | None, high: float | None) -> str:
    return f"[{_share(low)}, {_share(high)}]"


def _pts(low: float | None, high: float | None) -> str:
    return f"[{points(low)}, {points(high)}]"


def _row(name: str, e: Estimate, difference: bool) -> tuple[object, ...]:
    show, span = (points, _pts) if difference else (_share, _shares)
    return (
        name,
        show(e.point),
        span(*e.interval),
        show(e.classical_point),
        span(*e.classical_interval),
        e.lam,
        None if e.effective_n is None else round(e.effective_n),
        e.saving,
        e.n,
        INTERVAL_NAMES.get(e.interval_method, e.interval_method),
    )


def _estimates_table(r: JudgeResult) -> Table:
    level = f"{round(r.level * 100, 6):g}%"
    rows = [_row(f"accuracy of {m.model}", m.accuracy, False) for m in r.models]
    rows += [_row(f"{c.first} − {c.second} (points)", c.difference, True) for c in r.comparisons]
    return Table(
        f"Accuracies from {r.n_labelled:,} human-labelled and {r.n_unlabelled:,} judge-only items "
        f"({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}), with the human-only estimate beside "
        "each; effective n: the human labels that alone would give the same width.",
        (
            "estimand",
            "estimate",
            f"{level} interval",
            "human only",
            f"{level} interval (human only)",
            "λ",
            "effective n",
            "saving",
            "n",
            "interval used",
        ),
        tuple(rows),
    )


def _frontier_table(r: JudgeResult) -> Table:
    f = r.frontier
    assert f is not None
    return Table(
        f"Frontier check on the {f.n:,} human-labelled items: the judge's accuracy "
        f"{percent(f.judge_accuracy)} {_pct(*f.judge_interval)} against each model's. Unless the "
        "judge is more accurate, at most a factor two in human labels can be saved (Dorner, Nastl & "
        "Hardt).",
        (
            "model",
            "accuracy",
            "interval",
            "judge − model (points)",
            "interval (points)",
            "status",
            "at most ×2",
            "saving",
        ),
        tuple(
            (
                row.model,
                _share(row.model_accuracy),
                _shares(*row.model_interval),
                points(row.judge_minus_model),
                _pts(*row.judge_minus_model_interval),
                row.status,
                "yes" if row.at_most_twice else "no",
                row.saving,
            )
            for row in f.models
        ),
    )


def _gold_table(r: JudgeResult) -> Table:
    return Table(
        "Validation against gold labels (never used by the estimates).",
        ("name", "role", "items with gold", "accuracy", "interval"),
        tuple((g.name, g.role, g.n, _share(g.accuracy), _shares(*g.interval)) for g in r.gold),
    )


def _intro(r: JudgeResult) -> str:
    kind = "class probabilities" if r.judge_kind == "proba" else "labels"
    reference = (
        "its plurality human label"
        if r.reference == "plurality"
        else "its mean agreement with its human raters (the label itself when there is one)"
    )
    design = (
        "The labelled items were drawn with known probabilities from the judge's uncertainty (active "
        "design), so every term is inverse-probability weighted. "
        if r.design == "active"
        else ""
    )
    return (
        f"The judge {r.judge} gave {kind} for all {r.n_labelled + r.n_unlabelled:,} items; human "
        f"raters labelled {r.n_labelled:,} of them. Each model's accuracy combines both "
        f"({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}): unbiased whatever the judge's quality, "
        f"with intervals at {round(r.level * 100, 6):g}%. A model's credit on an item is "
        f"{reference}. {design}"
    ).rstrip()


def judge_section(study: StudyResult, view: View) -> Section | None:
    """Lay out ``study.judge``; a one-sentence note when the judge analysis could not run; ``None``
    (no section) when the study carries no judge. ``view`` gives the models' colours.

    >>> from humanly._core.result import Interval
    >>> from humanly import analyze, Ratings
    >>> res = analyze(Ratings.from_counts([[2, 1], [0, 3]]), bootstrap=0)
    >>> judge_section(res, View({}, (), {})) is None
    True
    """
    if not has_section(study, "judge"):
        return None
    r = study.judge
    if r is None:
        return Section("judge", TITLE, note=section_note(study, "judge"))
    tables = [_estimates_table(r)]
    if r.frontier is not None:
        tables.append(_frontier_table(r))
    if r.gold:
        tables.append(_gold_table(r))
    paragraphs = [_intro(r), *(f"Note: {n}." for n in notes_text(r.notes))]
    return Section(
        "judge",
        TITLE,
        paragraphs=tuple(paragraphs),
        tables=tuple(tables),
        figures=(_figure(r, view),),
        verdicts=section_verdicts(study, "judge"),
    )


def _figure(r: JudgeResult, view: View) -> Figure:
    from ...plots.judge import judge_intervals

    level = f"{round(r.level * 100, 6):g}%"
    return Figure.from_matplotlib(
        judge_intervals(r, view.colors),
        f"Each model's accuracy and each pair's difference: the {level} interval from the human "
        f"labels and the judge's ({ESTIMATOR_NAMES.get(r.estimator, r.estimator)}, thick) above the "
        "interval from the human labels alone (grey).",
    )
