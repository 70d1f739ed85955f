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
m is worth 3.13 raters (95% interval 2.69–3.69; bootstrap mean 3.16) with the ABC combiner and
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
from .targets import targets_sentence

if TYPE_CHECKING:
    from ..study import EquivalenceRun, StudyResult
    from ..survey import EquivalenceResult, ModelEquivalence, TruthEquivalence

__all__ = [
    "METHODS_ID",
    "UNCALIBRATED",
    "UNCALIBRATED_FIRST",
    "baseline_meaning",
    "combiner_phrase",
    "equivalence_interval",
    "headline",
    "headroom_line",
    "percent",
    "scorer_phrase",
    "study_verdicts",
    "tails",
    "verdicts",
    "width_phrase",
    "worth",
    "worth_words",
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


def equivalence_interval(
    m: ModelEquivalence, largest_k: int, bootstrap: int = 1, level: float = 0.95
) -> str | None:
    """The ``level`` range of the equivalence in words (``None`` without a bootstrap), saying when an
    end is 0 (replicates at or below c_0) or open (replicates above the curve)."""
    lo, hi = m.equivalence_interval
    pct, (tail, top) = percent(level), tails(level)
    if lo is None and hi is None:
        if bootstrap > 0 and m.equivalence_note == "above_max":
            return f"at least {top} of the bootstrap replicates lie above the curve too"
        return None
    if hi is None:
        start = "0" if lo == 0 else _num(lo or 0.0)
        return (
            f"{pct} interval {start} to more than {largest_k}: at least {tail} of the bootstrap "
            "replicates lie above the curve"
        )
    if lo == 0 and hi == 0:
        return f"{pct} interval 0–0: at least {top} of the bootstrap replicates are at or below c_0"
    if lo == 0:
        return (
            f"{pct} interval 0–{_num(hi)}, the low end 0 because at least {tail} of the bootstrap "
            "replicates are at or below c_0"
        )
    return f"{pct} interval {_num(lo or 0.0)}–{_num(hi)}"


def _mean(m: ModelEquivalence, bootstrap: int) -> str | None:
    if m.equivalence_mean is not None and math.isfinite(m.equivalence_mean):
        return f"bootstrap mean {_num(m.equivalence_mean)}"
    lo, hi = m.equivalence_interval
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
    lo, hi = m.equivalence_interval
    pct = percent(level)
    if lo is None and hi is None:
        return None
    if hi is None or lo is None:
        return f"no item count for a range of {w} can be read off a range with no upper end"
    if hi - lo <= target_width:
        return f"its {pct} interval ({_num(hi - lo)} wide) is already narrower than {w}"
    if items_needed is None:
        return None
    now = "" if n_items is None else f"now {_num(hi - lo)} wide on {n_items:,} items; "
    return (
        f"about {items_needed:,} items would narrow the {pct} interval to {w} "
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
    rng = equivalence_interval(m, largest_k if largest_k is not None else 0, bootstrap, level)
    mean = _mean(m, bootstrap)
    if m.equivalence is not None:
        extra = "; ".join(x for x in (rng, mean) if x)
        head = f"{m.model} is worth {_num(m.equivalence)} raters" + (f" ({extra})" if extra else "")
        body = f"{head} {how}"
    elif m.equivalence_note == "below_0":
        base = "c_0" if c0 is None else f"c_0 = {c0:.4f}"
        zero = m.equivalence_interval.low == 0 == m.equivalence_interval.high
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
    with its equivalence against the true states (SEQ*); with target panels
    (``EquivalenceOptions(targets=...)``), what it is worth against each and where its verdict flips
    (:func:`~humanly.verdicts.targets.targets_sentence`); with ``target_width`` and the
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
        extra = " ".join(
            x for x in (_truth_clause(m.model, truth), targets_sentence(result, m.model)) if x
        )
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


def _run_width(run: EquivalenceRun, target_width: float | None) -> float | None:
    """The target width a run's verdicts speak of: the study's, when the run recorded items for it."""
    return target_width if run.items_needed is not None else None


def study_verdicts(study: StudyResult) -> tuple[Verdict, ...]:
    """One verdict per model of a study, from the analysis that shows it: the ABC scored by
    cross-entropy first; when the study holds hard models (labels) and soft ones (probabilities), a
    hard model's from majority vote or plurality scored by agreement (the paper's running example).

    Parameters
    ----------
    study : StudyResult
        The analysed study (its ``equivalence`` runs).

    Returns
    -------
    tuple of Verdict
        The verdicts, in the order the report shows them.

    Examples
    --------
    >>> from humanly import analyze, simulate
    >>> d = simulate.running_example(200, 5, seed=0)
    >>> [v.model for v in study_verdicts(analyze(d.ratings, d.predictions, bootstrap=0))]
    ['soft', 'hard']
    """
    kinds = dict(zip(study.models, study.model_kinds, strict=True))
    hard = {m for m, k in kinds.items() if k == "label"}
    paper = bool(hard) and any(k == "proba" for k in kinds.values())
    seen: set[str] = set()
    out = []
    for run in study.equivalence:
        if run.result is None:
            continue
        found = verdicts(
            run.result,
            truth=run.truth,
            target_width=_run_width(run, study.settings.target_width),
            items_needed=run.items_needed,
        )
        for v in found:
            if v.model in seen or v.model not in run.shown:
                continue
            if paper and run.result.combiner == "abc" and v.model in hard:
                continue
            seen.add(v.model or "")
            out.append(v)
    return tuple(out)


def worth_words(m: ModelEquivalence, largest_k: int) -> str:
    """What a model is worth, in a few words: "2.18 raters", "less than 0 raters (its score is at or
    below c_0)", "more than 9 raters (above the curve)".

    >>> from humanly._core.result import Interval
    >>> from humanly.survey import ModelEquivalence
    >>> m = ModelEquivalence("m", -0.8, Interval(None, None), 2.18, None, Interval(None, None), 10)
    >>> worth_words(m, 9)
    '2.18 raters'
    """
    if m.equivalence is not None:
        return f"{m.equivalence:.2f} raters"
    if m.equivalence_note == "below_0":
        return "less than 0 raters (its score is at or below c_0)"
    if m.equivalence_note == "above_max":
        return f"more than {largest_k} raters (above the curve)"
    return "an undefined number of raters"


def _headline_part(m: ModelEquivalence, largest: int) -> str | None:
    if m.equivalence is not None:
        lo, hi = m.equivalence_interval
        rng = ""
        if lo is not None or hi is not None:
            top = f"above {largest}" if hi is None else f"{hi:.1f}"
            rng = f" [{0 if lo is None else lo:.1f}, {top}]"
        return f"{m.model} worth {m.equivalence:.2f} raters{rng}"
    if m.equivalence_note == "below_0":
        return f"{m.model} worth less than 0 raters (score at or below c_0)"
    if m.equivalence_note == "above_max":
        return f"{m.model} worth more than {largest} raters (above the curve)"
    return None


def headline(runs: Sequence[EquivalenceRun]) -> str | None:
    """A study's survey equivalence in one line for the terminal: each model under the analysis the
    page shows it in (ABC + cross-entropy first); ``None`` when no analysis ran.

    >>> from humanly import analyze, simulate
    >>> d = simulate.running_example(200, 5, seed=0)
    >>> headline(analyze(d.ratings, d.predictions, bootstrap=0).equivalence).split(":")[0]
    'survey equivalence'
    """
    ran = sorted(
        (r for r in runs if r.result is not None), key=lambda r: r.key != "abc+cross_entropy"
    )
    if not ran:
        return None
    entries: list[tuple[str, str]] = []  # (analysis, text)
    seen: set[str] = set()
    for run in ran:
        res = run.result
        assert res is not None
        largest = res.power_curve[-1].k if res.power_curve else 0
        for m in res.models:
            if m.model in seen or m.model not in run.shown:
                continue
            part = _headline_part(m, largest)
            if part is not None:
                seen.add(m.model)
                entries.append((f"{res.combiner} + {res.scorer}", part))
    first = ran[0].result
    assert first is not None
    if len({how for how, _ in entries}) > 1:
        return "survey equivalence: " + "; ".join(f"{text} ({how})" for how, text in entries)
    how = entries[0][0] if entries else f"{first.combiner} + {first.scorer}"
    curve = first.power_curve
    top = f"curve {curve[0].score:.3f} → {curve[-1].score:.3f} at k = {curve[-1].k}"
    return f"survey equivalence ({how}): " + ("; ".join(t for _, t in entries) or top)


def headroom_line(res: EquivalenceResult) -> str | None:
    """What an ideal classifier would give (``headroom``), in one line: the information over c_0,
    the NPMLE's candidate states and whether it converged (``None`` without a headroom estimate).

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import EquivalenceOptions, equivalence
    >>> d = running_example(200, 6, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=0,
    ...                   options=EquivalenceOptions(headroom=True))
    >>> print(headroom_line(res).split(" gives")[0])
    headroom: an ideal classifier that knows each item's state
    """
    h = res.headroom
    if h is None:
        return None
    kind = h.candidates
    if kind.startswith("grid "):
        kind = f"a grid of the simplex, {kind[5:]} steps per edge"
    elif kind == "item frequencies":
        kind = "the items' own label frequencies, shrunk towards the pooled ones"
    if h.converged:
        fit = f"converged in {h.iterations} steps"
    else:
        gap = "" if h.gap is None else f", up to {h.gap:.2g} nats per item below the maximum"
        fit = f"did not converge in {h.iterations} steps{gap}"
    return (
        f"headroom: an ideal classifier that knows each item's state gives {h.information:.4f} "
        f"bits over c_0 (NPMLE of item states over {h.grid_points:,} candidate states, {kind}; "
        f"{fit})"
    )
