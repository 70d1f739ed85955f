"""Tables for ``humanly certify``: the upper bound (with Lemma 2's check), each model's verdict under
both upper bounds, the bounds compared, the checks against gold and the curve over k; then the verdict
sentences. Views of a :class:`~humanly.certification.CertifyResult`; no statistics here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..verdicts.certify import (
    bounds_held,
    format_confidence,
    lemma2_text,
    status_text,
    vacuous_words,
)
from ..verdicts.text import check_text
from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from ..certification import CertifyResult
    from ..certification.evidence import Evidence
    from ..certification.lemma2 import Lemma2Check
    from ..certification.oracle import AssumptionCheck

__all__ = ["render"]

_UPPER = {"empirical": "U⁽ᵉ⁾", "theoretical": "U⁽ᵗ⁾"}
_STATUS = {"not_applicable": "n/a (L_N ≤ U_N)"}


def _fmt(x: float | None, spec: str = ".4f") -> str:
    return "—" if x is None else format(x, spec).replace("-", "−")


def _fmt_s(x: float | None) -> str:
    """A confidence score: more digits near 1, so 0.999996 does not print as 1.0000."""
    return format_confidence(x)


def _interval(low: float | None, high: float | None) -> str:
    return f"[{_fmt(low, '+.4f')}, {_fmt(high, '+.4f')}]"


def _by(tau: float) -> str:
    return "" if tau == 0 else f" by at least τ = {tau:g}"


def _k(result: CertifyResult) -> str:
    """K as a reader takes it: a whole number, or the range and mean when it varies by item."""
    a = result.raters
    if a.labels_per_item is None:
        return "—"
    if a.ragged:
        return f"{a.min_labels_per_item}–{a.max_labels_per_item} by item (mean {a.labels_per_item:.1f})"
    return f"{a.labels_per_item:g}"


def _lemma2_rows(t: CleanTable, c: Lemma2Check, k: str) -> None:
    """Lemma 2's condition, the raters per item against the classes, and U⁽ᵗ⁾/U⁽ᵉ⁾."""
    lemma = lemma2_text(c)
    t.row(
        "Lemma 2: agreement ≥ 1/N_c",
        lemma or "— (number of classes unknown; give --n-classes)",
    )
    if c.pairs:
        t.row("rater pairs below chance", f"{c.pairs_below_chance or 0:,} of {c.pairs:,}")
    if c.labels_per_item is not None and c.n_classes:
        k = f"K = {k}"
        if c.more_raters_than_classes:
            text = f"{k} > {c.n_classes} classes: more raters than classes, as the paper advises"
        elif c.share_more_raters:
            text = (
                f"{k}: only {c.share_more_raters:.1%} of the items have more raters than the "
                f"{c.n_classes} classes (the paper advises more)"
            )
        else:
            text = f"{k} ≤ {c.n_classes} classes: fewer raters than the paper advises"
        t.row("raters per item vs classes", text)
    if c.ratio is not None:
        bound = "" if c.ratio_bound is None else f" (Lemma 2's proof: ≤ {c.ratio_bound:.4f})"
        t.row("U⁽ᵗ⁾/U⁽ᵉ⁾", f"{c.ratio:.4f}{bound}")


def _upper(result: CertifyResult) -> CleanTable:
    ub, a, fin = result.upper_bound, result.raters, result.finite_upper
    title = "humanly certify · the average rater (the paper's average annotator): upper bound"
    if result.tau:
        title = f"humanly certify · does the model beat the average rater{_by(result.tau)}?"
    t = new_table(title, show_header=False)
    t.column("what", style="bold")
    t.column("value")
    if result.n_items is not None:
        t.row("items", f"{result.n_items:,}")
    t.row("raters", f"{a.mode}, K = {_k(result)}")
    theo = (
        _fmt(ub.theoretical)
        if ub.theoretical is not None
        else "— (needs K: give --labels-per-item)"
    )
    t.row("U⁽ᵗ⁾ (Theorem 1, eq. 2)", theo)
    t.row("U⁽ᵉ⁾ (eq. 8, the paper's choice)", _fmt(ub.empirical))
    other = "theoretical" if ub.used == "empirical" else "empirical"
    beside = f"; under {_UPPER[other]} below" if ub.kinds().get(other) else ""
    t.row(
        "the verdict rests on",
        f"U_N = {_UPPER.get(ub.used, ub.used)} = {ub.upper:.4f} (N = {ub.n:,} items){beside}",
    )
    t.row(
        f"finite sample ({result.bound}, δ = {fin.delta:.3g})",
        f"√(U_N² + {fin.t:.4f}) = {_fmt(fin.value)}",
    )
    if ub.lemma2 is not None:
        _lemma2_rows(t, ub.lemma2, _k(result))
    return t


def _status(e: Evidence | None, tau: float) -> str:
    if e is None:
        return "—"
    if tau and e.status in _STATUS:
        return "n/a (L_N ≤ U_N + τ)"
    return _STATUS.get(e.status) or status_text(e.status) or "—"


def _s(admissible: bool, s: float | None) -> str:
    """S, or "n/a" when no t_u is admissible (L_N ≤ U_N + τ): the only case S is not defined."""
    return _fmt_s(s) if admissible else "n/a"


def _needed(n: int | None) -> str:
    return "—" if n is None else f"{n:,}"


def _verdict_table(result: CertifyResult, kind: str) -> CleanTable:
    """Every model under one upper bound: the U_N used (``kind == used``) or the other one."""
    ub = result.upper_bound
    used = kind == ub.used
    value = ub.upper if used else ub.kinds()[kind]
    ns = {m.n for m in result.models}
    n = f", N = {next(iter(ns)):,} items" if len(ns) == 1 else ""
    if used:
        why = "the paper's choice" if kind == "empirical" else "proved by Theorem 1"
        title = (
            f"models under U_N = {_UPPER[kind]} = {value:.4f} ({why}; {result.bound}, "
            f"level {result.level:g}{n}): superhuman{_by(result.tau)}?"
        )
    else:
        why = "proved by Theorem 1" if kind == "theoretical" else "the paper's approximation"
        title = f"the same models under {_UPPER[kind]} = {value:.4f} ({why})"
    t = new_table(title)
    cols = ["model", "L_N", *([] if n else ["N"]), "margin", "S HMS", "S OMS", "evidence"]
    for col in (*cols, "items needed"):
        left = col in ("model", "evidence")
        t.column(
            col,
            justify="left" if left else "right",
            no_wrap=col not in ("evidence", "items needed"),
        )
    for m in result.models:
        if used:
            conf, e, needed, margin = m.confidence, m.evidence, m.items_needed, m.margin
            status = _status(e, result.tau)
            if m.superhuman and not m.superhuman_simultaneous and len(result.models) > 1:
                status += " (not jointly)"
        else:
            v = m.by_upper[kind]
            conf, needed, margin = v.confidence, v.items_needed, m.lower - v.upper
            status = _status(v.evidence, result.tau)
        t.row(
            m.model,
            _fmt(m.lower),
            *([] if n else [f"{m.n:,}"]),
            _fmt(margin, "+.4f"),
            _s(conf.admissible, conf.hms),
            _s(conf.admissible, conf.oms),
            status,
            _needed(needed),
        )
    caption = f"certified = superhuman{_by(result.tau)}: S OMS ≥ {result.level:g}"
    if result.tau:
        caption += f"; margin L_N − U_N, of which τ = {result.tau:g} is asked for"
    if used:
        caption += "; items needed: the N that would certify the same L_N and U_N"
        joint = result.simultaneous.joint
        if joint and joint.confidence is not None:
            verdict = "certified" if joint.superhuman else "not certified"
            caption += (
                f"; jointly (all of {', '.join(joint.models)}): S = "
                f"{_fmt_s(joint.confidence)}, {verdict}"
            )
        if ub.theoretical is None:
            caption += "; U⁽ᵗ⁾ needs K, the raters per item (--labels-per-item)"
    t.caption(caption)
    return t


def _finite(result: CertifyResult) -> CleanTable:
    """The finite-sample bounds and the certified margin under each concentration bound."""
    delta = result.finite_upper.delta
    several = len(result.models[0].by_bound) > 1
    t = new_table(
        f"finite-sample bounds (δ = {delta:.3g} per side) and S OMS"
        + (f" by concentration bound (* the verdict's: {result.bound})" if several else "")
    )
    for col in ("model", "bound", "L_N − t_l", "√(U_N²+t_u)", "certified margin", "S OMS"):
        left = col in ("model", "bound")
        t.column(col, justify="left" if left else "right", no_wrap=col != "certified margin")
    for m in result.models:
        for i, (name, b) in enumerate(m.by_bound.items()):
            t.row(
                m.model if i == 0 else "",
                name + ("*" if name == result.bound and several else ""),
                _fmt(b.finite_lower.value),
                _fmt(b.finite_upper.value),
                _fmt(b.certified_margin, "+.4f"),
                _fmt_s(b.confidence.oms),
            )
    return t


def _assumption_name(chk: AssumptionCheck) -> str:
    if chk.name.startswith("theorem3:"):
        return f"(b) Theorem 3, {chk.name.split(':', 1)[1]}"
    if chk.name.startswith("theorem1"):
        return "(a) Theorem 1: raters correlate"
    return chk.name


def _with_interval(value: float | None, interval: tuple[float | None, float | None] | None) -> str:
    if value is None:
        return "—"
    low, high = interval if interval is not None else (None, None)
    return f"{_fmt(value, '+.4f')} {_interval(low, high)}"


def _truth(result: CertifyResult) -> CleanTable:
    """The true accuracies on the gold items and whether each bound held."""
    o = result.oracle
    assert o is not None
    t = new_table(f"validation against gold ({o.n_items:,} items)")
    t.column("true accuracy of", style="bold")
    t.column("value", justify="right", no_wrap=True)
    t.column("the bounds")
    uppers = {"theoretical_upper": "U⁽ᵗ⁾", "empirical_upper": "U⁽ᵉ⁾", "finite_upper": "√(U_N²+t_u)"}
    t.row("the average rater", f"{o.average_rater:.4f}", bounds_held(o, uppers, upper=True))
    t.row(f"the {result.aggregate or 'aggregate'} label", f"{o.aggregate_accuracy:.4f}", "")
    for name, acc in o.models.items():
        lowers = {f"lower:{name}": "L_N", f"finite_lower:{name}": "L_N − t_l"}
        t.row(name, f"{acc:.4f}", bounds_held(o, lowers, upper=False))
    return t


def _assumptions(result: CertifyResult) -> CleanTable:
    """Table 2's assumptions: the difference with its 95 % interval and a status (never pass/FAIL)."""
    o = result.oracle
    assert o is not None
    t = new_table("assumptions on the gold items (Table 2): difference with 95% interval")
    t.column("assumption", style="bold")
    t.column("items", justify="right")
    t.column("difference [95%]", justify="right", no_wrap=True)
    t.column("status")
    for chk in o.assumptions:
        note = "" if chk.difference is not None else f" ({vacuous_words(chk.detail)})"
        t.row(
            _assumption_name(chk),
            f"{chk.n:,}",
            _with_interval(chk.difference, chk.interval),
            f"{check_text(chk.status)}{note}",
        )
        if chk.conclusion is not None:
            t.row(
                "   conclusion L_N − accuracy",
                "",
                _with_interval(chk.conclusion, chk.conclusion_interval),
                "Theorem 3 says ≤ 0",
            )
    t.caption(
        "difference: the side the assumption says is larger minus the other; evidence against at "
        "95% when the interval lies below 0 (or, for the conclusion, above 0)"
    )
    return t


def _curve(result: CertifyResult) -> CleanTable:
    assert result.curve
    t = new_table("bounds by number of raters k (Fig. 3)")
    for col in ("k", "U⁽ᵗ⁾_N", "U⁽ᵉ⁾_N", *[f"L_N {n}" for n in result.curve[0].lower]):
        t.column(col, justify="right")
    for p in result.curve:
        t.row(
            str(p.k), _fmt(p.theoretical), _fmt(p.empirical), *[_fmt(v) for v in p.lower.values()]
        )
    if any(p.empirical is None for p in result.curve):
        t.caption("—: U⁽ᵉ⁾ needs two raters (a pair) per item, so it starts at k = 2")
    return t


def render(result: CertifyResult) -> list[CleanTable]:
    """Tables for a person: the upper bound with Lemma 2, the models under the U_N used and under the
    other upper bound, the finite-sample bounds by concentration bound, the checks against gold and
    the curve."""
    tables = [_upper(result)]
    if result.models:
        ub = result.upper_bound
        tables.append(_verdict_table(result, ub.used))
        tables += [
            _verdict_table(result, kind)
            for kind in ub.kinds()
            if kind != ub.used and all(kind in m.by_upper for m in result.models)
        ]
        tables.append(_finite(result))
    if result.oracle is not None:
        tables += [_truth(result), _assumptions(result)]
    if result.curve:
        tables.append(_curve(result))
    return tables
