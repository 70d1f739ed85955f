"""The inter-rater agreement family in one call: :func:`agreement`.

Percent agreement, Cohen's or Conger's κ, Fleiss' κ (both definitions in use on uneven designs), Gwet's
AC1/AC2, Brennan–Prediger and Krippendorff's α — at the measurement scale of the labels, weighted with
Gwet's weights or a matrix of your own, with missing labels (ragged raters) everywhere. Each comes with
Gwet's analytic standard error and t interval, a percentile bootstrap interval over items, a p-value
against a benchmark value and its reading on the Landis–Koch, Altman and Fleiss scales (Gwet's
probabilistic benchmarking). For two raters, the prevalence and bias indices and PABAK; for any κ, a
flag when κ is low while raw agreement is high (the kappa paradox).

Where the definitions differ between references, both are here under their own names:

* ``fleiss_kappa`` takes chance agreement from each item's class shares averaged over items (Gwet's
  Handbook, irrCAC's ``fleiss.kappa.raw``); ``fleiss_kappa_pooled`` from class shares pooled over all the
  labels of items with two or more labels (humanly's ``inspect`` before 0.1, Krippendorff's chance
  model). They are equal on full designs; statsmodels computes the full-design number.
* ``krippendorff_alpha`` uses Krippendorff's metric for the scale (his ordinal metric is rank-based);
  ``krippendorff_alpha_weighted`` uses Gwet's weights instead (irrCAC's ``krippen.alpha.raw`` with
  weights). They agree on nominal, interval and ratio data with the default weights; on Krippendorff's
  2011 ordinal example they give 0.815 and 0.834.

* Standard errors: Gwet's (irrCAC's raw-data formulas, which divide by n − 1; his contingency-table
  formulas divide by n, so for two raters without missing labels they are smaller by √((n − 1)/n)).
  For α, Gwet's 2021 revision of irrCAC (item terms centred on p'_a, the exact linearisation); the
  CRAN release and the Python port centre them on p_a (0.14557 against 0.14548 on Gwet's
  cac.raw4raters). Krippendorff's ordinal metric moves with the data, so its α gets the full delta
  method (the Handbook has no formula for it).

Classes and values: every coefficient works on classes (a q × q weight table). Interval or ordinal data
with more distinct values than ``AgreementOptions.memory`` allows q × q tables for get Krippendorff's α
from the values instead (memory grows with the labels), and a note says the others need classes; other
data with too many classes are refused, in one sentence, before anything of size q² is allocated.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core.checks import check_bootstrap, check_choice, check_int, check_number, check_probability
from .._core.result import Note
from ..data.types import RatingsLike
from ..errors import InputError, setting
from ._coefficients import CountDesign, count_rows
from ._compute import compute, from_values
from ._conger import Patterns, duplicates, patterns
from .agreement import _seed_int
from .benchmarks import BENCHMARK_SCALES
from .family_results import AgreementOptions, AgreementResult
from .weights import (
    DEFAULT_WEIGHTS,
    SCALES,
    WEIGHTS,
    check_weight_matrix,
    class_values,
    krippendorff_metric,
    metric_weights,
    ordinal_scores,
    same_alpha,
    weight_matrix,
)

# the result types are documented in (and exported by) family_results, where they are defined
__all__ = ["COEFFICIENTS", "agreement"]

#: every coefficient id, in the order of the result's rows (``gwet_ac1`` becomes ``gwet_ac2`` weighted)
COEFFICIENTS: tuple[str, ...] = (
    "percent_agreement",
    "cohen_kappa",
    "conger_kappa",
    "fleiss_kappa",
    "fleiss_kappa_pooled",
    "gwet_ac1",
    "brennan_prediger",
    "krippendorff_alpha",
    "krippendorff_alpha_weighted",
)

_ALIASES = {"gwet_ac2": "gwet_ac1", "gwet_ac": "gwet_ac1"}


def _as_ratings(ratings: Any) -> Any:
    from ..data import Ratings

    if isinstance(ratings, Ratings):
        return ratings
    inner = getattr(ratings, "ratings", None)
    if isinstance(inner, Ratings):  # a Study
        return inner
    got = "None" if ratings is None else type(ratings).__name__
    raise TypeError(f"ratings={got}: give a humanly.data.Ratings (or a Study)")


def _weights(weights: Any, scale: str, classes: tuple[Any, ...], values: np.ndarray) -> Any:
    """``(W, name)``: the weight matrix of the κ family and its name."""
    if weights is None:
        name = DEFAULT_WEIGHTS[scale]
        return weight_matrix(name, values), name
    if isinstance(weights, str):
        check_choice("weights", weights, WEIGHTS)
        if scale == "nominal" and weights != "identity":
            raise InputError(
                f"{setting('weights', weights)} needs ordered classes, but {setting('scale', 'nominal')}; "
                "give "
                f"{setting('scale', 'ordinal')} (or 'interval', 'ratio'), or a weight matrix of your own"
            )
        return weight_matrix(weights, values), weights
    return check_weight_matrix(weights, classes), "custom"


def _which(coefficients: Any, named: int, unnamed: str) -> tuple[list[str], list[Note]]:
    """The coefficient ids to compute (canonical names) and notes on the ones left out; ``named`` is
    the number of named raters (0 when rater identity is unknown, and ``unnamed`` says why)."""
    notes: list[Note] = []
    why = _UNNAMED[unnamed]
    if coefficients is None:
        chosen = [c for c in COEFFICIENTS if c not in ("cohen_kappa", "conger_kappa")]
        if named == 2:
            chosen.insert(1, "cohen_kappa")
        elif named > 2:
            chosen.insert(1, "conger_kappa")
        else:
            notes.append(Note("kappa_needs_named_raters", {"cause": unnamed}))
        return chosen, notes
    if isinstance(coefficients, str):
        coefficients = (coefficients,)
    asked = []
    for c in coefficients:
        check_choice("coefficients", c, (*COEFFICIENTS, *_ALIASES))
        asked.append(_ALIASES.get(c, c))
    for c in asked:
        if c in ("cohen_kappa", "conger_kappa") and named == 0:
            raise InputError(
                f"coefficients={c!r} needs named raters, but {why}; read the ratings in long format "
                "(item, rater, label, one label per rater and item) or leave it out"
            )
        if c == "cohen_kappa" and named != 2:
            raise InputError(
                f"coefficients='cohen_kappa' is for two raters, and these ratings have {named}; "
                "use 'conger_kappa', its generalisation to more raters"
            )
    return [c for c in COEFFICIENTS if c in asked], notes


def _check_data(ratings: Any, design: CountDesign, named: int) -> None:
    """One clear sentence for data no coefficient is defined on (``named``: the raters with a label,
    0 for anonymous counts)."""
    two = design.rows.sum(axis=1) >= 2
    if not bool(two.any()):
        if ratings.has_raters and named == 1:
            raters = [str(r) for r in ratings.raters[np.bincount(ratings.rater_codes) > 0]]
            raise InputError(
                f"ratings: a single rater ({raters[0]!r}) gave every label; agreement needs items "
                "labelled by at least two raters"
            )
        raise InputError(
            "ratings: no item has two labels; agreement needs items labelled by at least two raters"
        )
    used = np.flatnonzero((design.rows * design.mult[:, None]).sum(axis=0) > 0)
    if len(used) == 1:
        label = ratings.classes[int(used[0])]
        raise InputError(
            f"ratings: every label is {label!r}; agreement coefficients are undefined when a single "
            "class is used (chance agreement is 1): check the labels, or the item and label columns"
        )


#: why Cohen's and Conger's κ cannot be computed on ratings without named raters: code → words
_UNNAMED = {
    "repeated_raters": "some raters labelled an item more than once (duplicates='keep')",
    "anonymous_counts": "these ratings are anonymous counts",
}


def _unnamed(ratings: Any, named: int) -> str:
    """Why Cohen's and Conger's κ cannot be computed on these ratings: a key of ``_UNNAMED``."""
    if ratings.has_raters and named == 0:
        return "repeated_raters"
    return "anonymous_counts"


def _patterns(ratings: Any, named: int, which: list[str], b: int, memory: int) -> Patterns | None:
    """The rater patterns, only where they are used: Cohen's or Conger's κ, or the bootstrap of named
    ratings (which redraws patterns, so that a coefficient's interval does not depend on which others
    were asked for)."""
    if named and ({"cohen_kappa", "conger_kappa"} & set(which) or b):
        return patterns(ratings, dense_cells=max(memory // 16, 1), repeated=False)
    return None


def _named(ratings: Any) -> int:
    """The raters with at least one label, for coefficients that need rater identity: 0 for
    anonymous counts and for raters who labelled an item more than once (``duplicates='keep'``)."""
    if not ratings.has_raters or duplicates(ratings):
        return 0
    return int(np.count_nonzero(np.bincount(ratings.rater_codes)))


def _too_many(q: int, memory: int) -> Note | None:
    """Why q × q tables do not fit the memory budget (``None`` when they do), as a note."""
    need = 8 * 8 * q * q
    if need <= memory:
        return None
    return Note("too_many_values", {"values": q, "need": need, "memory": memory})


def agreement(
    ratings: RatingsLike,
    *,
    scale: str | None = None,
    weights: Any = None,
    coefficients: Any = None,
    level: float = 0.95,
    bootstrap: int = 1000,
    seed: Any = 0,
    benchmark: float = 0.0,
    options: AgreementOptions | None = None,
) -> AgreementResult:
    """The inter-rater agreement family: every coefficient that applies, with intervals and readings.

    Parameters
    ----------
    ratings : humanly.data.Ratings or humanly.data.Study
        The crowd's labels. Cohen's and Conger's κ need named raters (rater identity); the other
        coefficients need only per-item class counts, so anonymous counts work for them.
    scale : {"nominal", "ordinal", "interval", "ratio"}, optional
        The measurement scale (default: the ratings' own, :attr:`humanly.data.Ratings.scale`,
        nominal unless read with another). Ordinal classes are ordered as ``ratings.classes`` holds
        them, or by value when they are numbers; interval and ratio need numeric labels.
    weights : str or array_like, optional
        The κ family's weights: one of Gwet's (``identity``, ``linear``, ``quadratic``, ``ordinal``,
        ``radical``, ``ratio``, ``circular``, ``bipolar``) or a q × q matrix (symmetric, 1 on the
        diagonal, entries in [0, 1], classes in ``ratings.classes`` order). Default: ``identity``
        (nominal), ``ordinal``, ``quadratic`` (interval), ``ratio``.
    coefficients : sequence of str, optional
        Ids to compute (:data:`COEFFICIENTS`; ``gwet_ac2`` is accepted for ``gwet_ac1``). Default: all
        that apply — Cohen's κ for two named raters, Conger's for more, and
        ``krippendorff_alpha_weighted`` only when the weights are not Krippendorff's metric.
    level : float
        Confidence level of the intervals and of the benchmark reading.
    bootstrap : int
        Bootstrap replicates over items (0: no bootstrap interval).
    seed : int, numpy.random.Generator or None
        Seed of the bootstrap; replicate i draws from ``humanly._core.rng.stream(seed, i)``.
    benchmark : float
        The value the p-values test against (default 0: any agreement beyond chance).
    options : AgreementOptions, optional
        Advanced knobs: finite population, the p-value's alternative, benchmark scales, paradox
        thresholds, memory budget.

    Returns
    -------
    AgreementResult
        One row per coefficient (``to_frame()`` for a table), the two-rater indices, the paradox check.

    Raises
    ------
    InputError
        For bad input, in one sentence: unknown scale or weights, a weight matrix of the wrong shape,
        not symmetric or outside [0, 1], ordinal classes that cannot be ordered, non-numeric labels on
        an interval or ratio scale, a single rater, no item with two labels, a single class used, or
        more classes than the memory budget allows.
    TypeError
        If ``ratings`` is not a Ratings, ``options`` not an AgreementOptions, or a number is not one.

    Examples
    --------
    >>> from humanly.data import Ratings
    >>> r = Ratings.from_long(
    ...     items=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
    ...     raters=["a", "b"] * 6,
    ...     labels=[1, 1, 2, 2, 3, 2, 1, 1, 3, 3, 2, 1])
    >>> res = agreement(r, scale="ordinal", bootstrap=200)
    >>> res.names()
    ('percent_agreement', 'cohen_kappa', 'fleiss_kappa', 'fleiss_kappa_pooled', 'gwet_ac2', \
'brennan_prediger', 'krippendorff_alpha', 'krippendorff_alpha_weighted')
    >>> round(res["cohen_kappa"].estimate, 4), res["cohen_kappa"].weights
    (0.7, 'ordinal')
    >>> round(res.pair.pabak, 4)
    0.5

    References
    ----------
    Cohen, J. (1960). A coefficient of agreement for nominal scales. *Educational and Psychological
    Measurement*, 20, 37–46. Fleiss, J. L. (1971). Measuring nominal scale agreement among many raters.
    *Psychological Bulletin*, 76, 378–382. Conger, A. J. (1980). Integration and generalization of kappas
    for multiple raters. *Psychological Bulletin*, 88, 322–328. Brennan, R. L., & Prediger, D. J.
    (1981). Coefficient kappa: some uses, misuses, and alternatives. *Educational and Psychological
    Measurement*, 41, 687–699. Gwet, K. L. (2008). Computing inter-rater reliability and its variance in
    the presence of high agreement. *British Journal of Mathematical and Statistical Psychology*, 61,
    29–48. Gwet, K. L. (2014). *Handbook of Inter-Rater Reliability*, 4th ed. Krippendorff, K. (2011).
    Computing Krippendorff's alpha-reliability. Byrt, T., Bishop, J., & Carlin, J. B. (1993). Bias,
    prevalence and kappa. *Journal of Clinical Epidemiology*, 46, 423–429.
    """
    r = _as_ratings(ratings)
    scale = r.scale if scale is None else scale
    opts, level, b, seed_, benchmark = _arguments(options, scale, level, bootstrap, seed, benchmark)
    classes = tuple(r.classes)
    values = class_values(classes, scale)
    why = _too_many(len(classes), opts.memory)
    if why is not None:
        return from_values(
            r, values, scale, weights, coefficients, why, level, b, seed_, benchmark, opts
        )
    w, wname = _weights(weights, scale, classes, values)
    metric = (
        None if scale == "ordinal" else metric_weights(krippendorff_metric(scale, values, None))
    )
    design = CountDesign(*count_rows(r.counts), w, metric, values)
    named = _named(r)
    _check_data(r, design, named)
    which, notes = _which(coefficients, named, _unnamed(r, named))
    pats = _patterns(r, named, which, b, opts.memory)
    why = _design_too_big(design, pats, opts.memory)
    if why is not None:
        return from_values(
            r, values, scale, weights, coefficients, why, level, b, seed_, benchmark, opts
        )
    if coefficients is None and _alpha_same(design):
        which.remove("krippendorff_alpha_weighted")
    return compute(
        r, design, pats, named, which, wname, scale, level, b, seed_, benchmark, opts, notes
    )


def _arguments(
    options: Any, scale: str, level: Any, bootstrap: Any, seed: Any, benchmark: Any
) -> tuple[AgreementOptions, float, int, int, float]:
    """The checked arguments: options, level, bootstrap, the int seed used, benchmark."""
    opts = AgreementOptions() if options is None else options
    if not isinstance(opts, AgreementOptions):
        raise TypeError(f"options={type(opts).__name__}: give a humanly AgreementOptions")
    _check_options(opts)
    check_choice("scale", scale, SCALES)
    level = float(check_probability("level", level, open_low=True, open_high=True))
    b = check_bootstrap(bootstrap, bytes_per_replicate=8)
    seed_ = _seed_int(seed)
    benchmark = float(check_number("benchmark", benchmark, minimum=-1.0, maximum=1.0))
    return opts, level, b, seed_, benchmark


def _check_options(opts: AgreementOptions) -> None:
    if opts.population is not None:
        check_int("options.population", opts.population, minimum=1)
    check_choice("options.alternative", opts.alternative, ("two-sided", "greater", "less"))
    for s in opts.scales:
        check_choice("options.scales", s, tuple(BENCHMARK_SCALES))
    check_probability("options.paradox_agreement", opts.paradox_agreement)
    check_number("options.paradox_kappa", opts.paradox_kappa, minimum=-1.0, maximum=1.0)
    check_int("options.memory", opts.memory, minimum=1)


def _design_too_big(design: CountDesign, pats: Patterns | None, memory: int) -> Note | None:
    """Why the per-row tables do not fit the memory budget (``None`` when they do), as a note: the
    rater patterns when they are used (there are at least as many as distinct count rows), else the
    count rows."""
    per_row = design.q * 4 + design.width()
    rows = len(design.rows) if pats is None else len(pats.rows)
    raters = 0 if pats is None else pats.raters
    need = 8 * (rows * per_row + raters * design.q * 8)
    if need <= memory:
        return None
    values = {"patterns": rows, "classes": design.q, "need": need, "memory": memory}
    return Note("too_many_patterns", values)


def _alpha_same(design: CountDesign) -> bool:
    """Whether α with the κ family's weights equals α with Krippendorff's metric on these data."""
    if design.metric is not None:
        return same_alpha(design.weights, 1.0 - design.metric)
    total = (design.rows * design.mult[:, None]).sum(axis=0)
    s = ordinal_scores(total, design.values)
    return same_alpha(design.weights, (s[:, None] - s[None, :]) ** 2)
