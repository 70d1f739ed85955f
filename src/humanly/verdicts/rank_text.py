"""The words and tables of a ranking that every view shares: the text of a rank-set, of a list of
names, of a rank in words, the family the sentences rank by, and the compact tables the command line
and the notebook view show (:func:`ranking_table`, :func:`judges_table`). Imports no numpy, pandas,
matplotlib or jinja2.

>>> rank_set_text(None), ordinal(2), names_text(["a", "b", "c"])
('—', 'second', 'a, b and c')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .text import DASH

if TYPE_CHECKING:
    from ..ranking import Estimates, Ranking, RankResult, RankSet

__all__ = [
    "ESTIMATOR_NAMES",
    "FAMILY_NAMES",
    "judges_table",
    "lead_family",
    "level_words",
    "names_text",
    "ordinal",
    "rank_set_text",
    "ranking_table",
]

#: How each family and estimator is named in a sentence.
FAMILY_NAMES = {"win_rate": "win rates", "strength": "Bradley–Terry strengths"}
ESTIMATOR_NAMES = {"ppi++": "PPI++", "ppi": "PPI", "classical": "human votes only"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth")
#: the most names a sentence lists before "and n others"
_NAMES = 4


def level_words(level: float) -> str:
    """A level as a percentage: ``0.95`` → ``95%``."""
    return f"{round(level * 100, 6):g}%"


def ordinal(k: int) -> str:
    """A rank in words: ``first`` … ``ninth``, then ``10th``, ``11th``, ``21st`` …

    >>> ordinal(1), ordinal(11), ordinal(22)
    ('first', '11th', '22nd')
    """
    if 1 <= k <= len(_ORDINALS):
        return _ORDINALS[k - 1]
    suffix = "th" if 10 <= k % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{suffix}"


def rank_set_text(rs: RankSet | None) -> str:
    """A rank-set as the page writes it: ``{1}`` for one rank, ``2–5`` for several, "—" for none.

    >>> from humanly.ranking import RankSet
    >>> rank_set_text(RankSet(1, 1)), rank_set_text(RankSet(2, 5))
    ('{1}', '2–5')
    """
    if rs is None:
        return DASH
    return f"{{{rs.low}}}" if rs.low == rs.high else f"{rs.low}–{rs.high}"


def names_text(names: Sequence[str], limit: int = _NAMES) -> str:
    """Names joined for a sentence, at most ``limit`` of them before "and n others".

    >>> names_text(["a"]), names_text(["a", "b"]), names_text(list("abcdef"))
    ('a', 'a and b', 'a, b, c, d and 2 others')
    """
    names = list(names)
    if len(names) > limit:
        rest = len(names) - limit
        return ", ".join(names[:limit]) + f" and {rest:,} other{'s' if rest != 1 else ''}"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def lead_family(ranking: Ranking) -> Estimates:
    """The family the sentences rank by: the Bradley–Terry strengths when every model that has an
    estimate has one (status ``ok``), the win rates otherwise (they need no connected graph)."""
    return ranking.strength if ranking.strength.status == "ok" else ranking.win_rate


def _num(x: float | None, spec: str) -> str:
    return DASH if x is None else format(x, spec)


def _interval_text(i: Any, spec: str) -> str:
    return f"[{_num(i.low, spec)}, {_num(i.high, spec)}]"


def ranking_table(
    r: RankResult, kind: str | None = None
) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """The compact table of one family of the ranking with every judge, best first: each model's
    estimate (and Elo for strengths), its interval, its rank-set, the human votes' rank-set beside
    it and the human votes on its comparisons — headers and rows of text. ``kind`` is
    ``"win_rate"`` or ``"strength"`` (default: the family the sentences rank by)."""
    best = r.best
    fam = getattr(best, kind) if kind else lead_family(best)
    hum = {row.model: row for row in getattr(r.human, fam.kind).rows}
    rows_of = {row.model: row for row in fam.rows}
    order = list(fam.order) + [m for m in r.models if m not in set(fam.order)]
    strength = fam.kind == "strength"
    spec = ".2f" if strength else ".3f"
    headers = (
        "model",
        "strength" if strength else "win rate",
        *(("Elo",) if strength else ()),
        f"{level_words(r.level)} interval",
        "rank-set",
        "human only" if best.judges else "rank",
        "votes",
    )
    rows = []
    for m in order:
        row = rows_of[m]
        rows.append(
            (
                m,
                _num(row.estimate, spec),
                *((_num(row.elo, ",.0f"),) if strength else ()),
                _interval_text(row.interval, spec),
                rank_set_text(row.rank_set),
                rank_set_text(hum[m].rank_set) if best.judges else _num(row.rank, "d"),
                f"{row.votes:,}",
            )
        )
    return headers, rows


def judges_table(r: RankResult) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """What each judge is worth, one row per judge: agreement (with ties; ``decisive``: where both
    named a winner), Cohen's κ, position bias, and the human votes the estimates with it alone are
    worth (effective votes): headers and rows of text."""
    headers: tuple[str, ...] = (
        "judge",
        "agreement",
        "decisive",
        "κ",
        "position",
        "worth (win rates)",
        "worth (strengths)",
    )
    rows: list[tuple[str, ...]] = []
    for j in r.judge_worth:
        a, p = j.agreement, j.position
        rows.append(
            (
                j.judge,
                f"{a.rate:.3f}",
                _num(a.decisive_rate, ".3f"),
                _num(a.kappa, ".2f"),
                p.status.replace("_", " "),
                _num(j.effective_votes_win_rate, ",.0f"),
                _num(j.effective_votes_strength, ",.0f"),
            )
        )
    return headers, rows
