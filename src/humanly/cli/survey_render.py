"""Tables for ``humanly equivalence``: the power curve with each model's survey equivalence, and what k
amateurs are worth in experts. Views of the results; no statistics here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._console import CleanTable, new_table

if TYPE_CHECKING:
    from ..survey import EquivalenceResult, ExpertEquivalence, ModelEquivalence

__all__ = ["headroom_line", "render", "render_worth"]


def _f(x: object, spec: str = ".4f") -> str:
    return "—" if x is None else format(x, spec) if isinstance(x, float) else str(x)


def _equivalence(res: EquivalenceResult, m: ModelEquivalence) -> str:
    if m.equivalence is not None:
        return _f(m.equivalence, ".2f")
    beyond = {"below_0": "< 0", "above_max": f"> {res.power_curve[-1].k}"}
    return beyond.get(m.equivalence_note or "", "—")


def render(res: EquivalenceResult) -> CleanTable:
    """The power curve c_k, then per model its score and the number of raters it is worth."""
    info = res.information is not None
    t = new_table(
        f"humanly equivalence · {res.combiner} + {res.scorer} · {res.method} · "
        f"{res.n_items:,} items · {res.bootstrap} bootstraps"
    )
    for col in ("k", "c_k", "95% range", "items", *(["c_k − c_0 (bits)"] if info else [])):
        t.column(col, justify="right")
    for i, p in enumerate(res.power_curve):
        extra = [_f(res.information[i])] if res.information is not None else []
        t.row(str(p.k), _f(p.score), f"{_f(p.low)} – {_f(p.high)}", f"{p.n_items:,}", *extra)
    for m in res.models:
        extra = []
        if info:
            ratio = m.performance_ratio
            extra = [_f(m.information) + (f" ({ratio:.0%} of ideal)" if ratio is not None else "")]
        scores = (_f(m.score), f"{_f(m.low)} – {_f(m.high)}", f"{m.n_items:,}", *extra)
        t.row(m.model, *scores, style="bold")
        eq_range = f"{_f(m.equivalence_low, '.2f')} – {_f(m.equivalence_high, '.2f')}"
        t.row("", f"≡ {_equivalence(res, m)} raters", eq_range, "", *([""] if info else []))
    return t


def headroom_line(res: EquivalenceResult) -> str | None:
    """What an ideal classifier would give (with ``--headroom``), in one sentence."""
    h = res.headroom
    if h is None:
        return None
    return (
        f"headroom: an ideal classifier that knows each item's state gives {h.information:.4f} "
        f"bits over c_0 (NPMLE of item states, {h.grid_points} grid points)"
    )


def render_worth(ex: ExpertEquivalence) -> CleanTable:
    """How many experts k amateurs are worth."""
    t = new_table(f"k amateurs are worth x experts · {ex.combiner} + {ex.scorer}")
    for col in ("amateurs k", "a_k", "experts x", "95% range"):
        t.column(col, justify="right")
    for p, w in zip(ex.amateur_curve, ex.worth, strict=True):
        x = (
            f"{w.experts:.2f}"
            if w.experts is not None
            else {"below_0": "< 0", "above_max": "> max"}.get(w.note or "", "—")
        )
        lo = "—" if w.low is None else f"{w.low:.2f}"
        hi = "—" if w.high is None else f"{w.high:.2f}"
        t.row(str(p.k), f"{p.score:.4f}", x, f"{lo} – {hi}")
    return t
