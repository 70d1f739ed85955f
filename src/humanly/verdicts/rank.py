"""Verdicts of the ranking from pairwise votes (:func:`humanly.rank`): the sentences a reviewer can
quote, written from the result's numbers and codes (docs/rank.md, *Reason codes*).

* the ranking: who ranks first, which models cannot be told apart, and what the judges were worth in
  human votes ("gpt-4 ranks first (rank-set {1}); claude-v1 and claude-instant-v1 cannot be told
  apart (ranks 2–3); with the judge, 1,000 human votes rank the models as precisely as 1,600 human
  votes alone would."), then the estimator, level and data it rests on;
* the first two models head to head (``first_better``, ``second_better``, ``unresolved``);
* one sentence per reason code of the study and of its models (``no_human_votes``, ``few_votes``,
  ``disconnected`` with the groups named, ``separated``, …);
* per judge: its agreement and worth, its position bias, the frontier check;
* the plan: the votes that separate the closest unresolved pair, the planning curve, which
  comparisons to send to human voters next, and one vote per comparison or several.

Every first sentence is plain (the papers' symbols come after it). :func:`selection_sentence` words
a :class:`~humanly.ranking.ComparisonSelection`; the words every view shares and the compact tables
(:func:`ranking_table`, :func:`judges_table`) are in :mod:`humanly.verdicts.rank_text`. Like every
verdict module, this reads results only and imports no numpy, pandas, matplotlib or jinja2.

>>> rank_set_text(None), ordinal(2), names_text(["a", "b", "c"])
('—', 'second', 'a, b and c')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from . import Verdict
from .rank_repeat import judge_repeat_sentences, repeat_sentence, repeat_simulation_sentence
from .rank_text import (
    ESTIMATOR_NAMES,
    FAMILY_NAMES,
    judges_table,
    lead_family,
    names_text,
    ordinal,
    rank_set_text,
    ranking_table,
)
from .rank_text import level_words as _level

if TYPE_CHECKING:
    from ..ranking import (
        ComparisonSelection,
        Estimates,
        Flag,
        JudgeWorth,
        Ranking,
        RankResult,
    )

__all__ = [
    "ESTIMATOR_NAMES",
    "FAMILY_NAMES",
    "METHODS",
    "flag_sentences",
    "headline",
    "judge_sentences",
    "judges_table",
    "lead_family",
    "lead_sentence",
    "names_text",
    "ordinal",
    "pair_sentence",
    "plan_sentences",
    "rank_set_text",
    "ranking_table",
    "repeat_sentence",
    "selection_sentence",
    "verdicts",
]

#: The Methods paragraph the sentences rest on.
METHODS = "methods-rank"
TOPIC = "rank"


def _judges_text(judges: Sequence[str]) -> str:
    if len(judges) == 1:
        return f"the judge {judges[0]}"
    return f"the judges {names_text(judges)}"


def _with_judges(judges: Sequence[str]) -> str:
    return {1: "the judge", 2: "both judges"}.get(len(judges), "the judges")


def _ranked(fam: Estimates) -> list[Any]:
    rows = {row.model: row for row in fam.rows}
    return [rows[m] for m in fam.order if rows[m].rank_set is not None]


def _blocks(rows: list[Any], start: int) -> tuple[list[str], int]:
    """Clauses for the runs of models after the first ``start`` whose rank-set is exactly their
    run's ranks (a run of one: a settled rank), up to three, and how many models they cover."""
    clauses: list[str] = []
    k = start
    while k < len(rows) and len(clauses) < 3:
        rs = rows[k].rank_set
        run = [r for r in rows[k:] if r.rank_set == rs]
        if rs.low != k + 1 or rs.size != len(run) or rows[k + len(run) - 1].rank_set != rs:
            break
        names = [r.model for r in run]
        if len(run) == 1:
            clauses.append(f"{names[0]} ranks {ordinal(rs.low)}")
        else:
            clauses.append(f"{names_text(names)} cannot be told apart (ranks {rank_set_text(rs)})")
        k += len(run)
    return clauses, k


def lead_sentence(r: RankResult) -> str:
    """Who ranks first, which models cannot be told apart, and what the judges were worth — then the
    estimator, the level and the votes it rests on."""
    rk = r.best
    fam = lead_family(rk)
    rows = _ranked(fam)
    if not rows:
        return (
            f"No model could be ranked from these {r.votes:,} human votes (see the reasons below)."
        )
    top = rows[0]
    first = [row.model for row in rows if row.rank_set.low == 1]
    if top.rank_set.high == 1:
        clauses = [f"{top.model} ranks first (rank-set {{1}})"]
        more, done = _blocks(rows, 1)
        clauses += more
    else:
        others = [m for m in first if m != top.model]
        may = f"; {names_text(others)} may also rank first" if others else ""
        clauses = [
            f"{top.model} ranks first on its estimate, but the votes place it only among ranks "
            f"1–{top.rank_set.high}{may}"
        ]
        done = 1 + len(others)
    rest = rows[done:]
    if rest and len(rows) > 2:
        mean = sum(row.rank_set.size for row in rest) / len(rest)
        who = "model's" if len(rest) == 1 else f"{len(rest):,} models'"
        clauses.append(f"the other {who} rank-sets hold {mean:.1f} ranks on average")
    if rk.judges and fam.saving is not None:
        clauses.append(
            f"with {_with_judges(rk.judges)}, {r.votes:,} human votes rank the models as precisely "
            f"as {fam.saving * r.votes:,.0f} human votes alone would"
        )
    return "; ".join(clauses) + ". " + _basis(r, rk, fam)


def _basis(r: RankResult, rk: Ranking, fam: Estimates) -> str:
    """The technical part: the family, the estimator (with λ), the level and the data."""
    how = ESTIMATOR_NAMES.get(rk.estimator, rk.estimator)
    if rk.judges:
        lam = ""
        if fam.kind == "strength" and rk.lam:
            lam = ", λ = " + ", ".join(f"{x:.2f}" for x in rk.lam)
        how = f"{how} with {_judges_text(rk.judges)}{lam}"
    unl = f" and {rk.unlabelled:,} judge-only comparisons" if rk.unlabelled else ""
    return (
        f"{_capital(FAMILY_NAMES[fam.kind])} ({how}), {_level(r.level)} rank-sets holding for "
        f"all {len(r.models):,} models at once, from {r.labelled:,} human-voted comparisons "
        f"({r.votes:,} votes){unl}."
    )


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pair(fam: Estimates, a: str, b: str) -> tuple[int, bool] | None:
    """The index of the pair {a, b} in the pairwise table, and whether it is stored as (a, b)."""
    t = fam.pairs
    for k, (x, y) in enumerate(zip(t.first, t.second, strict=True)):
        if (x, y) == (a, b):
            return k, True
        if (x, y) == (b, a):
            return k, False
    return None


def pair_sentence(fam: Estimates, a: str, b: str, level: float) -> str | None:
    """``a`` against ``b`` (``a`` ranked above ``b``): which is better, how sure, with the interval
    of the probability that ``a`` wins (strengths) or of the difference (win rates); ``None`` when
    the table has no such pair."""
    found = _pair(fam, a, b)
    if found is None:
        return None
    k, same = found
    t = fam.pairs
    status = t.status[k]
    if not same and status != "unresolved":
        status = "second_better" if status == "first_better" else "first_better"
    lev = _level(level)
    if (
        t.probability is not None
        and t.probability_low is not None
        and t.probability_high is not None
    ):
        p, lo, hi = (float(x[k]) for x in (t.probability, t.probability_low, t.probability_high))
        if not same:
            p, lo, hi = 1 - p, 1 - hi, 1 - lo
        odds = f"{a} would win {p:.0%} of their comparisons ({lev} interval {lo:.0%}–{hi:.0%})"
    else:
        d, lo, hi = float(t.difference[k]), float(t.low[k]), float(t.high[k])
        if not same:
            d, lo, hi = -d, -hi, -lo
        odds = (
            f"{a}'s win rate is {100 * d:.1f} points above {b}'s ({lev} interval "
            f"[{100 * lo:.1f}, {100 * hi:.1f}])"
        )
    if status == "first_better":
        return (
            f"{a} is better than {b}: {odds}, and the votes order them even with every pair "
            "judged at once."
        )
    if status == "second_better":
        return f"{b} is better than {a}, against the order of their estimates: {odds}."
    return (
        f"{a} and {b} cannot be told apart yet: {odds}, and with every pair judged at once the "
        "votes allow either order."
    )


def _has(n: int, one: str, many: str) -> str:
    return one if n == 1 else many


#: What ``missing="drop"`` dropped, per source.
_DROPPED = {
    "dropped_unjudged": "human-voted comparisons the judge {source} did not vote on were dropped "
    "from every source",
    "dropped_unknown": "votes of {source} on comparisons no source names were dropped",
}


def _flag_sentence(code: str, flags: list[Flag], r: RankResult) -> str:
    """The sentence of one reason code of the study (all its flags)."""
    models = [m for f in flags for m in f.models]
    n = len(models)
    lev = _level(r.level)
    if code in ("disconnected", "separated"):
        groups = "; ".join(names_text(f.models) for f in flags)
        main = names_text(flags[0].models)
        if code == "disconnected":
            return (
                f"The human votes leave {len(flags):,} groups of models never compared with one "
                f"another ({groups}): Bradley–Terry strengths cannot place them on one scale, so "
                f"they are fitted on the largest group ({main}) only; win rates need no connection."
            )
        return (
            f"The human votes do not link every model both ways ({groups}): a group that won, or "
            "lost, every comparison with the others has no finite Bradley–Terry strength, so "
            f"strengths are fitted on the largest group ({main}) only; win rates are unaffected."
        )
    if code == "no_human_votes":
        return (
            f"{names_text(models)} {_has(n, 'has', 'have')} no human vote: no estimate and no "
            "rank-set, because judges alone cannot give an unbiased one."
        )
    if code == "too_few_votes":
        return (
            f"{names_text(models)} {_has(n, 'has', 'have')} a single human-voted comparison: no "
            "standard error and no rank-set."
        )
    if code == "few_votes":
        return (
            f"{names_text(models)} {_has(n, 'has', 'have')} fewer than 30 human-voted comparisons: "
            f"{_has(n, 'its', 'their')} intervals may cover less often than {lev}."
        )
    if code == "few_comparisons":
        count = flags[0].count or r.labelled
        return (
            f"Only {count:,} human-voted comparisons in all (fewer than 100): every interval may "
            f"cover less often than {lev}."
        )
    if code == "strength_ties_dropped":
        return (
            "With ties counted as a loss for both models, the Bradley–Terry strengths leave ties "
            "out (their model cannot express a loss for both)."
        )
    if code in ("dropped_unjudged", "dropped_unknown"):
        what = _DROPPED[code]
        parts = [f"{f.count or 0:,} {what.format(source=f.source or 'a judge')}" for f in flags]
        return _capital("; ".join(parts) + ", as asked.")
    return f"Note about {names_text(models) if models else 'the study'}: {code.replace('_', ' ')}."


def _row_sentences(r: RankResult) -> list[str]:
    """Sentences of the codes that only models carry: every vote a tie, no judge-only comparison."""
    out = []
    tied = [row.model for row in r.human.win_rate.rows if "no_decisive_votes" in row.codes]
    if tied:
        n = len(tied)
        out.append(
            f"Every human vote on the comparisons of {names_text(tied)} is a tie, so with ties left "
            f"out {_has(n, 'it has', 'they have')} no win rate."
        )
    if r.best.judges:
        alone = [row.model for row in r.best.win_rate.rows if "no_unlabelled" in row.codes]
        if alone:
            n = len(alone)
            out.append(
                f"No judge-only comparison involves {names_text(alone)}, so "
                f"{_has(n, 'its', 'their')} estimates with the judges are the human-only ones."
            )
    for rk in r.rankings:
        fam = rk.strength
        if fam.status == "not_converged":
            out.append(
                f"The Bradley–Terry fit with {_by(rk)} did not converge (a degenerate "
                "judge-assisted fit): its strengths are not reported."
            )
        elif fam.status == "no_estimates":
            out.append(f"No model has a Bradley–Terry strength with {_by(rk)}.")
    return out


def _by(rk: Ranking) -> str:
    return "the human votes alone" if not rk.judges else _judges_text(rk.judges)


def flag_sentences(r: RankResult) -> tuple[str, ...]:
    """One sentence per reason code of the study (its flags, grouped by code, in the order they
    first appear) and per code only its models carry."""
    by_code: dict[str, list[Flag]] = {}
    for f in r.flags:
        by_code.setdefault(f.code, []).append(f)
    return tuple(_flag_sentence(c, fs, r) for c, fs in by_code.items()) + tuple(_row_sentences(r))


def judge_sentences(j: JudgeWorth, r: RankResult) -> tuple[tuple[str, str], ...]:
    """(status, sentence) for one judge: its agreement and worth, its position bias, the frontier
    check."""
    a, p = j.agreement, j.position
    lev = _level(r.level)
    decisive = "—" if a.decisive_rate is None else f"{a.decisive_rate:.0%}"
    worth = ""
    if j.saving_win_rate is not None:
        st = "" if j.saving_strength is None else f" ({j.saving_strength:.2f} for the strengths)"
        worth = (
            f" and, used alone, makes the human votes worth {j.saving_win_rate:.2f} times as many "
            f"for the win rates{st}"
        )
    kappa = "" if a.kappa is None else f"; Cohen's κ {a.kappa:.2f}"
    out = [
        (
            "judge",
            f"The judge {j.judge} agrees with the human vote on {decisive} of the comparisons where "
            f"both named a winner{worth}. Agreement with ties {a.rate:.0%} on {a.comparisons:,} "
            f"comparisons ({lev} interval {a.interval.low or 0:.0%}–{a.interval.high or 0:.0%})"
            f"{kappa}.",
        )
    ]
    out.append((p.status.replace("_", " "), _position_sentence(j, lev)))
    out.append(_frontier_sentence(j))
    return tuple(out)


def _position_sentence(j: JudgeWorth, lev: str) -> str:
    p = j.position
    if p.status == "no_positions":
        return (
            f"The votes of the judge {j.judge} have no position (made from scores), so whether it "
            "favours the answer shown first is not measured."
        )
    judge_a = "—" if p.judge_first_share is None else f"{p.judge_first_share:.0%}"
    human_a = "—" if p.human_first_share is None else f"{p.human_first_share:.0%}"
    shares = (
        f"it picks model A in {judge_a} of its decisive votes where the humans did in {human_a}"
    )
    tail = ""
    if p.shift is not None:
        lo, hi = p.interval
        tail = (
            f" (shift {p.shift:+.2f}, {lev} interval [{lo or 0:+.2f}, {hi or 0:+.2f}] on "
            f"{p.comparisons:,} comparisons)"
        )
    if p.status in ("favours_first", "favours_second"):
        side = "first" if p.status == "favours_first" else "second"
        return (
            f"The judge {j.judge} favours the answer shown {side}: {shares}{tail}; the estimates "
            "stay unbiased, because they learn from the human-voted comparisons how far to trust "
            "it."
        )
    return f"The judge {j.judge} favours neither position more than the humans do: {shares}{tail}."


def _frontier_sentence(j: JudgeWorth) -> tuple[str, str]:
    rows = j.frontier
    measured = "" if j.saving_win_rate is None else f"; measured: {j.saving_win_rate:.2f}"
    better = [f.model for f in rows if not f.at_most_twice]
    if not rows:
        return ("no frontier", f"The frontier check of the judge {j.judge} needs human win rates.")
    if not better:
        return (
            "at most twice",
            f"The judge {j.judge} is not shown more accurate than any of the {len(rows):,} models "
            "on their human-voted comparisons, so by Dorner, Nastl & Hardt no debiasing can save "
            f"more than a factor two in human votes here{measured}.",
        )
    if len(better) == len(rows):
        return (
            "limit does not bind",
            f"The judge {j.judge} is more accurate than every model on its human-voted comparisons, "
            f"so the factor-two limit of Dorner, Nastl & Hardt does not bind{measured}.",
        )
    return (
        "at most twice for some",
        f"The judge {j.judge} is more accurate than {len(better):,} of the {len(rows):,} models "
        f"({names_text(better)}), where the factor-two limit of Dorner, Nastl & Hardt does not "
        f"bind; for the other {len(rows) - len(better):,} no debiasing can save more than a factor "
        f"two in human votes{measured}.",
    )


def plan_sentences(r: RankResult) -> tuple[str, ...]:
    """The next votes: what separates the first pair the rank-sets cannot order (with the judges and
    without), what twice the votes would do (the planning curve), and which comparisons to send."""
    fam = lead_family(r.best)
    open_pairs = [s for s in fam.adjacent if not s.separated]
    if not fam.adjacent:
        return ()
    if not open_pairs:
        return (
            f"The votes already order every pair of models next to each other in the ranking "
            f"({len(fam.adjacent):,} pairs), at {_level(r.level)} for all of them at once.",
        )
    out = []
    s = open_pairs[0]
    if s.votes_needed is not None:
        pairwise = (
            ""
            if s.votes_needed_pairwise is None
            else f"; {s.votes_needed_pairwise:,} would settle this pair alone at {_level(r.level)}"
        )
        out.append(
            f"Telling {s.higher} from {s.lower} apart would take about {s.votes_needed:,} human "
            f"votes in all{' with the judges' if r.best.judges else ''}, spread over the "
            f"pairs of models as now, to separate them with the planned probability{pairwise}."
        )
    else:
        out.append(
            f"{s.higher} and {s.lower} have equal estimates: no number of votes is planned to tell "
            "them apart."
        )
    now = next((c for c in fam.curve if c.votes == r.votes), None)
    twice = next((c for c in fam.curve if c.votes == 2 * r.votes), None)
    if now is not None and twice is not None:
        out.append(
            f"With twice the human votes the rank-sets would separate about {twice.separated:.1f} "
            f"of the {len(fam.adjacent):,} pairs next to each other in the ranking (about "
            f"{now.separated:.1f} expected now)."
        )
    names = [f"{x.higher} with {x.lower}" for x in open_pairs[:3]]
    more = f" and {len(open_pairs) - 3:,} more such pairs" if len(open_pairs) > 3 else ""
    send = (
        "; active selection draws them from the judge-only comparisons" if r.best.unlabelled else ""
    )
    out.append(
        f"The next human votes help most on comparisons of {'; '.join(names)}{more} (next to each "
        f"other in the ranking, not yet ordered){send}."
    )
    return tuple(out)


def selection_sentence(sel: ComparisonSelection) -> str:
    """What an active selection of comparisons (:func:`humanly.ranking.select`) asks for.

    >>> import numpy as np
    >>> from humanly.ranking import ComparisonSelection
    >>> s = ComparisonSelection(1.0, 2, 1, 0.5, 0.9, 0, (4, 7), np.array([0.3, 0.7]),
    ...                         np.array([0, 1]))
    >>> print(selection_sentence(s))  # doctest: +NORMALIZE_WHITESPACE
    Send 1 of the 2 judge-only comparisons to human voters (expected 1), chosen where the judges'
    votes leave the pairs the rank-sets cannot yet order most uncertain.
    """
    why = (
        "every pair next to each other in the ranking is already ordered, so all of them steered "
        "the choice"
        if "no_unresolved_pairs" in sel.codes
        else "chosen where the judges' votes leave the pairs the rank-sets cannot yet order most "
        "uncertain"
    )
    return (
        f"Send {sel.n_selected:,} of the {sel.pool:,} judge-only comparisons to human voters "
        f"(expected {sel.budget:,.6g}), {why}."
    )


def verdicts(r: RankResult | ComparisonSelection) -> tuple[Verdict, ...]:
    """The sentences of a ranking (all about the study, ``model=None``): the lead, the first pair
    head to head, the reason codes, each judge, the plan and one vote or several; of an active
    selection, :func:`selection_sentence`.

    Parameters
    ----------
    r : RankResult or ComparisonSelection
        The result.

    Returns
    -------
    tuple of Verdict
    """
    if type(r).__name__ == "ComparisonSelection":
        sentence = selection_sentence(cast("ComparisonSelection", r))
        return (Verdict(TOPIC, sentence, None, "selection", METHODS),)
    r = cast("RankResult", r)
    fam = lead_family(r.best)
    rows = _ranked(fam)
    settled = bool(rows) and rows[0].rank_set.high == 1
    out = [Verdict(TOPIC, lead_sentence(r), None, "settled" if settled else "not settled", METHODS)]
    if len(rows) >= 2:
        said = pair_sentence(fam, rows[0].model, rows[1].model, r.level)
        if said is not None:
            status = "ordered" if said.startswith(f"{rows[0].model} is better") else "not ordered"
            out.append(Verdict(TOPIC, said, None, status, METHODS))
    out += [Verdict(TOPIC, s, None, "note", METHODS) for s in flag_sentences(r)]
    for j in r.judge_worth:
        out += [Verdict(TOPIC, s, None, status, METHODS) for status, s in judge_sentences(j, r)]
    out += [Verdict(TOPIC, s, None, "plan", METHODS) for s in plan_sentences(r)]
    out.append(Verdict(TOPIC, repeat_sentence(r), None, r.repeat.status.replace("_", " "), METHODS))
    out += [Verdict(TOPIC, s, None, "plan", METHODS) for s in judge_repeat_sentences(r)]
    simulated = repeat_simulation_sentence(r)
    if simulated is not None:
        out.append(Verdict(TOPIC, simulated, None, "simulated", METHODS))
    return tuple(out)


def headline(r: RankResult) -> str:
    """A ranking in one line for the terminal: the models, the votes and who ranks first."""
    rows = _ranked(lead_family(r.best))
    judges = f" and {len(r.judges)} judge{'s' if len(r.judges) != 1 else ''}" if r.judges else ""
    first = f"; first: {rows[0].model} (rank-set {rank_set_text(rows[0].rank_set)})" if rows else ""
    return (
        f"rank: {len(r.models):,} models from {r.votes:,} human votes on {r.labelled:,} "
        f"comparisons{judges}{first}."
    )
