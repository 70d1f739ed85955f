"""The correlated model of section 3.2 estimated from a pilot as a latent-class model (beyond the paper).

The paper's correlated model, with the true label y of an item unobserved:

* y is class 1 with probability ρ (``class_prior``; estimated, not assumed ½);
* c_w is right with probability p_w; c_b with p_b⁰ when c_w is wrong and p_b¹ when it is right — so each
  item is in one of four states: both right, only c_b right (E_b), only c_w right (E_w), both wrong;
* given y and the state, the item's crowd labels are independent, each right with the label accuracy of
  its state: q_b on E_b, q_w on E_w, and where the classifiers agree an accuracy the paper leaves free
  (its footnote: those items do not move the gap indicator).

Nested models (:data:`LATENT_MODELS`) say how many label accuracies there are:

* ``simple`` (7 parameters: ρ, three state probabilities, q_b, q_w, q_agree) — class-symmetric
  accuracies and one shared accuracy where the classifiers agree, as in the paper's simple setting and
  its independent model;
* ``both_wrong`` (8) — both-wrong items get their own accuracy (hard items where both classifiers and
  many labellers err);
* ``by_class`` (10) — every accuracy per true class (a crowd leaning towards one class); the paper's
  q_b is then their average, (1 − ρ)·q_b(y = 0) + ρ·q_b(y = 1), likewise q_w;
* ``full`` (12) — both.

``latent_model="select"`` (default) fits all four and keeps the lowest BIC = −2·log-likelihood +
k·ln(items). Why BIC and not likelihood-ratio tests at 5 %: at 3 labels per item the richer models are
nearly saturated (12 parameters for 15 degrees of freedom) and cost much precision — σ(p_b⁰) 0.018 →
0.052 at the issue's pilot — so a false pick is expensive; the log-likelihood ratio of a true simpler
model is ≈ χ² (measured), so tests at 5 % pick a richer model in ≈ 5 % of pilots per extension, BIC's
ln(6000) = 8.7 per parameter in ≈ 0.3 % (2 of 600 measured), and BIC is consistent (the true model's
probability → 1) and compares the two non-nested middle models too (on 24 simple truths the mean RMSE
of p_b⁰ was 0.017 with BIC, 0.024 with tests at 5 %). Its cost: a small departure from the simple
model can go unnoticed — with a class-asymmetric crowd and harder both-wrong items BIC missed the
both-wrong accuracy in 10 of 30 pilots, biasing p_b⁰ by ≈ +0.14 in those (docs/budget.md). The
bootstrap refits every replicate with the same rule, so the ranges include the selection's own
variability.

EM over y per model: the E-step gives each item's posterior P(y | its labels, the predictions), the
M-step the closed-form weighted proportions (ρ, the four state probabilities, the label accuracies —
pooled over the slots a model ties together); the log-likelihood never decreases. Items enter through
their pattern (the two predictions and the two label counts), so a fit costs the same for 10³ or 10⁶
items, and bootstrap replicates (item weights) and the candidate models are fitted together as one batch.

Identification (why it needs ≥ 3 labels per item, and what it assumes):

* given the predictions, an item's label count is a two-component binomial mixture (y is one or the other
  class); a mixture of two binomials of t trials is identified only for t ≥ 3 — with 1 or 2 labels per
  item the accuracies and the state probabilities trade off freely;
* **label symmetry** is *not* assumed when the data ask for it (``by_class``, ``full``); the
  classifiers' accuracies never depend on the true class (the paper's p_w, p_b⁰, p_b¹ have no class
  index — this is what ties the four prediction patterns together);
* **precision at 3 labels**: even the 7-parameter model, when true, has Cramér–Rao standard deviation
  0.027 for q_w at the issue's 6,000-item pilot (q = 0.75, p = 0.70, ε = 0.10), and the estimator
  attains it (measured 0.026 over 200 pilots) — no unbiased estimate is within 0.035 of q_w on every
  such pilot (measured: 80 %);
* **better than chance**: swapping the two classes and every accuracy q ↔ 1 − q gives the same
  likelihood; the paper's q(x) > ½ picks one of the two: every label accuracy is kept ≥ ½ (the M-step
  maximises within [½, 1], so the likelihood still never decreases) and EM starts from the crowd
  majority (each item's majority as y, a tie as ½);
* **class balance is not needed**: ρ is a parameter, identified because both predicted classes occur;
* **homogeneity within a state** (the paper's "conditionally homogeneous label errors"): items whose
  labels split evenly look like both-wrong items with accuracy ½, so strong item heterogeneity inflates
  the both-wrong share; assumption 2 is the paper's condition on that heterogeneity.

Convergence: stop when no parameter moves by more than ``tol`` (default 1e-8) in an iteration; the
result reports the iterations and whether this happened within ``max_iter``.

>>> from humanly.simulate import pair
>>> d = pair(3000, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)
>>> pred = d.predictions
>>> fit = fit_latent_class(d.ratings.counts, pred.hard("better"), pred.hard("worse"))
>>> fit.converged, round(fit.q_b, 2), round(fit.q_w, 2), round(fit.p_w, 2)
(True, 0.84, 0.72, 0.71)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .._core.checks import check_choice, check_int, check_number
from .._core.result import Result
from ..errors import InputError
from ._args import VoteTies
from .models import CorrelatedModel, majority_accuracy, subset_majority

__all__ = [
    "LATENT_MODELS",
    "LatentClassFit",
    "LatentModelFit",
    "StateAccuracy",
    "assumption2_statistics",
    "fit_latent_class",
]

#: Item states, index 2·[c_w right] + [c_b right].
BOTH_WRONG, ONLY_B, ONLY_W, BOTH_RIGHT = 0, 1, 2, 3
_FLOOR = 1e-300
_QCLIP = 1e-12

#: The nested latent-class models, simplest first: name → the label-accuracy parameter of each slot
#: 2·state + y (states both_wrong, only_b, only_w, both_right; y the true class). ``simple``: class-
#: symmetric, one accuracy where the classifiers agree (ρ, 3 state probabilities, q_agree, q_b, q_w:
#: 7 parameters); ``both_wrong``: + its own both-wrong accuracy (8); ``by_class``: simple with every
#: accuracy per true class (10); ``full``: both (12).
LATENT_MODELS: dict[str, tuple[int, ...]] = {
    "simple": (0, 0, 1, 1, 2, 2, 0, 0),
    "both_wrong": (3, 3, 1, 1, 2, 2, 0, 0),
    "by_class": (0, 4, 1, 5, 2, 6, 0, 4),
    "full": (3, 7, 1, 5, 2, 6, 0, 4),
}
#: ``latent_model`` choices: "select" (by BIC among all) or one model.
LATENT_CHOICES = ("select", *LATENT_MODELS)


def n_parameters(model: str) -> int:
    """Free parameters of a latent model: ρ, three state probabilities and its label accuracies."""
    return 4 + len(set(LATENT_MODELS[model]))


def tie_matrix(models: tuple[str, ...]) -> np.ndarray:
    """(len(models), 8, 8): entry [k, i, j] = 1 when slots i and j are one accuracy in models[k]."""
    g = np.array([LATENT_MODELS[m] for m in models])
    return (g[:, :, None] == g[:, None, :]).astype(float)


@dataclass(frozen=True, repr=False)
class LatentModelFit(Result):
    """One candidate latent model fitted to the pilot: its free parameters, maximised log-likelihood,
    BIC = −2·log-likelihood + parameters·ln(items), EM's convergence, and whether it was selected.

    >>> LatentModelFit("simple", 7, -100.0, 260.8, True, 12, True).to_dict()["bic"]
    260.8
    """

    model: str
    n_parameters: int
    log_likelihood: float
    bic: float
    converged: bool
    iterations: int
    selected: bool


@dataclass(frozen=True, repr=False)
class LatentClassFit(Result):
    """The latent-class estimate of the correlated model (see the module docstring): the paper's five
    parameters, the label accuracies where the classifiers agree, the class prior ρ = P(y = second class),
    every state's label accuracy per true class (``accuracy_by_class``), the maximised log-likelihood and
    EM's convergence (``iterations``, ``converged`` within ``max_iter`` at ``tolerance``) of the latent
    model used (``latent_model``, one of :data:`LATENT_MODELS`, with ``n_parameters`` and ``bic``),
    ``selection`` ("bic": the lowest BIC among ``candidates``; "fixed": the caller's choice). A parameter
    no item informs is NaN."""

    q_b: float
    q_w: float
    p_w: float
    p_b0: float
    p_b1: float
    q_both_right: float
    q_both_wrong: float
    class_prior: float
    accuracy_by_class: tuple[StateAccuracy, ...]
    log_likelihood: float
    iterations: int
    converged: bool
    n_items: int
    max_iter: int
    tolerance: float
    latent_model: str = "full"
    n_parameters: int = 12
    bic: float = float("nan")
    selection: str = "fixed"
    candidates: tuple[LatentModelFit, ...] = ()

    def params(self) -> dict[str, float]:
        """The correlated model's parameters by name (q_b, q_w, p_w, p_b0, p_b1)."""
        return {k: getattr(self, k) for k in ("q_b", "q_w", "p_w", "p_b0", "p_b1")}

    def model(self) -> CorrelatedModel:
        """The estimate as an (unchecked) :class:`~humanly.budget.CorrelatedModel`."""
        return CorrelatedModel(**self.params(), check=False)


@dataclass(frozen=True, repr=False)
class StateAccuracy(Result):
    """Label accuracy in one state of an item (``both_wrong``, ``only_b``, ``only_w``, ``both_right``)
    when the true class is the first / second class (NaN when no item informs it).

    >>> StateAccuracy("only_b", 0.8, 0.9).to_dict()
    {'state': 'only_b', 'first_class': 0.8, 'second_class': 0.9}
    """

    state: str
    first_class: float
    second_class: float


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
    pat: Patterns,
    weights: np.ndarray,
    gamma: np.ndarray,
    q_prev: np.ndarray,
    tie: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Closed-form maximisation: ρ, state probabilities, label accuracies (previous value where a state
    has no labels), and the labels per state (to mark unseen states). ``tie`` (B, 8, 8): which label
    accuracies are one parameter (their right and all labels are pooled); None: all free."""
    onehot = np.eye(4)[pat.state].reshape(-1, 4)  # (2P, 4)
    acc = np.eye(8)[_acc_index(pat)].reshape(-1, 8)  # (2P, 8)
    wg = (weights[:, :, None] * gamma).reshape(len(weights), -1)  # (B, 2P)
    n = weights.sum(axis=1)
    rho = wg[:, 1::2].sum(axis=1) / n
    pi = (wg @ onehot) / n[:, None]
    num = (wg * pat.correct.ravel()[None, :]) @ acc
    den = (wg * np.repeat(pat.total, 2)[None, :]) @ acc
    if tie is not None:
        num, den = np.einsum("bi,bij->bj", num, tie), np.einsum("bi,bij->bj", den, tie)
    # the binomial log-likelihood is concave in q: its maximum on [½, 1] is the clipped ratio
    q = np.where(den > 0, np.maximum(num / np.where(den > 0, den, 1.0), 0.5), q_prev)
    return rho, pi, q, den


def _acc_index(pat: Patterns) -> np.ndarray:
    """Index of the label accuracy of pattern p if its true class is y: 2·state + y."""
    return 2 * pat.state + np.arange(2)[None, :]


def _e_step(
    pat: Patterns, weights: np.ndarray, rho: np.ndarray, pi: np.ndarray, q: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Posterior P(y | pattern) and the log-likelihood, per row of the batch."""
    qc = np.clip(q, _QCLIP, 1.0 - _QCLIP)
    s = pat.state.ravel()
    a = _acc_index(pat).ravel()
    shape = (len(weights), *pat.state.shape)
    log_pi = np.log(np.maximum(pi[:, s], _FLOOR)).reshape(shape)
    log_q = np.log(qc[:, a]).reshape(shape)
    log_nq = np.log1p(-qc[:, a]).reshape(shape)
    log_rho = np.log(np.maximum(np.stack([1.0 - rho, rho], axis=1), _FLOOR))[:, None, :]
    wrong = pat.total[:, None] - pat.correct
    ll = log_rho + log_pi + pat.correct[None] * log_q + wrong[None] * log_nq
    top = ll.max(axis=2, keepdims=True)
    e = np.exp(ll - top)
    norm = e.sum(axis=2, keepdims=True)
    loglik = (weights * (top[:, :, 0] + np.log(norm[:, :, 0]))).sum(axis=1)
    return e / norm, loglik


def _pack(rho: np.ndarray, pi: np.ndarray, q: np.ndarray) -> np.ndarray:
    return np.concatenate([rho[:, None], pi, q], axis=1)  # (B, 13)


def _em_map(
    pat: Patterns, weights: np.ndarray, theta: np.ndarray, tie: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One EM step θ → M(E(θ)) per row; also the log-likelihood at θ and which accuracies have labels."""
    gamma, loglik = _e_step(pat, weights, theta[:, 0], theta[:, 1:5], theta[:, 5:])
    rho, pi, q, den = _m_step(pat, weights, gamma, theta[:, 5:], tie)
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
    pat: Patterns,
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
    t2, _, _ = _em_map(pat, w, t1, tie)
    r, v = t1 - t0, t2 - 2.0 * t1 + t0
    nr, nv = np.linalg.norm(r, axis=1), np.linalg.norm(v, axis=1)
    alpha = np.minimum(-nr / np.where(nv > 0, nv, 1.0), -1.0)[:, None]
    tp = _project(t0 - 2.0 * alpha * r + alpha**2 * v)
    t_new, ll_p, _ = _em_map(pat, w, tp, tie)
    bad = ~(ll_p >= ll0 - 1e-12 * np.abs(ll0)) | ~np.all(np.isfinite(t_new), axis=1)
    if bad.any():
        t_new[bad] = _em_map(pat, w[bad], t2[bad], None if tie is None else tie[bad])[0]
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
    counts EM steps either way. ``tie`` (B, 8, 8; :func:`tie_matrix`): the latent model of each row
    (None: the full model)."""
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    b = len(w)
    start = np.broadcast_to(majority_start(pat), (b, *pat.state.shape))
    rho, pi, q, _ = _m_step(pat, w, start, np.full((b, 8), 0.5), tie)
    theta = _pack(np.nan_to_num(rho, nan=0.5), np.nan_to_num(pi, nan=0.25), q)
    iterations = np.ones(b, dtype=np.int64)
    converged = np.zeros(b, dtype=bool)
    active = np.flatnonzero(w.sum(axis=1) > 0)
    while active.size:
        wa, t0 = w[active], theta[active]
        t1, ll0, _ = _em_map(pat, wa, t0, None if tie is None else tie[active])
        done = np.abs(t1 - t0).max(axis=1) <= tol
        theta[active] = t1
        iterations[active] += 1
        converged[active[done]] = True
        active, t0, t1, ll0 = active[~done], t0[~done], t1[~done], ll0[~done]
        room = iterations[active] + 3 <= max_iter  # an extrapolation costs up to 3 more EM steps
        if accelerate and room.any():
            sel = active[room]
            ts = None if tie is None else tie[sel]
            theta[sel], steps = _squarem_step(pat, w[sel], t0[room], t1[room], ll0[room], ts)
            iterations[sel] += steps - 1
        active = active[iterations[active] < max_iter]
    gamma, loglik = _e_step(pat, w, theta[:, 0], theta[:, 1:5], theta[:, 5:])
    seen = _m_step(pat, w, gamma, theta[:, 5:], tie)[3] > 0
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


class Selection(NamedTuple):
    """Every candidate model fitted to a batch and the one selected per row: ``em`` the selected fits
    (B rows), ``chosen`` (B,) index into ``models``; ``loglik``, ``bic``, ``iterations``, ``converged``
    (B, len(models))."""

    models: tuple[str, ...]
    em: EMState
    chosen: np.ndarray
    loglik: np.ndarray
    bic: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


def fit_models(
    pat: Patterns,
    weights: np.ndarray,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    latent_model: str = "select",
) -> Selection:
    """Fit ``latent_model`` (or, with "select", every model of :data:`LATENT_MODELS` in one batch) to
    each row of ``weights`` and keep per row the lowest BIC = −2·log-likelihood + k·ln(n) (k free
    parameters, n the row's items; on a tie the simpler model)."""
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    models = tuple(LATENT_MODELS) if latent_model == "select" else (latent_model,)
    b, k = len(w), len(models)
    tie = np.repeat(tie_matrix(models), b, axis=0)
    em = run_em(pat, np.tile(w, (k, 1)), tol, max_iter, tie=tie)
    ll = em.loglik.reshape(k, b).T
    size = np.array([n_parameters(m) for m in models], dtype=float)
    bic = -2.0 * ll + size[None, :] * np.log(np.maximum(w.sum(axis=1), 1.0))[:, None]
    chosen = np.argmin(np.where(np.isnan(bic), np.inf, bic), axis=1)
    rows = chosen * b + np.arange(b)
    pick = EMState(*(x[rows] for x in em))
    its, conv = em.iterations.reshape(k, b).T, em.converged.reshape(k, b).T
    return Selection(models, pick, chosen, ll, bic, its, conv)


def fit_latent_class(
    counts: Any,
    pred_b: Any,
    pred_w: Any,
    *,
    latent_model: str = "select",
    tol: float = 1e-8,
    max_iter: int = 10_000,
) -> LatentClassFit:
    """Fit the correlated model with the true label latent (see the module docstring).

    ``counts``: items × 2 label counts; ``pred_b`` / ``pred_w``: the better / worse classifier's
    predicted class code (0 or 1) per item, in the same item order. Items without labels carry no
    information and are left out. ``latent_model``: "select" (default: the lowest BIC among the nested
    models of :data:`LATENT_MODELS`) or one of them.

    >>> from humanly.simulate import pair
    >>> d = pair(2000, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> pred = d.predictions
    >>> fit = fit_latent_class(d.ratings.counts, pred.hard("better"), pred.hard("worse"))
    >>> fit.converged, fit.latent_model, [c.n_parameters for c in fit.candidates]
    (True, 'simple', [7, 8, 10, 12])
    """
    latent_model = check_choice("latent_model", latent_model, LATENT_CHOICES)
    tol = float(check_number("tol", tol, minimum=0.0, open_low=True))
    max_iter = int(check_int("max_iter", max_iter, minimum=1))
    c = np.asarray(counts, dtype=np.int64)
    keep = c.sum(axis=1) > 0 if c.ndim == 2 else np.ones(len(c), dtype=bool)
    pat = patterns(c[keep], np.asarray(pred_b)[keep], np.asarray(pred_w)[keep])
    return fit_result(
        pat, fit_models(pat, pat.freq[None, :], tol, max_iter, latent_model), tol, max_iter
    )


def fit_result(pat: Patterns, sel: Selection, tol: float, max_iter: int) -> LatentClassFit:
    """The :class:`LatentClassFit` of the first row of a batch fitted to ``pat``."""
    em = sel.em
    rho, q = em.rho[0], em.q[0]
    par = paper_params(rho, em.pi[0], q)
    by_class = tuple(
        StateAccuracy(name, float(q[2 * s]), float(q[2 * s + 1]))
        for s, name in enumerate(STATE_NAMES)
    )
    chosen = int(sel.chosen[0])
    candidates = tuple(
        LatentModelFit(
            name,
            n_parameters(name),
            float(sel.loglik[0, i]),
            float(sel.bic[0, i]),
            bool(sel.converged[0, i]),
            int(sel.iterations[0, i]),
            i == chosen,
        )
        for i, name in enumerate(sel.models)
    )
    return LatentClassFit(
        **{k: float(v) for k, v in par.items()},
        q_both_right=float(state_accuracy(rho, q, BOTH_RIGHT)),
        q_both_wrong=float(state_accuracy(rho, q, BOTH_WRONG)),
        class_prior=float(rho),
        accuracy_by_class=by_class,
        log_likelihood=float(em.loglik[0]),
        iterations=int(em.iterations[0]),
        converged=bool(em.converged[0]),
        n_items=int(pat.freq.sum()),
        max_iter=max_iter,
        tolerance=tol,
        latent_model=sel.models[chosen],
        n_parameters=n_parameters(sel.models[chosen]),
        bic=float(sel.bic[0, chosen]),
        selection="bic" if len(sel.models) > 1 else "fixed",
        candidates=candidates,
    )


def assumption2_statistics(
    pat: Patterns, weights: np.ndarray, em: EMState, m: int, vote_ties: VoteTies
) -> np.ndarray:
    """Per row of a batch: the quantity that decides assumption 2 (eq. 3),
    (1 − p_w)p_b⁰ / (p_w(1 − p_b¹)) · (M_m(q_b) − E[M_m(q(x)) | E_b]) − (M_m(q_w) − E[M_m(q(x)) | E_w]),
    ≥ 0 when the assumption holds. E[M_m(q(x)) | E] is the posterior-weighted mean over items of the
    probability that the majority of m of the item's labels (drawn without replacement) is right —
    unbiased for M_m(q(x)) on each item with ≥ m labels, and consistent for the state's mean when the
    posterior is (Σᵢ P(E | dataᵢ)·hᵢ / Σᵢ P(E | dataᵢ) → E[h | E]). Only items with ≥ m labels enter;
    NaN when none does or p_w(1 − p_b¹) = 0.

    >>> from humanly.simulate import pair
    >>> d = pair(2000, 5, p=0.7, eps=0.1, q=0.8, seed=1)
    >>> pat = patterns(d.ratings.counts, d.predictions.hard("better"), d.predictions.hard("worse"))
    >>> em = run_em(pat, pat.freq[None, :])
    >>> abs(float(assumption2_statistics(pat, pat.freq[None, :], em, 3, "coin")[0])) < 0.05
    True
    """
    valid = (pat.total >= m).astype(float)
    h = np.stack(
        [subset_majority(pat.correct[:, y], pat.total, m, vote_ties) for y in (0, 1)], axis=1
    )
    h = np.nan_to_num(h)
    mean = {}
    for s in (ONLY_B, ONLY_W):
        mass = weights[:, :, None] * em.gamma * (pat.state == s)[None] * valid[None, :, None]
        tot = mass.sum(axis=(1, 2))
        with np.errstate(invalid="ignore", divide="ignore"):
            mean[s] = np.where(tot > 0, (mass * h[None]).sum(axis=(1, 2)) / tot, np.nan)
    par = paper_params(em.rho, em.pi, em.q)
    a, b = em.pi[:, ONLY_B], em.pi[:, ONLY_W]
    m_b = np.asarray(majority_accuracy(np.nan_to_num(par["q_b"], nan=0.5), m, vote_ties))
    m_w = np.asarray(majority_accuracy(np.nan_to_num(par["q_w"], nan=0.5), m, vote_ties))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(b > 0, (a / b) * (m_b - mean[ONLY_B]) - (m_w - mean[ONLY_W]), np.nan)
    bad = ~np.isfinite(par["q_b"]) | ~np.isfinite(par["q_w"])
    return np.where(bad, np.nan, out)
