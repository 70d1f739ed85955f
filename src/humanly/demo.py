"""``humanly demo``: reports on the bundled Wikipedia personal-attack sample, on the simulated
Survey Equivalence running example and on simulated arena-like pairwise votes, and the same findings on
the terminal, section for section.

The Wikipedia page also has a *Judge* section: the judge example of :func:`judge_example` (human
labels kept on 200 of the 2,000 comments, a simulated judge on all of them), so the demo shows every
analysis. With 200 labels each model's accuracy gets the default small-sample interval of the human
labels alone (PPI's interval of one accuracy needs 500 to keep its level, docs/judge.md) and the
difference of the two models PPI++'s, which the judge narrows; the page's sentences say which.

The terminal prints each page's title and then, section by section in page order, the
sentences the page shows (:func:`humanly.verdicts.study.sections` of each study, which the page's
sections quote): the two say the same thing.

The running example shows what the paper's example shows: a hard classifier (``hard``) scored by
agreement beside its calibrated soft version (``soft``) scored by cross-entropy, and — because the
simulation knows each item's true state — SEQ* and HSCORE* beside the rater-based equivalence (the
states reach :func:`humanly.analyze` through :class:`~humanly.study.AnalyzeOptions`).

The arena page ranks models from pairwise votes (:func:`humanly.rank`) on a **simulated** Chatbot
Arena-like set (:func:`arena_example`: drawn at run time by :func:`humanly.simulate.arena` with a fixed
seed, so humanly ships no arena data): human votes on some comparisons, two judges — one sharp, one
that favours the answer shown first — on all of them. docs/rank.md runs the same analysis on the real
Chatbot Arena votes when ``../shared/data/arena`` is beside the checkout.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from ._core.result import Result
from .data import InputError
from .datasets import wiki_attack, wiki_attack_path
from .report import build_report
from .simulate import ArenaJudge, SimulatedData, SimulatedVotes, arena, running_example
from .study import AnalyzeOptions, StudyResult, analyze

__all__ = [
    "DEMO_BOOTSTRAP",
    "DemoResult",
    "arena_example",
    "judge_example",
    "run_demo",
    "simulated_states",
]

#: The demo's bootstrap replicates (the library's default).
DEMO_BOOTSTRAP = 1000


@dataclasses.dataclass(frozen=True, repr=False)
class DemoResult(Result):
    """Paths of the demo reports and their studies' results (what the pages and the terminal say is
    written from these by :mod:`humanly.verdicts.study`); ``exports`` the folders of the
    paper-ready files when asked for (``export=``); ``arena_report`` and ``arena_study`` the page of
    the simulated pairwise votes."""

    report: Path
    simulated_report: Path
    study: StudyResult
    simulated_study: StudyResult
    exports: tuple[Path, ...] = ()
    arena_report: Path | None = None
    arena_study: StudyResult | None = None

    @property
    def studies(self) -> tuple[StudyResult, ...]:
        """The pages' studies, in the order the terminal prints them."""
        extra = () if self.arena_study is None else (self.arena_study,)
        return (self.study, self.simulated_study, *extra)


def simulated_states(sim: SimulatedData) -> Any:
    """The true item states of a simulation as :func:`humanly.survey.truth_equivalence` takes them: a
    DataFrame indexed by item id with one column per class (``None`` when it has none)."""
    import pandas as pd

    if "states" not in sim.truth:
        return None
    frame = pd.DataFrame(sim.truth["states"], index=sim.ratings.items.map(str))
    frame.columns = list(sim.ratings.classes)
    return frame


def judge_example(seed: int = 0, labelled: int = 200) -> tuple[Any, dict[str, float]]:
    """The demo's judge example on the bundled data (docs/judge.md does the same by hand).

    ``labelled`` of the 2,000 comments keep their human labels; the judge (**simulated**) is one crowd
    label per comment drawn at random, and beside the classifier ``noisy (simulated)`` is it with 15%
    of its labels flipped. Returns :func:`humanly.judging.judge`'s result and each model's accuracy
    from all the labels (its mean agreement with the raters on every comment), to compare.
    """
    import numpy as np
    import pandas as pd

    from .data import Ratings
    from .judging import judge

    ratings, predictions = wiki_attack()
    counts = np.asarray(ratings.counts)
    classes = np.array(ratings.classes)
    rng = np.random.default_rng(seed)
    share = counts / counts.sum(axis=1, keepdims=True)
    drawn = (rng.random(len(counts)) < share[:, 1]).astype(int)  # one label, two classes
    llm = pd.Series(classes[drawn], index=ratings.items, name="one rater (simulated)")
    hard = np.asarray(predictions.hard(predictions.names[0]))
    noisy = np.where(rng.random(len(hard)) < 0.15, 1 - hard, hard)
    codes = {predictions.names[0]: hard, "noisy (simulated)": noisy}
    keep = np.zeros_like(counts)
    rows = rng.choice(len(counts), labelled, replace=False)
    keep[rows] = counts[rows]
    few = Ratings.from_counts(keep, items=list(ratings.items), classes=ratings.classes)
    models = {k: pd.Series(classes[c], index=ratings.items) for k, c in codes.items()}
    answer = {k: float(share[np.arange(len(c)), c].mean()) for k, c in codes.items()}
    return judge(few, models, judge=llm, seed=seed), answer


#: The simulated arena of the demo: models, comparisons, and the comparisons with a human vote.
ARENA = (10, 10_000, 2_000)


def arena_example(seed: int = 0) -> SimulatedVotes:
    """The demo's pairwise votes, **simulated** and arena-like (:func:`humanly.simulate.arena` with
    ``seed``): 10 models with strengths evenly spread from 3 to −3, 10,000 comparisons (each with its
    own quality difference, spread 2.5; human ties 15%), a human vote on 2,000 of them, and two judges
    on all — ``sharp`` and ``first-biased`` (as sharp as a voter, favouring the answer shown first).

    >>> sim = arena_example()
    >>> len(sim.human), sorted(sim.judges)
    (2000, ['first-biased', 'sharp'])
    """
    import numpy as np

    models, comparisons, human = ARENA
    return arena(
        models,
        comparisons,
        human,
        strengths=np.linspace(3.0, -3.0, models),
        judges={"sharp": ArenaJudge(4.0, 0.0, 0.05), "first-biased": ArenaJudge(1.5, 0.8, 0.10)},
        tie=0.15,
        spread=2.5,
        seed=seed,
    )


def _check_folder(out: Path, what: str) -> None:
    if out.exists() and not out.is_dir():
        raise InputError(f"{out} exists and is not a folder; choose another {what}")
    if not out.parent.is_dir():
        raise InputError(f"{out}: folder {out.parent} does not exist; create it first")


def run_demo(
    folder: str | Path = "humanly-demo",
    *,
    seed: int = 0,
    bootstrap: int = DEMO_BOOTSTRAP,
    show_progress: bool = True,
    export: str | Path | None = None,
) -> DemoResult:
    """Write ``folder/report.html`` (bundled wiki attack sample with its classifier, and the judge
    example), ``folder/running-example.html`` (1,000 simulated items × 10 labels) and
    ``folder/arena.html`` (simulated pairwise votes ranked, :func:`arena_example`), replacing earlier
    demo files. ``folder`` is created if its parent folder exists. With ``export``, the tables and
    figures of each page go to ``export/report/``, ``export/running-example/`` and
    ``export/arena/`` (files of the same names replaced)."""
    out = Path(folder)
    _check_folder(out, "folder")
    if export is not None:
        _check_folder(Path(export), "export folder")
    out.mkdir(exist_ok=True)
    command = f"humanly demo --seed {seed}" + (
        f" --bootstrap {bootstrap}" if bootstrap != DEMO_BOOTSTRAP else ""
    )

    ratings, predictions = wiki_attack()
    real_study = analyze(
        ratings,
        predictions,
        seed=seed,
        bootstrap=bootstrap,
        options=AnalyzeOptions(
            title="humanly demo · Wikipedia personal attacks (2,000 comments)",
            command=command,
            inputs=[wiki_attack_path()],
            progress=show_progress,
        ),
    )
    judged, _ = judge_example(seed)
    real_study = dataclasses.replace(real_study, judge=judged)
    real = build_report(real_study)
    real_path = real.write(out / "report.html", force=True)

    sim = running_example(1000, 10, seed=seed)
    simulated_study = analyze(
        sim.ratings,
        sim.predictions,
        sim.gold,
        seed=seed,
        bootstrap=bootstrap,
        options=AnalyzeOptions(
            title="humanly demo · Survey Equivalence running example (simulated, 1,000 × 10)",
            command=command,
            progress=show_progress,
            states=simulated_states(sim),
        ),
    )
    simulated = build_report(simulated_study)
    sim_path = simulated.write(out / "running-example.html", force=True)

    models, comparisons, human = ARENA
    arena_study = analyze(
        arena_example(seed).study(),
        seed=seed,
        options=AnalyzeOptions(
            title=f"humanly demo · arena-like pairwise votes (simulated: {models} models, "
            f"{comparisons:,} comparisons, {human:,} with a human vote)",
            command=command,
            progress=show_progress,
        ),
    )
    arena_page = build_report(arena_study)
    arena_path = arena_page.write(out / "arena.html", force=True)
    exports: tuple[Path, ...] = ()
    if export is not None:
        Path(export).mkdir(exist_ok=True)
        pages = ((real, "report"), (simulated, "running-example"), (arena_page, "arena"))
        exports = tuple(page.export(Path(export) / name, force=True).folder for page, name in pages)

    return DemoResult(
        real_path, sim_path, real_study, simulated_study, exports, arena_path, arena_study
    )
