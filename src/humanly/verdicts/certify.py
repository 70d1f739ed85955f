"""Certify's verdicts: one sentence per model a reviewer can quote, built from a
:class:`~humanly.certification.CertifyResult` only (the command line prints them after its tables, the report
opens with them).

Each sentence says what the certificate shows under the upper bound U_N it used, and **names that upper
bound**: U⁽ᵉ⁾ (the paper's choice and humanly's default) is an empirical approximation that approaches
the theorem-backed U⁽ᵗ⁾ only as K grows (Lemma 2), so the verdict under the other upper bound
(``by_upper``) follows in the same paragraph. A negative S is "no evidence (S < 0)", never a negative
probability; a model whose L_N does not exceed U_N is "not superhuman by these bounds".

>>> from humanly.certification import certify_summary
>>> res = certify_summary([0.919], 0.879, 10000, labels_per_item=5, models=["SemBERT"])
>>> print(verdicts(res)[0].sentence)  # doctest: +NORMALIZE_WHITESPACE
SemBERT beats the average rater: the crowd's labels alone show it with 95% confidence.
SemBERT is certified superhuman: its lower bound L_N = 0.919 exceeds the average rater's upper bound
U_N = 0.879 (margin +0.040) with confidence S = 0.999996 ≥ 0.95 (Hoeffding, N = 10,000 items).
U_N is U⁽ᵉ⁾, the paper's empirical approximation that approaches the theorem-backed U⁽ᵗ⁾ only as K
grows (Lemma 2); under U⁽ᵗ⁾ = 0.9045 it is not certified: S = 0.6716 < 0.95, about 20,817 items would
certify it.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import Verdict

if TYPE_CHECKING:
    from ..certification import CertifyResult, ModelCertificate, UpperVerdict
    from ..certification.evidence import Evidence
    from ..certification.lemma2 import Lemma2Check
    from ..certification.oracle import AssumptionDetail, OracleCheck

__all__ = [
    "BOUND_NAMES",
    "METHODS_ID",
    "bounds_held",
    "format_confidence",
    "format_number",
    "headline",
    "lemma2_text",
    "status_text",
    "status_words",
    "vacuous_words",
    "verdicts",
]

#: the Methods paragraph certify's sentences rest on
METHODS_ID = "methods-certify"

#: how a sentence names each concentration bound
BOUND_NAMES = {
    "hoeffding": "Hoeffding",
    "bernstein": "empirical Bernstein",
    "exact": "exact binomial",
}

_UPPER_NAMES = {"empirical": "U⁽ᵉ⁾", "theoretical": "U⁽ᵗ⁾"}

#: the short status of a :class:`Verdict` for each ``Evidence.status`` code
_STATUS = {
    "certified": "certified",
    "not_certified": "not certified",
    "no_evidence": "no evidence",
    "not_applicable": "not applicable",
}

#: each ``Evidence.status`` code in words, as tables write it
STATUS_WORDS = {
    "certified": "certified",
    "not_certified": "not certified",
    "no_evidence": "no evidence (S < 0)",
    "not_applicable": "not applicable (L_N ≤ U_N + τ)",
}


def status_text(status: str | None) -> str | None:
    """An ``Evidence.status`` code in words, as the page's and the terminal's tables write it
    (``None`` stays ``None``).

    >>> status_text("no_evidence"), status_text("not_applicable")
    ('no evidence (S < 0)', 'not applicable (L_N ≤ U_N + τ)')
    """
    return None if status is None else STATUS_WORDS.get(status, status)


def format_confidence(s: float | None, decimals: int = 4) -> str:
    """A confidence S as a reader sees it.

    ``decimals`` decimals, more near 1 (0.999996 never prints as 1.0000; closer to 1 than 10⁻⁶ it is
    "> 0.999999", also when the floating-point S is 1: δ_u and δ_l are never exactly 0), a true minus
    sign, and "—" when S is not defined.

    Parameters
    ----------
    s : float or None
        S.
    decimals : int
        The decimals away from 1 (default 4).

    Returns
    -------
    str
        The text.

    Examples
    --------
    >>> format_confidence(0.999996), format_confidence(0.62081), format_confidence(-0.14953, 3)
    ('0.999996', '0.6208', '−0.150')
    >>> format_confidence(1 - 1e-9), format_confidence(1.0)
    ('> 0.999999', '> 0.999999')
    """
    if s is None or not math.isfinite(s):
        return "—"
    d = decimals
    while round(s, d) >= 1 and d < 6:
        d += 1
    if round(s, d) >= 1:
        return "> 0.999999"
    return f"{s:.{d}f}".replace("-", "−")


def _s_vs(s: float | None, op: str, level: str) -> str:
    """ "S = 0.989 ≥ 0.95", or "S > 0.999999, above 0.95" very near 1."""
    text = format_confidence(s)
    if text.startswith(">"):
        return f"S {text}, above {level}"
    return f"S = {text} {op} {level}"


def format_number(x: float, *, sign: bool = False) -> str:
    """A bound or margin in a sentence: at least 3 and at most 4 decimals, a true minus sign.

    Parameters
    ----------
    x : float
        The number.
    sign : bool
        Always show the sign (a margin).

    Returns
    -------
    str
        E.g. 0.971, 0.9315, +0.0118.

    Examples
    --------
    >>> format_number(0.971), format_number(0.93154), format_number(0.0118, sign=True)
    ('0.971', '0.9315', '+0.0118')
    >>> format_number(-0.04, sign=True)
    '−0.040'
    """
    text = f"{x:+.4f}" if sign else f"{x:.4f}"
    if text.endswith("0"):
        text = text[:-1]
    return text.replace("-", "−")


def _items(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def _needed(e: Evidence, *, short: bool = False) -> str:
    """What it would take, from the evidence's reason."""
    if e.items_needed is not None:
        return f"about {e.items_needed:,} items would certify it" + (
            "" if short else " at this margin"
        )
    if e.reason == "rate_too_low":
        return "no number of items would certify it (the exact bound's success rate is ≤ U_N + τ)"
    if e.reason == "needs_more_than_n_max":
        return "more than 10¹² items would be needed"
    return "no number of items would certify it"


def _claim(tau: float) -> str:
    return "superhuman" if tau == 0 else f"to beat the average rater by at least τ = {tau:g}"


def _main(result: CertifyResult, m: ModelCertificate, e: Evidence) -> str:
    """The verdict under the U_N the result used."""
    tau, u = result.tau, result.upper_bound.upper
    lo, up = format_number(m.lower), format_number(u)
    bound = BOUND_NAMES.get(result.bound, result.bound)
    level = f"{e.level:g}"
    n = f"N = {m.n:,} items"
    margin = (
        f"L_N − U_N = {format_number(m.margin, sign=True)}"
        if tau == 0
        else f"L_N − U_N − τ = {format_number(e.margin, sign=True)}"
    )
    if e.status == "certified":
        beyond = "" if tau == 0 else " by more than τ"
        text = (
            f"{m.model} is certified {_claim(tau)}: its lower bound L_N = {lo} exceeds the average "
            f"rater's upper bound U_N = {up}{beyond} (margin {format_number(m.margin, sign=True)}) "
            f"with confidence {_s_vs(e.confidence, '≥', level)} ({bound}, {n})."
        )
        per_model = result.simultaneous.level_per_model
        if not m.superhuman_simultaneous and len(result.models) > 1 and per_model is not None:
            k = len(result.models)
            text += (
                f" Taken together with the other {k - 1} model{'s' if k > 2 else ''} it is not "
                f"certified (union bound: for all {k} claims to hold at once at level "
                f"{result.level:g}, each needs S ≥ {per_model:g})."
            )
        return text
    head = f"{m.model} is not certified" + ("" if tau == 0 else f" {_claim(tau)}")
    if e.status == "not_certified":
        return (
            f"{head}: the margin {margin} (L_N = {lo}, U_N = {up}) gives confidence "
            f"{_s_vs(e.confidence, '<', level)} at {n} ({bound}); {_needed(e)}."
        )
    if e.status == "no_evidence":
        return (
            f"{head}: the margin {margin} (L_N = {lo}, U_N = {up}) is smaller than the "
            f"finite-sample deviations at {n} (S < 0: no evidence; {bound}); {_needed(e)}."
        )
    over = f"U_N = {up}" if tau == 0 else f"U_N + τ = {up} + {tau:g}"
    head = (
        f"{m.model} is not superhuman by these bounds"
        if tau == 0
        else f"{m.model} cannot be certified {_claim(tau)}"
    )
    return (
        f"{head}: L_N = {lo} ≤ {over}, so no number of items would certify it (this does not "
        "show that the model is worse than the average rater)."
    )


def _other(result: CertifyResult, m: ModelCertificate, used_certified: bool) -> str:
    """The sentence naming the upper bound the verdict rests on, with the verdict under the other."""
    ub = result.upper_bound
    lemma = ub.lemma2
    caveat = (
        " — Lemma 2's condition (raters agree more often than chance) fails on these data"
        if lemma is not None and lemma.holds is False
        else ""
    )
    if ub.used == "empirical":
        text = (
            "U_N is U⁽ᵉ⁾, the paper's empirical approximation that approaches the theorem-backed "
            f"U⁽ᵗ⁾ only as K grows (Lemma 2{caveat})"
        )
        kind = "theoretical"
    else:
        text = "U_N is U⁽ᵗ⁾, the theorem-backed upper bound (Theorem 1)"
        kind = "empirical"
    v = m.by_upper.get(kind)
    if v is None:
        return text + "; U⁽ᵗ⁾ needs K, the number of raters per item, which was not given."
    e = v.evidence
    name = _UPPER_NAMES[kind]
    where = (
        f"under {name} = {format_number(v.upper)}"
        if kind == "theoretical"
        else f"under the paper's U⁽ᵉ⁾ = {format_number(v.upper)}, an approximation,"
    )
    level = f"{e.level:g}"
    if e.status == "certified":
        also = "too" if used_certified else ""
        s = _s_vs(e.confidence, "≥", level)
        return f"{text}; {where} it is certified {also}".rstrip() + f": {s}."
    if e.status == "not_certified":
        s = _s_vs(e.confidence, "<", level)
        return f"{text}; {where} it is not certified: {s}, {_needed(e, short=True)}."
    if e.status == "no_evidence":
        return f"{text}; {where} there is no evidence (S < 0): {_needed(e, short=True)}."
    bar = name if result.tau == 0 else f"{name} + τ"
    return f"{text}; {where.rstrip(',')}, L_N ≤ {bar}: no number of items would certify it."


def _interval(value: float, interval: tuple[float | None, float | None] | None) -> str:
    low, high = interval if interval is not None else (None, None)
    if low is None or high is None:
        return format_number(value, sign=True)
    ends = f"{format_number(low, sign=True)}, {format_number(high, sign=True)}"
    return f"{format_number(value, sign=True)} [{ends}]"


def _gold(result: CertifyResult, m: ModelCertificate, *, said: bool = False) -> str:
    """With gold labels: the true accuracies (unless ``said`` already), and any evidence against an
    assumption of the bounds."""
    o = result.oracle
    if o is None or m.model not in o.models:
        return ""
    clauses = []  # each a piece of evidence against an assumption of the bounds
    for a in o.assumptions:
        if a.status != "evidence_against":
            continue
        if a.name == f"theorem3:{m.model}":
            ci = a.conclusion_interval
            if a.conclusion is not None and ci is not None and ci[0] is not None and ci[0] > 0:
                what = f"L_N − accuracy = {_interval(a.conclusion, ci)}, above 0"
            elif a.difference is not None:
                what = f"difference {_interval(a.difference, a.interval)}, below 0"
            else:
                what = "see the gold checks"
            clauses.append(
                f"give evidence against Theorem 3's assumption for {m.model} ({what}), "
                f"so L_N = {format_number(m.lower)} may not bound its accuracy"
            )
        elif a.name.startswith("theorem1"):
            clauses.append(
                "give evidence against Theorem 1's assumption (raters positively "
                f"correlated; difference {_interval(a.difference or 0.0, a.interval)}, below 0), so "
                "U_N may not bound the average rater"
            )
    but = "".join(f", but they {c}" for c in clauses)
    if said:  # the accuracies are already in the plain sentence: only the evidence against
        return "" if not clauses else f" The gold labels {but[len(', but they ') :]}."
    return (
        f" On the {o.n_items:,} gold items its accuracy is {format_number(o.models[m.model])} and "
        f"the average rater's {format_number(o.average_rater)}{but}."
    )


def _about(n: int) -> str:
    """An item count as a plain sentence says it: two significant digits ("about 31,000")."""
    if n < 100:
        return f"{n:,}"
    digits = len(str(n)) - 2
    return f"{round(n, -digits):,}"


def _plain(result: CertifyResult, m: ModelCertificate, e: Evidence) -> str:
    """The first sentence of a verdict, for a reader without the paper: no symbol, no bound's name."""
    by = "" if result.tau == 0 else f" by at least {100 * result.tau:g} points"
    level = f"{100 * e.level:g}%"
    if e.status == "certified":
        return (
            f"{m.model} beats the average rater{by}: the crowd's labels alone show it with "
            f"{level} confidence."
        )
    if e.status in ("not_certified", "no_evidence"):
        why = (
            "the test set is too small to tell"
            if e.status == "no_evidence"
            else f"the evidence falls short of {level} confidence"
        )
        more = (
            f"; about {_about(e.items_needed)} items would show it if the gap holds"
            if e.items_needed is not None
            else "; more items at this gap would not show it"
        )
        return f"{m.model} is not yet shown to beat the average rater{by}: {why}{more}."
    return (
        f"{m.model} is not shown to beat the average rater{by}: its agreement with the crowd is "
        "not above the highest accuracy the raters' own agreement allows, so more items would not "
        "show it (which does not mean it is worse)."
    )


def _beats_on_gold(result: CertifyResult, m: ModelCertificate, status: str) -> str:
    """Where gold says the model beats the raters but the certificate does not: why it asks more."""
    o = result.oracle
    if status == "certified" or o is None or m.model not in o.models:
        return ""
    acc = o.models[m.model]
    if acc is None or o.average_rater is None or not acc > o.average_rater:
        return ""
    return (
        f" On the {o.n_items:,} gold items it is more accurate than the average rater "
        f"({format_number(acc)} vs {format_number(o.average_rater)}); the certificate asks more: "
        f"it must show this from the crowd's labels alone, without gold, at "
        f"{100 * result.level:g}% confidence."
    )


def _verdict(result: CertifyResult, m: ModelCertificate) -> Verdict:
    e = m.evidence
    if e is None:  # results built by hand without evidence: read the confidence as the library does
        from ..certification.evidence import Evidence

        s = m.confidence.oms
        status = (
            "not_applicable"
            if not m.confidence.admissible or s is None
            else "certified"
            if m.superhuman
            else "not_certified"
            if s >= 0
            else "no_evidence"
        )
        e = Evidence(status, "", s, result.level, m.margin - result.tau, m.n, m.items_needed)
    beats = _beats_on_gold(result, m, e.status)
    sentence = (
        f"{_plain(result, m, e)}{beats} {_main(result, m, e)} "
        f"{_other(result, m, e.status == 'certified')}{_gold(result, m, said=bool(beats))}"
    )
    return Verdict(
        "certify",
        sentence,
        model=m.model,
        status=_STATUS.get(e.status, e.status),
        methods=METHODS_ID,
    )


def verdicts(result: CertifyResult) -> tuple[Verdict, ...]:
    """One sentence per model a reviewer can quote, from the certificate alone.

    The verdict under the upper bound U_N the result used, named, and the verdict under the other
    upper bound beside it; with gold, the true accuracies and any evidence against an assumption.

    Parameters
    ----------
    result : CertifyResult
        A certificate (computed, or read back from its JSON).

    Returns
    -------
    tuple of Verdict
        One :class:`~humanly.verdicts.Verdict` per model, in the result's order.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> v = verdicts(certify_summary([0.80], 0.85, 500, models=["m"]))[0]
    >>> v.status, v.sentence.split(":")[0]
    ('not applicable', 'm is not shown to beat the average rater')
    """
    return tuple(_verdict(result, m) for m in result.models)


def status_words(m: ModelCertificate | UpperVerdict) -> str:
    """A verdict's status in words for a one-line summary: "certified superhuman", "not certified",
    "no evidence (S < 0)", "not applicable (L_N ≤ U_N)".

    >>> from humanly.certification import certify_summary
    >>> status_words(certify_summary([0.919], 0.879, 10000, models=["m"]).models[0])
    'certified superhuman'
    """
    status = m.evidence.status if m.evidence is not None else None
    if status is None:
        status = "certified" if m.superhuman else "not_certified"
    if status == "not_applicable":
        return "not applicable (L_N ≤ U_N)"
    return "certified superhuman" if status == "certified" else STATUS_WORDS.get(status, status)


def headline(res: CertifyResult | None) -> str | None:
    """A certificate in one line for the terminal (``None`` without a result).

    Parameters
    ----------
    res : CertifyResult or None
        A certificate.

    Returns
    -------
    str or None
        The line.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> headline(certify_summary([0.919], 0.879, 10000, models=["SemBERT"]))
    'certify: average rater ≤ 0.879 (U⁽ᵉ⁾); SemBERT L_N 0.919, S 0.999996, certified superhuman'
    >>> res = certify_summary([0.919], 0.879, 10000, labels_per_item=5, models=["SemBERT"])
    >>> headline(res).split(", ")[-1]
    'certified superhuman (U⁽ᵗ⁾: not certified)'
    """
    if res is None:
        return None
    ub = res.upper_bound
    used = _UPPER_NAMES.get(ub.used, "U_N")
    parts = [f"certify: average rater ≤ {ub.upper:.3f} ({used})"]
    for m in res.models:
        s = m.confidence.oms
        conf = "n/a" if s is None or not math.isfinite(s) else format_confidence(s)
        parts.append(f"{m.model} L_N {m.lower:.3f}, S {conf}, {status_words(m)}")
        for kind, v in m.by_upper.items():
            if kind != ub.used:
                parts[-1] += f" ({_UPPER_NAMES.get(kind, kind)}: {status_words(v)})"
    return "; ".join(parts)


def bounds_held(o: OracleCheck, names: dict[str, str], *, upper: bool) -> str:
    """Whether the bounds ``names`` (key of ``OracleCheck.held`` → the name shown) held against a
    true accuracy on the gold items: "≤ U⁽ᵗ⁾, U⁽ᵉ⁾: held", or "above U⁽ᵉ⁾: did not hold".

    >>> from humanly.certification import certify
    >>> from humanly.simulate import oracle
    >>> d = oracle(300, [0.8, 0.7, 0.75], models={"m": 0.9}, seed=1)
    >>> res = certify(d.ratings, d.predictions, d.gold)
    >>> bounds_held(res.oracle, {"lower:m": "L_N"}, upper=False)
    '≥ L_N: held'
    """
    failed = [name for key, name in names.items() if not o.held.get(key, True)]
    if not failed:
        return f"{'≤' if upper else '≥'} {', '.join(names.values())}: held"
    return f"{'above' if upper else 'below'} {', '.join(failed)}: did not hold"


def lemma2_text(c: Lemma2Check) -> str | None:
    """Lemma 2's condition in words, for a table: "0.7110 vs 1/2 = 0.5000: holds", or "…: fails:
    U⁽ᵉ⁾ need not approach U⁽ᵗ⁾" (``None`` when the number of classes is unknown)."""
    if c.chance is None or c.agreement is None:
        return None
    verdict = "holds" if c.holds else "fails: U⁽ᵉ⁾ need not approach U⁽ᵗ⁾"
    return f"{c.agreement:.4f} vs 1/{c.n_classes} = {c.chance:.4f}: {verdict}"


#: Why a check against gold is vacuous, in words (``AssumptionDetail.reason``).
VACUOUS = {
    "no_shared_pair": "no pair of raters shares a gold item",
    "aggregate_never_wrong": "the aggregate is never wrong on gold items: the assumption is vacuous",
}


def vacuous_words(detail: AssumptionDetail) -> str:
    """Why a check against gold has nothing to check, in words.

    >>> from humanly.certification.oracle import AssumptionDetail
    >>> vacuous_words(AssumptionDetail(reason="no_shared_pair"))
    'no pair of raters shares a gold item'
    """
    if detail.reason is None:
        return "nothing to check"
    return VACUOUS.get(detail.reason, detail.reason)
