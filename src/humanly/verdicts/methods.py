"""How a number was made, in words: the analyses name their methods by code (an interval's method,
a p-value's test, a coefficient's definition of chance agreement, how a confidence was maximised)
and this module says what each code means, once, for every reader of a result.

========================  =====================================================================
result field              codes
========================  =====================================================================
``AgreementResult``       ``interval_method``: ``gwet_analytic_t``; ``bootstrap_method``:
                          ``percentile_patterns``, ``percentile_items``, ``none``;
                          ``p_value_method``: ``t_test``
``Coefficient``           ``definition``: the coefficient's id (``fleiss_kappa``, ``gwet_ac1``, …)
``ConfidenceScore``       ``method``: ``bounded_maximisation``, ``bounded_maximisation_tau``,
                          ``gradient_ascent``, ``none``
``Simultaneous``          ``method``: ``bonferroni_union``
``JointConfidence``       ``method``: ``shared_t_u``
``AssumptionCheck``       ``method``: ``normal_delta``
========================  =====================================================================

>>> method_text("bonferroni_union")
'union bound (Bonferroni) over models: S_m ≥ 1 − (1 − level)/M for each certified model'
>>> definition_text("brennan_prediger")[:40]
'chance agreement T_w / q²: every class e'
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFINITIONS", "METHODS", "definition_text", "method_text", "p_value_method_text"]

#: method code → what it means
METHODS: dict[str, str] = {
    # the agreement family
    "gwet_analytic_t": "Gwet's analytic variance (linearisation conditional on the raters, over "
    "items; Gwet 2014, as in irrCAC), t interval with n − 1 degrees of freedom, upper end capped "
    "at 1",
    "percentile_patterns": "percentile bootstrap over items (raters fixed): replicate i redraws "
    "the items from humanly._core.rng.stream(seed, i) as multinomial counts over distinct label "
    "patterns in a canonical order; undefined replicates are left out",
    "percentile_items": "percentile bootstrap over items (raters fixed): replicate i draws how "
    "often each item (sorted-id order) is drawn from humanly._core.rng.stream(seed, i)",
    "none": "none",
    # certify
    "bounded_maximisation": "bounded maximisation over [0, L_N² − U_N²]",
    "bounded_maximisation_tau": "bounded maximisation over [0, (L_N − τ)² − U_N²]",
    "gradient_ascent": "the paper's gradient ascent (options.oms_steps steps, learning rate "
    "options.oms_lr; 100 and 1e-4 by default)",
    "bonferroni_union": "union bound (Bonferroni) over models: S_m ≥ 1 − (1 − level)/M for each "
    "certified model",
    "shared_t_u": "S = 1 − δ_u − Σ_m δ_l,m with one shared t_u, maximised over the admissible "
    "range",
    "normal_delta": "95% normal interval over items (delta method)",
}

#: coefficient id → what its chance agreement is, and which reference computes it the same way
DEFINITIONS: dict[str, str] = {
    "percent_agreement": "agreeing pairs of labels per item, averaged over items with two or more "
    "labels (Gwet 2014; irrCAC pa.coeff.raw)",
    "cohen_kappa": "chance agreement from each rater's own class shares (Cohen 1960); with missing "
    "labels Gwet's treatment: agreement over items both rated, each rater's shares over the items "
    "it rated (irrCAC conger.kappa.raw with two raters)",
    "conger_kappa": "chance agreement averaged over pairs of raters, each pair from the raters' own "
    "class shares (Conger 1980; irrCAC conger.kappa.raw)",
    "fleiss_kappa": "chance agreement from class shares per item, averaged over items (Fleiss 1971, "
    "Gwet 2014 for missing labels; irrCAC fleiss.kappa.raw; statsmodels fleiss_kappa on full "
    "designs)",
    "fleiss_kappa_pooled": "chance agreement from class shares pooled over all labels of items with "
    "two or more labels (humanly inspect before 0.1; Krippendorff's chance model); equals "
    "fleiss_kappa on full designs",
    "gwet_ac1": "chance agreement T_w Σ π_k (1 − π_k) / (q (q − 1)) with per-item shares (Gwet "
    "2008; irrCAC gwet.ac1.raw)",
    "brennan_prediger": "chance agreement T_w / q²: every class equally likely (Brennan & Prediger "
    "1981; irrCAC bp.coeff.raw; statsmodels fleiss_kappa(method='randolph') on full designs)",
    "krippendorff_alpha": "Krippendorff's α with his {scale} metric (Krippendorff 2011; the "
    "krippendorff package)",
    "krippendorff_alpha_weighted": "Krippendorff's α with Gwet's {weights} weights in place of "
    "Krippendorff's metric (irrCAC krippen.alpha.raw with weights)",
}


def method_text(code: str) -> str:
    """What a method code means (an unknown code reads as itself).

    Parameters
    ----------
    code : str
        A result's ``method``, ``interval_method`` or ``bootstrap_method``.

    Returns
    -------
    str
        Its description.

    Examples
    --------
    >>> method_text("normal_delta")
    '95% normal interval over items (delta method)'
    """
    return METHODS.get(code, code)


def p_value_method_text(result: Any) -> str:
    """The test behind an agreement family's p-values (``p_value_method == "t_test"``), with its
    benchmark and its alternative.

    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]] * 10)
    >>> p_value_method_text(humanly.agreement(r, bootstrap=0))[:40]
    't test of coefficient = 0 (two-sided), t'
    """
    if result.p_value_method != "t_test":
        return str(result.p_value_method)
    b = result.benchmark
    return (
        f"t test of coefficient = {b:g} ({result.options.alternative}), t = (estimate − {b:g}) / "
        "standard error, n − 1 degrees of freedom"
    )


def definition_text(code: str, weights: str = "") -> str:
    """What a coefficient's chance agreement is (its ``definition`` code), and which reference
    computes it the same way; ``weights`` is the coefficient's ``weights`` (its scale for
    Krippendorff's α, ``"krippendorff nominal metric"``).

    Parameters
    ----------
    code : str
        A ``Coefficient.definition``.
    weights : str
        The coefficient's ``weights``.

    Returns
    -------
    str
        The definition.

    Examples
    --------
    >>> definition_text("krippendorff_alpha", "krippendorff nominal metric")
    "Krippendorff's α with his nominal metric (Krippendorff 2011; the krippendorff package)"
    """
    text = DEFINITIONS.get(code, code)
    words = weights.split()
    scale = words[1] if len(words) == 3 and words[0] == "krippendorff" else weights
    return text.format(scale=scale, weights=weights)
