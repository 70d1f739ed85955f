"""The correlated error model of section 3.2 estimated from a pilot as a latent-class model (beyond the
paper).

The paper's correlated error model, with the true label y of an item unobserved:

* y is class 1 with probability ρ (``class_prior``; estimated, not assumed ½);
* c_w is right with probability p_w; c_b with p_b⁰ when c_w is wrong and p_b¹ when it is right — so each
  item is in one of four states: both right, only c_b right (E_b), only c_w right (E_w), both wrong;
* given y and the state, the item's crowd labels are independent, each right with the label accuracy of
  its state: q_b on E_b, q_w on E_w, and where the classifiers agree an accuracy the paper leaves free
  (its footnote: those items do not move the gap indicator).

Nested latent variants (:data:`LATENT_VARIANTS`) say how many label accuracies there are:

* ``simple`` (7 parameters: ρ, three state probabilities, q_b, q_w, q_agree) — class-symmetric
  accuracies and one shared accuracy where the classifiers agree, as in the paper's simple setting and
  its independent error model;
* ``both_wrong`` (8) — both-wrong items get their own accuracy (hard items where both classifiers and
  many labellers err);
* ``by_class`` (10) — every accuracy per true class (a crowd leaning towards one class); the paper's
  q_b is then their average, (1 − ρ)·q_b(y = 0) + ρ·q_b(y = 1), likewise q_w;
* ``full`` (12) — both.

``latent_variant="select"`` (default) fits all four and keeps the lowest BIC = −2·log-likelihood +
k·ln(items). Why BIC and not likelihood-ratio tests at 5 %: at 3 labels per item the richer variants are
nearly saturated (12 parameters for 15 degrees of freedom) and cost much precision — σ(p_b⁰) 0.018 →
0.052 at the issue's pilot — so a false pick is expensive; the log-likelihood ratio of a true simpler
variant is ≈ χ² (measured), so tests at 5 % pick a richer variant in ≈ 5 % of pilots per extension, BIC's
ln(6000) = 8.7 per parameter in ≈ 0.3 % (2 of 600 measured), and BIC is consistent (the true variant's
probability → 1) and compares the two non-nested middle variants too (on 24 simple truths the mean RMSE
of p_b⁰ was 0.017 with BIC, 0.024 with tests at 5 %). Its cost: a small departure from the simple
variant can go unnoticed — with a class-asymmetric crowd and harder both-wrong items BIC missed the
both-wrong accuracy in 10 of 30 pilots, biasing p_b⁰ by ≈ +0.14 in those (docs/budget.md). The
bootstrap refits every replicate with the same rule, so the ranges include the selection's own
variability.

EM over y per variant: the E-step gives each item's posterior P(y | its labels, the predictions), the
M-step the closed-form weighted proportions (ρ, the four state probabilities, the label accuracies —
pooled over the slots a variant ties together); the log-likelihood never decreases. Items enter through
their pattern (the two predictions and the two label counts), so a fit costs the same for 10³ or 10⁶
items, and bootstrap replicates (item weights) and the candidate variants are fitted together as one batch.

Identification (why it needs ≥ 3 labels per item, and what it assumes):

* given the predictions, an item's label count is a two-component binomial mixture (y is one or the other
  class); a mixture of two binomials of t trials is identified only for t ≥ 3 — with 1 or 2 labels per
  item the accuracies and the state probabilities trade off freely;
* **label symmetry** is *not* assumed when the data ask for it (``by_class``, ``full``); the
  classifiers' accuracies never depend on the true class (the paper's p_w, p_b⁰, p_b¹ have no class
  index — this is what ties the four prediction patterns together);
* **precision at 3 labels**: even the 7-parameter variant, when true, has Cramér–Rao standard deviation
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
from ._args import VoteTies
from ._em import (
    BOTH_RIGHT,
    BOTH_WRONG,
    ONLY_B,
    ONLY_W,
    STATE_NAMES,
    EMState,
    Patterns,
    paper_params,
    patterns,
    run_em,
    state_accuracy,
)
from .models import CorrelatedErrors, majority_accuracy, subset_majority

__all__ = [
    "LATENT_VARIANTS",
    "LatentClassFit",
    "LatentVariantFit",
    "StateAccuracy",
    "assumption2_statistics",
    "fit_latent_class",
]

#: The nested latent variants, simplest first: name → the label-accuracy parameter of each slot
#: 2·state + y (states both_wrong, only_b, only_w, both_right; y the true class). ``simple``: class-
#: symmetric, one accuracy where the classifiers agree (ρ, 3 state probabilities, q_agree, q_b, q_w:
#: 7 parameters); ``both_wrong``: + its own both-wrong accuracy (8); ``by_class``: simple with every
#: accuracy per true class (10); ``full``: both (12).
LATENT_VARIANTS: dict[str, tuple[int, ...]] = {
    "simple": (0, 0, 1, 1, 2, 2, 0, 0),
    "both_wrong": (3, 3, 1, 1, 2, 2, 0, 0),
    "by_class": (0, 4, 1, 5, 2, 6, 0, 4),
    "full": (3, 7, 1, 5, 2, 6, 0, 4),
}
#: ``latent_variant`` choices: "select" (by BIC among all) or one variant.
LATENT_CHOICES = ("select", *LATENT_VARIANTS)


def n_parameters(variant: str) -> int:
    """Free parameters of a latent variant: ρ, three state probabilities and its label accuracies."""
    return 4 + len(set(LATENT_VARIANTS[variant]))


def tie_matrix(variants: tuple[str, ...]) -> np.ndarray:
    """(len(variants), 8, 8): entry [k, i, j] = 1 when slots i and j are one accuracy in variants[k]."""
    g = np.array([LATENT_VARIANTS[v] for v in variants])
    return (g[:, :, None] == g[:, None, :]).astype(float)


@dataclass(frozen=True, repr=False)
class LatentVariantFit(Result):
    """One candidate latent variant fitted to the pilot.

    Parameters
    ----------
    variant : str
        The variant (a key of :data:`LATENT_VARIANTS`).
    n_parameters : int
        Its free parameters.
    log_likelihood : float
        The maximised log-likelihood.
    bic : float
        BIC = −2·log-likelihood + parameters·ln(items).
    converged : bool
        Whether EM converged.
    iterations : int
        EM's steps.
    selected : bool
        Whether it has the lowest BIC (or was fixed).

    Examples
    --------
    >>> LatentVariantFit("simple", 7, -100.0, 260.8, True, 12, True).to_dict()["bic"]
    260.8
    """

    variant: str
    n_parameters: int
    log_likelihood: float
    bic: float
    converged: bool
    iterations: int
    selected: bool


@dataclass(frozen=True, repr=False)
class StateAccuracy(Result):
    """The label accuracy in one state of an item, per true class (NaN when no item informs it).

    Parameters
    ----------
    state : str
        ``both_wrong``, ``only_b``, ``only_w`` or ``both_right``.
    first_class, second_class : float
        The accuracy when the true class is the first / second class.

    Examples
    --------
    >>> StateAccuracy("only_b", 0.8, 0.9).to_dict()
    {'state': 'only_b', 'first_class': 0.8, 'second_class': 0.9}
    """

    state: str
    first_class: float
    second_class: float


@dataclass(frozen=True, repr=False)
class LatentClassFit(Result):
    """The latent-class estimate of the correlated error model (see the module docstring).

    A parameter no item informs is NaN.

    Parameters
    ----------
    q_b, q_w, p_w, p_b0, p_b1 : float
        The paper's five parameters.
    q_both_right, q_both_wrong : float
        The label accuracies where the classifiers agree.
    class_prior : float
        ρ = P(y = second class).
    accuracy_by_class : tuple of StateAccuracy
        Every state's label accuracy per true class.
    log_likelihood : float
        The maximised log-likelihood of the variant used.
    iterations : int
        EM's steps.
    converged : bool
        Whether EM converged within ``max_iter`` at ``tolerance``.
    n_items : int
        Items fitted (those with labels).
    max_iter : int
        EM's step limit.
    tolerance : float
        EM stops when no parameter moves by more than this.
    latent_variant : str
        The variant used (a key of :data:`LATENT_VARIANTS`).
    n_parameters : int
        Its free parameters.
    bic : float
        Its BIC.
    selection : {"bic", "fixed"}
        The lowest BIC among ``candidates``, or the caller's choice.
    candidates : tuple of LatentVariantFit
        Every variant fitted.

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> d = pair(1000, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> fit = fit_latent_class(d.ratings.counts, d.predictions.hard("better"),
    ...                        d.predictions.hard("worse"))
    >>> fit.latent_variant, fit.selection
    ('simple', 'bic')
    """

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
    latent_variant: str = "full"
    n_parameters: int = 12
    bic: float = float("nan")
    selection: str = "fixed"
    candidates: tuple[LatentVariantFit, ...] = ()

    def params(self) -> dict[str, float]:
        """The correlated error model's parameters by name.

        Returns
        -------
        dict
            q_b, q_w, p_w, p_b0, p_b1.

        Examples
        --------
        >>> fit = LatentClassFit(0.8, 0.7, 0.7, 0.6, 0.9, 0.8, 0.6, 0.5, (), -1.0, 3, True, 10, 9, 1e-8)
        >>> fit.params()["p_w"]
        0.7
        """
        return {k: getattr(self, k) for k in ("q_b", "q_w", "p_w", "p_b0", "p_b1")}

    def error_model(self) -> CorrelatedErrors:
        """The estimate as an (unchecked) correlated error model.

        Returns
        -------
        CorrelatedErrors
            The five parameters, left unchecked: estimates may leave the paper's ranges.

        Examples
        --------
        >>> fit = LatentClassFit(0.8, 0.7, 0.7, 0.6, 0.9, 0.8, 0.6, 0.5, (), -1.0, 3, True, 10, 9, 1e-8)
        >>> fit.error_model().scenario
        'correlated'
        """
        return CorrelatedErrors(**self.params(), check=False)


class Selection(NamedTuple):
    """Every candidate variant fitted to a batch and the one selected per row: ``em`` the selected fits
    (B rows), ``chosen`` (B,) index into ``variants``; ``loglik``, ``bic``, ``iterations``,
    ``converged`` (B, len(variants))."""

    variants: tuple[str, ...]
    em: EMState
    chosen: np.ndarray
    loglik: np.ndarray
    bic: np.ndarray
    iterations: np.ndarray
    converged: np.ndarray


def fit_variants(
    pat: Patterns,
    weights: np.ndarray,
    tol: float = 1e-8,
    max_iter: int = 10_000,
    latent_variant: str = "select",
) -> Selection:
    """Fit ``latent_variant`` (or, with "select", every variant of :data:`LATENT_VARIANTS` in one batch)
    to each row of ``weights`` and keep per row the lowest BIC = −2·log-likelihood + k·ln(n) (k free
    parameters, n the row's items; on a tie the simpler variant)."""
    w = np.atleast_2d(np.asarray(weights, dtype=float))
    variants = tuple(LATENT_VARIANTS) if latent_variant == "select" else (latent_variant,)
    b, k = len(w), len(variants)
    tie = np.repeat(tie_matrix(variants), b, axis=0)
    em = run_em(pat, np.tile(w, (k, 1)), tol, max_iter, tie=tie)
    ll = em.loglik.reshape(k, b).T
    size = np.array([n_parameters(v) for v in variants], dtype=float)
    bic = -2.0 * ll + size[None, :] * np.log(np.maximum(w.sum(axis=1), 1.0))[:, None]
    chosen = np.argmin(np.where(np.isnan(bic), np.inf, bic), axis=1)
    rows = chosen * b + np.arange(b)
    pick = EMState(*(x[rows] for x in em))
    its, conv = em.iterations.reshape(k, b).T, em.converged.reshape(k, b).T
    return Selection(variants, pick, chosen, ll, bic, its, conv)


def fit_latent_class(
    counts: Any,
    pred_b: Any,
    pred_w: Any,
    *,
    latent_variant: str = "select",
    tol: float = 1e-8,
    max_iter: int = 10_000,
) -> LatentClassFit:
    """Fit the correlated error model with the true label latent (see the module docstring).

    Items without labels carry no information and are left out.

    Parameters
    ----------
    counts : array-like
        Items × 2 label counts.
    pred_b, pred_w : array-like
        The better / worse classifier's predicted class code (0 or 1) per item, in the same item
        order.
    latent_variant : str
        "select" (default: the lowest BIC among the nested variants of :data:`LATENT_VARIANTS`) or one
        of them.
    tol : float
        EM stops when no parameter moves by more than this.
    max_iter : int
        EM's step limit.

    Returns
    -------
    LatentClassFit
        The estimates, EM's convergence and every candidate variant.

    Raises
    ------
    InputError
        For counts that are not items × 2, or predictions that are not class codes 0/1.

    Examples
    --------
    >>> from humanly.simulate import pair
    >>> d = pair(2000, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> pred = d.predictions
    >>> fit = fit_latent_class(d.ratings.counts, pred.hard("better"), pred.hard("worse"))
    >>> fit.converged, fit.latent_variant, [c.n_parameters for c in fit.candidates]
    (True, 'simple', [7, 8, 10, 12])
    """
    latent_variant = check_choice("latent_variant", latent_variant, LATENT_CHOICES)
    tol = float(check_number("tol", tol, minimum=0.0, open_low=True))
    max_iter = int(check_int("max_iter", max_iter, minimum=1))
    c = np.asarray(counts, dtype=np.int64)
    keep = c.sum(axis=1) > 0 if c.ndim == 2 else np.ones(len(c), dtype=bool)
    pat = patterns(c[keep], np.asarray(pred_b)[keep], np.asarray(pred_w)[keep])
    return fit_result(
        pat, fit_variants(pat, pat.freq[None, :], tol, max_iter, latent_variant), tol, max_iter
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
        LatentVariantFit(
            name,
            n_parameters(name),
            float(sel.loglik[0, i]),
            float(sel.bic[0, i]),
            bool(sel.converged[0, i]),
            int(sel.iterations[0, i]),
            i == chosen,
        )
        for i, name in enumerate(sel.variants)
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
        latent_variant=sel.variants[chosen],
        n_parameters=n_parameters(sel.variants[chosen]),
        bic=float(sel.bic[0, chosen]),
        selection="bic" if len(sel.variants) > 1 else "fixed",
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
