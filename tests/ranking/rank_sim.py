"""A Bradley–Terry world with ties, human voters and judges of several qualities (some favouring the
answer shown first), and the exact estimands of that world — for the coverage tests.

Each comparison c draws a pair of models uniformly and an order (which is shown as A); its own
quality difference is u_c = θ_A − θ_B + spread·ε_c, ε_c ~ N(0, 1). A human vote is a tie with
probability ``tie``, else A wins with probability σ(u_c). A judge (scale κ, bias b, tie rate t_j) is a
tie with probability t_j, else A wins with probability σ(κ·(u_c + b)): κ large is a sharp judge, b > 0
one that favours position A.

The estimands are computed from the world's probabilities (Gauss–Hermite quadrature over ε), never
from the data: win rates (a tie half a win), and the Bradley–Terry strengths that minimise the
expected loss (ties as half a win each) — found with scipy.optimize, independently of humanly.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit

#: name → (κ, position bias b, tie rate)
JUDGES = {"sharp": (3.0, 0.0, 0.05), "biased": (1.5, 0.8, 0.1)}


@dataclasses.dataclass(frozen=True)
class World:
    theta: np.ndarray
    tie: float = 0.25
    spread: float = 1.0

    @property
    def names(self) -> list[str]:
        return [f"m{k:02d}" for k in range(len(self.theta))]

    def p_first(self, delta: np.ndarray) -> np.ndarray:
        """E_ε σ(δ + spread·ε) (Gauss–Hermite, 60 nodes)."""
        x, w = np.polynomial.hermite_e.hermegauss(60)
        return (expit(np.asarray(delta)[..., None] + self.spread * x) * w).sum(-1) / w.sum()

    def win_rates(self, ties: str = "half") -> np.ndarray:
        """Each model's expected score over its comparisons (opponents uniform)."""
        m = len(self.theta)
        delta = self.theta[:, None] - self.theta[None, :]
        p = self.p_first(delta)
        score = {"half": (1 - self.tie) * p + self.tie / 2, "loss": (1 - self.tie) * p, "drop": p}
        s = score[ties]
        np.fill_diagonal(s, 0.0)
        return s.sum(axis=1) / (m - 1)

    def strengths(self) -> np.ndarray:
        """The Bradley–Terry strengths minimising the expected loss (ties as half), centred."""
        m = len(self.theta)
        i, j = np.triu_indices(m, 1)
        s = (1 - self.tie) * self.p_first(self.theta[i] - self.theta[j]) + self.tie / 2

        def loss(free: np.ndarray) -> tuple[float, np.ndarray]:
            th = np.concatenate([[0.0], free])
            d = th[i] - th[j]
            value = np.sum(np.logaddexp(0.0, d) - s * d)
            r = expit(d) - s
            g = np.bincount(i, weights=r, minlength=m) - np.bincount(j, weights=r, minlength=m)
            return value, g[1:]

        fit = minimize(loss, np.zeros(m - 1), jac=True, method="BFGS", options={"gtol": 1e-12})
        th = np.concatenate([[0.0], fit.x])
        return th - th.mean()


def ranks(values: np.ndarray) -> np.ndarray:
    """1 = largest."""
    return 1 + (values[None, :] > values[:, None]).sum(axis=1)


def draw(
    world: World,
    n: int,
    n_human: int,
    rng: np.random.Generator,
    judges: dict[str, tuple[float, float, float]] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """``n`` comparisons, the human vote on the first ``n_human``, every judge on all: the world's
    votes as :func:`humanly.simulate.arena` draws them (the generator this module's was promoted to;
    the same draws from the same ``rng``)."""
    from humanly import simulate

    sim = simulate.arena(
        world.names,
        n,
        n_human,
        strengths=world.theta,
        judges=JUDGES if judges is None else judges,
        tie=world.tie,
        spread=world.spread,
        seed=rng,
    )
    return sim.human, sim.judges
