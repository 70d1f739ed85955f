"""EM for the latent-class estimate of the correlated error model (:mod:`humanly.budget.latent`).

Items enter through their pattern (the two predictions and the two label counts); a batch of item
weightings (bootstrap replicates) and of latent variants is fitted at once. The E-step gives each
pattern's posterior P(y | labels, predictions), the M-step closed-form weighted proportions; SQUAREM
extrapolates between EM steps (the same fixed points, the log-likelihood never decreasing).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..errors import InputError

__all__ = [
    "BOTH_RIGHT",
    "BOTH_WRONG",
    "ONLY_B",
    "ONLY_W",
    "STATE_NAMES",
    "EMState",
    "Patterns",
    "majority_start",
    "paper_params",
    "pattern_loglik",
    "patterns",
    "run_em",
    "state_accuracy",
]

#: Item states, index 2·[c_w right] + [c_b right].
BOTH_WRONG, ONLY_B, ONLY_W, BOTH_RIGHT = 0, 1, 2, 3
_FLOOR = 1e-300
_QCLIP = 1e-12

#: Names of the four states, by index.
STATE_NAMES = ("both_wrong", "only_b", "only_w", "both_right")


class Patterns(NamedTuple):
    """Items grouped by (prediction of c_b, prediction of c_w, labels of class 0, labels of class 1).

    ``state[p, y]``: the state of pattern p if the true class is y; ``correct[p, y]``: its labels equal to
    y; ``total[p]``: its labels; ``freq[p]``: items with the pattern; ``inverse[i]``: item i's pattern;
    ``labels[p]``: the two label counts."""

    state: np.ndarray
    correct: np.ndarray
    total: np.ndarray
    freq: np.ndarray
    inverse: np.ndarray
    labels: np.ndarray


class EMState(NamedTuple):
    """A batch of EM fits, one row per weight vector: ρ (B,), state probabilities (B, 4), label accuracies
    (B, 8; index 2·state + true class), posteriors P(y | pattern) (B, P, 2), log-likelihood (B,),
    iterations (B,), converged (B,)."""

    rho: np.ndarray
    pi: np.ndarray
    q: np.ndarray
    gamma: np.ndarray
    loglik: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


class _Prep(NamedTuple):
    """What every EM step reads from the patterns, built once per fit instead of once per step (the
    same arrays, so the same numbers): each (pattern, class)'s state, indicator matrices of its state
    and label accuracy, the accuracy's flat index, the right and wrong label counts."""

    state: np.ndarray
    onehot: np.ndarray
    acc: np.ndarray
    a: np.ndarray
    correct: np.ndarray
    wrong: np.ndarray
    total2: np.ndarray


def _prep(pat: Patterns) -> _Prep:
    a = _acc_index(pat)
    return _Prep(
        pat.state,
        np.eye(4)[pat.state].reshape(-1, 4),
        np.eye(8)[a].reshape(-1, 8),
        a.ravel(),
        pat.correct,
        pat.total[:, None] - pat.correct,
        np.repeat(pat.total, 2),
    )


def patterns(counts: Any, pred_b: Any, pred_w: Any) -> Patterns:
    """Group items by their pattern (class codes 0/1 for the predictions; counts items × 2)."""
    c = np.asarray(counts, dtype=np.int64)
    if c.ndim != 2 or c.shape[1] != 2:
        raise InputError("counts: give an items × 2 matrix of label counts (two classes)")
    b = np.asarray(pred_b, dtype=np.int64).ravel()
    w = np.asarray(pred_w, dtype=np.int64).ravel()
    if not (len(b) == len(w) == len(c)):
        raise InputError(
            f"counts, pred_b, pred_w: give one row / prediction per item ({len(c)}, {len(b)}, {len(w)})"
        )
    if np.any((b < 0) | (b > 1) | (w < 0) | (w > 1)) or np.any(c < 0):
        raise InputError("pred_b, pred_w: give class codes 0 or 1; counts must be ≥ 0")
    keys = np.stack([b, w, c[:, 0], c[:, 1]], axis=1)
    pat, inverse, count = np.unique(keys, axis=0, return_inverse=True, return_counts=True)
    pb, pw, n0, n1 = pat.T
    state = np.stack([2 * (pw == y) + (pb == y) for y in (0, 1)], axis=1).astype(np.int64)
    correct = np.stack([n0, n1], axis=1).astype(float)
    return Patterns(
        state, correct, (n0 + n1).astype(float), count.astype(float), inverse.ravel(), pat[:, 2:]
    )


def majority_start(pat: Patterns) -> np.ndarray:
    """EM's starting posterior: each pattern's crowd majority as its class (a tie as ½)."""
    n0, n1 = pat.labels[:, 0], pat.labels[:, 1]
    g1 = np.where(n1 > n0, 1.0, np.where(n1 < n0, 0.0, 0.5))
    return np.stack([1.0 - g1, g1], axis=1)


def _m_step(
    pre: _Prep,
    weights: np.ndarray,
    gamma: np.ndarray,
    q_prev: np.ndarray,
    tie: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Closed-form maximisation: ρ, state probabilities, label accuracies (previous value where a state
    has no labels), and the labels per state (to mark unseen states). ``tie`` (B, 8, 8): which label
    accuracies are one parameter (their right and all labels are pooled); None: all free."""
    wg = (weights[:, :, None] * gamma).reshape(len(weights), -1)  # (B, 2P)
    n = weights.sum(axis=1)
    rho = wg[:, 1::2].sum(axis=1) / n
    pi = (wg @ pre.onehot) / n[:, None]  # onehot (2P, 4), acc (2P, 8)
    num = (wg * pre.correct.ravel()[None, :]) @ pre.acc
    den = (wg * pre.total2[None, :]) @ pre.acc
    if tie is not None:
        num, den = np.einsum("bi,bij->bj", num, tie), np.einsum("bi,bij->bj", den, tie)
    # the binomial log-likelihood is concave in q: its maximum on [½, 1] is the clipped ratio
    q = np.where(den > 0, np.maximum(num / np.where(den > 0, den, 1.0), 0.5), q_prev)
    return rho, pi, q, den


def _acc_index(pat: Patterns) -> np.ndarray:
    """Index of the label accuracy of pattern p if its true class is y: 2·state + y."""
    return 2 * pat.state + np.arange(2)[None, :]


def pattern_loglik(
    pat: Patterns, rho: np.ndarray, pi: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per row of a batch of parameters: each pattern's log-likelihood (B, P) and posterior
    P(y | pattern) (B, P, 2)."""
    return _loglik(_prep(pat), rho, pi, q)


def _loglik(
    pre: _Prep, rho: np.ndarray, pi: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    qc = np.clip(q, _QCLIP, 1.0 - _QCLIP)
    shape = (len(rho), *pre.state.shape)
    s = pre.state.ravel()
    log_pi = np.log(np.maximum(pi[:, s], _FLOOR)).reshape(shape)
    log_q = np.log(qc[:, pre.a]).reshape(shape)
    log_nq = np.log1p(-qc[:, pre.a]).reshape(shape)
    log_rho = np.log(np.maximum(np.stack([1.0 - rho, rho], axis=1), _FLOOR))[:, None, :]
    ll = log_rho + log_pi + pre.correct[None] * log_q + pre.wrong[None] * log_nq
    top = ll.max(axis=2, keepdims=True)
    e = np.exp(ll - top)
    norm = e.sum(axis=2, keepdims=True)
    return top[:, :, 0] + np.log(norm[:, :, 0]), e / norm


def _e_step(
    pre: _Prep, weights: np.ndarray, rho: np.ndarray, pi: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Posterior P(y | pattern) and the log-likelihood, per row of the batch."""
    ll, post = _loglik(pre, rho, pi, q)
    return post, (weights * ll).sum(axis=1)


def _pack(rho: np.ndarray, pi: np.ndarray, q: np.ndarray) -> np.ndarray:
    return np.concatenate([rho[:, None], pi, q], axis=1)  # (B, 13)


def _em_map(
    pre: _Prep, weights: np.ndarray, theta: np.ndarray, tie: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One EM step θ → M(E(θ)) per row; also the log-likelihood at θ and which accuracies have labels."""
    gamma, loglik = _e_step(pre, weights, theta[:, 0], theta[:, 1:5], theta[:, 5:])
    rho, pi, q, den = _m_step(pre, weights, gamma, theta[:, 5:], tie)
    return _pack(rho, pi, q), loglik, den > 0


def _project(theta: np.ndarray) -> np.ndarray:
    """Back into the parameter space: ρ ∈ [0, 1], state probabilities on the simplex, accuracies in
    [½, 1]."""
    out = theta.copy()
    out[:, 0] = np.clip(out[:, 0], 0.0, 1.0)
    pi = np.clip(out[:, 1:5], 0.0, None)
    out[:, 1:5] = pi / np.maximum(pi.sum(axis=1, keepdims=True), _FLOOR)
    out[:, 5:] = np.clip(out[:, 5:], 0.5, 1.0)
    return out


def _squarem_step(
    pre: _Prep,
    w: np.ndarray,
    t0: np.ndarray,
    t1: np.ndarray,
    ll0: np.ndarray,
    tie: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """One SQUAREM extrapolation (Varadhan & Roland 2008, scheme S3) from t0 with t1 = F(t0): t2 = F(t1),
    r = t1 − t0, v = t2 − 2t1 + t0, α = min(−‖r‖/‖v‖, −1), t′ = t0 − 2αr + α²v (projected), then one EM
    step from t′. Rows where t′ has a lower log-likelihood than t0 take plain EM steps instead, so the
    log-likelihood never decreases. Returns the new θ and the EM steps each row spent."""
    t2, _, _ = _em_map(pre, w, t1, tie)
    r, v = t1 - t0, t2 - 2.0 * t1 + t0
    nr, nv = np.linalg.norm(r, axis=1), np.linalg.norm(v, axis=1)
    alpha = np.minimum(-nr / np.where(nv > 0, nv, 1.0), -1.0)[:, None]
    tp = _project(t0 - 2.0 * alpha * r + alpha**2 * v)
    t_new, ll_p, _ = _em_map(pre, w, tp, tie)
    bad = ~(ll_p >= ll0 - 1e-12 * np.abs(ll0)) | ~np.all(np.isfinite(t_new), axis=1)
    if bad.any():
        t_new[bad] = _em_map(pre, w[bad], t2[bad], None if tie is None else tie[bad])[0]
    return t_new, 3 + bad.astype(np.int64)


def run_em(
    pat: Patterns,
    weights: np.ndarray,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    *,
    accelerate: bool = True,
    tie: np.ndarray | None = None,
) -> EMState:
    """EM for a batch of item weightings (rows of ``weights``, one per pattern), each started from the
    crowd majority; a row stops when an EM step moves no parameter by more than ``tol`` (a fixed point
    to that accuracy). ``accelerate`` (default) extrapolates with SQUAREM between EM steps — the same
    fixed points in a fraction of the steps, the log-likelihood still never decreasing; ``iterations``
    counts EM steps either way. ``tie`` (B, 8, 8; ``latent.tie_matrix``): the latent variant of each row
    (None: the full variant)."""
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    b = len(w)
    start = np.broadcast_to(majority_start(pat), (b, *pat.state.shape))
    pre = _prep(pat)
    rho, pi, q, _ = _m_step(pre, w, start, np.full((b, 8), 0.5), tie)
    theta = _pack(np.nan_to_num(rho, nan=0.5), np.nan_to_num(pi, nan=0.25), q)
    iterations = np.ones(b, dtype=np.int64)
    converged = np.zeros(b, dtype=bool)
    active = np.flatnonzero(w.sum(axis=1) > 0)
    while active.size:
        wa, t0 = w[active], theta[active]
        t1, ll0, _ = _em_map(pre, wa, t0, None if tie is None else tie[active])
        done = np.abs(t1 - t0).max(axis=1) <= tol
        theta[active] = t1
        iterations[active] += 1
        converged[active[done]] = True
        active, t0, t1, ll0 = active[~done], t0[~done], t1[~done], ll0[~done]
        room = iterations[active] + 3 <= max_iter  # an extrapolation costs up to 3 more EM steps
        if accelerate and room.any():
            sel = active[room]
            ts = None if tie is None else tie[sel]
            theta[sel], steps = _squarem_step(pre, w[sel], t0[room], t1[room], ll0[room], ts)
            iterations[sel] += steps - 1
        active = active[iterations[active] < max_iter]
    gamma, loglik = _e_step(pre, w, theta[:, 0], theta[:, 1:5], theta[:, 5:])
    seen = _m_step(pre, w, gamma, theta[:, 5:], tie)[3] > 0
    q = np.where(seen, theta[:, 5:], np.nan)
    return EMState(theta[:, 0], theta[:, 1:5], q, gamma, loglik, iterations, converged)


def state_accuracy(rho: np.ndarray, q: np.ndarray, state: int) -> np.ndarray:
    """A state's label accuracy averaged over the true class, (1 − ρ)·q(state, 0) + ρ·q(state, 1) (the
    classifiers' correctness does not depend on the class, so P(y | state) = P(y)); one class's value
    where the other is undefined."""
    q0, q1 = q[..., 2 * state], q[..., 2 * state + 1]
    both = (1.0 - rho) * q0 + rho * q1
    return np.where(np.isnan(q0), q1, np.where(np.isnan(q1), q0, both))


def paper_params(rho: np.ndarray, pi: np.ndarray, q: np.ndarray) -> dict[str, np.ndarray]:
    """(q_b, q_w, p_w, p_b0, p_b1) from ρ, state probabilities and label accuracies (arrays over a
    batch); NaN where a conditional probability has no mass."""
    p_w = pi[..., ONLY_W] + pi[..., BOTH_RIGHT]
    with np.errstate(invalid="ignore", divide="ignore"):
        p_b1 = np.where(p_w > 0, pi[..., BOTH_RIGHT] / p_w, np.nan)
        p_b0 = np.where(p_w < 1, pi[..., ONLY_B] / (1.0 - p_w), np.nan)
    q_b, q_w = state_accuracy(rho, q, ONLY_B), state_accuracy(rho, q, ONLY_W)
    return {"q_b": q_b, "q_w": q_w, "p_w": p_w, "p_b0": p_b0, "p_b1": p_b1}
