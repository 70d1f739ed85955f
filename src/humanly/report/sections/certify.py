"""The certify section of ``humanly report`` (a builder for :data:`humanly.report.build.BUILDERS`).

Register with ``BUILDERS.append(("certify", certify_section))``, ``HEADLINES["certify"] =
certify_headline`` and ``METHODS["certify"] = METHODS_TEXT``.
"""

from __future__ import annotations

from typing import Any

from ...certify import CertifyResult, certify
from ...data import Gold, InputError, Predictions, Ratings
from .._page import Figure, Section, Table

__all__ = ["METHODS_TEXT", "certify_headline", "certify_section"]

METHODS_TEXT = (
    "Certify (Xu, Walder & Xu, Humanly Certifying Superhuman Classifiers). The average annotator's "
    "oracle accuracy is bounded above by U⁽ᵗ⁾ = sqrt(1/K² Σᵢⱼ P(ℓᵢ = ℓⱼ)) (Theorem 1, eq. 2; assumes "
    "annotators are positively correlated given the oracle) and approximated by U⁽ᵉ⁾, the same mean "
    "without the diagonal (eq. 8); K is each item's own number of labels (slots reading). A model's "
    "oracle accuracy is bounded below by its agreement L_N with the plurality label (Theorem 3, eq. 11; "
    "ties get credit 1/|tied classes|; assumes the model is more often right than any single wrong class "
    "where the plurality is wrong). Finite-sample bounds use Hoeffding's inequality (Theorems 5 and 6); "
    "the confidence S = 1 − δ_u − δ_l (Theorem 7) is reported with the heuristic split (HMS) and maximised "
    "over the admissible range t_u ∈ [0, L_N² − U_N²] (OMS). A model is called superhuman when "
    "S_OMS ≥ 0.95."
)


def certify_section(
    ratings: Ratings,
    gold: Gold | None,
    predictions: Predictions | None,
    *,
    seed: int = 0,
    **_: Any,
) -> tuple[Any, CertifyResult | None]:
    """Run :func:`certify` with its defaults (slots, majority, Hoeffding, curve) and lay it out.

    >>> from humanly import simulate
    >>> d = simulate.oracle(100, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> section, res = certify_section(d.ratings, d.gold, d.predictions)
    >>> section.id, len(section.tables), res.models[0].model
    ('certify', 3, 'm')
    """
    from ...plots.certify import plot_confidence, plot_curve

    title = "Certify: is the model superhuman?"
    if predictions is not None:
        usable = [m.name for m in predictions.models if m.kind in ("label", "proba")]
        predictions = predictions.select(usable) if usable else None
    try:
        res = certify(ratings, predictions, gold=gold, curve=True, seed=seed)
    except InputError as exc:
        return Section("certify", title, note=f"Not applicable: {exc}"), None
    ub = res.upper_bound

    def f(x: float | None) -> str:
        return "—" if x is None else f"{x:.4f}"

    rows = [
        ("U⁽ᵗ⁾ (theoretical upper bound, eq. 2)", f(ub.theoretical)),
        ("U⁽ᵉ⁾ (empirical upper bound, eq. 8)", f(ub.empirical)),
        ("items (N)", f"{ub.n:,}"),
        (f"finite-sample upper bound (δ = {res.delta:g})", f(ub.finite["hoeffding"].value)),
    ]
    tables = [Table("Average annotator", ("quantity", "value"), tuple(rows))]
    if res.models:
        tables.append(
            Table(
                "Models (Hoeffding bound, α = 0.05)",
                ("model", "L_N", "L_N − U_N", "S (HMS)", "S (OMS)", "superhuman"),
                tuple(
                    (
                        m.model,
                        f(m.lower),
                        f"{m.margin:+.4f}",
                        f(m.confidence.hms),
                        f(m.confidence.oms) if m.confidence.admissible else "n/a (L_N ≤ U_N)",
                        "yes" if m.superhuman else "no",
                    )
                    for m in res.models
                ),
            )
        )
    if res.oracle is not None:
        o = res.oracle
        rows_o = [("true average annotator accuracy", f(o.average_annotator))]
        rows_o += [(f"true accuracy of {k}", f(v)) for k, v in o.models.items()]
        rows_o += [
            (
                f"assumption {a.name}",
                f"{f(a.left)} vs {f(a.right)}: {'holds' if a.passed else 'fails'}",
            )
            for a in o.assumptions
        ]
        tables.append(Table("Validation against gold labels", ("quantity", "value"), tuple(rows_o)))
    figures = []
    if res.curve:
        figures.append(
            Figure.from_matplotlib(
                plot_curve(res),
                "Bounds against the number of annotators k (the paper's Fig. 3): U⁽ᵗ⁾_N (dashed), "
                "U⁽ᵉ⁾_N (solid) and each model's L_N against the plurality of k annotators.",
            )
        )
    if any(m.confidence.admissible for m in res.models):
        figures.append(
            Figure.from_matplotlib(
                plot_confidence(res),
                "Confidence S(t_u) = 1 − δ_u − δ_l over the admissible range; squares mark HMS, "
                "dots OMS; the dotted line is 1 − α.",
            )
        )
    section = Section("certify", title, tables=tuple(tables), figures=tuple(figures))
    return section, res


def certify_headline(d: dict[str, Any] | None) -> str | None:
    """One line for the terminal from the embedded ``to_dict()``.

    >>> from humanly.certify import certify_summary
    >>> certify_headline(certify_summary([0.919], 0.879, 10000, models=["SemBERT"]).to_dict())
    'certify: average annotator ≤ 0.879 (U⁽ᵉ⁾); SemBERT L_N 0.919, S 1.0000, superhuman'
    """
    if not d:
        return None
    ub = d["upper_bound"]
    parts = [f"certify: average annotator ≤ {ub['upper']:.3f} (U⁽ᵉ⁾)"]
    for m in d["models"]:
        s = m["confidence"]["oms"]
        verdict = "superhuman" if m["superhuman"] else "not certified"
        conf = "n/a" if s is None else f"{s:.4f}"
        parts.append(f"{m['model']} L_N {m['lower']:.3f}, S {conf}, {verdict}")
    return "; ".join(parts)
