"""Tables and lines for ``humanly budget``: views of the budget results; no statistics here.

Every table says what its numbers are (exact, or a bound and which), every result names the tie rules
it used (a tied vote of an even m, a tied comparison), and counts of classifiers are whole numbers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from . import _console as ui

if TYPE_CHECKING:
    from .. import budget as bd
    from ..verdicts import Verdict

__all__ = [
    "fmt",
    "show_capacity",
    "show_comparison",
    "show_convergence",
    "show_multiclass",
    "show_open",
    "show_pilot",
    "show_plan",
    "show_rates",
    "show_recommendation",
    "show_size",
    "show_sweep",
    "show_verdicts",
    "table",
    "ties_line",
    "vote_ties_line",
]

#: A column: a result key, or (key, header).
Column = str | tuple[str, str]
#: Columns of words, left-aligned (numbers are right-aligned).
TEXT_COLUMNS = frozenset({"parameter", "meaning", "rule", "strategy", "labelling", "class"})

#: How a tied vote of an even m is settled, as the tables say it.
VOTE_TIES = {
    "coin": "coin (M_2k = M_2k−1)",
    "failure": "failure (Lemma C.1)",
}
#: What the parameters of the correlated model are.
MEANING = {
    "q_b": "label accuracy, only c_b right",
    "q_w": "label accuracy, only c_w right",
    "p_w": "accuracy of c_w",
    "p_b0": "P(c_b right | c_w wrong)",
    "p_b1": "P(c_b right | c_w right)",
}
#: The pilot estimators, as the tables name them.
METHOD_TITLE = {
    "latent": "latent-class estimate (EM over the true label)",
    "majority": "crowd-majority estimate (the pilot majority as proxy truth; biased towards "
    "agreement with the crowd)",
}


def fmt(v: Any) -> str:
    """A cell: integers with thousands separators, floats to six significant digits, ``—`` for none
    and for an undefined number (NaN: the table says why in a line under it).

    >>> fmt(1500), fmt(0.123456789), fmt(None), fmt(float("nan"))
    ('1,500', '0.123457', '—', '—')
    """
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.6g}" if math.isfinite(v) else "—"
    if isinstance(v, int):
        return f"{v:,}"
    return str(v)


def table(title: str, rows: Sequence[Mapping[Any, Any]], keys: Sequence[Column]) -> None:
    """Print ``rows`` (result rows as dicts) as a table of the columns ``keys`` (a key, or a pair
    (key, header))."""
    t = ui.new_table(title, title_justify="center")
    pairs = [(k, k) if isinstance(k, str) else k for k in keys]
    cells = [[fmt(r.get(k)) for k, _ in pairs] for r in rows]
    for i, (key, header) in enumerate(pairs):
        text = key in TEXT_COLUMNS
        widest = max((len(c[i]) for c in cells), default=1)  # numbers wrap headers, never cells
        t.column(header, justify="left" if text else "right", min_width=None if text else widest)
    for row in cells:
        t.row(*row)
    ui.show(t)


def vote_ties_line(vote_ties: str) -> str:
    """The vote-tie rule of a result, as one line.

    >>> vote_ties_line("coin")
    'ties in an even-m vote: coin (M_2k = M_2k−1)'
    """
    return f"ties in an even-m vote: {VOTE_TIES.get(vote_ties, vote_ties)}"


def ties_line(ties: str) -> str:
    """What a tied comparison counts as, as one line.

    >>> ties_line("loss")
    'a tied comparison (ΣG = 0) counts as a loss (the paper)'
    """
    what = "a loss (the paper)" if ties == "loss" else "half a win"
    return f"a tied comparison (ΣG = 0) counts as {what}"


def _rules(res: Any) -> None:
    """The two tie rules a result used, as lines."""
    ui.lines([f"{vote_ties_line(res.vote_ties)}; {ties_line(res.ties)}"])


def show_verdicts(verdicts: Iterable[Verdict]) -> None:
    """The verdict sentences, after the tables."""
    ui.lines(v.sentence for v in verdicts)


# --------------------------------------------------------------------------- win, size, capacity
WIN_COLUMNS: tuple[Column, ...] = (
    ("labels_per_item", "m"),
    ("n", "items n"),
    ("label_accuracy", "label accuracy"),
    "exact",
    ("win_hoeffding_bound", "Hoeffding lower bound"),
    ("win_cramer_bound", "Cramér lower bound"),
    ("tie", "P(tie)"),
)


def show_comparison(
    res: bd.Comparison, *, simulated: bool = False, title: str = "", rules: bool = True
) -> None:
    """The win table of :func:`humanly.budget.compare`: exact, and the two lower bounds; then the
    tie rules (``rules=False``: the caller says them)."""
    cols = list(WIN_COLUMNS)
    if simulated:
        cols += [("monte_carlo", "Monte Carlo"), ("monte_carlo_se", "± s.e.")]
    head = title or f"P(better classifier identified), budget {res.budget:,} labels"
    table(head, [r.to_dict() for r in res.rows], cols)
    if rules:
        _rules(res)
    ui.lines(
        [
            "exact: P(ΣG > 0) computed exactly; the bounds are 1 − Hoeffding's (Lemma 1) and "
            "1 − Cramér's (Lemma 2) upper bound on the error, 0 when vacuous",
            f"best m: {res.best_labels_per_item}",
        ]
    )


SIZE_COLUMNS: tuple[Column, ...] = (
    ("labels_per_item", "m"),
    ("budget_exact", "exact"),
    ("budget_cramer_bound", "guaranteed by Cramér bound"),
    ("budget_hoeffding_bound", "by Hoeffding bound"),
    ("n_exact", "items (exact)"),
    ("label_accuracy", "label accuracy"),
)


def show_size(
    res: bd.SizeResult, *, title: str = "", keys: Sequence[Column] = SIZE_COLUMNS
) -> None:
    """Label budgets per m that reach the level: exact, and what each bound guarantees to suffice."""
    head = title or f"Label budget (labels in total) for P(better ranked first) ≥ {res.level:g}"
    table(head, [r.to_dict() for r in res.rows], keys)
    _rules(res)
    if any(r.budget_exact is None for r in res.rows):
        ui.lines(
            [
                "—: no budget (E[G] ≤ 0: the better classifier is not favoured), or the exact "
                "search would need more than 10⁹ items"
            ]
        )


def _whole(v: int | None) -> str:
    return "unlimited" if v is None else f"{v:,}"


def show_capacity(res: bd.CapacityResult) -> None:
    """Whole numbers of worse classifiers a benchmark can rank below the best at the level."""
    t = ui.new_table(
        f"Worse classifiers that can each be ranked below the best, with probability ≥ {res.level:g} "
        f"for them all (union bound), budget {res.budget:,} labels",
        title_justify="center",
    )
    for header in (
        "m",
        "items n",
        "exact",
        "guaranteed by Cramér bound",
        "by Hoeffding bound",
        "exact error",
    ):
        t.column(header, justify="right")
    for r in res.rows:
        t.row(
            str(r.labels_per_item),
            f"{r.n:,}",
            _whole(r.classifiers_exact),
            _whole(r.classifiers_cramer_bound),
            _whole(r.classifiers_hoeffding_bound),
            fmt(r.error_exact),
        )
    ui.show(t)
    _rules(res)
    ui.lines(
        [
            "whole numbers ⌊(1 − level) / P(error)⌋: exactly, and what the bounds on P(error) guarantee"
        ]
    )


# --------------------------------------------------------------------------- rates, convergence
RATE_COLUMNS: tuple[Column, ...] = (
    ("labels_per_item", "m"),
    ("label_accuracy", "label accuracy"),
    ("cramer_per_item", "Cramér per item"),
    ("cramer_per_label", "Cramér per label"),
    ("hoeffding_per_item", "Hoeffding per item"),
    ("hoeffding_per_label", "Hoeffding per label"),
)


def show_rates(res: bd.RateTable) -> None:
    """Theorem 2: the exponents of the two upper bounds on log P(error), per item and per label."""
    table(
        "Exponents of the error bounds: log P(error) ≤ n × (per item) = k × (per label)",
        [r.to_dict() for r in res.rows],
        RATE_COLUMNS,
    )
    ui.lines(
        [
            vote_ties_line(res.vote_ties),
            "more negative is better; 0: the bound is vacuous",
            f"best m (most negative Cramér rate per label, Theorem 2): {res.best_labels_per_item}",
        ]
    )


def _picked(budgets: Sequence[int], crossing: int | None, count: int = 8) -> list[int]:
    """About ``count`` budgets spread over the grid, with the crossing."""
    if len(budgets) <= count:
        chosen = set(budgets)
    else:
        step = (len(budgets) - 1) / (count - 1)
        chosen = {budgets[round(i * step)] for i in range(count)}
    if crossing is not None:
        chosen.add(crossing)
    return sorted(chosen)


def show_convergence(res: bd.CramerConvergence) -> None:
    """Fig. 3 a: the exact normalised log error at a few budgets against the Cramér rates."""
    by = {(p.labels_per_item, p.budget): p for p in res.points}
    budgets = sorted({p.budget for p in res.points})
    rates = ", ".join(
        f"m = {m}: {r:.6g}" for m, r in zip(res.labels_per_item, res.cramer_per_label, strict=True)
    )
    t = ui.new_table(
        "Exact (1/k) log P(error) against the label budget k (Fig. 3 a)", title_justify="center"
    )
    t.column("budget k", justify="right")
    for m in res.labels_per_item:
        t.column(f"exact, m = {m}", justify="right")
    t.column("largest approximation error", justify="right")
    for k in _picked(budgets, res.crossing):
        pts = [by.get((m, k)) for m in res.labels_per_item]
        worst = max((p.approximation_error for p in pts if p is not None), default=None)
        t.row(
            f"{k:,}", *(fmt(None if p is None else p.log_error_per_label) for p in pts), fmt(worst)
        )
    ui.show(t)
    ordered = sorted(res.cramer_per_label)
    gap = f"; gap between the lowest two {ordered[1] - ordered[0]:.6g}" if len(ordered) > 1 else ""
    ui.lines([f"Cramér rate per label (the limit, an upper bound for every k): {rates}{gap}"])
    _rules(res)
    best = res.labels_per_item[
        min(range(len(res.labels_per_item)), key=lambda i: res.cramer_per_label[i])
    ]
    if res.crossing is None:
        ui.lines(
            [
                f"the bounds alone do not decide on this grid (up to k = {budgets[-1]:,}): the gap "
                "between the Cramér rates stays below some m's approximation error"
            ]
        )
    else:
        ui.lines(
            [
                f"the bounds alone decide from k ≥ {res.crossing:,}: from there the gap between the "
                f"Cramér rates per label exceeds every m's approximation error, so m = {best} is "
                "better by the bounds alone"
            ]
        )


# --------------------------------------------------------------------------- multiclass, open
MULTICLASS_COLUMNS: tuple[Column, ...] = (
    ("labels_per_item", "m"),
    "rule",
    ("n", "items n"),
    ("label_accuracy", "label accuracy"),
    ("no_label", "no label"),
    ("win", "win (exact)"),
)


def show_multiclass(res: bd.MulticlassComparison) -> None:
    """K classes: exact win probability per m and aggregation rule."""
    table(
        f"P(better classifier identified), K = {res.setting.n_classes} classes, budget "
        f"{res.budget:,} labels",
        [r.to_dict() for r in res.rows],
        MULTICLASS_COLUMNS,
    )
    rules = {r.rule for r in res.rows}
    lines = []
    if "plurality" in rules:
        lines.append("plurality: the most frequent label; a tie among the most frequent at random")
    if "majority" in rules:
        lines.append(
            "majority: a label chosen by more than m/2 labellers; an item without one gets no test "
            "label (its labels are spent; it counts for neither classifier)"
        )
    lines += [ties_line(res.ties), f"best: {res.best}"]
    ui.lines(lines)


def show_open(res: bd.StrategyComparison, title: str, adaptive: bool) -> None:
    """The open problems by simulation, with the exact value where one exists."""
    keys: list[Column] = [
        "strategy",
        ("labels_per_item", "labels per item"),
        ("items", "items n"),
        ("win", "win (Monte Carlo)"),
        ("se", "± s.e."),
        ("exact", "exact"),
    ]
    table(title, [r.to_dict() for r in res.rows], keys)
    tie = (
        "a third label only when the first two disagree"
        if adaptive
        else "a tie among the most frequent labels is broken at random"
    )
    ui.lines([tie, ties_line("loss"), f"best: {res.best}"])


# --------------------------------------------------------------------------- plan
def _share(x: float) -> str:
    return f"{100 * x:.0f} %"


def _fit_lines(res: bd.PilotPlan) -> list[str]:
    """The latent variant chosen (BIC, bootstrap shares) and EM's convergence."""
    fit = res.fit
    if fit is None:
        return []
    others = sorted(
        (c for c in fit.candidates if not c.selected), key=lambda c: (c.bic != c.bic, c.bic)
    )
    how = "chosen by BIC" if fit.selection == "bic" else "fixed by --latent-variant"
    parts = [f"BIC {fit.bic:,.1f}, {how}"]
    if others:
        parts.append(f"next {others[0].variant} {others[0].bic:,.1f}")
    if res.bootstrap_variants:
        shares = ", ".join(f"{s.variant} {_share(s.share)}" for s in res.bootstrap_variants)
        parts.append(f"bootstrap: {shares}")
    state = (
        f"EM converged in {fit.iterations:,} steps (tolerance {fit.tolerance:g})"
        if fit.converged
        else f"EM stopped after {fit.iterations:,} steps without converging "
        f"(tolerance {fit.tolerance:g})"
    )
    if res.bootstrap_converged is not None:
        state += f"; bootstrap fits converged {_share(res.bootstrap_converged)}"
    return [f"latent variant: {fit.latent_variant} ({'; '.join(parts)})", state]


COMPARISON_COLUMNS: tuple[Column, ...] = (
    ("labelling", "labelling"),
    ("items", "items n"),
    ("win", "P(better ranked first), exact"),
    ("budget_needed", "budget to reach the level"),
)


def show_recommendation(
    m: int | None, budget: int | None, items: int | None, verdict: str = ""
) -> None:
    """A pilot plan's recommended m, label budget and items (and ``verdict``, its status in words)."""
    if m is None or budget is None:
        ui.show("recommendation: none (no m reaches the level under these estimates)")
        return
    shown = f"{items:,}" if items is not None else "—"
    tail = f"; verdict: {verdict}" if verdict else ""
    ui.show(f"recommendation: m = {m}, budget {budget:,} labels ({shown} items){tail}")


def show_plan(res: bd.PlanResult) -> None:
    """The budget analysis: the label accuracy from agreement, the comparison at the budget, then the
    two-class pilot plan (or why there is none; the K-class pilot is
    :func:`humanly.cli.multiclass_render.show_multiclass_pilot`)."""
    from ..verdicts.plan import source_words

    quick = res.comparison
    ui.show(
        f"crowd agreement {res.agreement:.3f} → label accuracy q̂ = {res.label_accuracy:.3f}; "
        f"classifier accuracies {res.better_accuracy:.3f} vs {quick.p:.3f} "
        f"({source_words(res.better_accuracy_source)}, ε = {res.eps:g})"
    )
    vote = "majority" if res.n_classes == 2 else "plurality"
    errors = (
        "independent errors"
        if res.n_classes == 2
        else f"{res.n_classes} classes, errors uniform over the other classes, plurality votes"
    )
    rows = [
        {
            "labelling": f"m = {m}" + (" (single labels)" if m == 1 else f" ({m}-{vote})"),
            "items": items,
            "win": win,
            "budget_needed": need,
        }
        for m, items, win, need in zip(
            quick.labels_per_item, quick.items, quick.win, quick.budget_needed, strict=True
        )
    ]
    table(
        f"Budget {res.budget:,} labels at q̂ = {res.label_accuracy:.3f} ({errors}; "
        f"the level: P(better ranked first) ≥ {res.level:g})",
        rows,
        COMPARISON_COLUMNS,
    )
    from ..verdicts.notes import notes_text
    from ..verdicts.pilot import pilot_skipped_sentence
    from ..verdicts.plan import better_use

    vote = "majority" if res.n_classes == 2 else "plurality"
    tie = (
        vote_ties_line(quick.vote_ties)
        if res.n_classes == 2
        else "a tied plurality is broken at random"
    )
    ui.lines([f"{tie}; —: no budget reaches the level", better_use(quick, vote)])
    for msg in notes_text(quick.notes):
        ui.note(f"note: {msg}")
    if res.pilot is not None:
        show_pilot(res.pilot)
    elif res.pilot_skipped is not None:
        ui.show(f"no pilot plan: {pilot_skipped_sentence(res.pilot_skipped)}")


def show_pilot(res: bd.PilotPlan) -> None:
    """The pilot plan: the models, the estimates with their ranges and how they were fitted, the
    assumption tests, the budgets, the recommendation and the notes (stderr)."""
    ui.show(
        f"better: {res.better}   worse: {res.worse}   pilot items: {res.n_items:,} "
        f"({res.n_used:,} used)"
    )
    rows = [
        {
            "parameter": k,
            "meaning": MEANING[k],
            "estimate": getattr(res.estimates, k),
            "low": r.low,
            "high": r.high,
        }
        for k, r in res.intervals.items()
    ]
    ranges = (
        f"95% bootstrap interval, {res.bootstrap:,} replicates" if res.bootstrap else "no ranges"
    )
    table(
        f"{METHOD_TITLE.get(res.estimator, res.estimator)}; {ranges}",
        rows,
        ["parameter", "meaning", "estimate", ("low", "95% low"), ("high", "95% high")],
    )
    if any(not math.isfinite(float(r["estimate"])) for r in rows):
        ui.lines(["—: undefined on this pilot (no pilot item informs it)"])
    from ..verdicts.pilot import assumption_sentence, pilot_notes

    ui.lines(_fit_lines(res))
    ui.lines(assumption_sentence(t) for t in res.assumptions.tests)
    size_cols = SIZE_COLUMNS[:4]
    table(
        f"Label budget (labels in total) for P(better ranked first) ≥ {res.level:g} at the pilot's "
        "point estimates",
        [x.to_dict() for x in res.sizes],
        size_cols,
    )
    _rules(res)
    if res.comparison is not None:
        head = (
            f"P(better classifier identified) at the pilot's estimates, budget "
            f"{res.comparison.budget:,} labels"
        )
        show_comparison(res.comparison, title=head)
    show_recommendation(
        res.recommended_labels_per_item, res.recommended_budget, res.recommended_items
    )
    for msg in pilot_notes(res):
        ui.note(f"note: {msg}")


def show_sweep(res: bd.SweepResult, tolerance: float) -> None:
    """The sweep's totals in five lines."""
    at = None if res.max_violation_at is None else res.max_violation_at.to_dict()
    share = res.share_single_wins_qw_gt_qb
    single = (
        "—" if share is None else f"{share:.1%} of {res.qw_gt_qb_pairs:,} (paper: about two thirds)"
    )
    ui.lines(
        [
            f"chunks {res.chunks_done}/{res.chunks_total}; {res.configurations:,} configurations; "
            f"{res.probability_pairs:,} probability pairs",
            f"violations (q_b ≥ q_w, multi − single > {tolerance:g}): {res.violations:,}",
            f"largest multi − single under assumption 1: {fmt(res.max_violation)} at {at}",
            f"single labels still better where q_w > q_b: {single}",
        ]
    )
