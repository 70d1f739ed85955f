"""Verdicts of the ratings at a glance (:func:`humanly.inspect`): one or two sentences about the crowd that a
reader can quote — its size, how often two raters of an item agree (with the bootstrap interval) and,
with named raters, how far the raters' quality spreads.

The wording helpers used by ``humanly inspect`` and the report's data section live here too, so the
sentences, the terminal table and the page say the same thing in the same words (an undefined statistic
is "—" with its reason, never ``nan``). Like every verdict module, this imports no numpy, pandas,
matplotlib or jinja2.

>>> import humanly
>>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]], classes=["no", "yes"])
>>> [v.sentence for v in verdicts(humanly.inspect(r, bootstrap=0))]
["4 items with 3.0 labels each on average (12 labels from anonymous raters); two raters of an item \
agree 66.7% of the time, Fleiss' κ 0.33."]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import Verdict
from .notes import note_text

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..crowd.agreement import AgreementIntervals
    from ..crowd.inspect import InspectResult
    from ..crowd.raters import RaterRow, RaterSummary, Spread

__all__ = [
    "METHODS_ID",
    "RATERS_SHOWN",
    "bootstrap_caption",
    "dawid_skene_text",
    "headline",
    "interval_text",
    "level_text",
    "rater_spreads",
    "shown_raters",
    "spread_text",
    "undefined_reason",
    "verdicts",
]

#: the Methods paragraph the data verdicts rest on (the report's anchor)
METHODS_ID = "methods-inspect"
#: the raters tables list every rater up to twice this many, else the top and bottom this many
RATERS_SHOWN = 10


def _defined(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def level_text(level: float) -> str:
    """A confidence level as a percentage: ``0.95`` → ``"95%"``, ``0.975`` → ``"97.5%"``."""
    return f"{round(level * 100, 6):g}%"


def undefined_reason(s: InspectResult) -> str:
    """Why κ and α (or all three agreement statistics) are undefined for ``s``: no item has two labels,
    or every label (of the items with two or more) is the same class."""
    if s.agreement.n_items == 0:
        return "no item has two labels"
    if sum(1 for v in s.class_frequencies.values() if v > 0) > 1:
        return "every label of the items with ≥ 2 labels is the same class"
    return "every label is the same class"


def interval_text(interval: Interval, digits: int = 3) -> str:
    """``[low, high]`` with ``digits`` decimals; an end no resample defines is "—"."""
    ends = ("—" if not _defined(x) else f"{x:.{digits}f}" for x in interval)
    return "[{}, {}]".format(*ends)


def bootstrap_caption(ci: AgreementIntervals) -> str:
    """What the bracketed intervals are: level, resamples, seed, and what is not resampled."""
    return (
        f"[…]: {level_text(ci.level)} percentile bootstrap interval over items "
        f"({ci.bootstrap:,} resamples, seed {ci.seed}); raters are not resampled"
    )


def spread_text(sp: Spread, digits: int = 2) -> str:
    """``median 0.72 · middle half 0.62–0.80 · range 0.31–0.95 (164 raters)``."""
    f = f".{digits}f"
    return (
        f"median {sp.median:{f}} · middle half {sp.q1:{f}}–{sp.q3:{f}} · "
        f"range {sp.min:{f}}–{sp.max:{f}} ({sp.n:,} rater{'s' * (sp.n != 1)})"
    )


def rater_spreads(raters: RaterSummary) -> dict[str, Spread | None]:
    """The spreads the raters table holds, by the column they describe (``agreement``,
    ``dawid_skene_accuracy``, ``gold_accuracy``; each ``None`` when no rater has it)."""
    return {
        "agreement": raters.agreement_spread,
        "dawid_skene_accuracy": raters.dawid_skene_spread,
        "gold_accuracy": raters.gold_spread,
    }


def shown_raters(raters: RaterSummary) -> tuple[list[RaterRow], int]:
    """The raters sorted by labels given (most first; ties in the ratings' order): all of them when
    there are at most ``2 × RATERS_SHOWN``, else the top and bottom ``RATERS_SHOWN``, with how many
    are left out between them."""
    rows = sorted(raters.rows, key=lambda r: -r.n_labels)
    if len(rows) <= 2 * RATERS_SHOWN:
        return rows, 0
    return rows[:RATERS_SHOWN] + rows[-RATERS_SHOWN:], len(rows) - 2 * RATERS_SHOWN


def dawid_skene_text(raters: RaterSummary) -> str:
    """Whether the Dawid–Skene fit converged, and in how many M steps ("not fitted" without one)."""
    fit = raters.dawid_skene
    if fit is None:
        return "not fitted"
    if fit.converged:
        text = f"converged in {fit.iterations:,} steps"
    else:
        text = (
            f"did not converge in {fit.iterations:,} steps (limit {fit.max_iter:,}): no accuracies"
        )
    if fit.accuracy_shift > 0.05:  # the starts reached materially different optima
        text += f"; starts disagree (accuracies move by up to {fit.accuracy_shift:.2f})"
    return text


def _agreement_sentence(s: InspectResult) -> str:
    """Size, pairwise agreement with its interval, and Fleiss' κ with its interval."""
    who = "anonymous raters" if s.n_raters is None else f"{s.n_raters:,} raters"
    size = (
        f"{s.n_items:,} items with {s.labels_per_item.mean:.1f} labels each on average "
        f"({s.n_labels:,} labels from {who})"
    )
    a, ci = s.agreement, s.agreement_intervals
    if not _defined(a.pairwise):
        return f"{size}; {undefined_reason(s)}, so agreement is undefined."
    text = f"{size}; two raters of an item agree {a.pairwise:.1%} of the time"
    if ci is not None and _defined(ci.pairwise.low) and _defined(ci.pairwise.high):
        low, high = (100 * float(x or 0.0) for x in ci.pairwise)
        text += f" ({level_text(ci.level)} interval {low:.1f}–{high:.1f}%)"
    if not _defined(a.fleiss_kappa):
        return text + f"; Fleiss' κ is undefined ({undefined_reason(s)})."
    text += f", Fleiss' κ {a.fleiss_kappa:.2f}"
    if ci is not None and (_defined(ci.fleiss_kappa.low) or _defined(ci.fleiss_kappa.high)):
        text += " " + interval_text(ci.fleiss_kappa, digits=2)
    return text + "."


def _raters_sentence(raters: RaterSummary) -> str | None:
    """How far the raters' agreement with the others (and their Dawid–Skene accuracy) spreads."""
    spreads = rater_spreads(raters)
    agree = spreads["agreement"]
    if agree is None:
        return "No rater's label can be compared with another label of the same item."
    text = (
        f"Across the {agree.n:,} raters with a compared label, agreement with the other labels' "
        f"plurality has median {agree.median:.2f} (middle half {agree.q1:.2f}–{agree.q3:.2f}, "
        f"range {agree.min:.2f}–{agree.max:.2f}"
    )
    if raters.crowd_agreement is not None:
        text += f"; the crowd's mean over labels is {raters.crowd_agreement:.2f}"
    text += ")"
    ds, fit = spreads["dawid_skene_accuracy"], raters.dawid_skene
    if ds is not None:
        text += (
            f"; Dawid–Skene accuracy has median {ds.median:.2f} "
            f"(middle half {ds.q1:.2f}–{ds.q3:.2f})"
        )
    elif fit is not None and not fit.converged:
        text += (
            f"; Dawid–Skene did not converge in {fit.iterations:,} steps, so it gives no accuracies"
        )
    text += "."
    if (
        fit is not None
    ):  # the fit's own sentences: disagreeing starts (non-convergence is said above)
        said = [note_text(n) for n in fit.notes if n.code != "ds_not_converged"]
        text += "".join(f" {n}" for n in said)
    return text


def verdicts(summary: InspectResult) -> tuple[Verdict, ...]:
    """Study-level sentences about the crowd: its size and agreement (with the bootstrap interval when
    there is one) and, with named raters, the spread of the raters' quality."""
    out = [Verdict("inspect", _agreement_sentence(summary), status="agreement", methods=METHODS_ID)]
    if summary.raters is not None:
        sentence = _raters_sentence(summary.raters)
        if sentence:
            out.append(Verdict("inspect", sentence, status="raters", methods=METHODS_ID))
    return tuple(out)


def headline(summary: InspectResult) -> str:
    """The ratings in one line for the terminal: sizes, raters and agreement with its interval.

    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [2, 1], [0, 3], [1, 2]], classes=["no", "yes"])
    >>> print(headline(humanly.inspect(r, bootstrap=0)))
    data: 4 items, 12 labels from anonymous raters; pairwise agreement 0.667, Fleiss' κ 0.333
    """
    s = summary
    a, ci = s.agreement, s.agreement_intervals
    raters = "anonymous raters" if s.n_raters is None else f"{s.n_raters:,} raters"
    text = f"data: {s.n_items:,} items, {s.n_labels:,} labels from {raters}"
    if _defined(a.pairwise):
        text += f"; pairwise agreement {a.pairwise:.3f}"
        low, high = ci.pairwise if ci is not None else (None, None)
        if low is not None and high is not None:
            text += f" [{low:.3f}, {high:.3f}]"
    if _defined(a.fleiss_kappa):
        text += f", Fleiss' κ {a.fleiss_kappa:.3f}"
    return text
