"""Exact scenario mode: survey equivalence in the population (infinitely many items), computed from the
error rates of a latent-class scenario, against target panels of t raters (the revision of Survey
Equivalence, arXiv:2106.01254 v2, and its authors' notebook ``rater-equivalence-simulations.ipynb``).

The scenario: an item's true class g has prior π; every rater labels it independently with the
confusion matrix R (``R[g, j]`` = P(label j | class g)); the classifier with its own confusion matrix
C, independent of the raters given g. Two classes take the notebook's form ``prior=P(+)``,
``rater=(P(+ | +), P(+ | −))``, ``classifier=(P(+ | +), P(+ | −))`` (class 1 is the positive class).

* A **target panel** of t raters is scored by its plurality label (majority for two classes), a tie
  broken uniformly at random (the notebook's half of a tied vote to each side); t = ``"inf"`` is the
  true class. Its output given g is T[g, ·].
* A **source** — the classifier or a panel of k other raters combined by ``combiner`` — has an output
  o with P(o | g); its joint distribution with the target is ``J[o, j] = Σ_g π_g P(o | g) T[g, j]``
  (the notebook's ``noise.T @ GT @ target_noise``). ``"majority"``/``"plurality"`` output a label (k = 0:
  a label drawn uniformly, as the survey package's combiners); ``"abc"`` outputs the k labels' count
  vector (its calibrated prediction is the population limit of the Anonymous Bayesian Combiner:
  exactly the ABC for t = 1).
* **Scores** (humanly's orientation: higher is better): ``cross_entropy`` scores the *calibrated*
  prediction P(target | o) = J[o, ·] / Σ J[o, ·] of each output by the mean log₂ probability of the
  target's label, Σ J log₂ P(target | o) — minus the notebook's cross-entropy in bits (−0.705982 for
  its 0.705982); ``agreement`` is P(predicted label = target label); ``precision``, ``recall``,
  ``f1`` of the positive class (two classes; macro averages over the classes for more) from the
  population confusion matrix, the target as the reference: precision = P(target + | predicted +)
  (the notebook's ``precision`` of its ``get_confusion_matrix`` is this recall, and vice versa: its
  rows are the classifier's outputs, not the truth). A label output is scored as given; a count
  vector by the most probable target label given it (ties shared).
* The **power curve** c_k (k = 0 … ``max_sources``) and the classifier's score per target; its
  **rater equivalence** is read off the curve as the survey package does
  (:func:`~humanly.survey.crossing.equivalence_point`: the leftmost crossing, linear interpolation,
  ``below_0`` / ``above_max``); the **inter-panel κ** is Cohen's κ between two independent target
  panels (1 for t = ∞); ``ideal_score`` is the score of a source that knows the true class (the
  curve's limit for a consistent combiner).

Everything is exact: panel outputs enumerate the count vectors of k labels over the classes with their
multinomial probabilities (log space).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_choice, check_int, check_probability
from .._core.counts import compositions, logfact
from .._core.result import Result
from ..errors import InputError, setting
from .crossing import equivalence_point
from .target_results import INF, TargetFlips, check_targets, target_flips

__all__ = [
    "SCENARIO_COMBINERS",
    "SCENARIO_SCORERS",
    "ScenarioPoint",
    "ScenarioResult",
    "ScenarioTarget",
    "scenario_equivalence",
]

#: The combiners of a source panel in scenario mode.
SCENARIO_COMBINERS = ("majority", "plurality", "abc")
#: The scorers of scenario mode.
SCENARIO_SCORERS = ("cross_entropy", "agreement", "precision", "recall", "f1")
#: The most count vectors of one panel enumerated.
MAX_VECTORS = 2_000_000
#: Scores of probabilities this close are ties for the most probable label.
_TIE = 1e-12


# ----------------------------------------------------------------------------- the setting
def _pair(name: str, value: Any) -> np.ndarray:
    """A two-class confusion matrix from (P(+ | +), P(+ | −)); rows class 0 (−), class 1 (+)."""
    pos, neg = (float(check_probability(name, v)) for v in value)
    return np.array([[1.0 - neg, neg], [1.0 - pos, pos]])


def _matrix(name: str, value: Any, k: int | None) -> np.ndarray:
    if (
        isinstance(value, Sequence)
        and len(value) == 2
        and all(np.ndim(v) == 0 for v in value)
        and k in (None, 2)
    ):
        return _pair(name, value)
    m = np.asarray(value, dtype=float)
    if m.ndim != 2 or m.shape[0] != m.shape[1] or m.shape[0] < 2:
        raise InputError(
            f"{name}: give (P(+ | +), P(+ | −)) for two classes or a K × K confusion matrix (rows "
            f"the true class), got shape {m.shape}"
        )
    if k is not None and m.shape[0] != k:
        raise InputError(f"{name}: give a {k} × {k} matrix, like the prior's {k} classes")
    if (
        not np.all(np.isfinite(m))
        or (m < 0).any()
        or not np.allclose(m.sum(axis=1), 1.0, atol=1e-9)
    ):
        raise InputError(f"{name}: every row must be probabilities summing to 1")
    return m


def _setting(prior: Any, rater: Any, classifier: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(π, R, C): the prior over K classes and the two confusion matrices."""
    if np.ndim(prior) == 0:
        p = float(check_probability("prior", prior, open_low=True, open_high=True))
        pi = np.array([1.0 - p, p])
    else:
        pi = np.asarray(prior, dtype=float)
        if (
            pi.ndim != 1
            or len(pi) < 2
            or (pi < 0).any()
            or not math.isclose(float(pi.sum()), 1.0, abs_tol=1e-9)
        ):
            raise InputError(
                f"{setting('prior', prior)}: give P(positive) for two classes or K class probabilities "
                "summing to 1"
            )
    k = len(pi)
    return pi, _matrix("rater", rater, k), _matrix("classifier", classifier, k)


# ----------------------------------------------------------------------------- panels
def _multinomial(conf: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Every count vector of n labels over K classes (V, K) and P(vector | class g) (K, V)."""
    k = conf.shape[0]
    if math.comb(n + k - 1, k - 1) > MAX_VECTORS:
        raise InputError(
            f"a panel of {n} raters over {k} classes has {math.comb(n + k - 1, k - 1):,} count "
            f"vectors (more than {MAX_VECTORS:,}); use a smaller max_sources or target"
        )
    vecs = compositions(n, np.full(k, n))
    coef = logfact(np.array(n)) - logfact(vecs).sum(axis=1)
    with np.errstate(divide="ignore"):
        logc = np.log(conf)
    terms = np.where(vecs[None] > 0, vecs[None] * logc[:, None, :], 0.0)
    return vecs, np.exp(coef[None, :] + terms.sum(axis=2))


def _plurality(conf: np.ndarray, n: int) -> np.ndarray:
    """P(plurality of n labels = j | class g) (K, K), ties uniform; n = 0: a uniform label."""
    k = conf.shape[0]
    if n == 0:
        return np.full((k, k), 1.0 / k)
    vecs, prob = _multinomial(conf, n)
    top = vecs == vecs.max(axis=1, keepdims=True)
    return prob @ (top / top.sum(axis=1, keepdims=True))


def _target_noise(conf: np.ndarray, t: int | str) -> np.ndarray:
    """P(target label j | class g): the plurality of t raters, or the class itself (t = ∞)."""
    return np.eye(conf.shape[0]) if t == INF else _plurality(conf, int(t))


def _source(conf: np.ndarray, k: int, combiner: str) -> tuple[np.ndarray, bool]:
    """P(output o | class g) (K, O) of a panel of k raters, and whether its outputs are labels."""
    if combiner == "abc":
        if k == 0:
            return np.ones((conf.shape[0], 1)), False
        return _multinomial(conf, k)[1], False
    return _plurality(conf, k), True


# ----------------------------------------------------------------------------- scores
def _decisions(joint: np.ndarray, labels: bool) -> np.ndarray:
    """The predicted label's distribution per output (O, K): the output itself when it is a label,
    else the most probable target label given it (ties shared)."""
    if labels:
        return np.eye(joint.shape[1])
    top = (
        joint
        >= joint.max(axis=1, keepdims=True) - _TIE * np.maximum(joint.max(axis=1), 1e-300)[:, None]
    )
    return top / top.sum(axis=1, keepdims=True)


def _prf(joint: np.ndarray, dec: np.ndarray, which: str, positive: int | None) -> float:
    classes = range(joint.shape[1]) if positive is None else [positive]
    out = []
    for c in classes:
        tp = float((dec[:, c] * joint[:, c]).sum())
        pp = float((dec[:, c] * joint.sum(axis=1)).sum())
        ap = float(joint[:, c].sum())
        prec = tp / pp if pp > 0 else 0.0
        rec = tp / ap if ap > 0 else 0.0
        out.append(
            prec
            if which == "precision"
            else rec
            if which == "recall"
            else (2 * tp / (pp + ap) if pp + ap > 0 else 0.0)
        )
    return float(np.mean(out))


def _score(joint: np.ndarray, labels: bool, scorer: str, positive: int | None) -> float:
    """A source's population score against the target from their joint distribution (O, K)."""
    if scorer == "cross_entropy":
        row = joint.sum(axis=1, keepdims=True)
        with np.errstate(divide="ignore", invalid="ignore"):
            logq = np.where(joint > 0, np.log2(joint / row), 0.0)
        return float((joint * logq).sum())
    dec = _decisions(joint, labels)
    if scorer == "agreement":
        return float((dec * joint).sum())
    return _prf(joint, dec, scorer, positive)


def _joint(pi: np.ndarray, source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """J[o, j] = Σ_g π_g P(o | g) T[g, j]."""
    return source.T @ (pi[:, None] * target)


def _kappa(pi: np.ndarray, target: np.ndarray) -> float:
    """Cohen's κ between two independent target panels (1 when they always agree)."""
    both = _joint(pi, target, target)
    marg = both.sum(axis=1)
    chance = float((marg**2).sum())
    agree = float(np.trace(both))
    return 1.0 if chance >= 1.0 else (agree - chance) / (1.0 - chance)


# ----------------------------------------------------------------------------- results
@dataclasses.dataclass(frozen=True, repr=False)
class ScenarioPoint(Result):
    """One point of a scenario's power curve: k raters combined, scored against the target.

    Parameters
    ----------
    k : int
        Raters in the source panel.
    score : float
        c_k, their population score against the target.

    Examples
    --------
    >>> ScenarioPoint(1, -0.705773).k
    1
    """

    k: int
    score: float


@dataclasses.dataclass(frozen=True, repr=False)
class ScenarioTarget(Result):
    """The scenario scored against one target panel.

    Parameters
    ----------
    target : int or str
        t raters, or ``"inf"`` (the true class).
    kappa : float
        Cohen's κ between two independent target panels (1 for ``"inf"``).
    classifier_score : float
        The classifier's population score against the target.
    power_curve : tuple of ScenarioPoint
        c_0 … c_max_sources.
    equivalence : float or None
        The classifier's rater equivalence on this curve; ``None`` with ``equivalence_note``.
    equivalence_note : {None, "below_0", "above_max"}
        Why there is none: the score is at or below c_0, or above every point of the curve.
    ideal_score : float
        The score of a source that knows the true class.
    calibrated : tuple of tuple of float
        P(target label j | the classifier says o), row o (the calibrated predictions scored by
        cross-entropy; NaN for an output the classifier never gives).

    Examples
    --------
    >>> res = scenario_equivalence(targets=(3,), max_sources=3)
    >>> round(res.targets[0].classifier_score, 6), round(res.targets[0].kappa, 6)
    (-0.57548, 0.857936)
    """

    target: int | str
    kappa: float
    classifier_score: float
    power_curve: tuple[ScenarioPoint, ...]
    equivalence: float | None
    equivalence_note: str | None
    ideal_score: float
    calibrated: tuple[tuple[float, ...], ...]

    @property
    def scores(self) -> np.ndarray:
        """The curve's scores c_0 … c_K as an array.

        Examples
        --------
        >>> scenario_equivalence(targets=(1,), max_sources=2).targets[0].scores.shape
        (3,)
        """
        return np.array([p.score for p in self.power_curve])


@dataclasses.dataclass(frozen=True, repr=False)
class ScenarioResult(Result):
    """Survey equivalence of a classifier in a latent-class scenario, exactly, against target panels.

    Parameters
    ----------
    classes : tuple of int
        The class codes 0 … K − 1 (two classes: 1 is the positive class).
    prior : tuple of float
        P(true class).
    rater, classifier : tuple of tuple of float
        The confusion matrices (rows the true class, columns the label).
    scorer, combiner : str
        The scorer and the source panels' combiner.
    positive : int or None
        The positive class of precision, recall and F1 (``None``: macro average over the classes).
    max_sources : int
        The largest source panel.
    targets : tuple of ScenarioTarget
        One entry per target, in the order asked.
    flips : TargetFlips
        Where the classifier's order against k raters changes between targets.

    See Also
    --------
    scenario_equivalence : the function that returns it.

    Examples
    --------
    >>> res = scenario_equivalence()
    >>> [round(-t.classifier_score, 6) for t in res.targets]
    [0.705982, 0.57548, 0.500656]
    >>> res.flips.status, res.flips.flips_at  # k = 2: a majority of 2 is a majority of 1
    ('flips', (1, 2))
    """

    classes: tuple[int, ...]
    prior: tuple[float, ...]
    rater: tuple[tuple[float, ...], ...]
    classifier: tuple[tuple[float, ...], ...]
    scorer: str
    combiner: str
    positive: int | None
    max_sources: int
    targets: tuple[ScenarioTarget, ...]
    flips: TargetFlips

    def target(self, t: int | str) -> ScenarioTarget:
        """The entry of one target.

        Parameters
        ----------
        t : int or str
            A target of the result (``"inf"`` for the true class).

        Returns
        -------
        ScenarioTarget

        Raises
        ------
        KeyError
            When the result has no such target.

        Examples
        --------
        >>> round(scenario_equivalence().target("inf").power_curve[1].score, 6)
        -0.492504
        """
        key = check_targets((t,))[0]
        for entry in self.targets:
            if entry.target == key:
                return entry
        raise KeyError(t)

    def to_frame(self) -> pd.DataFrame:
        """The power curves: one row per target and k (``target, k, score``)."""
        rows = [
            {"target": str(t.target), "k": p.k, "score": p.score}
            for t in self.targets
            for p in t.power_curve
        ]
        return pd.DataFrame(rows, columns=["target", "k", "score"])

    def targets_frame(self) -> pd.DataFrame:
        """The targets as a table.

        Returns
        -------
        pandas.DataFrame
            One row per target: ``target, kappa, classifier_score, equivalence, equivalence_note,
            ideal_score``.

        Examples
        --------
        >>> scenario_equivalence().targets_frame()["target"].tolist()
        ['1', '3', 'inf']
        """
        cols = ["kappa", "classifier_score", "equivalence", "equivalence_note", "ideal_score"]
        rows = [{"target": str(t.target), **{c: getattr(t, c) for c in cols}} for t in self.targets]
        return pd.DataFrame(rows, columns=["target", *cols])


def _rows(a: np.ndarray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in r) for r in a)


def _one_target(
    pi: np.ndarray,
    rater: np.ndarray,
    clf: np.ndarray,
    t: int | str,
    sources: list[tuple[np.ndarray, bool]],
    scorer: str,
    positive: int | None,
) -> ScenarioTarget:
    target = _target_noise(rater, t)
    curve = np.array([_score(_joint(pi, m, target), lab, scorer, positive) for m, lab in sources])
    joint = _joint(pi, clf, target)
    h = _score(joint, True, scorer, positive)
    eq, note = equivalence_point(np.arange(len(curve)), curve, h)
    with np.errstate(invalid="ignore", divide="ignore"):
        calibrated = joint / joint.sum(axis=1, keepdims=True)
    ideal = _score(_joint(pi, np.eye(len(pi)), target), True, scorer, positive)
    return ScenarioTarget(
        target=t,
        kappa=_kappa(pi, target),
        classifier_score=h,
        power_curve=tuple(ScenarioPoint(k, float(c)) for k, c in enumerate(curve)),
        equivalence=eq,
        equivalence_note=note,
        ideal_score=ideal,
        calibrated=_rows(calibrated),
    )


def scenario_equivalence(
    prior: Any = 0.5,
    rater: Any = (0.85, 0.07),
    classifier: Any = (0.96, 0.2),
    *,
    scorer: str = "cross_entropy",
    combiner: str = "majority",
    targets: Sequence[int | str] = (1, 3, INF),
    max_sources: int = 10,
) -> ScenarioResult:
    """Survey equivalence in a latent-class scenario, exactly (infinitely many items), against target
    panels of t raters (t = ``"inf"``: the true class).

    Scores the classifier and source panels of k = 0 … ``max_sources`` raters against the plurality
    of t other raters for each target, reads the classifier's rater equivalence off each curve, and
    says where its order against k raters flips between targets (see :mod:`humanly.survey.scenario`).
    The defaults are the counter-example of the revised paper: the classifier beats one rater against
    a 3-rater panel and loses against one rater and against the truth.

    Parameters
    ----------
    prior : float or sequence of float
        P(positive) for two classes, or the K class probabilities.
    rater : tuple of float or array-like
        (P(+ | +), P(+ | −)) of one rater for two classes, or a K × K confusion matrix (rows the true
        class, columns the label).
    classifier : tuple of float or array-like
        The classifier's, in the same form.
    scorer : {"cross_entropy", "agreement", "precision", "recall", "f1"}
        Cross-entropy (bits, of calibrated predictions; higher is better), agreement, or the
        positive class's precision, recall or F1 (macro averages for more than two classes).
    combiner : {"majority", "plurality", "abc"}
        How a source panel combines its labels: the majority (two classes) or plurality label, ties
        at random, or its count vector (``"abc"``: calibrated, the Anonymous Bayesian Combiner's
        population limit).
    targets : sequence of int or "inf"
        The target panels.
    max_sources : int
        The largest source panel (the curve has k = 0 … max_sources).

    Returns
    -------
    ScenarioResult
        One entry per target (κ, curve, classifier score, equivalence, calibrated predictions) and the
        flips.

    Raises
    ------
    InputError
        For probabilities out of range, matrices that are not stochastic or of different sizes, a
        combiner or scorer not listed, or panels too large to enumerate.

    See Also
    --------
    humanly.survey.equivalence : the same on data, with ``EquivalenceOptions(targets=...)``.

    References
    ----------
    Resnick, P., Kong, Y., Schoenebeck, G. & Weninger, T. Survey Equivalence: An Information-theoretic
    Measure of Classifier Accuracy When the Ground Truth is Subjective, arXiv:2106.01254 v2 (2025),
    "bigger panels are not always better"; the authors' notebook (MIT).

    Examples
    --------
    >>> res = scenario_equivalence(prior=0.5, rater=(0.85, 0.07), classifier=(0.96, 0.2))
    >>> [round(-t.power_curve[1].score, 6) for t in res.targets]
    [0.705773, 0.576897, 0.492504]
    >>> [round(t.equivalence, 3) for t in res.targets]
    [0.999, 2.007, 0.984]
    >>> round(res.target(3).kappa, 4)
    0.8579
    """
    pi, rate, clf = _setting(prior, rater, classifier)
    scorer = check_choice("scorer", scorer, SCENARIO_SCORERS)
    combiner = check_choice("combiner", combiner, SCENARIO_COMBINERS)
    if combiner == "majority" and len(pi) != 2:
        raise InputError(
            f"{setting('combiner', 'majority')} needs two classes, the scenario has {len(pi)}; use "
            f"{setting('combiner', 'plurality')}"
        )
    max_sources = int(check_int("max_sources", max_sources, minimum=1, maximum=200))
    wanted = check_targets(targets)
    positive = 1 if len(pi) == 2 else None
    sources = [_source(rate, k, combiner) for k in range(max_sources + 1)]
    entries = tuple(_one_target(pi, rate, clf, t, sources, scorer, positive) for t in wanted)
    flips = target_flips(
        "classifier", wanted, [e.classifier_score for e in entries], [e.scores for e in entries]
    )
    return ScenarioResult(
        classes=tuple(range(len(pi))),
        prior=tuple(float(v) for v in pi),
        rater=_rows(rate),
        classifier=_rows(clf),
        scorer=scorer,
        combiner=combiner,
        positive=positive,
        max_sources=max_sources,
        targets=entries,
        flips=flips,
    )
