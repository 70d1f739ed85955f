"""Tables for ``humanly certify``: the upper bound, each model's verdict, the bounds compared, the
checks against gold and the curve over k. Views of a :class:`~humanly.certify.CertifyResult`; no
statistics here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from ..certify import CertifyResult

__all__ = ["render"]


def _fmt(x: float | None, spec: str = ".4f") -> str:
    return "—" if x is None else format(x, spec)


def _fmt_s(x: float | None) -> str:
    """A confidence score: more digits near 1, so 0.999996 does not print as 1.0000."""
    if x is None:
        return "—"
    return f"{x:.6f}" if 0.9999 <= x < 1 else f"{x:.4f}"


def _upper(result: CertifyResult) -> CleanTable:
    ub, a, fin = result.upper_bound, result.raters, result.upper_finite
    t = new_table("humanly certify · average annotator (upper bound)", show_header=False)
    t.column("what", style="bold")
    t.column("value")
    if result.n_items is not None:
        t.row("items", f"{result.n_items:,}")
    t.row("annotators", f"{a.mode}, K = {_fmt(a.k, 'g') if a.k else '—'}")
    t.row("U⁽ᵗ⁾ theoretical (eq. 2)", _fmt(ub.theoretical))
    t.row("U⁽ᵉ⁾ empirical (eq. 8)", _fmt(ub.empirical))
    t.row("U_N used", f"{ub.used} = {ub.upper:.4f} on N = {ub.n:,} items")
    t.row(
        f"finite sample ({result.bound}, δ = {fin.delta:.3g})",
        f"√(U_N² + {fin.t:.4f}) = {_fmt(fin.value)}",
    )
    return t


def _models(result: CertifyResult) -> CleanTable:
    t = new_table(f"models (bound {result.bound}, α = {result.alpha:g})")
    for col in ("model", "L_N", "N", "margin", "L_N−t_l", "S HMS", "S OMS", "superhuman"):
        left = col == "model"
        t.column(col, justify="left" if left else "right", no_wrap=not left, overflow="fold")
    for x in result.models:
        conf = x.confidence
        verdict = "yes" if x.superhuman else "no"
        if x.superhuman and not x.superhuman_simultaneous and len(result.models) > 1:
            verdict += " (not jointly)"
        t.row(
            x.model,
            _fmt(x.lower),
            f"{x.n:,}",
            f"{x.margin:+.4f}",
            _fmt(x.lower_finite.value),
            _fmt_s(conf.hms) if conf.admissible else "n/a",
            _fmt_s(conf.oms) if conf.admissible else "n/a (L_N ≤ U_N)",
            verdict,
        )
    joint = result.simultaneous.joint
    if joint and joint.confidence is not None:
        verdict = "superhuman" if joint.superhuman else "not certified"
        t.caption(
            f"jointly (all of {', '.join(joint.models)}): S = {_fmt_s(joint.confidence)} → {verdict}"
        )
    return t


def _by_bound(result: CertifyResult) -> CleanTable:
    t = new_table("certified margin (L_N − t_l) − √(U_N² + t_u) and S (OMS) by bound")
    t.column("model")
    for name in result.models[0].by_bound:
        t.column(f"{name} margin", justify="right")
        t.column(f"{name} S", justify="right")
    for x in result.models:
        row = [x.model]
        for s in x.by_bound.values():
            margin = "—" if s.certified_margin is None else f"{s.certified_margin:+.4f}"
            row += [margin, _fmt_s(s.confidence.oms)]
        t.row(*row)
    return t


def _oracle(result: CertifyResult) -> CleanTable:
    o = result.oracle
    assert o is not None
    t = new_table(f"validation against gold ({o.n_items:,} items)", show_header=False)
    t.column("what", style="bold")
    t.column("value")
    t.row("true average annotator accuracy", f"{o.average_annotator:.4f}")
    t.row("aggregate accuracy", f"{o.aggregate_accuracy:.4f}")
    for name, acc in o.models.items():
        t.row(f"true accuracy {name}", f"{acc:.4f}")
    for k, v in o.held.items():
        t.row(f"bound held: {k}", "yes" if v else "NO")
    for chk in o.assumptions:
        verdict = "pass" if chk.passed else "FAIL"
        t.row(f"assumption {chk.name}", f"{_fmt(chk.left)} vs {_fmt(chk.right)} → {verdict}")
    return t


def _curve(result: CertifyResult) -> CleanTable:
    assert result.curve
    t = new_table("bounds by number of annotators k (Fig. 3)")
    for col in ("k", "U⁽ᵗ⁾_N", "U⁽ᵉ⁾_N", *[f"L_N {n}" for n in result.curve[0].lower]):
        t.column(col, justify="right")
    for p in result.curve:
        t.row(
            str(p.k), _fmt(p.theoretical), _fmt(p.empirical), *[_fmt(v) for v in p.lower.values()]
        )
    return t


def render(result: CertifyResult) -> list[CleanTable]:
    """Tables for a person: the upper bound, each model's verdict (and by bound when several were
    computed), the checks against gold, the curve."""
    tables = [_upper(result)]
    if result.models:
        tables.append(_models(result))
        if len(result.models[0].by_bound) > 1:
            tables.append(_by_bound(result))
    if result.oracle is not None:
        tables.append(_oracle(result))
    if result.curve:
        tables.append(_curve(result))
    return tables
