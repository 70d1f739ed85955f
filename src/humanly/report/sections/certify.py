"""The certify section of ``humanly report`` (a builder for :data:`humanly.report.build.BUILDERS`).

The section lays out a
:class:`~humanly.certification.CertifyResult` (no statistics here): the upper bounds with Lemma 2's
check, each model's verdict under the U_N used and under the other upper bound, the checks against gold, the
figures, and the verdict sentences of :mod:`humanly.verdicts.certify`.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...certification import CertifyResult
from ...study import StudyResult
from ...verdicts.certify import (
    bounds_held,
    format_confidence,
    format_number,
    lemma2_text,
    status_text,
)
from ...verdicts.notes import notes_text
from ...verdicts.study import TITLES, section_note, section_verdicts
from ...verdicts.text import check_text
from .._page import Figure, Section, Table, View

__all__ = ["METHODS_TEXT", "certify_section"]

METHODS_TEXT = (
    "Certify (Xu, Walder & Xu, Humanly Certifying Superhuman Classifiers). The average rater's "
    "oracle accuracy is bounded above by U⁽ᵗ⁾ = sqrt(1/K² Σᵢⱼ P(ℓᵢ = ℓⱼ)) (Theorem 1, eq. 2; assumes "
    "raters are positively correlated given the oracle) and approximated by U⁽ᵉ⁾, the same mean "
    "without the diagonal (eq. 8); K is each item's own number of labels (slots reading). U⁽ᵉ⁾ is the "
    "paper's choice for U_N and humanly's default, but only U⁽ᵗ⁾ is proved to bound the average rater; "
    "U⁽ᵉ⁾ approaches it as K grows when raters agree more often than chance (Lemma 2, P(ℓᵢ = ℓⱼ) ≥ "
    "1/N_c; the paper advises more raters per item than classes), so every verdict is also given under "
    "U⁽ᵗ⁾. A model's oracle accuracy is bounded below by its agreement L_N with the plurality label "
    "(Theorem 3, eq. 11; ties get credit 1/|tied classes|; a model given as probabilities enters by its "
    "argmax; assumes the model is more often right than any single wrong class where the plurality is "
    "wrong). Finite-sample bounds use Hoeffding's inequality (Theorems 5 and 6). The confidence "
    "S = 1 − δ_u − δ_l (Theorem 7) that the model beats the average rater by at least a margin τ "
    "(τ = 0 unless stated) is reported with the heuristic split (HMS) and maximised over the "
    "admissible range t_u ∈ [0, (L_N − τ)² − U_N²] (OMS). A model is certified when S_OMS reaches "
    "the level (0.95 unless stated). S is a union bound and can be negative: then the finite-sample "
    "deviations at this N do not fit inside the margin, reported as 'no evidence (S < 0)', not as "
    "a probability; when L_N ≤ U_N + τ no t_u is admissible, S is not defined and the model is 'not "
    "applicable' (not superhuman by these bounds, which does not show it is worse). The items needed "
    "are the smallest number of test items, labelled by the same crowd, at which the same L_N and "
    "U_N would be certified. With gold labels, each assumption of Table 2 is reported as a "
    "difference with a 95% interval (normal approximation over items): 'consistent', or 'evidence "
    "against at 95%' when the interval excludes what the assumption allows."
)

_UPPER = {"empirical": "U⁽ᵉ⁾", "theoretical": "U⁽ᵗ⁾"}


def _f(x: float | None) -> str | None:
    return None if x is None else f"{x:.4f}".replace("-", "−")


def _signed(x: float | None) -> str | None:
    return None if x is None else f"{x:+.4f}".replace("-", "−")


def _s(admissible: bool, s: float | None) -> str | None:
    """S as text; "n/a" only when S is not defined (no admissible t_u)."""
    return format_confidence(s) if admissible else "n/a"


def _k(res: CertifyResult) -> str:
    a = res.raters
    if a.labels_per_item is None:
        return "—"
    if a.ragged:
        low, high = a.min_labels_per_item, a.max_labels_per_item
        return f"{low}–{high} labels per item (mean {a.labels_per_item:.1f})"
    return f"{a.labels_per_item:g} labels per item"


def _upper_table(res: CertifyResult) -> Table:
    ub = res.upper_bound
    rows: list[tuple[str, str | None]] = [
        ("U⁽ᵗ⁾, theorem-backed upper bound (Theorem 1, eq. 2)", _f(ub.theoretical)),
        ("U⁽ᵉ⁾, empirical upper bound (eq. 8, the paper's choice)", _f(ub.empirical)),
        ("U_N the verdict rests on", f"{_UPPER.get(ub.used, ub.used)} = {ub.upper:.4f}"),
        ("items behind U_N (N)", f"{ub.n:,}"),
        (
            f"finite-sample upper bound √(U_N² + t_u) (Hoeffding, δ = {res.delta:g})",
            _f(ub.finite["hoeffding"].value),
        ),
        ("raters per item (K)", _k(res)),
    ]
    c = ub.lemma2
    if c is not None:
        lemma = lemma2_text(c)
        if lemma is not None:
            rows.append(("Lemma 2: pairwise agreement ≥ 1/N_c", lemma))
        if c.more_raters_than_classes is not None:
            share = c.share_more_raters or 0.0
            text = (
                f"every item has more raters than the {c.n_classes} classes"
                if c.more_raters_than_classes
                else f"{share:.1%} of the items have more raters than the {c.n_classes} classes "
                "(the paper advises more raters than classes)"
            )
            rows.append(("raters per item vs classes", text))
        if c.ratio is not None:
            bound = "" if c.ratio_bound is None else f" (≤ {c.ratio_bound:.4f} by Lemma 2's proof)"
            rows.append(("U⁽ᵗ⁾/U⁽ᵉ⁾", f"{c.ratio:.4f}{bound}"))
    return Table("The average rater: upper bounds", ("quantity", "value"), tuple(rows))


def _models_table(res: CertifyResult) -> Table:
    ub = res.upper_bound
    used = _UPPER.get(ub.used, ub.used)
    other = "theoretical" if ub.used == "empirical" else "empirical"
    o = _UPPER[other]
    tau = f", τ = {res.tau:g}: superhuman by at least τ?" if res.tau else ""
    headers: tuple[str, ...] = (
        "model",
        "L_N",
        f"U_N ({used})",
        "margin L_N − U_N",
        "S (HMS)",
        "S (OMS)",
    )
    headers += ("evidence", "items needed", f"S (OMS) under {o}", f"evidence under {o}")
    headers += (f"items needed under {o}",)
    rows = []
    for m in res.models:
        c, e = m.confidence, m.evidence
        v = m.by_upper.get(other)
        rows.append(
            (
                m.model,
                _f(m.lower),
                _f(ub.upper),
                _signed(m.margin),
                _s(c.admissible, c.hms),
                _s(c.admissible, c.oms),
                None if e is None else status_text(e.status),
                None if m.items_needed is None else f"{m.items_needed:,}",
                None if v is None else _s(v.confidence.admissible, v.confidence.oms),
                None if v is None else status_text(v.evidence.status),
                None if v is None or v.items_needed is None else f"{v.items_needed:,}",
            )
        )
    caption = (
        f"Models (Hoeffding bound, level {res.level:g}{tau}); the verdict rests on U_N = {used} = "
        f"{ub.upper:.4f}, the columns under {o} give the verdict under the other upper bound"
    )
    return Table(caption, headers, tuple(rows))


def _gold_tables(res: CertifyResult) -> list[Table]:
    o = res.oracle
    assert o is not None

    uppers = {"theoretical_upper": "U⁽ᵗ⁾", "empirical_upper": "U⁽ᵉ⁾", "finite_upper": "finite U"}
    rows: list[tuple[str, str | None, str]] = [
        ("the average rater", _f(o.average_rater), bounds_held(o, uppers, upper=True)),
        (f"the {res.aggregate or 'aggregate'} label", _f(o.aggregate_accuracy), ""),
    ]
    for name, acc in o.models.items():
        lowers = {f"lower:{name}": "L_N", f"finite_lower:{name}": "L_N − t_l"}
        rows.append((name, _f(acc), bounds_held(o, lowers, upper=False)))
    truth = Table(
        f"True accuracies on the {o.n_items:,} gold items",
        ("of", "accuracy", "bounds"),
        tuple(rows),
    )
    checks: list[tuple[str, str, str | None, str | None, str]] = []
    for a in o.assumptions:
        name = (
            f"(b) Theorem 3 for {a.name.split(':', 1)[1]}"
            if a.name.startswith("theorem3:")
            else "(a) Theorem 1: raters positively correlated"
            if a.name.startswith("theorem1")
            else a.name
        )
        low, high = a.interval if a.interval is not None else (None, None)
        interval = None if low is None or high is None else f"[{_signed(low)}, {_signed(high)}]"
        checks.append((name, f"{a.n:,}", _signed(a.difference), interval, check_text(a.status)))
        if a.conclusion is not None:
            cl, ch = a.conclusion_interval or (None, None)
            ci = None if cl is None or ch is None else f"[{_signed(cl)}, {_signed(ch)}]"
            checks.append(
                (
                    "    its conclusion L_N − accuracy",
                    "",
                    _signed(a.conclusion),
                    ci,
                    "≤ 0 by Theorem 3",
                )
            )
    assumptions = Table(
        "Assumptions checked on the gold items (the paper's Table 2): the difference is the side "
        "the assumption says is larger minus the other",
        ("assumption", "items", "difference", "95% interval", "status"),
        tuple(checks),
    )
    return [truth, assumptions]


def _same_labels(res: CertifyResult, view: View) -> str | None:
    """Why a soft model and hard labels with the same argmax get the same certificate."""
    if not any(view.kinds.get(m.model) == "proba" for m in res.models):
        return None
    text = (
        "Certify scores hard labels: a model given as probabilities enters by its argmax, so a "
        "calibrated soft classifier and its hard labels have the same L_N and the same certificate."
    )
    for a, b in res.identical_labels:
        text += (
            f" Here {a} and {b} pick the same class on every item, so both have "
            f"L_N = {format_number(res.model(a).lower)}."
        )
    return text


def _lead(res: CertifyResult) -> str:
    ub = res.upper_bound
    tau = f" by at least τ = {res.tau:g}" if res.tau else ""
    text = (
        "The average rater's oracle accuracy is bounded above by U_N and each model's below by L_N; "
        f"the confidence S that a model beats the average rater{tau} comes from Hoeffding's "
        f"finite-sample bounds on N = {ub.n:,} items (Theorem 7). The verdict rests on U_N = "
        f"{_UPPER.get(ub.used, ub.used)} = {ub.upper:.4f}"
    )
    if ub.used == "empirical" and ub.theoretical is not None:
        text += (
            f", the paper's empirical approximation; the theorem-backed U⁽ᵗ⁾ = "
            f"{ub.theoretical:.4f} is higher, and the verdict under it is given beside."
        )
    else:
        text += "."
    return text


def _figures(res: CertifyResult, colors: Mapping[str, str] | None) -> list[Figure]:
    from ...plots.certify import plot_confidence, plot_curve

    figures = []
    if res.curve:
        figures.append(
            Figure.from_matplotlib(
                plot_curve(res, colors=colors),
                "Bounds against the number of raters k (the paper's Fig. 3): U⁽ᵗ⁾_N (dashed), "
                "U⁽ᵉ⁾_N (solid) and each model's L_N against the plurality of k raters"
                + (", with the true accuracies on the gold items (dotted)." if res.oracle else "."),
            )
        )
    if any(m.confidence.admissible for m in res.models):
        figures.append(
            Figure.from_matplotlib(
                plot_confidence(res, colors=colors),
                "Confidence S(t_u) = 1 − δ_u − δ_l over the admissible range of t_u; squares mark "
                f"HMS, dots OMS; S = 0 and the level {res.level:g} are drawn. S below 0 "
                "is no evidence (the deviations exceed the margin), not a probability.",
            )
        )
    return figures


def certify_section(study: StudyResult, view: View) -> Section:
    """The certify section of the report, laid out from ``study.certify`` alone.

    The upper bounds, each model's verdict, the checks against gold, the figures and the verdict
    sentences (slots, plurality, Hoeffding, the curve, the study's level and margin τ); a one-sentence
    note when certify did not apply.

    Parameters
    ----------
    study : StudyResult
        The analysed study.
    view : View
        How the page shows it (the models' kinds and colours).

    Returns
    -------
    Section
        The section, its tables, figures and verdicts.

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> res = analyze(d.ratings, d.predictions, d.gold, bootstrap=0)
    >>> section = certify_section(res, View({}, res.models, {"m": "label"}))
    >>> section.id, len(section.tables), section.verdicts[0].model
    ('certify', 4, 'm')
    """
    title = TITLES["certify"]
    res = study.certify
    if res is None:
        return Section("certify", title, note=section_note(study, "certify"))
    tables = [_upper_table(res)]
    paragraphs = [_lead(res)]
    if res.models:
        tables.append(_models_table(res))
    if res.oracle is not None:
        tables += _gold_tables(res)
    same = _same_labels(res, view)
    if same:
        paragraphs.append(same)
    found = section_verdicts(study, "certify")
    paragraphs += [v.sentence for v in found]
    paragraphs += [f"Note: {n}" for n in notes_text(res.notes)]
    return Section(
        "certify",
        title,
        paragraphs=tuple(paragraphs),
        tables=tuple(tables),
        figures=tuple(_figures(res, view.colors)),
        verdicts=found,
    )
