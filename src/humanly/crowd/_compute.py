"""The computation behind :func:`humanly.crowd.family.agreement`: point estimates, Gwet's variances,
the bootstrap over items, and one :class:`~humanly.crowd.family_results.Coefficient` row per
coefficient (with the definitions and the references each one matches).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, cast

import numpy as np
import scipy.sparse as sp

from .._core.bootstrap import percentile_interval
from .._core.counts import unique_rows
from .._core.result import Note
from .._core.rng import stream
from .._core.wording import agreement_memory_text
from ..errors import InputError, setting
from ._coefficients import COUNT_COEFFICIENTS, CountDesign, estimates, features, variances
from ._conger import Patterns, conger_estimates, conger_variance, sorted_ids
from ._values import (
    rank_value_variance,
    value_alpha,
    value_design,
    value_replicates,
    value_variance,
)
from .benchmarks import Interpretation, interpret, p_value, t_interval
from .family_results import AgreementOptions, AgreementResult, Coefficient
from .indices import paradox, two_raters

__all__ = ["compute", "from_values"]

_LABELS = {
    "percent_agreement": "percent agreement",
    "cohen_kappa": "Cohen's κ",
    "conger_kappa": "Conger's κ",
    "fleiss_kappa": "Fleiss' κ",
    "fleiss_kappa_pooled": "Fleiss' κ, pooled shares",
    "gwet_ac1": "Gwet's AC1",
    "gwet_ac2": "Gwet's AC2",
    "brennan_prediger": "Brennan–Prediger",
    "krippendorff_alpha": "Krippendorff's α",
    "krippendorff_alpha_weighted": "Krippendorff's α, Gwet's weights",
}

_ALPHAS = ("krippendorff_alpha", "krippendorff_alpha_weighted")


def _refuse(why: str, scale: str) -> InputError:
    fix = (
        "round the labels to fewer distinct values or raise the budget"
        if scale != "nominal"
        else "merge rare classes or raise the budget"
    )
    return InputError(f"ratings with {setting('scale', scale)}: {why}; {fix}")


def compute(
    r: Any,
    design: CountDesign,
    pats: Patterns | None,
    named: int,
    which: list[str],
    wname: str,
    scale: str,
    level: float,
    b: int,
    seed: int,
    benchmark: float,
    opts: AgreementOptions,
    notes: list[Note],
) -> AgreementResult:
    """Point estimates, variances, bootstrap and rows of every coefficient in ``which``: the count
    coefficients on the distinct count rows of ``design``, Cohen's or Conger's κ on the rater
    patterns ``pats`` (``None`` when neither κ nor the bootstrap of named ratings needs them);
    ``named`` raters with a label (0: no rater identity)."""
    count_which = tuple(_count_id(c) for c in which if _count_id(c) in COUNT_COEFFICIENTS)
    feats = features(design)
    est = estimates(design.mult @ feats, design, count_which)
    population = math.inf if opts.population is None else float(opts.population)
    var = variances(design, est, count_which, population)
    kappa_id = next((c for c in which if c in ("cohen_kappa", "conger_kappa")), None)
    if kappa_id is not None:
        assert pats is not None and pats.onehot is not None
        sums = np.asarray(pats.onehot.T @ pats.mult)[None, :]
        k, pe = conger_estimates(est["pa"], sums, pats.raters, design.weights)
        est[kappa_id], est[f"pe_{kappa_id}"] = k, pe
        var[kappa_id] = conger_variance(
            pats, design.weights, float(est["pa"][0]), float(pe[0]), float(k[0]), population
        )
    reps = _replicates(pats, design, feats, count_which, kappa_id, b, seed, opts.memory)
    n = float(design.mult.sum())
    n2 = float(design.mult[design.rows.sum(axis=1) >= 2].sum())
    rows = []
    for c in which:
        rows.append(_row(c, est, var, reps, wname, scale, n, n2, level, benchmark, opts))
    pair = _pair(r, design.q) if r.has_raters and named == 2 else None
    shares = (design.rows * design.mult[:, None]).sum(axis=0)
    shares = shares / shares.sum()
    flag = _paradox(rows, est, r.classes, shares, pair, opts)
    rep_matrix = np.column_stack([reps[_count_id(c)] for c in which]) if b else np.zeros((0, 0))
    return AgreementResult(
        coefficients=tuple(rows),
        classes=tuple(str(c) for c in r.classes),
        weights=wname,
        values=tuple(float(v) for v in design.values),
        items=int(n),
        pairable_items=int(n2),
        raters=named if r.has_raters else None,
        labels=int((design.rows.sum(axis=1) * design.mult).sum()),
        bootstrap_method="percentile_patterns" if b else "none",
        pair=pair,
        paradox=flag,
        notes=tuple(notes),
        replicates=rep_matrix,
        **_common(r, scale, level, b, seed, benchmark, opts),
    )


def _common(
    r: Any, scale: str, level: float, b: int, seed: int, benchmark: float, opts: AgreementOptions
) -> dict[str, Any]:
    """The result's fields that do not depend on how the coefficients were computed."""
    return {
        "scale": scale,
        "level": level,
        "bootstrap": b,
        "seed": seed,
        "benchmark": benchmark,
        "interval_method": "gwet_analytic_t",
        "p_value_method": "t_test",
        "options": opts,
    }


def from_values(
    r: Any,
    values: np.ndarray,
    scale: str,
    weights: Any,
    coefficients: Any,
    reason: Note,
    level: float,
    b: int,
    seed: int,
    benchmark: float,
    opts: AgreementOptions,
) -> AgreementResult:
    """Krippendorff's α from the numeric values, when the classes are too many for q × q tables: the
    other coefficients need classes, and ``reason`` says why (``too_many_values`` or
    ``too_many_patterns``, with the sizes)."""
    why = agreement_memory_text(cast("Mapping[str, float]", dict(reason.values)), reason.code)
    if scale not in ("interval", "ordinal"):
        raise _refuse(why, scale)
    if weights is not None:
        raise InputError(
            f"{setting('weights', weights if isinstance(weights, str) else 'matrix')}: weighted coefficients "
            f"need classes, and {why}; leave weights out to get Krippendorff's α from the values"
        )
    asked = (
        ()
        if coefficients is None
        else (coefficients,)
        if isinstance(coefficients, str)
        else coefficients
    )
    if any(c != "krippendorff_alpha" for c in asked):
        raise InputError(
            f"coefficients={tuple(asked)!r}: only 'krippendorff_alpha' is computed from values, and "
            f"{why}; round the labels to fewer distinct values for the others"
        )
    vd = value_design(r, values, scale)
    two = vd.size >= 2
    if not bool(two.any()):
        raise InputError(
            "ratings: no item has two labels; agreement needs items labelled by at least two raters"
        )
    alpha, pa, pe = value_alpha(vd)
    population = math.inf if opts.population is None else float(opts.population)
    est = {
        "krippendorff_alpha": alpha,
        "pa": pa,
        "pa_krippendorff_alpha": pa,
        "pe_krippendorff_alpha": pe,
    }
    var = {
        "krippendorff_alpha": rank_value_variance(r, values, population)
        if scale == "ordinal"
        else value_variance(vd, population)
    }
    boot = scale == "interval" and b > 0
    reps = {
        "krippendorff_alpha": value_replicates(vd, b, seed, opts.memory) if boot else np.empty(0)
    }
    n, n2 = float(len(vd.size)), float(two.sum())
    row = _row("krippendorff_alpha", est, var, reps, "", scale, n, n2, level, benchmark, opts)
    notes = [Note("values_only", {"cause": reason.code, **dict(reason.values)})]
    if scale == "ordinal" and b:
        notes.append(Note("no_ordinal_values_bootstrap"))
    return AgreementResult(
        coefficients=(row,),
        classes=(),
        weights="",
        values=(),
        items=int(n),
        pairable_items=int(n2),
        raters=None if not r.has_raters else int((np.bincount(r.rater_codes) > 0).sum()),
        labels=int(vd.size.sum()),
        bootstrap_method="percentile_items" if boot else "none",
        pair=None,
        paradox=None,
        notes=tuple(notes),
        replicates=reps["krippendorff_alpha"][:, None] if boot else np.zeros((0, 0)),
        **_common(r, scale, level, b, seed, benchmark, opts),
    )


def _count_id(c: str) -> str:
    return "gwet_ac" if c == "gwet_ac1" else c


class Draws:
    """What a bootstrap replicate redraws: the rater patterns when there are any (``pats``), else the
    distinct count rows; ``to_rows`` sums pattern multiplicities into count-row multiplicities (the
    count coefficients' features are held once per distinct count row)."""

    def __init__(self, design: CountDesign, pats: Patterns | None) -> None:
        self.pats = pats
        if pats is None:
            self.mult = design.mult
            self._to_rows: sp.csr_matrix | None = None
            return
        self.mult = pats.mult
        rows, inv, _ = unique_rows(pats.rows)  # sorted as the design's rows: the same rows
        assert len(rows) == len(design.rows)
        p = len(inv)
        self._to_rows = sp.csr_matrix(
            (np.ones(p), (inv, np.arange(p))), shape=(len(rows), p), dtype=float
        )

    def to_rows(self, m: np.ndarray) -> np.ndarray:
        """Count-row multiplicities (replicates × rows) of drawn multiplicities ``m``."""
        if self._to_rows is None:
            return m
        return np.asarray(self._to_rows @ m.T).T


def _replicates(
    pats: Patterns | None,
    design: CountDesign,
    feats: np.ndarray,
    count_which: tuple[str, ...],
    kappa_id: str | None,
    b: int,
    seed: int,
    memory: int,
) -> dict[str, np.ndarray]:
    """Bootstrap replicates of every coefficient: replicate i draws the multiplicities of the distinct
    patterns (:class:`Draws`) from ``stream(seed, i)`` (multinomial: the law of resampling the
    items), and a block of replicates is one product with the features."""
    names = [*count_which, *([kappa_id] if kappa_id else [])]
    out = {name: np.empty(b) for name in names}
    if b == 0:
        return out
    draws = Draws(design, pats)
    n = round(float(draws.mult.sum()))
    p = draws.mult / draws.mult.sum()
    q = design.q
    raters = 0 if pats is None else pats.raters
    cells = len(p) + feats.shape[1] + 3 * raters * q + (4 * q * q if design.ordinal else 0)
    block = int(max(1, min(b, (memory // 8) // (8 * cells))))
    for start in range(0, b, block):
        stop = min(b, start + block)
        m = np.stack([stream(seed, i).multinomial(n, p) for i in range(start, stop)]).astype(float)
        est = estimates(draws.to_rows(m) @ feats, design, count_which)
        for name in count_which:
            out[name][start:stop] = est[name]
        if kappa_id is not None:
            assert pats is not None and pats.onehot is not None
            sums = np.asarray(pats.onehot.T @ m.T).T
            out[kappa_id][start:stop] = conger_estimates(
                est["pa"], sums, pats.raters, design.weights
            )[0]
    return out


def _row(
    c: str,
    est: dict[str, np.ndarray],
    var: dict[str, float],
    reps: dict[str, np.ndarray],
    wname: str,
    scale: str,
    n: float,
    n2: float,
    level: float,
    benchmark: float,
    opts: AgreementOptions,
) -> Coefficient:
    key = _count_id(c)
    name = "gwet_ac2" if c == "gwet_ac1" and wname != "identity" else c
    estimate = float(est[key][0])
    se = math.sqrt(var[key]) if math.isfinite(var[key]) and var[key] >= 0 else math.nan
    items = n2 if key in ("fleiss_kappa_pooled", *_ALPHAS) else n
    df = (n2 if key == "fleiss_kappa_pooled" else n) - 1.0
    chance = float(est[f"pe_{key}"][0]) if f"pe_{key}" in est else 0.0
    agree = float(est.get(f"pa_{key}", est["pa"])[0])
    weights = wname
    if key == "krippendorff_alpha":
        weights = f"krippendorff {scale} metric"
    boot = percentile_interval(reps[key], level)
    readings: tuple[Interpretation, ...] = ()
    if key != "percent_agreement":
        readings = tuple(interpret(estimate, se, s, level) for s in opts.scales)
    return Coefficient(
        name=name,
        label=_LABELS[name],
        weights=weights,
        definition=c,
        estimate=estimate,
        agreement=agree,
        chance=chance,
        standard_error=se,
        interval=t_interval(estimate, se, df, level),
        bootstrap_interval=boot,
        p_value=p_value(estimate, se, df, benchmark, opts.alternative),
        items=int(items),
        interpretations=readings,
    )


def _pair(r: Any, q: int) -> Any:
    """The two raters' q × q table over the items both labelled, and its indices."""
    used = np.flatnonzero(np.bincount(r.rater_codes, minlength=len(r.raters)) > 0)
    used = used[sorted_ids(r.raters[used])]  # the first rater in sorted-id order gives the rows
    first = np.full(r.n_items, -1, dtype=np.int64)
    second = np.full(r.n_items, -1, dtype=np.int64)
    a = r.rater_codes == used[0]
    first[r.item_codes[a]] = r.label_codes[a]
    second[r.item_codes[~a]] = r.label_codes[~a]
    both = (first >= 0) & (second >= 0)
    table = np.bincount(first[both] * q + second[both], minlength=q * q).reshape(q, q)
    return two_raters(table, (str(r.raters[used[0]]), str(r.raters[used[1]])))


def _paradox(
    rows: list[Coefficient],
    est: dict[str, np.ndarray],
    classes: tuple[Any, ...],
    shares: np.ndarray,
    pair: Any,
    opts: AgreementOptions,
) -> Any:
    by_name = {row.name: row for row in rows}
    kappa = by_name.get("cohen_kappa") or by_name.get("fleiss_kappa") or by_name.get("conger_kappa")
    if kappa is None:
        return None
    ac = by_name.get("gwet_ac1") or by_name.get("gwet_ac2")
    return paradox(
        kappa=kappa.estimate,
        kappa_name=kappa.name,
        agreement=float(est["pa"][0]),
        chance=kappa.chance,
        classes=classes,
        shares=shares,
        gwet_ac=ac.estimate if ac is not None else math.nan,
        pair=pair,
        thresholds=(opts.paradox_agreement, opts.paradox_kappa),
    )
