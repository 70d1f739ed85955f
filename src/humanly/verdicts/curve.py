"""The power curve's points to read with care, in words (issue 34, item 3): the ABC's fallback share
per k, the flags of a point (``PowerCurvePoint.flags``) and where the curve stops being informative
(``informative_max_k``). The command line's curve table, the report's curve table and its figure
quote these words.

* ``"fallback"`` — more than half of the draws at k used the ABC's fallback rule (y + 1)/(k + C): no
  other item holds the sequence of labels, so the prediction rests on no other item;
* ``"not_informative"`` — past ``informative_max_k`` the estimated curve has fallen below an earlier
  point, although the ABC scored by cross-entropy rises with k when it learns from enough items
  (Corollary 2): the fall is the estimate's, not the raters';
* ``"outside_range"`` — the estimate lies outside its own bootstrap interval: at large k a bootstrap
  replicate's copies of an item hold that item's own label sequences, so the replicates' curves lie
  above the data's.

>>> flag_cell(("fallback", "not_informative")), share_cell(0.7712), share_cell(None)
('fallback, not informative', '77%', '—')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..survey import PowerCurvePoint

__all__ = ["FLAG_WORDS", "curve_notes", "flag_cell", "flagged", "share_cell"]

#: A point's flag, as a table cell says it.
FLAG_WORDS = {
    "outside_range": "outside its interval",
    "fallback": "fallback",
    "not_informative": "not informative",
}


def flag_cell(flags: Sequence[str]) -> str:
    """A point's flags as a cell ("" for none)."""
    return ", ".join(FLAG_WORDS.get(f, f) for f in flags)


def share_cell(share: float | None) -> str:
    """A fallback share as a cell: ``"77%"``, ``"< 1%"`` for a share above 0 that rounds to 0, "—"
    where it was not computed."""
    if share is None:
        return "—"
    if 0 < share < 0.005:
        return "< 1%"
    return f"{100 * share:.0f}%"


def flagged(points: Sequence[PowerCurvePoint], flag: str) -> list[int]:
    """The k of the points carrying ``flag``."""
    return [p.k for p in points if flag in p.flags]


def _ks(ks: Sequence[int]) -> str:
    """k = 82 and 99; k = 41–99 (a run of consecutive sizes as a range)."""
    runs: list[list[int]] = []
    for k in ks:
        if runs and k == runs[-1][-1] + 1:
            runs[-1].append(k)
        else:
            runs.append([k])
    parts = [f"{r[0]}" if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs]
    listed = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    return f"k = {listed}"


def curve_notes(
    points: Sequence[PowerCurvePoint],
    informative_max_k: int | None,
    level: float = 0.95,
) -> tuple[str, ...]:
    """What the flags and the fallback shares of a curve mean, one sentence per kind present (none
    for a curve without them).

    Parameters
    ----------
    points : sequence of PowerCurvePoint
        The curve.
    informative_max_k : int or None
        The result's ``informative_max_k``.
    level : float
        The level of the bootstrap intervals.

    Returns
    -------
    tuple of str
        The sentences.

    Examples
    --------
    >>> from humanly._core.result import Interval
    >>> from humanly.survey import PowerCurvePoint
    >>> none = Interval(None, None)
    >>> pts = [PowerCurvePoint(k, -1.0 + 0.1 * k, none, 10, fallback_share=0.0) for k in range(3)]
    >>> pts.append(PowerCurvePoint(3, -1.5, none, 10, fallback_share=0.6,
    ...                            flags=("fallback", "not_informative")))
    >>> for line in curve_notes(pts, 2):
    ...     print(line)  # doctest: +NORMALIZE_WHITESPACE
    fallback: the share of the ABC's draws at k whose prediction used its fallback rule (y + 1)/(k +
    C), no other item holding the labels drawn; a point is flagged "fallback" when that is more than
    half (k = 3; 60% at k = 3).
    not informative: past k = 2 the estimated curve falls below an earlier point, although the ABC
    scored by cross-entropy rises with k when it learns from enough items (Corollary 2); the points
    past it (k = 3) are kept and equivalences are still read off the whole curve, but the fall is the
    estimate's, not the raters'.
    """
    out = []
    shares = [(p.k, p.fallback_share) for p in points if p.fallback_share is not None]
    fallback = flagged(points, "fallback")
    if fallback or any(s > 0 for _, s in shares):
        top_k, top = max(shares, key=lambda x: (x[1], x[0]))
        where = f"{_ks(fallback)}; " if fallback else "none; "
        out.append(
            "fallback: the share of the ABC's draws at k whose prediction used its fallback rule "
            "(y + 1)/(k + C), no other item holding the labels drawn; a point is flagged "
            f'"fallback" when that is more than half ({where}{share_cell(top)} at k = {top_k}).'
        )
    later = flagged(points, "not_informative")
    if informative_max_k is not None and later:
        out.append(
            f"not informative: past k = {informative_max_k} the estimated curve falls below an "
            "earlier point, although the ABC scored by cross-entropy rises with k when it learns "
            f"from enough items (Corollary 2); the points past it ({_ks(later)}) are kept and "
            "equivalences are still read off the whole curve, but the fall is the estimate's, not "
            "the raters'."
        )
    outside = flagged(points, "outside_range")
    if outside:
        pct = f"{round(100 * level, 6):g}%"
        out.append(
            f"outside its interval: at {_ks(outside)} the estimate lies outside its own {pct} "
            "bootstrap interval; at large k a bootstrap replicate's copies of an item hold that "
            "item's own label sequences, so the replicates' curves lie above the data's."
        )
    return tuple(out)
