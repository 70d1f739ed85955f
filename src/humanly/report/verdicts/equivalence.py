"""Survey-equivalence verdicts: one sentence per model, read off an
:class:`~humanly.survey.EquivalenceResult` (and, for a simulation, its
:class:`~humanly.survey.TruthEquivalence`).

The sentence says how many raters the model is worth, with its bootstrap range (at the result's
``level``) and bootstrap mean,
under which combiner and scorer, on how many items — or, when the score is off the curve, says so in
words: *below 0* means the score is at or below c_0, the score of the combiner's prediction from no
labels at all; *above the largest k* means no survey the data allow is as good. The same wording
serves the command line (:mod:`humanly.cli.equivalence_render`) and the report section.

>>> from humanly._core.result import Interval
>>> from humanly.survey import ModelEquivalence
>>> m = ModelEquivalence("m", -0.82, Interval(-0.84, -0.80), 3.13, None, Interval(2.69, 3.69), 2000,
...                      equivalence_mean=3.16)
>>> print(worth(m, "abc", "cross_entropy"))  # doctest: +NORMALIZE_WHITESPACE
m is worth 3.13 raters (95% range 2.69–3.69; bootstrap mean 3.16) with the ABC combiner and
cross-entropy scorer, on 2,000 items.

A model scored by cross-entropy without calibration (``calibrate="none"``) says so in its sentence:

>>> raw = ModelEquivalence("m", -1.5, Interval(None, None), None, "below_0", Interval(None, None), 900,
...                        uncalibrated=True)
>>> print(worth(raw, "abc", "cross_entropy", c0=-0.96))  # doctest: +NORMALIZE_WHITESPACE
m does no better than the ABC's prediction from no labels at all (each class's share of the other
items' labels), so no number of raters matches it, but its outputs were scored as given, not
calibrated, and calibrated first, as the paper does, it may do better. It is worth less than 0 raters
with the ABC combiner and cross-entropy scorer, on 900 items (not calibrated): its score (-1.5000) is at
or below c_0 = -0.9600, the score of the ABC's prediction from no labels at all (each class's share of
the other items' labels), so it does no better than that baseline.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import Verdict

if TYPE_CHECKING:
    from ...survey import EquivalenceResult, ModelEquivalence, TruthEquivalence

__all__ = [
    "METHODS_ID",
    "UNCALIBRATED",
    "UNCALIBRATED_FIRST",
    "baseline_meaning",
    "combiner_phrase",
    "equivalence_range",
    "percent",
    "scorer_phrase",
    "tails",
    "verdicts",
    "width_phrase",
    "worth",
]

#: The Methods paragraph the sentences rest on.
METHODS_ID = "methods-equivalence"

_COMBINERS = {
    "abc": "ABC",
    "majority": "majority-vote",
    "plurality": "plurality",
    "frequency": "frequency",
}
_SCORERS = {
    "cross_entropy": "cross-entropy",
    "agreement": "agreement",
    "precision": "precision",
    "recall": "recall",
    "f1": "F1",
    "auc": "AUC",
    "dmi": "DMI",
    "pearson": "Pearson-correlation",
    "spearman": "Spearman-correlation",
}
#: What c_0 — the combiner's output from no labels — is, by combiner.
_BASELINES = {
    "abc": "the ABC's prediction from no labels at all (each class's share of the other items' "
    "labels)",
    "frequency": "the frequency combiner's prediction from no labels (every class equally likely)",
    "majority": "a label picked at random, the majority vote of no raters",
    "plurality": "a label picked at random, the plurality of no raters",
}


#: Said in the verdict of a model scored by a proper scorer (cross-entropy) without calibration
#: (:attr:`~humanly.survey.ModelEquivalence.uncalibrated`).
UNCALIBRATED = (
    "not calibrated: its outputs were scored as given, and cross-entropy understates what "
    "uncalibrated outputs carry; calibrated first, as the paper does, it may be worth more"
)
#: The same, in the first sentence of a model worth less than 0 raters.
UNCALIBRATED_FIRST = (
    "its outputs were scored as given, not calibrated, and calibrated first, as the paper does, it "
    "may do better"
)


def combiner_phrase(combiner: str) -> str:
    """``"the ABC combiner"``, ``"the majority-vote combiner"``, …"""
    return f"the {_COMBINERS.get(combiner, combiner)} combiner"


def scorer_phrase(scorer: str) -> str:
    """``"cross-entropy scorer"``, ``"agreement scorer"``, …"""
    return f"{_SCORERS.get(scorer, scorer)} scorer"


def baseline_meaning(combiner: str) -> str:
    """What c_0 is for this combiner, in words."""
    return _BASELINES.get(combiner, f"the {combiner} combiner's prediction from no labels")


def _num(x: float) -> str:
    return f"{x:.2f}"


def percent(p: float) -> str:
    """A probability as a percentage without noise: ``0.95`` → ``"95%"``, ``0.025`` → ``"2.5%"``.

    >>> percent(0.95), percent((1 - 0.95) / 2)
    ('95%', '2.5%')
    """
    return f"{round(100.0 * p, 6):g}%"


def tails(level: float) -> tuple[str, str]:
    """The share of replicates beyond one end of a ``level`` range, and the share at or below its
    high end: ``("2.5%", "97.5%")`` at 95%."""
    tail = (1.0 - level) / 2.0
    return percent(tail), percent(1.0 - tail)


def _raters(k: float | int) -> str:
    return f"{k} rater" + ("" if k == 1 else "s")


def equivalence_range(
    m: ModelEquivalence, largest_k: int, bootstrap: int = 1, level: float = 0.95
) -> str | None:
    """The ``level`` range of the equivalence in words (``None`` without a bootstrap), saying when an
    end is 0 (replicates at or below c_0) or open (replicates above the curve)."""
    lo, hi = m.equivalence_range
    pct, (tail, top) = percent(level), tails(level)
    if lo is None and hi is None:
        if bootstrap > 0 and m.equivalence_note == "above_max":
            return f"at least {top} of the bootstrap replicates lie above the curve too"
        return None
    if hi is None:
        start = "0" if lo == 0 else _num(lo or 0.0)
        return (
            f"{pct} range {start} to more than {largest_k}: at least {tail} of the bootstrap "
            "replicates lie above the curve"
        )
    if lo == 0 and hi == 0:
        return f"{pct} range 0–0: at least {top} of the bootstrap replicates are at or below c_0"
    if lo == 0:
        return (
            f"{pct} range 0–{_num(hi)}, the low end 0 because at least {tail} of the bootstrap "
            "replicates are at or below c_0"
        )
    return f"{pct} range {_num(lo or 0.0)}–{_num(hi)}"


def _mean(m: ModelEquivalence, bootstrap: int) -> str | None:
    if m.equivalence_mean is not None and math.isfinite(m.equivalence_mean):
        return f"bootstrap mean {_num(m.equivalence_mean)}"
    lo, hi = m.equivalence_range
    if bootstrap > 0 and hi is None and lo is not None:
        return "no bootstrap mean: some replicates lie above the curve"
    return None


def width_phrase(
    m: ModelEquivalence,
    target_width: float | None,
    items_needed: int | None,
    n_items: int | None = None,
    level: float = 0.95,
) -> str | None:
    """What a target width asks, in words: about N items (``items_needed``, from
    :meth:`~humanly.survey.EquivalenceResult.items_needed`) would narrow the range to W raters, or
    the range is already narrower, or no number can be read off (an open range)."""
    if target_width is None:
        return None
    w = f"{target_width:g} rater" + ("" if target_width == 1 else "s")
    lo, hi = m.equivalence_range
    pct = percent(level)
    if lo is None and hi is None:
        return None
    if hi is None or lo is None:
        return f"no item count for a range of {w} can be read off a range with no upper end"
    if hi - lo <= target_width:
        return f"its {pct} range ({_num(hi - lo)} wide) is already narrower than {w}"
    if items_needed is None:
        return None
    now = "" if n_items is None else f"now {_num(hi - lo)} wide on {n_items:,} items; "
    return (
        f"about {items_needed:,} items would narrow the {pct} range to {w} "
        f"({now}1/√N approximation)"
    )


def worth(
    m: ModelEquivalence,
    combiner: str,
    scorer: str,
    *,
    c0: float | None = None,
    largest_k: int | None = None,
    bootstrap: int = 1,
    level: float = 0.95,
    calibration: str = "none",
    target_width: float | None = None,
    items_needed: int | None = None,
) -> str:
    """The verdict sentence of one model (see the module docstring)."""
    how = f"with {combiner_phrase(combiner)} and {scorer_phrase(scorer)}, on {m.n_items:,} items"
    calibration = m.calibration if m.calibration != "none" else calibration
    below = m.equivalence is None and m.equivalence_note == "below_0"
    if m.uncalibrated:  # below 0, the first sentence says it in words (the clause stays short)
        how += " (not calibrated)" if below else f" ({UNCALIBRATED})"
    elif calibration not in ("", "none"):
        how += f" (model calibrated: {calibration})"
    kmax = "the largest k raters" if largest_k is None else _raters(largest_k)
    rng = equivalence_range(m, largest_k if largest_k is not None else 0, bootstrap, level)
    mean = _mean(m, bootstrap)
    if m.equivalence is not None:
        extra = "; ".join(x for x in (rng, mean) if x)
        head = f"{m.model} is worth {_num(m.equivalence)} raters" + (f" ({extra})" if extra else "")
        body = f"{head} {how}"
    elif m.equivalence_note == "below_0":
        base = "c_0" if c0 is None else f"c_0 = {c0:.4f}"
        zero = m.equivalence_range.low == 0 == m.equivalence_range.high
        but = f", but {UNCALIBRATED_FIRST}" if m.uncalibrated else ""
        body = (
            f"{m.model} does no better than {baseline_meaning(combiner)}, so no number of raters "
            f"matches it{but}. It is worth less than 0 raters {how}: its score ({m.score:.4f}) is "
            f"at or below {base}, the score of {baseline_meaning(combiner)}, so it does no better than that "
            "baseline"
        ) + (f" ({rng})" if rng and not zero else "")
    elif m.equivalence_note == "above_max":
        body = (
            f"{m.model} is worth more than {kmax}, the largest survey measured, {how}: its "
            f"score ({m.score:.4f}) is above every point of the power curve"
        ) + (f" ({rng})" if rng else "")
    else:
        body = f"{m.model}: no survey equivalence could be read off the power curve {how}"
    width = (
        width_phrase(m, target_width, items_needed, m.n_items, level)
        if m.equivalence is not None
        else None
    )
    return body + (f"; {width}" if width else "") + "."


def _status(m: ModelEquivalence) -> str:
    if m.equivalence is not None:
        return "equivalent"
    return {"below_0": "below 0", "above_max": "above max"}.get(
        m.equivalence_note or "", "undefined"
    )


def _truth_clause(name: str, truth: TruthEquivalence | None) -> str | None:
    if truth is None:
        return None
    try:
        t = truth.model(name)
    except KeyError:
        return None
    largest = truth.power_curve[-1].k if truth.power_curve else 0
    if t.equivalence is not None:
        seq = f"{_num(t.equivalence)} raters"
    elif t.equivalence_note == "below_0":
        seq = "less than 0 raters"
    elif t.equivalence_note == "above_max":
        seq = f"more than {_raters(largest)}"
    else:
        return None
    return f"Scored against the true item states it is worth {seq} (SEQ*; HSCORE* {t.score:.4f})."


def verdicts(
    result: EquivalenceResult,
    *,
    truth: TruthEquivalence | None = None,
    target_width: float | None = None,
    items_needed: Sequence[int | None] | None = None,
) -> tuple[Verdict, ...]:
    """One sentence per model of ``result``; with ``truth`` (a simulation's states), a second sentence
    with its equivalence against the true states (SEQ*); with ``target_width`` and the
    ``items_needed`` read off the result for it (one per model), the items a narrower range needs.

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import equivalence
    >>> d = running_example(300, 6, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=100)
    >>> [v.status for v in verdicts(res)]
    ['equivalent', 'equivalent']
    """
    pts = result.power_curve
    c0 = pts[0].score if pts else None
    largest = pts[-1].k if pts else None
    needed = tuple(items_needed) if items_needed is not None else (None,) * len(result.models)
    out = []
    for m, n in zip(result.models, needed, strict=True):
        sentence = worth(
            m,
            result.combiner,
            result.scorer,
            c0=c0,
            largest_k=largest,
            bootstrap=result.bootstrap,
            level=result.level,
            calibration=m.calibration,
            target_width=target_width,
            items_needed=n,
        )
        extra = _truth_clause(m.model, truth)
        out.append(
            Verdict(
                "equivalence",
                sentence + (f" {extra}" if extra else ""),
                model=m.model,
                status=_status(m),
                methods=METHODS_ID,
            )
        )
    return tuple(out)
