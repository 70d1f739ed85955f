"""The ranking section of ``humanly report``: models ranked from pairwise votes — a few human votes and
judges on many comparisons (prediction-powered ranking).

The numbers come from ``study.rank`` (:func:`humanly.rank`, run once by :func:`humanly.analyze` on a
study of pairwise votes); this module only lays them out — the ranking with its rank-sets (the
human-only ones beside them), the pairs next to each other in the ranking and the votes that would
separate them, what each judge is worth, one vote per comparison or several — with three figures: the
estimates and rank-sets side by side, the pairwise win matrix and the planning curve. ``humanly report
--from results.json`` draws the same page. A study without votes has no ranking section.
"""

from __future__ import annotations

from ...ranking import Estimates, RankResult
from ...study import StudyResult
from ...verdicts.rank import ESTIMATOR_NAMES, FAMILY_NAMES, lead_family, rank_set_text
from ...verdicts.rank_repeat import repeat_table
from ...verdicts.study import TITLES, has_section, section_note, section_verdicts
from .._page import Figure, Section, Table, View

__all__ = ["METHODS_TEXT", "rank_section"]

TITLE = TITLES["rank"]

METHODS_TEXT = (
    "Ranking from pairwise votes (prediction-powered ranking: Angelopoulos, Duchi & Zrnic 2023 for "
    "PPI++; Boyeau et al. 2024, AutoEval Done Right, for Bradley–Terry; Chatzi et al. 2024 for "
    "rank-sets). A comparison is one prompt answered by two models; a vote names the better answer "
    "or a tie. Humans voted on some comparisons, the judges (LLMs) on many. A model's win rate is "
    "its mean score over the comparisons that involve it (won 1, tie ½ — or 0, or left out — lost "
    "0); its Bradley–Terry strength θ makes the first of two models win with probability "
    "σ(θ_first − θ_second) (natural-log scale, centred; Elo = 1000 + 400·θ/ln 10), fitted by "
    "Newton's method. With judges, each estimate solves the prediction-powered equation: the human "
    "votes' loss, minus λ times the judges' loss on the same comparisons, plus λ times the judges' "
    "loss on the judge-only comparisons — unbiased whatever the judges' quality; λ is tuned to the "
    "smallest variance (PPI++, in [0, 1] per judge), 1 (PPI) or 0 (human votes only). Standard "
    "errors come from the influence of each comparison (the sandwich for the strengths) and the joint "
    "covariance of all models, since comparisons that share a model are not independent. The "
    "rank-set of a model is [1 + the models surely better, M − the models surely worse], 'surely' by "
    "simultaneous intervals θ̂_i − θ̂_j ± c·se_ij that hold for every pair at once (c the level "
    "quantile of the largest standardised difference, simulated from the joint normal): with "
    "probability at least the level every model's rank is in its set. Effective votes: the human "
    "votes a human-only estimate needs for the same variance. A judge's agreement is counted on the "
    "comparisons both voted on; its position bias is the judge's score for the answer shown first "
    "minus the humans', with a CLT interval; the frontier check (Dorner, Nastl & Hardt 2025) compares "
    "the judge's agreement with the humans to each model's human win rate: unless the judge is "
    "more accurate, no debiasing saves more than a factor two in human votes. Votes needed: the human "
    "votes, spread over the pairs of models as now, for the simultaneous interval of two models next "
    "to each other in the ranking to exclude 0 with the planned probability (0.8 by default); the "
    "planning curve gives the pairs expected to be separated with ½ to 32 times the votes, the "
    "estimates taken as the truth. One vote per comparison or several (Dorner & Hardt 2024, Don't "
    "Label Twice): averaging m votes per comparison multiplies the variance by 1 + (m − 1)·ICC, "
    "measured where comparisons have several votes; with a judge, the PPI++ win rate's variance "
    "(m·A(λ) + σ²_w)/B + λ²F/N, A(λ) = τ² − 2λC + λ²F the between-comparison variance left after the "
    "judge and σ²_w the within-comparison one, λ tuned per design, gives a ratio in [1, m] (exact); "
    "how often each design orders the models right is simulated from the fitted model (votes right "
    "with the accuracy two votes on one comparison agree at, or the least the strengths allow; each "
    "judge's from its agreement with decisive human votes), through the win-rate estimator, with "
    "its Monte Carlo standard error. Active selection (Zrnic & Candès 2024) sends to "
    "human voters the judge-only comparisons whose votes would most narrow the pairs not yet ordered, "
    "and weighs the ranking afterwards by the inverse of each comparison's probability."
)


def _data_table(r: RankResult) -> Table:
    rows: list[tuple[object, ...]] = [
        ("models", len(r.models)),
        ("comparisons", r.comparisons),
        ("human-voted comparisons", r.labelled),
        ("human votes", r.votes),
        ("judge-only comparisons", r.best.unlabelled),
        ("judges", ", ".join(r.judges) if r.judges else "none"),
        (
            "ties",
            {"half": "half a win each", "loss": "a loss for both", "drop": "left out"}[r.ties],
        ),
        ("estimator with judges", ESTIMATOR_NAMES.get(r.estimator, r.estimator)),
        ("level", r.level),
    ]
    return Table("The votes and the settings.", ("quantity", "value"), tuple(rows))


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _ranking_table(r: RankResult) -> Table:
    best, fam = r.best, lead_family(r.best)
    win = {row.model: row for row in best.win_rate.rows}
    st = {row.model: row for row in best.strength.rows}
    hum = {row.model: row for row in lead_family(r.human).rows}
    order = list(fam.order) + [m for m in r.models if m not in set(fam.order)]
    rows = []
    for m in order:
        w, s = win[m], st[m]
        rows.append(
            (
                m,
                fam.row(m).rank,
                _round(w.estimate, 3),
                _round(w.interval.low, 3),
                _round(w.interval.high, 3),
                rank_set_text(w.rank_set),
                _round(s.estimate, 3),
                _round(s.interval.low, 3),
                _round(s.interval.high, 3),
                _round(s.elo, 0),
                rank_set_text(s.rank_set),
                rank_set_text(hum[m].rank_set),
                w.votes,
                _round(w.effective_votes, 0),
            )
        )
    who = "the human votes" if not best.judges else f"the human votes and {best.name}"
    level = f"{round(r.level * 100, 6):g}%"
    return Table(
        f"The ranking from {who}, best first: win rates and Bradley–Terry strengths with their "
        f"{level} intervals and rank-sets (the ranks each model may hold, for all models at once); "
        "human only: the rank-set from the human votes alone; votes: the human votes on the model's "
        "comparisons; effective: what they are worth with the judges (win rates).",
        (
            "model",
            "rank",
            "win rate",
            "low",
            "high",
            "rank-set",
            "strength",
            "low",
            "high",
            "Elo",
            "rank-set",
            "human only",
            "votes",
            "effective",
        ),
        tuple(rows),
        note="— : not estimable (see the sentences above), or no judge.",
    )


def _adjacent_table(r: RankResult, fam: Estimates) -> Table:
    human = {(s.higher, s.lower): s for s in getattr(r.human, fam.kind).adjacent}
    rows = []
    for s in fam.adjacent:
        h = human.get((s.higher, s.lower))
        rows.append(
            (
                s.higher,
                s.lower,
                round(s.difference, 4),
                round(s.se, 4),
                "yes" if s.separated else "no",
                s.votes_needed,
                s.votes_needed_pairwise,
                None if h is None or not r.best.judges else h.votes_needed,
            )
        )
    return Table(
        f"Models next to each other in the ranking ({FAMILY_NAMES[fam.kind]}, {r.best.name}): the "
        "difference, whether the rank-sets separate them, and the human votes in all (spread over "
        "the pairs as now) that would separate them with the planned probability (0.8 by default) — for "
        "all pairs at once, "
        "for the pair alone, and from human votes alone.",
        (
            "higher",
            "lower",
            "difference",
            "se",
            "separated",
            "votes needed",
            "votes needed (this pair)",
            "votes needed (human only)",
        ),
        tuple(rows),
        note="— : equal estimates (no number of votes separates them), or no human-only plan.",
    )


def _judges_table(r: RankResult) -> Table:
    rows = []
    for j in r.judge_worth:
        a, p = j.agreement, j.position
        rows.append(
            (
                j.judge,
                a.comparisons,
                j.unlabelled,
                _round(a.rate, 3),
                _round(a.decisive_rate, 3),
                _round(a.kappa, 3),
                p.status.replace("_", " "),
                _round(p.judge_first_share, 3),
                _round(p.human_first_share, 3),
                _round(j.effective_votes_win_rate, 0),
                _round(j.effective_votes_strength, 0),
            )
        )
    return Table(
        "What each judge is worth: its agreement with the human votes on the comparisons both voted "
        "on (with ties; decisive: where both named a winner), Cohen's κ, whether it favours the "
        "answer shown first beyond the humans (the share of decisive votes for model A), and the "
        "human votes the estimates with this judge alone are worth.",
        (
            "judge",
            "comparisons",
            "judge-only",
            "agreement",
            "decisive",
            "κ",
            "position",
            "A share (judge)",
            "A share (humans)",
            "effective votes (win rates)",
            "effective votes (strengths)",
        ),
        tuple(rows),
    )


def _repeat_table(r: RankResult) -> Table:
    p = r.repeat
    headers, rows = repeat_table(r)
    sim = (
        f" Simulated: {p.simulations:,} seeded replicates per design (seed {p.seed}) of the fitted "
        f"model, win rates of {len(p.simulated_models):,} models; ± one Monte Carlo standard error."
        if p.simulations
        else ""
    )
    return Table(
        f"One vote per comparison or several, for {p.budget:,} human votes (Don't Label Twice): "
        "the variance of averaged votes relative to one vote each (exact, humans alone and with "
        "each judge; its range whatever the agreement of two votes on one comparison), under the "
        f"paper's model the chance that the majority design ranks {p.higher or '—'} above "
        f"{p.lower or '—'}, and how often each design orders the models right.{sim}",
        headers,
        tuple(rows),
        note="a range: not identified (every comparison has one human vote).",
    )


def rank_section(study: StudyResult, view: View) -> Section | None:
    """Lay out ``study.rank``; a one-sentence note when the ranking could not run; ``None`` (no
    section) for a study without votes.

    >>> from humanly import Ratings, analyze
    >>> rank_section(analyze(Ratings.from_counts([[2, 1], [0, 3]]), bootstrap=0),
    ...              View({}, (), {})) is None
    True
    """
    if not has_section(study, "rank"):
        return None
    r = study.rank
    if r is None:
        return Section("rank", TITLE, note=section_note(study, "rank"))
    fam = lead_family(r.best)
    tables = [_data_table(r), _ranking_table(r), _adjacent_table(r, fam)]
    if r.judge_worth:
        tables.append(_judges_table(r))
    tables.append(_repeat_table(r))
    return Section(
        "rank",
        TITLE,
        tables=tuple(tables),
        figures=_figures(r, fam),
        verdicts=section_verdicts(study, "rank"),
    )


def _figures(r: RankResult, fam: Estimates) -> tuple[Figure, ...]:
    from ...plots.rank import planning_curve, rank_intervals, win_matrix

    level = f"{round(r.level * 100, 6):g}%"
    side = (
        f"with {r.best.name} (colour, above) and from the human votes alone (grey, below)"
        if r.best.judges
        else "from the human votes"
    )
    out = [
        Figure.from_matplotlib(
            rank_intervals(r, fam.kind),
            f"Each model's {FAMILY_NAMES[fam.kind][:-1]} with its {level} interval (left) and its "
            f"rank-set (right, the rank of its estimate marked), best first, {side}.",
        )
    ]
    strength = r.best.strength
    if strength.status == "ok" and len(strength.order) >= 2:
        out.append(
            Figure.from_matplotlib(
                win_matrix(strength),
                f"The pairwise win matrix ({r.best.name}): the probability that the row model beats "
                "the column model in a comparison (a tie half a win), from the Bradley–Terry "
                "strengths.",
            )
        )
    if fam.curve:
        out.append(
            Figure.from_matplotlib(
                planning_curve(r, fam.kind),
                "The planning curve: the pairs of models next to each other in the ranking that the "
                "rank-sets are expected to separate with ½ to 32 times the human votes (spread over "
                "the pairs as now), from the human votes alone and with each judge.",
            )
        )
    return tuple(out)
