"""Target panels in words (the revision of Survey Equivalence, arXiv:2106.01254 v2): what each target
is, what a model is worth against each, where its verdict flips between targets, and the exact
scenario mode (:class:`~humanly.survey.ScenarioResult`).

A target panel is the t raters whose plurality the model and the panels of k raters are scored
against: t = 1 is the paper's setting, t = ∞ the true class. On data a finite t is the plurality of t
held-out raters of each item (items with fewer labels are not scored against it: the sentence says
how many are), and t = ∞ is each item's posterior under a latent-class model fitted to the ratings —
every number of it rests on that model, and the sentence says so.

* :func:`target_label` — ``"t = 3"``, ``"t = ∞"`` (never the bare ``inf``, which a page reads as a
  number);
* :func:`target_words` — what one target of a result is, with its items and, for t = ∞, the model;
* :func:`targets_sentence` — a model's equivalence against every target, in one sentence;
* :func:`flip_sentence` — where a model's place against k raters flips between targets;
* :func:`scenario_verdicts` (also :func:`verdicts`) — the scenario mode's sentences.

>>> from humanly.survey import scenario_equivalence
>>> print(flip_sentence(scenario_equivalence().flips))  # doctest: +NORMALIZE_WHITESPACE
The classifier's verdict flips with the target panel: against 1–2 raters it is behind under t = 1,
ahead under t = 3 and behind under t = ∞ (bigger panels are not always better).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import Verdict

if TYPE_CHECKING:
    from ..survey import (
        EquivalenceResult,
        ModelEquivalence,
        ScenarioResult,
        ScenarioTarget,
        TargetEquivalence,
    )
    from ..survey.target_results import TargetFlips

__all__ = [
    "SIGN_WORDS",
    "flip_sentence",
    "scenario_lines",
    "scenario_verdicts",
    "target_label",
    "target_words",
    "targets_sentence",
    "verdicts",
]

#: A model's place against k raters (``PanelOrder.sign``), in words.
SIGN_WORDS = {1: "ahead", -1: "behind", 0: "level"}
#: The Methods paragraph the sentences rest on.
METHODS_ID = "methods-equivalence"
#: How many groups of panel sizes a flip sentence names before it counts the rest.
_SHOWN_GROUPS = 3


def target_label(t: int | str) -> str:
    """``"t = 3"``; ``"t = ∞"`` for the true class.

    >>> target_label(1), target_label("inf")
    ('t = 1', 't = ∞')
    """
    return f"t = {'∞' if t == 'inf' else t}"


def _raters(k: float | int) -> str:
    return f"{k} rater" + ("" if k == 1 else "s")


def _latent_words(entry: TargetEquivalence) -> str:
    fit = entry.latent
    if fit is None:
        return "a latent-class model"
    how = (
        f"Dawid–Skene over {fit.n_raters:,} named raters"
        if fit.fit == "dawid_skene" and fit.n_raters is not None
        else "one confusion matrix shared by every label, the raters being anonymous"
    )
    state = "" if fit.converged else "; the fit did not converge"
    return f"a latent-class model fitted to the ratings ({how}{state})"


def target_words(entry: TargetEquivalence, n_items: int) -> str:
    """What one target of a result is, with the items scored against it (``n_items``: the items of
    the analysis).

    >>> from humanly.survey import TargetEquivalence
    >>> entry = TargetEquivalence(3, 940, (), (), ("held_out_raters", "items_without_target"))
    >>> print(target_words(entry, 1000))  # doctest: +NORMALIZE_WHITESPACE
    t = 3: the plurality of 3 held-out raters of each item; 940 of 1,000 items have 3 or more labels
    and are scored against it
    """
    t = entry.target
    if t == "inf":
        return (
            f"{target_label(t)}: each item's true class, estimated as its posterior under "
            f"{_latent_words(entry)}; every number against it rests on that model "
            f"({entry.n_items:,} items)"
        )
    who = "one held-out rater" if t == 1 else f"the plurality of {t} held-out raters"
    if "items_without_target" in entry.codes:
        scored = (
            f"; {entry.n_items:,} of {n_items:,} items have {t} or more labels and are scored "
            "against it"
        )
    else:
        scored = f" ({entry.n_items:,} items)"
    return f"{target_label(t)}: {who} of each item{scored}"


def _worth(m: ModelEquivalence, largest_k: int) -> str:
    if m.equivalence is not None:
        lo, hi = m.equivalence_interval
        if lo is None and hi is None:
            return f"{m.equivalence:.2f} raters"
        top = f"more than {largest_k}" if hi is None else f"{hi:.2f}"
        return f"{m.equivalence:.2f} raters (interval {0.0 if lo is None else lo:.2f}–{top})"
    if m.equivalence_note == "below_0":
        return "less than 0 raters"
    if m.equivalence_note == "above_max":
        return f"more than {_raters(largest_k)}"
    return "an undefined number of raters"


def targets_sentence(result: EquivalenceResult, model: str) -> str | None:
    """What ``model`` is worth against every target panel of ``result``, in one sentence, with the
    flip sentence when its verdict flips (``None`` for a result without targets).

    >>> from humanly.simulate import running_example
    >>> from humanly.survey import EquivalenceOptions, equivalence
    >>> d = running_example(300, 6, seed=1)
    >>> res = equivalence(d.ratings, d.predictions, bootstrap=0,
    ...                   options=EquivalenceOptions(targets=(1, 3)))
    >>> print(targets_sentence(res, "soft"))  # doctest: +NORMALIZE_WHITESPACE
    Against each target panel (the t raters whose plurality the model and the panels of k raters are
    scored against), soft is worth 1.52 raters against t = 1 and 1.52 raters against t = 3.
    """
    if not result.targets:
        return None
    parts = []
    for entry in result.targets:
        try:
            m = entry.model(model)
        except KeyError:
            continue
        largest = entry.power_curve[-1].k if entry.power_curve else 0
        parts.append(f"{_worth(m, largest)} against {target_label(entry.target)}")
    if not parts:
        return None
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    level = f"{round(100 * result.level, 6):g}%"
    intervals = (
        f" ({level} bootstrap intervals)" if result.bootstrap and "interval" in listed else ""
    )
    text = (
        "Against each target panel (the t raters whose plurality the model and the panels of k "
        f"raters are scored against), {model} is worth {listed}{intervals}."
    )
    if any(e.target == "inf" for e in result.targets):
        text += " Its number against t = ∞ rests on the latent-class model fitted to the ratings."
    flips = next((f for f in result.target_flips if f.model == model), None)
    said = flip_sentence(flips) if flips is not None else None
    return text + (f" {said}" if said else "")


def _groups(ks: Sequence[int]) -> list[str]:
    """Consecutive panel sizes as ranges: (1, 2, 4) → ["1–2", "4"]."""
    out: list[str] = []
    start = prev = None
    for k in ks:
        if prev is not None and k == prev + 1:
            prev = k
            continue
        if start is not None:
            out.append(f"{start}" if start == prev else f"{start}–{prev}")
        start = prev = k
    if start is not None:
        out.append(f"{start}" if start == prev else f"{start}–{prev}")
    return out


def flip_sentence(flips: TargetFlips, name: str | None = None) -> str | None:
    """Where a model's place against k raters flips between targets, in one sentence (``None``
    when it is the same under every target). ``name`` defaults to the model's (``"classifier"`` is
    said "The classifier").

    >>> from humanly.survey.target_results import target_flips
    >>> f = target_flips("m", (1, "inf"), [0.8, 0.8], [[0.5, 0.85, 0.9], [0.5, 0.7, 0.9]])
    >>> print(flip_sentence(f))  # doctest: +NORMALIZE_WHITESPACE
    m's verdict flips with the target panel: against 1 rater it is behind under t = 1 and ahead
    under t = ∞ (bigger panels are not always better).
    """
    flipped = [o for o in flips.orders if o.flips]
    if not flipped:
        return None
    who = name or ("The classifier" if flips.model == "classifier" else flips.model)
    by_sign: dict[tuple[int | None, ...], list[int]] = {}
    for o in flipped:
        by_sign.setdefault(o.sign, []).append(o.k)
    clauses = []
    for sign, ks in list(by_sign.items())[:_SHOWN_GROUPS]:
        places = [
            f"{SIGN_WORDS[s]} under {target_label(t)}"
            for s, t in zip(sign, flips.targets, strict=True)
            if s is not None
        ]
        said = places[0] if len(places) == 1 else f"{', '.join(places[:-1])} and {places[-1]}"
        groups = _groups(ks)
        last = groups[-1]
        raters = "rater" if len(ks) == 1 and ks[0] == 1 else "raters"
        sizes = groups[0] if len(groups) == 1 else f"{', '.join(groups[:-1])} and {last}"
        clauses.append(f"against {sizes} {raters} it is {said}")
    rest = len(by_sign) - _SHOWN_GROUPS
    more = f"; and at {rest} more groups of panel sizes" if rest > 0 else ""
    return (
        f"{who}'s verdict flips with the target panel: {'; '.join(clauses)}{more} (bigger panels "
        "are not always better)."
    )


# ----------------------------------------------------------------------------- scenario mode
_SCORERS = {
    "cross_entropy": "cross-entropy of calibrated predictions (bits)",
    "agreement": "agreement",
    "precision": "precision",
    "recall": "recall",
    "f1": "F1",
}
_COMBINERS = {
    "majority": "majority-vote panels",
    "plurality": "plurality panels",
    "abc": "panels combined by the Anonymous Bayesian Combiner's population limit",
}


def _scenario_setting(res: ScenarioResult) -> str:
    if len(res.classes) == 2:
        return (
            f"two classes, P(+) = {res.prior[1]:g}; a rater says + with probability "
            f"{res.rater[1][1]:g} when the truth is + and {res.rater[0][1]:g} when it is −, the "
            f"classifier {res.classifier[1][1]:g} and {res.classifier[0][1]:g}"
        )
    return f"{len(res.classes)} classes with the given prior and confusion matrices"


def _scenario_worth(t: ScenarioTarget, largest_k: int) -> str:
    if t.equivalence is not None:
        return f"{t.equivalence:.2f} raters"
    if t.equivalence_note == "below_0":
        return "less than 0 raters"
    return f"more than {_raters(largest_k)}"


def scenario_lines(res: ScenarioResult) -> tuple[str, ...]:
    """What each target of a scenario is, in one line.

    >>> from humanly.survey import scenario_equivalence
    >>> scenario_lines(scenario_equivalence())
    ('targets: t = 1 one other rater; t = 3 the majority of 3 other raters; t = ∞ the true class',)
    """
    vote = "majority" if len(res.classes) == 2 else "plurality"
    parts = []
    for t in res.targets:
        if t.target == "inf":
            what = "the true class"
        elif t.target == 1:
            what = "one other rater"
        else:
            what = f"the {vote} of {t.target} other raters"
        parts.append(f"{target_label(t.target)} {what}")
    return ("targets: " + "; ".join(parts),)


def scenario_verdicts(res: ScenarioResult) -> tuple[Verdict, ...]:
    """The scenario mode's verdict: the classifier's rater equivalence against every target, and
    where its verdict flips.

    >>> from humanly.survey import scenario_equivalence
    >>> print(scenario_verdicts(scenario_equivalence())[0].sentence)  # doctest: +NORMALIZE_WHITESPACE
    In the population of this scenario (two classes, P(+) = 0.5; a rater says + with probability 0.85
    when the truth is + and 0.07 when it is −, the classifier 0.96 and 0.2), scored by cross-entropy
    of calibrated predictions (bits) with majority-vote panels of up to 10 raters, the classifier is
    worth 1.00 raters against t = 1, 2.01 raters against t = 3 and 0.98 raters against t = ∞ (exact).
    The classifier's verdict flips with the target panel: against 1–2 raters it is behind under t =
    1, ahead under t = 3 and behind under t = ∞ (bigger panels are not always better).
    """
    parts = [
        f"{_scenario_worth(t, res.max_sources)} against {target_label(t.target)}"
        for t in res.targets
    ]
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    sentence = (
        f"In the population of this scenario ({_scenario_setting(res)}), scored by "
        f"{_SCORERS.get(res.scorer, res.scorer)} with "
        f"{_COMBINERS.get(res.combiner, res.combiner)} of up to {_raters(res.max_sources)}, the "
        f"classifier is worth {listed} (exact)."
    )
    flip = flip_sentence(res.flips)
    status = res.flips.status
    return (
        Verdict(
            "equivalence",
            sentence + (f" {flip}" if flip else ""),
            model="classifier",
            status=status,
            methods=METHODS_ID,
        ),
    )


def verdicts(result: Any) -> tuple[Verdict, ...]:
    """The sentences of a :class:`~humanly.survey.ScenarioResult` (none for other results)."""
    if type(result).__name__ == "ScenarioResult":
        return scenario_verdicts(result)
    return ()
