"""A Monte Carlo check of the exact probabilities: simulates items, both classifiers and the crowd
labels (not G directly), so it checks Propositions 1/2, M_m and the exact sum together."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._core.checks import check_int
from .._core.parallel import run_tasks
from .._core.result import Result
from .._core.rng import stream
from ._args import Ties, VoteTies, check_ties, check_vote_ties
from .models import ErrorModel

__all__ = ["MonteCarlo", "simulate_win"]


@dataclass(frozen=True, repr=False)
class MonteCarlo(Result):
    """A seeded Monte Carlo estimate of the win / tie / loss probabilities.

    Parameters
    ----------
    labels_per_item : int
        Labels per item.
    n : int
        Items.
    simulations : int
        Replicates.
    seed : int
        The seed (chunk i of the replicates draws from ``stream(seed, i)``).
    win : float
        P(c_b identified), a tied comparison counted as ``ties`` says.
    tie, loss : float
        P(ΣG = 0), P(ΣG < 0).
    se : float
        The standard error of ``win``.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.

    Examples
    --------
    >>> MonteCarlo(3, 50, 200, 5, 0.6, 0.05, 0.35, 0.03).to_dict()["se"]
    0.03
    """

    labels_per_item: int
    n: int
    simulations: int
    seed: int
    win: float
    tie: float
    loss: float
    se: float
    ties: str = "loss"
    vote_ties: str = "coin"


def _chunk_params(error_model: ErrorModel) -> tuple[float, float, float, float, float, float]:
    """(q_b, q_w, q where the classifiers agree, p_w, p_b⁰, p_b¹) of either error model."""
    p = error_model.params()
    if error_model.scenario == "independent":
        return (p["q"], p["q"], p["q"], p["p"], p["p"] + p["eps"], p["p"] + p["eps"])
    qa = (p["q_b"] + p["q_w"]) / 2
    return (p["q_b"], p["q_w"], qa, p["p_w"], p["p_b0"], p["p_b1"])


def _mc_chunk(
    params: tuple[float, float, float, float, float, float],
    m: int,
    n: int,
    simulations: int,
    seed: int,
    index: int,
    coin: bool = True,
) -> tuple[int, int, int]:
    """One chunk of replicates: items, classifiers and m crowd labels drawn as in
    :func:`humanly.simulate.pair` (majority label; a tied vote by a fair coin when ``coin``, else a
    wrong label); returns win/tie/loss counts."""
    q_b, q_w, q_agree, p_w, p_b0, p_b1 = params
    g = stream(seed, index)
    w_right = g.random((simulations, n)) < p_w
    b_right = g.random((simulations, n)) < np.where(w_right, p_b1, p_b0)
    only_b = b_right & ~w_right
    only_w = w_right & ~b_right
    q_item = np.where(only_b, q_b, np.where(only_w, q_w, q_agree))
    right = g.binomial(m, q_item)
    label_ok = 2 * right > m
    if m % 2 == 0 and coin:
        label_ok |= (2 * right == m) & (g.random((simulations, n)) < 0.5)
    gap = np.where(only_b, np.where(label_ok, 1, -1), 0) + np.where(
        only_w, np.where(label_ok, -1, 1), 0
    )
    total = gap.sum(axis=1)
    return int((total > 0).sum()), int((total == 0).sum()), int((total < 0).sum())


def simulate_win(
    error_model: ErrorModel,
    labels_per_item: int,
    n: int,
    simulations: int,
    *,
    seed: int = 0,
    ties: Ties = "loss",
    vote_ties: VoteTies = "coin",
    workers: int | None = None,
    scheduler: str | None = None,
) -> MonteCarlo:
    """Monte Carlo P(c_b identified) with n items and m labels each.

    Items, both classifiers and the crowd labels are simulated (not G directly), so this checks
    Propositions 1–2, M_m and the exact sum together. Chunk i of the replicates draws from
    ``stream(seed, i)``: the same seed gives the same numbers on any number of workers.

    Parameters
    ----------
    error_model : IndependentErrors or CorrelatedErrors
        How the classifiers' and the labels' errors relate.
    labels_per_item : int
        Labels per item.
    n : int
        Items.
    simulations : int
        Replicates.
    seed : int
        The seed.
    ties : {"loss", "half"}
        What a tied comparison counts as.
    vote_ties : {"coin", "failure"}
        How a tied vote of an even m is settled.
    workers : int, optional
        Run the chunks on a dask LocalCluster of this many workers.
    scheduler : str, optional
        Run the chunks on a running dask scheduler.

    Returns
    -------
    MonteCarlo
        The estimates with the standard error of the win probability.

    Examples
    --------
    >>> from humanly.budget import IndependentErrors
    >>> mc = simulate_win(IndependentErrors(0.8, 0.05, 0.7), 3, 50, 200, seed=5)
    >>> mc.simulations, 0 <= mc.win <= 1
    (200, True)
    """
    m = check_int("labels_per_item", labels_per_item, minimum=1)
    n = check_int("n", n, minimum=1)
    simulations = check_int("simulations", simulations, minimum=1)
    seed = check_int("seed", seed, minimum=0)
    ties, vote_ties = check_ties(ties), check_vote_ties(vote_ties)
    params = _chunk_params(error_model)
    per = max(1, min(simulations, 2_000_000 // max(n, 1)))
    sizes = [min(per, simulations - s) for s in range(0, simulations, per)]
    coin = vote_ties == "coin"
    args = [(params, m, n, size, seed, i, coin) for i, size in enumerate(sizes)]
    counts = run_tasks(
        _mc_chunk,
        args,
        workers=workers,
        scheduler=scheduler,
        description="simulating",
        show_progress=len(args) > 4,
    )
    win, tie, loss = (sum(c[k] for c in counts) for k in range(3))
    pw, pt = win / simulations, tie / simulations
    est = pw + 0.5 * pt if ties == "half" else pw
    var = est * (1 - est) if ties == "loss" else (pw + 0.25 * pt) - est**2
    return MonteCarlo(
        m,
        n,
        simulations,
        seed,
        est,
        pt,
        loss / simulations,
        math.sqrt(max(var, 0) / simulations),
        ties,
        vote_ties,
    )
