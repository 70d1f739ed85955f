"""The sentences and the table of a ranking's one-vote-or-several plan (*Don't Label Twice* in the
pairwise setting, :class:`~humanly.ranking.RepeatPlan`): the exact variance ratios for the humans
alone and with each judge, and the seeded simulation of how often each design orders the models
right. Reads results only; imports no numpy, pandas, matplotlib or jinja2.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .rank_text import names_text
from .text import DASH

if TYPE_CHECKING:
    from ..ranking import RankResult, RepeatPlan
    from ..ranking.repeat_results import SimulatedOrder

__all__ = [
    "judge_repeat_sentences",
    "repeat_sentence",
    "repeat_simulation_sentence",
    "repeat_table",
]


def repeat_sentence(r: RankResult) -> str:
    """One vote per comparison or several (*Don't Label Twice* in the pairwise setting)."""
    plan = r.repeat
    several = [row for row in plan.rows if row.votes_per_comparison > 1]
    if plan.status != "identified" or plan.icc is None:
        top = max((row.votes_per_comparison for row in plan.rows), default=1)
        why = (
            "each comparison has one human vote"
            if plan.repeated == 0
            else f"only {plan.repeated:,} comparisons have several"
        )
        return (
            "Whether several human votes per comparison would help cannot be told from these "
            f"votes: {why}, so a voter's noise cannot be told from real disagreement. Averaging m "
            f"votes per comparison multiplies a win rate's variance by between 1 and m (up to {top} "
            "here); by Dorner & Hardt one vote each is best whenever a vote is better than chance."
        )
    parts = []
    for row in several:
        ratio = DASH if row.variance_ratio is None else f"{row.variance_ratio:.2f}"
        parts.append(
            f"{row.votes_per_comparison} votes on {row.comparisons:,} comparisons {ratio}×"
        )
    single = next((row for row in plan.rows if row.votes_per_comparison == 1), None)
    prob = ""
    if plan.higher and plan.lower and single is not None and single.probability_correct is not None:
        others = [row for row in several if row.probability_correct is not None]
        best = max(others, key=lambda row: row.probability_correct or 0.0, default=None)
        also = (
            f", {best.probability_correct:.3f} with {best.votes_per_comparison} each"
            if best is not None and best.probability_correct is not None
            else ""
        )
        prob = (
            f" Under Dorner & Hardt's model the majority of each comparison's votes ranks "
            f"{plan.higher} above {plan.lower} with probability {single.probability_correct:.3f} "
            f"with one vote each{also}."
        )
    lead = (
        "One human vote per comparison is the best use of"
        if all((row.variance_ratio or 1.0) >= 1.0 for row in several)
        else "Several votes per comparison do better with"
    )
    return (
        f"{lead} a budget of {plan.budget:,} human votes: averaging several votes per comparison "
        f"multiplies a win rate's variance ({'; '.join(parts)}; intra-comparison correlation "
        f"{plan.icc:.2f} from {plan.repeated:,} comparisons with several votes).{prob}"
    )


def _best(plan: RepeatPlan, rows) -> str:
    """Which design ordered the models best in the simulation, in words (a difference counts when
    it exceeds twice its Monte Carlo standard error)."""
    sims = [(row.votes_per_comparison, row.simulated) for row in rows if row.simulated is not None]
    single = next((s for m, s in sims if m == 1), None)
    if single is None or len(sims) < 2:
        return ""

    def clearly(a: SimulatedOrder, b: SimulatedOrder) -> bool:
        margin = 2 * (a.ordered_share_se**2 + b.ordered_share_se**2) ** 0.5
        return a.ordered_share - b.ordered_share > margin

    others = [(m, s) for m, s in sims if m != 1]
    better = [m for m, s in others if clearly(s, single)]
    if better:
        return f"{better[0]} votes per comparison ranked better than one"
    if all(clearly(single, s) for _, s in others):
        return "one vote per comparison still ranks best"
    return (
        "one vote per comparison ranks as well as any, the designs differing by less than the "
        f"simulation's error in {plan.simulations:,} replicates"
    )


def judge_repeat_sentences(r: RankResult) -> tuple[str, ...]:
    """Per judge with an identified ratio: what several votes per comparison cost with it.

    "With the judge llm, 3 votes per comparison cost only 12% more variance than one (5: 25%);
    ICC 0.10 with the judge against 0.30 without it; one vote per comparison still ranks best."
    """
    out = []
    plan = r.repeat
    for jp in plan.judges:
        several = [
            row
            for row in jp.rows
            if row.votes_per_comparison > 1 and row.variance_ratio is not None
        ]
        if jp.status != "identified" or not several or jp.icc is None:
            continue
        first, rest = several[0], several[1:]
        more = (
            " ("
            + "; ".join(
                f"{row.votes_per_comparison}: {100 * (row.variance_ratio - 1):.0f}%"
                for row in rest
                if row.variance_ratio is not None
            )
            + ")"
            if rest
            else ""
        )
        human = next(
            (h for h in plan.rows if h.votes_per_comparison == first.votes_per_comparison), None
        )
        against = (
            f" against {100 * (human.variance_ratio - 1):.0f}% for the human votes alone"
            if human is not None and human.variance_ratio is not None
            else ""
        )
        icc = f"; intra-comparison correlation {jp.icc:.2f} with the judge"
        if plan.icc is not None:
            icc += f", {plan.icc:.2f} without it"
        best = _best(plan, jp.rows)
        extra = 100 * ((first.variance_ratio or 1.0) - 1)
        out.append(
            f"With the judge {jp.judge}, {first.votes_per_comparison} human votes per comparison "
            f"cost only {extra:.0f}% more variance than one{more}"
            f"{against}{icc}" + (f"; {best}." if best else ".")
        )
    return tuple(out)


def _share(s: SimulatedOrder) -> str:
    return f"{100 * s.ordered_share:.0f}%"


def _designs(rows) -> str:
    """ "81% with 1 vote, 75% with 3 votes and 71% with 5 votes"."""
    parts = [
        f"{_share(row.simulated)} with {row.votes_per_comparison} vote"
        + ("s" if row.votes_per_comparison != 1 else "")
        for row in rows
        if row.simulated is not None
    ]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def repeat_simulation_sentence(r: RankResult) -> str | None:
    """The seeded simulation of each design, or ``None`` when it did not run.

    "In 100 simulated replicates per design of the fitted model …, the win rates of the 10 models
    around a and b put this share of the pairs of models in their true order: 81% with 1 vote, 75%
    with 3 votes and 71% with 5 votes per comparison (with the judge llm: …); one vote per
    comparison still ranks best."
    """
    plan = r.repeat
    if plan.simulations <= 0 or not any(row.simulated is not None for row in plan.rows):
        return None
    q = plan.simulated_accuracy
    if plan.simulation == "least_accurate":
        how = (
            f"with votes as unreliable as the strengths allow (a vote names the better answer with "
            f"probability {q:.2f}; not measured without repeated votes, and the case most "
            "favourable to repeats)"
        )
    else:
        how = f"with each vote naming the better answer with probability {q:.2f}"
    models = plan.simulated_models
    which = (
        f"the {len(models):,} models"
        if len(models) == len(r.models)
        else f"the {len(models):,} models around {plan.higher} and {plan.lower}"
    )
    simulated = [jp for jp in plan.judges if any(row.simulated is not None for row in jp.rows)]
    judges = "; ".join(
        f"with the judge {jp.judge}: {_designs(jp.rows)}" for jp in simulated if jp.unlabelled
    )
    idle = [jp.judge for jp in simulated if not jp.unlabelled]
    if idle:
        judges += ("; " if judges else "") + (
            f"with {names_text(idle)} the same: no comparison without a human vote, so PPI++ "
            "uses the human votes alone"
        )
    single = next((row for row in plan.rows if row.votes_per_comparison == 1), None)
    pair = ""
    if single is not None and single.simulated is not None and plan.higher and plan.lower:
        pair = (
            f" With one vote per comparison the closest pair, {plan.higher} and {plan.lower}, came "
            f"out in its true order in {100 * single.simulated.probability_pair:.0f}% of the "
            "replicates."
        )
    best = _best(plan, plan.rows)
    return (
        f"In {plan.simulations:,} simulated replicates per design of the fitted model {how}, the "
        f"win rates of {which} put this share of the pairs of models in their true order: "
        f"{_designs(plan.rows)} per comparison"
        + (f" ({judges})" if judges else "")
        + (f"; {best}." if best else ".")
        + pair
    )


def repeat_table(r: RankResult) -> tuple[tuple[str, ...], list[tuple[str, ...]]]:
    """One row per source (the humans, each judge) and design: comparisons, the exact variance ratio
    (or its range), the exact majority probability (humans), and the simulated shares with their
    Monte Carlo standard errors — headers and rows of text."""
    plan = r.repeat
    headers = (
        "votes",
        "per comparison",
        "comparisons",
        "variance ratio",
        "P(closest right), exact",
        "pairs ordered (sim.)",
        "closest right (sim.)",
        "all ordered (sim.)",
    )

    def sim(s: SimulatedOrder | None, name: str) -> str:
        if s is None:
            return DASH
        return f"{getattr(s, name):.3f} ± {getattr(s, name + '_se'):.3f}"

    def ratio(row) -> str:
        if row.variance_ratio is not None:
            return f"{row.variance_ratio:.2f}"
        low, high = row.variance_ratio_interval
        return f"{low:g}" if low == high else f"{low:g}–{high:g}"

    rows: list[tuple[str, ...]] = []
    sources: list[tuple[str, tuple]] = [("humans", plan.rows)]
    sources += [(f"with {jp.judge}", jp.rows) for jp in plan.judges]
    for name, design_rows in sources:
        for row in design_rows:
            p = getattr(row, "probability_correct", None)
            rows.append(
                (
                    name,
                    f"{row.votes_per_comparison}",
                    f"{row.comparisons:,}",
                    ratio(row),
                    DASH if p is None else f"{p:.3f}",
                    sim(row.simulated, "ordered_share"),
                    sim(row.simulated, "probability_pair"),
                    sim(row.simulated, "probability_ranking"),
                )
            )
    return headers, rows
