"""``humanly demo``: reports on the bundled Wikipedia personal-attack sample and on the simulated
Survey Equivalence running example, and a five-line summary."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from .._result import Result
from ..data import InputError
from ..datasets import wiki_attack, wiki_attack_path
from ..simulate import running_example
from .build import build_report

__all__ = ["DemoResult", "run_demo"]


@dataclasses.dataclass(frozen=True, repr=False)
class DemoResult(Result):
    """Paths of the two demo reports, their embedded results and the summary lines."""

    report: Path
    simulated_report: Path
    lines: tuple[str, ...]
    results: dict[str, Any]
    simulated_results: dict[str, Any]


def run_demo(
    folder: str | Path = "humanly-demo",
    *,
    seed: int = 0,
    bootstrap: int = 200,
    show_progress: bool = True,
) -> DemoResult:
    """Write ``folder/report.html`` (bundled wiki attack sample with its classifier) and
    ``folder/running-example.html`` (1,000 simulated items × 10 labels), replacing earlier demo files.
    ``folder`` is created if its parent folder exists."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} exists and is not a folder; choose another folder")
    if not out.parent.is_dir():
        raise InputError(f"{out}: folder {out.parent} does not exist; create it first")
    out.mkdir(exist_ok=True)
    options = {"bootstrap": bootstrap}

    ratings, predictions = wiki_attack()
    real = build_report(
        ratings,
        predictions,
        seed=seed,
        title="humanly demo · Wikipedia personal attacks (2,000 comments)",
        command=f"humanly demo --seed {seed}",
        inputs=[wiki_attack_path()],
        show_progress=show_progress,
        options=options,
    )
    real_path = real.write(out / "report.html", force=True)

    sim = running_example(1000, 10, seed=seed)
    simulated = build_report(
        sim.ratings,
        sim.predictions,
        sim.gold,
        seed=seed,
        title="humanly demo · Survey Equivalence running example (simulated, 1,000 × 10)",
        command=f"humanly demo --seed {seed}",
        show_progress=show_progress,
        options=options,
    )
    sim_path = simulated.write(out / "running-example.html", force=True)

    d = real.results["inspect"]
    pairwise = d["agreement"]["pairwise"]
    lines = [
        f"humanly demo · Wikipedia personal attacks (bundled, MIT): {d['n_items']:,} comments, "
        f"{d['n_labels']:,} labels, pairwise agreement {pairwise:.3f}"
    ]
    lines += [line for line in real.headline() if not line.startswith("data:")][:3]
    lines.append(f"reports: {real_path} and {sim_path} (simulated running example)")
    return DemoResult(
        real_path, sim_path, tuple(lines), real.to_dict()["results"], simulated.to_dict()["results"]
    )
