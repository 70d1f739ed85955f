"""What :func:`~humanly.certification.certify` and :func:`~humanly.certification.certify_summary`
return: frozen, typed values that print, serialise (``to_dict()`` is the ``--json`` object) and
tabulate (``to_frame()``).

Names, one per concept (the paper's symbols in brackets):

* ``lower`` — a model's point lower bound L_N (eq. 25); ``upper`` — the average rater's point upper
  bound U_N (eq. 18), the empirical U⁽ᵉ⁾ or theoretical U⁽ᵗ⁾ one (``used``);
* ``finite_lower`` / ``finite_upper`` — the finite-sample bounds L_N − t_l (Theorem 6) and
  sqrt(U_N² + t_u) (Theorem 5), each a :class:`FiniteBound` ``(delta, t, value)``;
* ``raters`` — how the crowd was read (:class:`Raters`: slots, named or summary, and K).

The parts of a certificate (finite bounds, confidence scores, the verdicts under each bound) are in
:mod:`.result_parts`.

>>> from humanly.certification import certify_summary
>>> res = certify_summary([0.971], 0.939, 1821)
>>> round(res.models[0].finite_lower.value, 4), round(res.finite_upper.value, 4)
(0.9392, 0.9558)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_int
from .._core.result import Note, Result, jsonable
from ..data import InputError
from ._bounds import BOUNDS, Sample
from .confidence_score import score
from .curves import BoundCurve
from .evidence import Evidence
from .lemma2 import Lemma2Check
from .oracle import OracleCheck
from .result_parts import (
    BoundSummary,
    Confidence,
    ConfidenceCurve,
    FiniteBound,
    Simultaneous,
    UpperVerdict,
)

__all__ = ["CertifyResult", "ModelCertificate", "Raters", "UpperBound"]


@dataclasses.dataclass(frozen=True, repr=False)
class UpperBound(Result):
    """Upper bounds for the average rater's oracle accuracy.

    Parameters
    ----------
    theoretical : float or None
        U⁽ᵗ⁾ (Theorem 1, eq. 2; eq. 18 on N items); ``None`` in summary mode without K.
    empirical : float or None
        U⁽ᵉ⁾ (Definition 1, eq. 8), the paper's choice.
    n : int
        The items behind the finite-sample bound (those with ≥ 2 labels).
    used : str
        Which one is U_N: ``"empirical"`` or ``"theoretical"``.
    upper : float
        U_N.
    finite : dict of str to FiniteBound
        Each concentration bound's sqrt(U_N² + t_u) (Theorem 5, eq. 16).
    variance : float, optional
        The sample variance of the per-item terms X_n of U_N (empirical Bernstein).
    agreement_matrix : numpy.ndarray, optional
        Named raters: the raters × raters agreement, up to
        :data:`~humanly.certification.MATRIX_MAX_RATERS` raters (``None`` above: the pairs are
        counted sparsely).
    raters : tuple of str, optional
        Named raters: their ids.
    lemma2 : Lemma2Check, optional
        Lemma 2's condition and the advice on raters per item.
    variances : dict of str to float, optional
        The sample variance of X_n under each kind of upper bound.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> ub = certify_summary([0.971], 0.939, 1821, labels_per_item=3).upper_bound
    >>> round(ub.theoretical, 3), ub.used, ub.upper
    (0.96, 'empirical', 0.939)
    """

    theoretical: float | None
    empirical: float | None
    n: int
    used: str
    upper: float
    finite: dict[str, FiniteBound]
    variance: float | None = None
    agreement_matrix: np.ndarray | None = None
    raters: tuple[str, ...] | None = None
    lemma2: Lemma2Check | None = None
    variances: dict[str, float] | None = None

    def sample(self) -> Sample:
        """What the concentration bounds need to bound U_N².

        Returns
        -------
        Sample
            ``n``, U_N² and the variance of the per-item terms.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> certify_summary([0.97], 0.9, 1000).upper_bound.sample().n
        1000
        """
        return Sample(self.n, self.upper * self.upper, self.variance)

    def kinds(self) -> dict[str, float]:
        """The upper bounds available by kind.

        Returns
        -------
        dict of str to float
            ``{"empirical": U⁽ᵉ⁾, "theoretical": U⁽ᵗ⁾}``, the ones that are known.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> sorted(certify_summary([0.97], 0.94, 1000, labels_per_item=3).upper_bound.kinds())
        ['empirical', 'theoretical']
        """
        out = {}
        for kind, value in (("empirical", self.empirical), ("theoretical", self.theoretical)):
            if value is not None:
                out[kind] = float(value)
        return out

    def sample_of(self, kind: str) -> Sample:
        """What the concentration bounds need to bound U_N² when U_N is the ``kind`` upper bound.

        Parameters
        ----------
        kind : str
            ``"empirical"`` or ``"theoretical"`` (one of :meth:`kinds`).

        Returns
        -------
        Sample
            ``n``, the squared upper bound and its per-item variance.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> ub = certify_summary([0.97], 0.9, 1000, labels_per_item=3).upper_bound
        >>> round(ub.sample_of("theoretical").mean, 4)
        0.8733
        """
        if kind == self.used:
            return self.sample()
        value = self.kinds()[kind]
        var = None if self.variances is None else self.variances.get(kind)
        return Sample(self.n, value * value, var)


@dataclasses.dataclass(frozen=True, repr=False)
class ModelCertificate(Result):
    """One model's certificate: its lower bound L_N, margin, confidence and verdict.

    Parameters
    ----------
    model : str
        The model's name.
    lower : float
        L_N (eq. 25), its agreement with the aggregate label.
    n : int
        The items behind L_N.
    margin : float
        L_N − U_N.
    confidence : Confidence
        S under the result's concentration bound.
    superhuman : bool
        Whether S_OMS ≥ level.
    superhuman_simultaneous : bool
        Whether S_OMS ≥ 1 − (1 − level)/M for M models (the union bound), valid for all models at
        once.
    finite_lower : FiniteBound
        L_N − t_l under the result's bound.
    by_bound : dict of str to BoundSummary
        The finite bounds, certified margin and confidence under every concentration bound available.
    full_credit : int, optional
        Tie-broken successes behind L_N (the exact bound).
    lower_variance : float, optional
        The sample variance of the per-item credit (the Bernstein bound).
    items_needed : int, optional
        The smallest number of items (behind both bounds) that would certify the same L_N and U_N.
    evidence : Evidence, optional
        The verdict as data.
    by_upper : dict of str to UpperVerdict
        The verdict under each upper bound, U⁽ᵉ⁾ (the paper's choice) and U⁽ᵗ⁾ (the one Theorem 1
        proves), with the result's concentration bound.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> m = certify_summary([0.971], 0.939, 1821, models=["StructBERT"]).model("StructBERT")
    >>> m.lower, round(m.margin, 3), m.superhuman
    (0.971, 0.032, False)
    """

    model: str
    lower: float
    n: int
    margin: float
    confidence: Confidence
    superhuman: bool
    superhuman_simultaneous: bool
    finite_lower: FiniteBound
    by_bound: dict[str, BoundSummary]
    full_credit: int | None = None
    lower_variance: float | None = None
    items_needed: int | None = None
    evidence: Evidence | None = None
    by_upper: dict[str, UpperVerdict] = dataclasses.field(default_factory=dict)

    def sample(self) -> Sample:
        """What the concentration bounds need to bound L_N.

        Returns
        -------
        Sample
            ``n``, L_N, the per-item variance and the tie-broken successes.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> certify_summary([0.97], 0.9, 1000).models[0].sample().mean
        0.97
        """
        return Sample(self.n, self.lower, self.lower_variance, self.full_credit)


@dataclasses.dataclass(frozen=True, repr=False)
class Raters(Result):
    """How the crowd was read.

    Parameters
    ----------
    mode : str
        ``"slots"`` (an item's labels are exchangeable), ``"named"`` (identified raters) or
        ``"summary"`` (published numbers).
    labels_per_item : float or None
        K, the labels (raters) per item; the mean number of labels per item when it varies.
    min_labels_per_item, max_labels_per_item : int, optional
        The fewest and most labels of an item, when it varies.

    Examples
    --------
    >>> Raters("slots", 5)
    Raters(mode='slots', labels_per_item=5, min_labels_per_item=None, max_labels_per_item=None)
    >>> Raters("slots", 3.5, 2, 6).to_dict()["min_labels_per_item"]
    2
    """

    mode: str
    labels_per_item: float | None
    min_labels_per_item: int | None = None
    max_labels_per_item: int | None = None

    @property
    def ragged(self) -> bool:
        """Whether the number of labels per item varies.

        Examples
        --------
        >>> Raters("slots", 3.5, 2, 6).ragged
        True
        """
        lo, hi = self.min_labels_per_item, self.max_labels_per_item
        return lo is not None and lo != hi

    def to_dict(self) -> dict[str, Any]:
        """``{mode, labels_per_item}``, with ``min_labels_per_item``, ``max_labels_per_item`` and
        ``ragged: true`` when K varies by item."""
        out: dict[str, Any] = {"mode": self.mode, "labels_per_item": jsonable(self.labels_per_item)}
        if self.ragged:
            out.update(
                {
                    "min_labels_per_item": self.min_labels_per_item,
                    "max_labels_per_item": self.max_labels_per_item,
                    "ragged": True,
                }
            )
        return out


# ------------------------------------------------------------------------------------ result
@dataclasses.dataclass(frozen=True, repr=False)
class CertifyResult(Result):
    """The certificate of every model against the average rater: what ``humanly certify`` reports.

    ``to_dict()`` is the ``--json`` object and :meth:`from_dict` reads it back; ``to_frame()`` is the
    per-model table; :meth:`confidence_curve` gives S(t_u) of one model from the stored fields.

    Parameters
    ----------
    n_items : int or None
        The rated items (``None`` in summary mode).
    raters : Raters
        How the crowd was read, and K.
    upper_bound : UpperBound
        The average rater's upper bounds.
    models : tuple of ModelCertificate
        One certificate per model.
    oracle : OracleCheck or None
        The checks against gold labels (``None`` without gold).
    curve : BoundCurve or None
        The bounds over k raters (Fig. 3), with ``curve=True``.
    bound : str
        The concentration bound of the verdict.
    level : float
        A model is certified when S_OMS ≥ level.
    delta : float
        The failure probability per side of the reported finite-sample bounds.
    aggregate : str or None
        The aggregate label of L_N (``plurality``, ``soft``, ``weighted``, ``dawid_skene`` or an
        aggregator's class name; ``None`` in summary mode).
    simultaneous : Simultaneous
        The verdicts valid for all models at once.
    notes : tuple of Note
        What a reader should know (items left out, Lemma 2, ...), as codes with their numbers;
        :mod:`humanly.verdicts.notes` words them.
    tau : float
        The margin τ every confidence is about: "beats the average rater by at least τ".
    identical_labels : tuple of (str, str)
        The pairs of models whose hard labels agree on every item (they get the same certificate).

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> res = certify_summary([0.949, 0.971], 0.939, [1821], labels_per_item=3, models=["BERT", "StructBERT"])
    >>> res.to_frame()[["model", "lower", "upper", "oms", "superhuman"]].round(4)
            model  lower  upper     oms  superhuman
    0        BERT  0.949  0.939 -0.2730       False
    1  StructBERT  0.971  0.939  0.6208       False
    """

    n_items: int | None
    raters: Raters
    upper_bound: UpperBound
    models: tuple[ModelCertificate, ...]
    oracle: OracleCheck | None
    curve: BoundCurve | None
    bound: str
    level: float
    delta: float
    aggregate: str | None
    simultaneous: Simultaneous
    notes: tuple[Note, ...]
    tau: float = 0.0
    identical_labels: tuple[tuple[str, str], ...] = ()

    @property
    def finite_upper(self) -> FiniteBound:
        """The finite-sample upper bound sqrt(U_N² + t_u) under the verdict's bound (Theorem 5).

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> round(certify_summary([0.971], 0.939, 1821).finite_upper.value, 4)
        0.9558
        """
        return self.upper_bound.finite[self.bound]

    def model(self, name: str) -> ModelCertificate:
        """The certificate of one model.

        Parameters
        ----------
        name : str
            The model's name.

        Returns
        -------
        ModelCertificate
            Its certificate.

        Raises
        ------
        KeyError
            When no model has that name.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> certify_summary([0.971], 0.939, 1821, models=["StructBERT"]).model("StructBERT").lower
        0.971
        """
        for m in self.models:
            if m.model == name:
                return m
        raise KeyError(f"no model {name!r}; models are {[m.model for m in self.models]}")

    def to_frame(self) -> pd.DataFrame:
        """One row per model: L_N, U_N, margin, the finite-sample bounds and certified margin under the
        chosen bound, HMS/OMS confidence and verdicts, ``items_needed`` and the ``evidence`` status,
        the verdict under the other upper bound (``oms_theoretical``, ``superhuman_theoretical``,
        ``items_needed_theoretical`` when U_N is U⁽ᵉ⁾) and with gold the true accuracy."""
        rows = []
        for m in self.models:
            row: dict[str, Any] = {
                "model": m.model,
                "n": m.n,
                "lower": m.lower,
                "upper": self.upper_bound.upper,
                "margin": m.margin,
                "finite_lower": m.finite_lower.value,
                "finite_upper": self.finite_upper.value,
                "certified_margin": m.by_bound[self.bound].certified_margin,
                "hms": m.confidence.hms,
                "oms": m.confidence.oms,
                "t_u": m.confidence.t_u,
                "t_l": m.confidence.t_l,
                "superhuman": m.superhuman,
                "superhuman_simultaneous": m.superhuman_simultaneous,
                "items_needed": m.items_needed,
                "evidence": None if m.evidence is None else m.evidence.status,
            }
            for kind, v in m.by_upper.items():
                if kind != self.upper_bound.used:
                    row[f"oms_{kind}"] = v.confidence.oms
                    row[f"superhuman_{kind}"] = v.superhuman
                    row[f"items_needed_{kind}"] = v.items_needed
            if self.oracle is not None:
                row["true_accuracy"] = self.oracle.models.get(m.model)
            rows.append(row)
        return pd.DataFrame(rows)

    def confidence_curve(
        self, model: str, t_u: Sequence[float] | np.ndarray | None = None, *, points: int = 400
    ) -> ConfidenceCurve:
        """S(t_u) of Theorem 7 (eq. 38) for one model under the result's bound and margin τ.

        Computed from the stored fields (L_N, U_N, their sample sizes, variances and successes), so a
        result read back from its JSON gives the same curve.

        Parameters
        ----------
        model : str
            The model's name.
        t_u : sequence of float, optional
            The deviations t_u ≥ 0 to evaluate S at.
        points : int
            Without ``t_u``: this many evenly spaced values over the admissible range
            [0, (L_N − τ)² − U_N²] (default 400).

        Returns
        -------
        ConfidenceCurve
            t_u, t_l, δ_u, δ_l and S per point, with the HMS and OMS choices.

        Raises
        ------
        InputError
            Without ``t_u`` when no t_u is admissible (L_N ≤ U_N + τ), or for a negative t_u.

        Examples
        --------
        >>> from humanly.certification import certify_summary
        >>> cc = certify_summary([0.971], 0.939, 1821).confidence_curve("model1")
        >>> round(max(cc.confidence), 4) <= round(cc.oms, 4)
        True
        """
        m = self.model(model)
        c = m.confidence
        if t_u is None:
            check_int("points", points, minimum=2)
            if not c.admissible or c.t_u_max is None:
                raise InputError(
                    f"model {model!r} has L_N ≤ U_N + τ: no t_u is admissible; give t_u values"
                )
            grid = np.linspace(0.0, c.t_u_max, points)
        else:
            grid = np.atleast_1d(np.asarray(t_u, dtype=float))
            if not np.isfinite(grid).all() or (grid < 0).any():
                raise InputError("t_u: give finite deviations ≥ 0")
        bound = BOUNDS[self.bound]
        tail_u = bound.upper(self.upper_bound.sample())
        tail_l = bound.lower(m.sample())
        u = self.upper_bound.upper
        s, t_l = zip(
            *(score(float(t), m.lower, u, tail_u, tail_l, self.tau) for t in grid), strict=True
        )
        return ConfidenceCurve(
            model=m.model,
            bound=self.bound,
            lower=m.lower,
            upper=u,
            t_u=tuple(float(t) for t in grid),
            t_l=tuple(t_l),
            delta_u=tuple(tail_u.delta(float(t)) for t in grid),
            delta_l=tuple(tail_l.delta(t) for t in t_l),
            confidence=tuple(s),
            hms_t_u=c.hms_t_u,
            hms=c.hms,
            oms_t_u=c.t_u,
            oms=c.oms,
            tau=self.tau,
        )
