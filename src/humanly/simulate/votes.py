"""Pairwise votes with a known truth (issue 31): an arena of models with Bradley–Terry strengths, human
voters who tie, and model judges of given sharpness, tie rate and position bias.

Each comparison draws an ordered pair of different models uniformly (the first is shown as model A)
and its own quality difference u_c = θ_A − θ_B + spread·ε_c, ε_c ~ N(0, 1): some prompts suit one
model better than the strengths say. A human vote is a tie with probability ``tie``, else A wins with
probability σ(u_c); a judge (:class:`ArenaJudge` ``(scale, bias, tie)``) is a tie with probability
``tie``, else A wins with probability σ(scale·(u_c + bias)) — a large scale is a sharp judge, a positive
bias one that favours the answer shown first. Every judge votes on every comparison; humans vote on
the first ``human`` of them (``votes_per_comparison`` votes each, by different voters).

>>> from humanly import simulate
>>> sim = simulate.arena(5, 200, 50, seed=0)
>>> len(sim.human), sorted(sim.judges), sim.truth["order"][:2]
(50, ['first-biased', 'sharp'], ('model-01', 'model-02'))
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._core.checks import check_int, check_number, check_probability
from .._core.result import Result
from ..data import InputError, VoteStudy, join_votes
from ..errors import setting
from ._simulated import Seed, _rng, write_all

__all__ = ["ARENA_JUDGES", "ArenaJudge", "SimulatedVotes", "arena"]


@dataclasses.dataclass(frozen=True)
class ArenaJudge:
    """A simulated judge: A wins with probability σ(scale·(u + bias)) when it does not call a tie.

    Parameters
    ----------
    scale : float
        How sharply it follows the comparison's quality difference u (1: as sharp as a human voter).
    bias : float
        Added to u before it votes: positive favours the answer shown first (model A).
    tie : float
        The probability that it calls a tie.

    Examples
    --------
    >>> ArenaJudge(3.0, 0.0, 0.05).scale
    3.0
    """

    scale: float = 3.0
    bias: float = 0.0
    tie: float = 0.05


#: The default judges: a sharp one, and one as sharp as a voter that favours the first answer.
ARENA_JUDGES: dict[str, ArenaJudge] = {
    "sharp": ArenaJudge(3.0, 0.0, 0.05),
    "first-biased": ArenaJudge(1.5, 0.8, 0.10),
}


@dataclasses.dataclass(frozen=True, repr=False)
class SimulatedVotes(Result):
    """Simulated pairwise votes with their truth (:func:`arena`).

    ``to_dict()`` is a summary (sizes and the scalar truth), not the data: :meth:`write` writes the
    votes, :meth:`study` joins them.

    Parameters
    ----------
    human : pandas.DataFrame
        The human votes: ``id``, ``model_a``, ``model_b``, ``winner`` (and ``rater`` with several
        votes per comparison).
    judges : dict of str to pandas.DataFrame
        Each judge's votes on every comparison, in the same columns.
    truth : dict
        ``generator`` (``"arena"``), ``models``, ``strengths`` (θ, centred), ``order`` (best first),
        ``tie``, ``spread``, ``judges`` (name → :class:`ArenaJudge`).

    Examples
    --------
    >>> from humanly import simulate
    >>> simulate.arena(4, 100, 30, seed=1).study().n_comparisons
    100
    """

    human: pd.DataFrame
    judges: dict[str, pd.DataFrame]
    truth: dict[str, Any] = dataclasses.field(default_factory=dict)

    def __repr__(self) -> str:
        return (
            f"SimulatedVotes({len(self.truth.get('models', ()))} models, "
            f"{len(self.human):,} human votes, judges={list(self.judges)})"
        )

    def to_dict(self) -> dict[str, Any]:
        """A summary as JSON-ready Python: the sizes and the truth."""
        judges = {k: dataclasses.asdict(v) for k, v in self.truth.get("judges", {}).items()}
        return {
            "human_votes": len(self.human),
            "comparisons": max((len(f) for f in self.judges.values()), default=len(self.human)),
            "truth": {
                "generator": self.truth.get("generator"),
                "models": list(self.truth.get("models", ())),
                "strengths": [float(x) for x in self.truth.get("strengths", ())],
                "tie": self.truth.get("tie"),
                "spread": self.truth.get("spread"),
                "judges": judges,
            },
        }

    def study(self, *, missing: str = "error") -> VoteStudy:
        """The votes joined by comparison id (:func:`humanly.data.join_votes`).

        Parameters
        ----------
        missing : {"error", "drop"}
            As for :func:`~humanly.data.join_votes`.

        Returns
        -------
        VoteStudy

        Examples
        --------
        >>> from humanly import simulate
        >>> study = simulate.arena(4, 100, 30, seed=1).study()
        >>> int(study.labelled.sum()), study.judge_names
        (30, ('sharp', 'first-biased'))
        """
        return join_votes(self.human, self.judges or None, missing=missing)

    def files(self, path: str | Path) -> dict[str, Path]:
        """Where :meth:`write` puts each table: ``X.csv`` for the human votes, ``X.<judge>.csv`` for
        each judge's.

        Parameters
        ----------
        path : str or path
            The human votes' file.

        Returns
        -------
        dict
            ``"human"`` and each judge's name → its path.

        Raises
        ------
        InputError
            For a path without an extension.

        Examples
        --------
        >>> from humanly import simulate
        >>> {k: v.name for k, v in simulate.arena(4, 40, 10, seed=0).files("v.csv").items()}
        {'human': 'v.csv', 'sharp': 'v.sharp.csv', 'first-biased': 'v.first-biased.csv'}
        """
        p = Path(path)
        if not p.suffix:
            raise InputError(
                f"{p}: give the output file an extension (.csv, .tsv, .parquet, .jsonl)"
            )
        return {"human": p, **{k: p.with_name(f"{p.stem}.{k}{p.suffix}") for k in self.judges}}

    def write(self, path: str | Path, *, force: bool = True) -> dict[str, Path]:
        """Write the human votes and each judge's votes, each file atomically.

        Parameters
        ----------
        path : str or path
            The human votes' file (see :meth:`files` for the judges').
        force : bool
            Replace existing files (without it, an existing file is an error and nothing this call
            published is left behind).

        Returns
        -------
        dict
            ``"human"`` and each judge's name → the path written.

        Raises
        ------
        InputError
            For a path without an extension, or (``force=False``) a file that exists.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from humanly import simulate
        >>> folder = pathlib.Path(tempfile.mkdtemp())
        >>> paths = simulate.arena(4, 40, 10, seed=0).write(folder / "v.csv")
        >>> sorted(p.name for p in paths.values())
        ['v.csv', 'v.first-biased.csv', 'v.sharp.csv']
        """
        targets = self.files(path)
        write_all({"human": self.human, **self.judges}, targets, force=force)
        return targets


def _names(models: int | Sequence[str]) -> list[str]:
    if isinstance(models, (int, np.integer)):
        m = int(check_int("models", models, minimum=2))
        return [f"model-{k + 1:0{max(2, len(str(m)))}d}" for k in range(m)]
    names = [str(x) for x in models]
    if len(names) < 2 or len(set(names)) != len(names):
        raise InputError(
            f"{setting('models', names[:5])}: give at least two different names (or the number of models)"
        )
    return names


def _judges(judges: Mapping[str, Any] | None) -> dict[str, ArenaJudge]:
    if judges is None:
        return dict(ARENA_JUDGES)
    out = {}
    for name, spec in judges.items():
        j = ArenaJudge(*spec) if not isinstance(spec, ArenaJudge) else spec
        check_number(f"judges[{name!r}].scale", j.scale, minimum=0.0)
        check_number(f"judges[{name!r}].bias", j.bias)
        check_probability(f"judges[{name!r}].tie", j.tie, open_high=True)
        out[str(name)] = j
    if "human" in out:
        raise InputError("judges: the name 'human' is reserved for the human votes")
    return out


def arena(
    models: int | Sequence[str] = 20,
    comparisons: int = 6000,
    human: int = 1000,
    *,
    strengths: Sequence[float] | np.ndarray | None = None,
    judges: Mapping[str, ArenaJudge | tuple[float, float, float]] | None = None,
    tie: float = 0.25,
    spread: float = 1.0,
    votes_per_comparison: int = 1,
    seed: Seed = None,
) -> SimulatedVotes:
    """An arena of models compared in pairs: human votes on some comparisons, judges on all.

    Parameters
    ----------
    models : int or sequence of str
        The number of models (named ``model-01``, …) or their names.
    comparisons : int
        Comparisons (prompts answered by two models), every one voted on by every judge.
    human : int
        The comparisons that get human votes (the first ones drawn).
    strengths : sequence of float, optional
        The models' Bradley–Terry strengths θ (natural-log scale); default evenly spread from 1.5
        (the first model) to −1.5 (the last).
    judges : mapping of str to ArenaJudge, optional
        Each judge's ``(scale, bias, tie)``; default :data:`ARENA_JUDGES` (``{}``: none).
    tie : float
        The probability that a human vote is a tie.
    spread : float
        The standard deviation of a comparison's own quality difference around θ_A − θ_B.
    votes_per_comparison : int
        Human votes on each human-voted comparison (by different voters, ``rater`` ``v1``, ``v2``, …).
    seed : int or numpy.random.Generator, optional
        The seed; the same seed gives the same votes.

    Returns
    -------
    SimulatedVotes

    Raises
    ------
    InputError
        Fewer than two models, ``human`` above ``comparisons``, a probability out of range.

    Examples
    --------
    >>> from humanly import simulate
    >>> sim = simulate.arena(["a", "b", "c"], 300, 100, strengths=[1, 0, -1], seed=0)
    >>> sim.human.columns.tolist(), sim.truth["order"]
    (['id', 'model_a', 'model_b', 'winner'], ('a', 'b', 'c'))
    """
    names = _names(models)
    m = len(names)
    n = int(check_int("comparisons", comparisons, minimum=1))
    n_human = int(check_int("human", human, minimum=0))
    if n_human > n:
        raise InputError(
            f"human={n_human}: at most comparisons={n} comparisons can get human votes"
        )
    k_votes = int(check_int("votes_per_comparison", votes_per_comparison, minimum=1))
    check_probability("tie", tie, open_high=True)
    check_number("spread", spread, minimum=0.0)
    theta = np.linspace(1.5, -1.5, m) if strengths is None else np.asarray(strengths, float)
    if theta.shape != (m,) or not np.isfinite(theta).all():
        raise InputError(f"strengths: give one finite number per model ({m}), got {theta.shape}")
    specs = _judges(judges)
    rng = _rng(seed)
    pairs = np.array(list(itertools.permutations(range(m), 2)))
    pick = pairs[rng.integers(0, len(pairs), n)]
    a, b = pick[:, 0], pick[:, 1]
    u = theta[a] - theta[b] + spread * rng.normal(size=n)
    labels = np.array(names, dtype=object)

    def vote(p_a: np.ndarray, tie_rate: float) -> np.ndarray:
        out = np.where(rng.random(len(p_a)) < p_a, "model_a", "model_b").astype(object)
        return np.where(rng.random(len(p_a)) < tie_rate, "tie", out)

    frame = pd.DataFrame({"id": np.arange(n), "model_a": labels[a], "model_b": labels[b]})
    first = vote(_sigmoid(u[:n_human]), tie)
    judged = {
        k: frame.assign(winner=vote(_sigmoid(j.scale * (u + j.bias)), j.tie))
        for k, j in specs.items()
    }
    votes = frame.iloc[:n_human].assign(winner=first)
    if k_votes > 1:
        more = [vote(_sigmoid(u[:n_human]), tie) for _ in range(k_votes - 1)]
        votes = pd.concat(
            [votes.assign(rater="v1")]
            + [
                frame.iloc[:n_human].assign(winner=w, rater=f"v{i + 2}") for i, w in enumerate(more)
            ],
            ignore_index=True,
        )
    centred = theta - theta.mean()
    truth = {
        "generator": "arena",
        "models": tuple(names),
        "strengths": centred,
        "order": tuple(names[i] for i in np.argsort(-centred, kind="stable")),
        "tie": float(tie),
        "spread": float(spread),
        "judges": specs,
    }
    return SimulatedVotes(votes.reset_index(drop=True), judged, truth)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))
