"""One vote per comparison, or several? *Don't Label Twice* (Dorner & Hardt, ICML 2024) in the
pairwise setting, for a budget of B human votes.

Averaged votes (exact). With m votes averaged per comparison, B/m comparisons, a model's estimate has
variance (m·τ² + σ²_w)/B, τ² the variance between comparisons of a vote's expected score and σ²_w the
variance of votes within one comparison; against one vote on each of B comparisons the ratio is
1 + (m − 1)·ICC, ICC = τ²/(τ² + σ²_w) — never below 1, so one vote per comparison never loses. The ICC
is estimated by one-way ANOVA on the comparisons with several human votes; with none, it is not
identified and the ratio is only known to lie in [1, m].

Majority of m votes (the paper's setting, exact). Each comparison has a truly better answer; a vote is
a tie with probability t, and otherwise names the better answer with probability q (the paper's
homogeneous label accuracy). Two decisive votes on one comparison agree with probability q² + (1 − q)²,
which identifies q from the comparisons with several votes. For the two closest models of the
human-only strengths (the higher wins a comparison with probability σ(Δ), a tie counting half), π, the
share of their comparisons the higher one truly wins, follows from σ(Δ) = t/2 + (1 − t)·(πq + (1 − π)(1 −
q)). With the budget spent on their head-to-head — B/m comparisons, each decided by the majority of its
m votes (equal counts: a tie) — the probability that the higher model ends ahead (an even score: a coin
flip) is a finite sum of binomial probabilities: the number K of decided comparisons is
Binomial(B/m, 1 − p_tie), the higher model's wins among them Binomial(K, p_h/(p_h + p_l)). The paper
proves (for large budgets, and conjectures for all) that m = 1 is best when q > ½.

With a judge (exact moment formula). The judge-assisted win rate of a model is a mean over its
comparisons, θ̂ = mean_L(y − λf) + λ·mean_U(f), with variance var(y − λf)/n + λ²·var(f)/N over n
labelled and N judge-only comparisons (:mod:`._winrate`; the strengths' sandwich is the same sum over
comparisons of the rectified gradient, so the argument below holds for every linear functional of
them when the ratio of between to within variance is the same for every pair of models). A
comparison c has an expected human score μ_c; m human votes averaged on it give ȳ_c = μ_c + ε̄_c with
var(ε̄_c) = σ²_w/m, and the judge's vote f_c does not depend on the human votes' noise, so

    var(ȳ_c − λf_c) = A(λ) + σ²_w/m,   A(λ) = var(μ_c − λf_c) = τ² − 2λC + λ²F,

with τ² = var(μ_c), C = cov(μ_c, f_c) = cov(ȳ_c, f_c) and F = var(f_c). For a budget of B votes,
n = B/m, so the variance of the design is

    V(m) = min_λ (m·A(λ) + σ²_w)/B + λ²F/N,   λ*(m) = clip(C / ((1 + B/(mN))·F), 0, 1),

the λ PPI++ tunes to (ppi-python's rule; PPI keeps λ = 1). The ratio V(m)/V(1) lies in [1, m] for any
λ: m·A + σ²_w ≥ A + σ²_w, and the judge's term does not grow with m. Without judge-only comparisons
(N = 0) λ = 0 and it is the human-only 1 + (m − 1)·ICC. ``JudgeRepeat.icc`` is ICC_judge =
A/(A + σ²_w) at λ*(1): the labelled term alone grows as 1 + (m − 1)·ICC_judge, below the human-only
ICC when the judge explains the differences between comparisons (A < τ²), so repeats cost less with
a good judge; the judge's own term only shrinks the ratio further. τ² and σ²_w come from the ANOVA
above (the same comparisons with several human votes: not identified without them), C from the
labelled comparisons the judge voted on, F from every comparison it voted on (scores as above: a win
1, a tie ½); the design is the uniform one (no active-selection weights).

Simulation otherwise (:mod:`._repeat_sim`): how often each design orders the models right, human only
and with each judge, where no formula applies.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np

from .._core.result import Interval
from ._design import Design
from ._repeat_sim import simulate_design, world
from .repeat_results import JudgeRepeat, JudgeRepeatRow, SimulatedOrder
from .result_parts import RepeatPlan, RepeatRow
from .results import Estimates

__all__ = ["MIN_REPEATED", "judge_variance", "majority", "probability_ahead", "repeat_plan"]

#: the fewest comparisons with several human votes (and pairs of decisive votes) to identify the noise
MIN_REPEATED = 10


def majority(m: int, q: float, t: float) -> tuple[float, float, float]:
    """P(the majority of m votes names the truly better answer), P(it names the other), P(equal
    counts), for votes that tie with probability t and otherwise are right with probability q."""
    right, wrong = (1 - t) * q, (1 - t) * (1 - q)
    out = [0.0, 0.0, 0.0]
    for c, w in itertools.product(range(m + 1), repeat=2):
        if c + w > m:
            continue
        ties = m - c - w
        coef = math.factorial(m) / (math.factorial(c) * math.factorial(w) * math.factorial(ties))
        p = coef * right**c * wrong**w * t**ties
        out[0 if c > w else 1 if w > c else 2] += p
    return out[0], out[1], out[2]


def probability_ahead(n: int, p_h: float, p_l: float) -> float:
    """P(#wins of the higher model > #wins of the lower one) + ½·P(equal) over n comparisons, each
    won by the higher model with probability p_h, by the lower with p_l, else drawn (exact)."""
    from scipy.special import betainc, gammaln, xlog1py, xlogy

    decided = p_h + p_l
    if n <= 0 or decided <= 0:
        return 0.5
    r = p_h / decided
    k = np.arange(n + 1, dtype=float)
    log_pmf = gammaln(n + 1) - gammaln(k + 1) - gammaln(n - k + 1)
    pmf_k = np.exp(log_pmf + xlogy(k, decided) + xlog1py(n - k, -decided))
    half = np.floor(k / 2)
    ahead = np.where(k > 0, betainc(half + 1, np.maximum(k - half, 1e-300), r), 0.0)
    even = (k % 2 == 0) & (k > 0)
    log_mid = gammaln(k + 1) - 2 * gammaln(half + 1)
    mid = np.where(even, np.exp(log_mid + xlogy(half, r) + xlog1py(half, -r)), 0.0)
    level = np.where(k == 0, 1.0, mid)
    return float(np.sum(pmf_k * (ahead + 0.5 * level)))


def _anova(d: Design) -> tuple[float, float] | None:
    """τ² (between comparisons) and σ²_w (within) of human vote scores (a win 1, a tie ½) by
    one-way ANOVA on the comparisons with several votes; ``None`` with too few."""
    n = d.human_votes.astype(float)
    many = n >= 2
    k = int(many.sum())
    if k < MIN_REPEATED:
        return None
    x = d.x[many]
    nc = n[many]
    mean_c = 0.5 + 0.5 * (x[:, 0] - x[:, 1])
    tied = np.clip(1.0 - x[:, 0] - x[:, 1], 0.0, 1.0)
    sq_c = nc * (x[:, 0] + 0.25 * tied)  # Σ y² per comparison
    total = nc.sum()
    msw = float((sq_c - nc * mean_c**2).sum() / (total - k))
    grand = float((nc * mean_c).sum() / total)
    msb = float((nc * (mean_c - grand) ** 2).sum() / (k - 1))
    n0 = float((total - (nc**2).sum() / total) / (k - 1))
    tau2 = max((msb - msw) / n0, 0.0)
    if tau2 + msw <= 0:
        return None
    return tau2, max(msw, 0.0)


def _icc(parts: tuple[float, float] | None) -> float | None:
    """The intra-comparison correlation of human vote scores (a win 1, a tie ½) from the ANOVA."""
    if parts is None:
        return None
    tau2, msw = parts
    return tau2 / (tau2 + msw)


def _accuracy(d: Design) -> float | None:
    """q from the agreement of two decisive human votes on one comparison."""
    n = d.human_votes.astype(float)
    a, b = n * d.x[:, 0], n * d.x[:, 1]
    pairs = ((a + b) * (a + b - 1) / 2).sum()
    if pairs < MIN_REPEATED:
        return None
    agree = float(((a * (a - 1) + b * (b - 1)) / 2).sum() / pairs)
    if agree <= 0.5:
        return 0.5
    return 0.5 * (1 + math.sqrt(min(2 * agree - 1, 1.0)))


def _score(x: np.ndarray, source: int) -> np.ndarray:
    """The first model's score per comparison from one source's shares (a win 1, a tie ½)."""
    return 0.5 + 0.5 * (x[:, 2 * source] - x[:, 2 * source + 1])


def _judge_moments(d: Design, j: int) -> tuple[float, float, int] | None:
    """C = cov(human score, judge j's score) on the labelled comparisons it voted on, F = var(judge
    score) on every comparison it voted on, N its judge-only comparisons; ``None`` with too few."""
    judged = d.judged[:, j - 1]
    both = d.labelled & judged
    if both.sum() < MIN_REPEATED:
        return None
    y, f = _score(d.x[both], 0), _score(d.x[both], j)
    c = float(((y - y.mean()) * (f - f.mean())).sum() / (len(y) - 1))
    f_all = _score(d.x[judged], j)
    return c, float(f_all.var(ddof=1)), int(d.unlabelled_mask((j,)).sum())


def judge_variance(
    tau2: float, s2: float, c: float, f: float, n_unl: int, budget: float, m: int, rule: str
) -> tuple[float, float, float]:
    """The variance of the judge-assisted estimate with m votes averaged on each of budget/m
    comparisons (the module docstring), the λ it tunes to, and A(λ)."""
    n = budget / m
    if n_unl <= 0 or f <= 0:
        lam = 0.0
    elif rule == "ppi":
        lam = 1.0
    else:
        lam = min(max(c / ((1.0 + n / n_unl) * f), 0.0), 1.0)
    a = max(tau2 - 2.0 * lam * c + lam * lam * f, 0.0)
    judge_term = lam * lam * f / n_unl if n_unl > 0 else 0.0
    return (a + s2 / m) / n + judge_term, lam, a


def _judge_accuracy(agree: float | None, q: float | None) -> float | None:
    """q_j from the judge's agreement a with decisive human votes: a = q·q_j + (1 − q)(1 − q_j)."""
    if q is None or q <= 0.5 or agree is None:
        return None
    return min(max((agree - (1 - q)) / (2 * q - 1), 0.0), 1.0)


def _judge_plan(
    d: Design,
    j: int,
    budget: int,
    per_comparison: tuple[int, ...],
    rule: str,
    q: float | None,
    agree: float | None,
    parts: tuple[float, float] | None,
) -> JudgeRepeat:
    mom = _judge_moments(d, j) if parts is not None else None
    votes = d.study.judges[j - 1]
    tie = float((votes.outcome == 2).mean()) if votes.n_votes else None
    icc = None
    exact: dict[int, tuple[float, float]] = {}
    if parts is not None and mom is not None:
        tau2, s2 = parts
        c, f, n_unl = mom
        v1, _, a1 = judge_variance(tau2, s2, c, f, n_unl, budget, 1, rule)
        icc = a1 / (a1 + s2) if a1 + s2 > 0 else None
        for m in per_comparison:
            vm, lam_m, _ = judge_variance(tau2, s2, c, f, n_unl, budget, m, rule)
            if v1 > 0:
                exact[m] = (min(max(vm / v1, 1.0), float(m)), lam_m)
    rows = []
    for m in per_comparison:
        ratio, lam = exact.get(m, (None, None))
        rows.append(JudgeRepeatRow(m, budget // m, ratio, Interval(1.0, float(m)), lam))
    return JudgeRepeat(
        judge=votes.name,
        status="identified" if icc is not None and exact else "not_identified",
        icc=icc,
        accuracy=_judge_accuracy(agree, q),
        tie_share=tie,
        unlabelled=int(d.moments_u((j,)).n.sum()),
        rows=tuple(rows),
    )


def _rng(seed: int | None, m: int) -> np.random.Generator:
    """The stream of design m (the same for every source: common comparisons per pair)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(31, m)))


def _simulated(
    d: Design,
    strengths: Estimates,
    plan: RepeatPlan,
    *,
    ties: str,
    rule: str,
    simulations: int,
    seed: int | None,
    agreements: tuple[float | None, ...],
) -> RepeatPlan:
    """``plan`` with the ``simulated`` fields of its rows (:mod:`._repeat_sim`)."""
    if simulations <= 0 or (plan.accuracy is not None and plan.accuracy <= 0.5):
        return dataclasses.replace(plan, seed=seed)
    index = {name: k for k, name in enumerate(d.models)}
    theta = np.full(d.n_models, np.nan)
    for row in strengths.rows:
        if row.estimate is not None:
            theta[index[row.model]] = row.estimate
    w = None
    if plan.higher is not None and plan.lower is not None:
        w = world(d, theta, index[plan.higher], index[plan.lower], plan.accuracy, plan.tie_share)
    if w is None:
        return dataclasses.replace(plan, simulation="no_pair", seed=seed)

    def simulated(m: int, judge: tuple[float, float, np.ndarray] | None = None) -> SimulatedOrder:
        """Design m in the world ``w`` (human only, or with ``judge``: (q_j, t_j, its judge-only
        comparisons per simulated pair)); every source shares design m's stream."""
        return simulate_design(
            d, w, m, plan.budget, simulations, _rng(seed, m), judge=judge, rule=rule, ties=ties
        )

    rows = tuple(
        dataclasses.replace(row, simulated=simulated(row.votes_per_comparison)) for row in plan.rows
    )
    judges = []
    for j, jp in enumerate(plan.judges, start=1):
        tie = jp.tie_share or 0.0
        q_j = _judge_accuracy(agreements[j - 1], w.q)
        if q_j is None:
            judges.append(jp)
            continue
        big_n = d.moments_u((j,)).n[w.pairs]  # the judge-only comparisons per simulated pair
        if big_n.sum() == 0:  # no judge-only comparison: λ = 0, the human-only estimates
            same = {row.votes_per_comparison: row.simulated for row in rows}
            jrows = tuple(
                dataclasses.replace(row, simulated=same[row.votes_per_comparison])
                for row in jp.rows
            )
            judges.append(dataclasses.replace(jp, accuracy=q_j, rows=jrows))
            continue
        judge = (q_j, tie, big_n)
        jrows = tuple(
            dataclasses.replace(row, simulated=simulated(row.votes_per_comparison, judge))
            for row in jp.rows
        )
        judges.append(dataclasses.replace(jp, accuracy=q_j, rows=jrows))
    return dataclasses.replace(
        plan,
        method="exact_and_simulated",
        rows=rows,
        judges=tuple(judges),
        simulation="identified" if plan.accuracy is not None else "least_accurate",
        simulations=simulations,
        simulated_accuracy=w.q,
        simulated_models=tuple(d.models[k] for k in w.models),
        seed=seed,
    )


def repeat_plan(
    d: Design,
    strengths: Estimates,
    budget: int,
    per_comparison: tuple[int, ...],
    *,
    ties: str = "half",
    rule: str = "ppi++",
    simulations: int = 0,
    seed: int | None = None,
    agreements: tuple[float | None, ...] = (),
) -> RepeatPlan:
    """The :class:`~.results.RepeatPlan` for ``budget`` human votes: exact numbers for the humans
    alone and with each judge (``rule`` the judges' estimator; ``"classical"``: no judge), and
    ``simulations`` replicates per design of the seeded simulation (0: none). ``agreements``: each
    judge's agreement with decisive human votes (``JudgeAgreement.decisive_rate``; ``None``
    each when left out)."""
    if len(agreements) != len(d.study.judges):
        agreements = (None,) * len(d.study.judges)
    parts = _anova(d)
    icc = _icc(parts)
    repeated = int((d.human_votes >= 2).sum())
    q = _accuracy(d)
    votes = d.study.human
    tie_share = float((votes.outcome == 2).mean()) if votes.n_votes else 0.0
    closest = min(strengths.adjacent, key=lambda s: s.difference, default=None)
    rows = []
    for m in per_comparison:
        prob = None
        if q is not None and q > 0.5 and closest is not None and tie_share < 1:
            p1 = 1.0 / (1.0 + math.exp(-closest.difference))
            p_dec = min(max((p1 - tie_share / 2) / (1 - tie_share), 0.0), 1.0)
            pi = min(max((p_dec - (1 - q)) / (2 * q - 1), 0.0), 1.0)
            right, wrong, _ = majority(m, q, tie_share)
            p_h = pi * right + (1 - pi) * wrong
            p_l = pi * wrong + (1 - pi) * right
            prob = probability_ahead(budget // m, p_h, p_l)
        rows.append(
            RepeatRow(
                votes_per_comparison=m,
                comparisons=budget // m,
                variance_ratio=None if icc is None else 1.0 + (m - 1) * icc,
                variance_ratio_interval=Interval(1.0, float(m)),
                probability_correct=prob,
            )
        )
    judges: tuple[JudgeRepeat, ...] = ()
    if rule != "classical":
        judges = tuple(
            _judge_plan(d, j, budget, per_comparison, rule, q, agreements[j - 1], parts)
            for j in range(1, len(d.study.judges) + 1)
        )
    plan = RepeatPlan(
        status="identified" if icc is not None else "not_identified",
        method="exact",
        budget=int(budget),
        icc=icc,
        repeated=repeated,
        accuracy=q,
        tie_share=tie_share,
        higher=closest.higher if closest else None,
        lower=closest.lower if closest else None,
        rows=tuple(rows),
        judges=judges,
    )
    return _simulated(
        d,
        strengths,
        plan,
        ties=ties,
        rule=rule,
        simulations=simulations,
        seed=seed,
        agreements=agreements,
    )
