"""Leave-one-out column sums of one level for a batch of bootstrap replicates (the scaling exact
engine, :mod:`humanly.survey._scale`).

For replicate b with multiplicities m_b (D,), the ABC needs, for a pair (d, y) of the level, the sum
over the *other* items of the replicate, L_d(y) = Σ_u (m_bu − [u = d]) P(y | v_u) (one copy of the
held-out item removed). In the column's scale (each column's largest P is 1) the total is
S_b(y) = Σ_u m_bu h̃_u(y) — one sparse product for all replicates — and L̃_d = S_b − h̃_d.

That subtraction never loses precision where it is used: when S_b(y) ≥ 2 no single copy (h̃ ≤ 1) is
more than half the total, so S_b − h̃_d ≥ S_b / 2. In a *flagged* column (S_b(y) < 2) at most one
present vector can hold more than half of the total — the present one with the largest h̃; its L̃ is
the explicit sum over the others (no subtraction of nearly equal numbers when one item dominates), and
every other pair keeps S_b − h̃_d ≥ S_b / 2. At a level whose column shares span more than the float
range (some h̃ below 2^−900, e.g. 1,000 labels per item) the flagged columns are summed in log space
instead (log-sum-exp over the others, with the held-out item's remaining m − 1 copies).

Every replicate's numbers are computed from its own column only, in an order that does not depend on
which other replicates share the batch.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from ._compositions import LN2, Pairs

__all__ = ["Sums", "column_sums", "expand_cases", "loo_values", "patch_block"]


@dataclasses.dataclass(frozen=True)
class Sums:
    """Column sums of one level over a set of its pairs (all, or those of vectors with more labels),
    for B replicates: ``s`` (Y, B) in the column scale; ``flag`` (Y, B) where s < 2; the flagged pairs'
    exact log2 L̃ (−inf for an empty sum), keyed pair · B + b (sorted ``pkey``, ``pval``); ``lsum``
    (Y, B) log2 of the whole column sum; ``llo`` (Y, B) a lower bound of log2 L̃ over the present
    vectors of the column (log2(s − 1) where not flagged)."""

    s: np.ndarray
    flag: np.ndarray
    pkey: np.ndarray
    pval: np.ndarray
    lsum: np.ndarray
    llo: np.ndarray

    @property
    def n_rep(self) -> int:
        return int(self.s.shape[1])


def column_sums(pr: Pairs, mt: np.ndarray, use: np.ndarray | None = None) -> Sums:
    """Column sums of ``pr`` under multiplicities ``mt`` (D, B) over the pairs ``use`` (a mask; all
    when ``None``), with the flagged columns worked out exactly (see the module docstring)."""
    from scipy import sparse

    n_d, n_b = mt.shape
    keep = slice(None) if use is None else use
    a = sparse.csr_matrix((pr.ht[keep], (pr.col[keep], pr.owner[keep])), shape=(pr.n_cols, n_d))
    s = np.asarray(a @ mt)
    flag = s < 2.0
    fc, fb = np.nonzero(flag & mt.any(axis=0))  # an all-zero replicate (padding) has no pair
    route = _log_columns if pr.tiny else _dominant_columns
    pairs, reps, vals, llo_c, ltot_c = route(pr, mt, s, fc, fb, use)
    order = np.argsort(pairs * n_b + reps, kind="stable")
    with np.errstate(divide="ignore", invalid="ignore"):
        lsum = np.log2(s)
        llo = np.log2(s - 1.0)
    lsum[fc, fb] = ltot_c
    llo[fc, fb] = llo_c
    return Sums(s, flag, (pairs * n_b + reps)[order], vals[order], lsum, llo)


def _candidates(
    pr: Pairs, mt: np.ndarray, cols: np.ndarray, reps: np.ndarray, use: np.ndarray | None
) -> np.ndarray:
    """For each case (column, replicate): its present pair with the largest h̃ (−1 if none)."""
    out = np.full(len(cols), -1, dtype=np.int64)
    todo = np.arange(len(cols))
    step = 0
    while len(todo):
        pos = pr.cstart[cols[todo]] + step
        inside = pos < pr.cstart[cols[todo] + 1]
        todo, pos = todo[inside], pos[inside]
        pair = pr.hord[pos]
        here = mt[pr.owner[pair], reps[todo]] >= 1
        if use is not None:
            here &= use[pair]
        out[todo[here]] = pair[here]
        todo = todo[~here]
        step += 1
    return out


def _dominant_columns(
    pr: Pairs,
    mt: np.ndarray,
    s: np.ndarray,
    cols: np.ndarray,
    reps: np.ndarray,
    use: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flagged cases at an ordinary level: the dominant pair's exact L̃ (the others' explicit sum),
    each case's lower bound of log2 L̃ (that sum, or S − h̃ of its largest present pair) and log2 S.
    Returns (pairs, replicates, values) of the dominant pairs, llo and ltot per case."""
    tot = s[cols, reps]
    cand = _candidates(pr, mt, cols, reps, use)
    top = np.where(cand >= 0, pr.ht[np.maximum(cand, 0)], 0.0)
    dom = (cand >= 0) & (2.0 * top > tot)  # then its multiplicity is 1
    with np.errstate(divide="ignore", invalid="ignore"):
        llo = np.where(cand >= 0, np.log2(tot - top), -np.inf)
        ltot = np.log2(tot)
    at = np.flatnonzero(dom)
    case, pair, m = expand_cases(pr, mt, cols[at], reps[at], use)
    part = np.where(pair == cand[at][case], 0.0, m * pr.ht[pair])
    others = np.bincount(case, weights=part, minlength=len(at))
    with np.errstate(divide="ignore"):
        val = np.log2(others)
    llo[at] = val
    return cand[at], reps[at], val, llo, ltot


def expand_cases(
    pr: Pairs, mt: np.ndarray, cols: np.ndarray, reps: np.ndarray, use: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The present pairs of each case (column ``cols[i]``, replicate ``reps[i]``), grouped by case:
    (case, pair, multiplicity)."""
    starts = pr.cstart[cols]
    lens = pr.cstart[cols + 1] - starts
    case = np.repeat(np.arange(len(cols)), lens)
    off = np.arange(int(lens.sum())) - np.repeat(np.cumsum(lens) - lens, lens)
    pair = pr.cord[starts[case] + off]
    m = mt[pr.owner[pair], reps[case]]
    ok = m >= 1 if use is None else (m >= 1) & use[pair]
    return case[ok], pair[ok], m[ok]


def _log_columns(
    pr: Pairs,
    mt: np.ndarray,
    s: np.ndarray,
    cols: np.ndarray,
    reps: np.ndarray,
    use: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Flagged cases at a level with tiny shares, in log space: the exact log2 L̃ of every present
    pair (its column sum without one copy of its own vector), each case's minimum of them and log2 of
    its total, in the column scale; −inf for empty sums. Returns (pairs, replicates, values, llo,
    ltot)."""
    n_case = len(cols)
    llo = np.full(n_case, -np.inf)
    ltot = np.full(n_case, -np.inf)
    case, pair, m = expand_cases(pr, mt, cols, reps, use)
    if not len(case):
        return pair, reps[case], np.zeros(0), llo, ltot
    first = np.flatnonzero(np.r_[True, case[1:] != case[:-1]])
    seg = np.repeat(np.arange(len(first)), np.diff(np.r_[first, len(case)]))
    lh = pr.lh[pair]
    lv = np.log(m) + lh
    mx = np.maximum.reduceat(lv, first)
    tot = np.add.reduceat(np.exp(lv - mx[seg]), first)
    own = np.exp(lh - mx[seg])  # one copy of the pair's own vector, relative to the case's largest
    dom = 2.0 * own > tot[seg]
    with np.errstate(divide="ignore"):
        val = mx[seg] + np.log(np.where(dom, 1.0, tot[seg] - own))
    if dom.any():
        val[dom] = _dominant(lv, lh, m, first, seg, dom)
    shift = pr.ls2[pr.col[pair]]
    val2 = val / LN2 - shift
    here = case[first]
    llo[here] = np.minimum.reduceat(val2, first)
    ltot[here] = (mx + np.log(tot)) / LN2 - shift[first]
    return pair, reps[case], val2, llo, ltot


def _dominant(
    lv: np.ndarray,
    lh: np.ndarray,
    m: np.ndarray,
    first: np.ndarray,
    seg: np.ndarray,
    dom: np.ndarray,
) -> np.ndarray:
    """ln L of the dominant pairs (more than half of their case's total; at most one per case): the
    others' sum plus the pair's remaining m − 1 copies, each case scaled by its own largest term."""
    at = np.flatnonzero(dom)
    cases = seg[at]
    sel = np.isin(seg, cases)
    idx = np.flatnonzero(sel)
    lv2 = lv[idx].copy()
    with np.errstate(divide="ignore"):
        rest = np.log(m[at] - 1.0) + lh[at]  # −inf when the copy was the only one
    lv2[np.searchsorted(idx, at)] = rest
    sub_seg = seg[idx]
    sub_first = np.flatnonzero(np.r_[True, sub_seg[1:] != sub_seg[:-1]])
    mx = np.maximum.reduceat(lv2, sub_first)
    safe = np.where(np.isfinite(mx), mx, 0.0)
    rep = np.repeat(safe, np.diff(np.r_[sub_first, len(idx)]))
    tot = np.add.reduceat(np.exp(lv2 - rep), sub_first)
    with np.errstate(divide="ignore"):
        out = safe + np.log(tot)
    return np.where(np.isfinite(mx), out, -np.inf)


def loo_values(sums: Sums, pr: Pairs, pair: np.ndarray, rep: np.ndarray) -> np.ndarray:
    """log2 L̃ (column scale) of present pairs ``pair`` in replicates ``rep``, exactly as the main pass
    gets them: log2(s − h̃) unless the pair was worked out on its own (a flagged column)."""
    col = pr.col[pair]
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.log2(sums.s[col, rep] - pr.ht[pair])
    hit = np.flatnonzero(sums.flag[col, rep])
    if len(hit) and len(sums.pkey):
        key = pair[hit] * sums.n_rep + rep[hit]
        pos = np.minimum(np.searchsorted(sums.pkey, key), len(sums.pkey) - 1)
        found = sums.pkey[pos] == key
        out[hit[found]] = sums.pval[pos[found]]
    return out


def patch_block(g: np.ndarray, idx: np.ndarray, sums: Sums) -> None:
    """Write the flagged pairs' exact values (−inf as 0: an empty sum is handled by the floor pass)
    into ``g`` (rows: pairs ``idx``, sorted; columns: replicates)."""
    n_b = sums.n_rep
    lo = np.searchsorted(sums.pkey, idx[0] * n_b)
    hi = np.searchsorted(sums.pkey, (idx[-1] + 1) * n_b)
    if hi <= lo:
        return
    key = sums.pkey[lo:hi]
    pair, rep = key // n_b, key % n_b
    row = np.searchsorted(idx, pair)
    ok = (row < len(idx)) & (idx[np.minimum(row, len(idx) - 1)] == pair)
    val = sums.pval[lo:hi]
    g[row[ok], rep[ok]] = np.where(np.isfinite(val[ok]), val[ok], 0.0)
