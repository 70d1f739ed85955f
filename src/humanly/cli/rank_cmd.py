"""``humanly rank VOTES [--judge [NAME=]FILE ...]``: models ranked from pairwise votes — win rates,
Bradley–Terry strengths and rank-sets from the human votes alone and with the judges (PPI++), what each
judge is worth and the plan for the next votes; and ``humanly rank select``: which judge-only
comparisons to send to human voters next (active selection).

A thin layer over :func:`humanly.rank` and :func:`humanly.ranking.select` (the votes read and joined
by :func:`~humanly.cli.votes_options.load_votes`); the sentences come from :mod:`humanly.verdicts.rank`,
the tables from :mod:`humanly.cli.rank_render`. ``humanly rank VOTES ...`` runs the default command
``estimate`` (as ``humanly judge`` does), so ``humanly rank select ...`` and ``humanly rank VOTES ...``
both work.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from ..errors import InputError
from . import _console as ui
from ._app import add_command, new_typer
from ._common import Force, Json, Plot, Seed
from ._output import check_output_file, check_plot
from .judge_cmd import DEFAULT, JudgeGroup, Mixing
from .options import option_group
from .votes_options import VoteInputs

__all__ = ["rank_app"]

rank_app = new_typer(
    cls=JudgeGroup,  # a group whose first argument, when no sub-command, is ``estimate``'s
    help="Rank models from pairwise votes: win rates, Bradley–Terry strengths and rank-sets from a "
    "few human votes and judges on many comparisons; what each judge is worth; the next votes.",
)

_FILES, _PLAN = "Input files", "Planning"
Ties = Annotated[
    str,
    typer.Option(
        "--ties",
        metavar="half|loss|drop",
        help="A tie counts half a win for each model, a loss for both, or not at all.",
    ),
]
Level = Annotated[
    float, typer.Option("--level", help="Confidence level of every interval and rank-set.")
]
Estimator = Annotated[
    str,
    typer.Option(
        "--estimator", metavar="ppi++|ppi|classical", help="With judges: λ tuned, 1, or 0."
    ),
]
Draws = Annotated[
    int,
    typer.Option(
        "--draws",
        min=0,
        help="Normal draws behind each simultaneous critical value (0: Bonferroni).",
        rich_help_panel="Options",
    ),
]
Power = Annotated[
    float,
    typer.Option(
        "--power",
        help="Chance of separating two models the votes needed are planned for.",
        rich_help_panel=_PLAN,
    ),
]
PlanBudget = Annotated[
    int | None,
    typer.Option(
        "--budget",
        min=1,
        help="Human votes the one-vote-or-several plan is for (default: the votes given).",
        rich_help_panel=_PLAN,
    ),
]
VotesPerComparison = Annotated[
    list[int] | None,
    typer.Option(
        "--votes-per-comparison",
        min=1,
        help="The designs the plan compares, votes per comparison (default 1 3 5).",
        rich_help_panel=_PLAN,
    ),
]
RepeatSimulations = Annotated[
    int,
    typer.Option(
        "--repeat-simulations",
        min=0,
        help="Seeded replicates per design of the one-vote-or-several simulation (0: off).",
        rich_help_panel=_PLAN,
    ),
]
Combine = Annotated[
    bool,
    typer.Option(
        "--combine/--no-combine", help="With two or more judges, also rank with every judge."
    ),
]
Probabilities = Annotated[
    Path | None,
    typer.Option(
        "--probabilities",
        metavar="FILE",
        help="The CSV `humanly rank select` wrote (comparison, probability): the active design's "
        "inverse-probability-weighted ranking.",
        rich_help_panel=_FILES,
    ),
]


def _probabilities(path: Path | None) -> Any:
    """The ``select`` CSV as a Series of probabilities by comparison id."""
    if path is None:
        return None
    import pandas as pd

    if not path.is_file():
        raise InputError(
            f"--probabilities {path}: no such file; give the CSV humanly rank select wrote"
        )
    frame = pd.read_csv(path)
    if not {"comparison", "probability"} <= set(frame.columns):
        raise InputError(
            f"--probabilities {path}: needs the columns comparison and probability (humanly rank "
            "select writes them)"
        )
    return pd.Series(
        frame["probability"].to_numpy(dtype=float), index=pd.Index(frame["comparison"])
    )


@option_group(VoteInputs, "inputs")
def estimate_command(
    inputs: VoteInputs,
    probabilities: Probabilities = None,
    ties: Ties = "half",
    level: Level = 0.95,
    estimator: Estimator = "ppi++",
    draws: Draws = 4000,
    power: Power = 0.8,
    budget: PlanBudget = None,
    votes_per_comparison: VotesPerComparison = None,
    repeat_simulations: RepeatSimulations = 50,
    combine: Combine = True,
    seed: Seed = 0,
    json: Json = False,
    plot: Plot = None,
) -> None:
    """Rank the models: the verdicts first (who ranks first, which models cannot be told apart, what
    the judges are worth, the next votes), then each model's win rate, strength (Elo) and rank-set,
    and each judge's agreement, position bias and worth. Also runs as `humanly rank VOTES ...`."""
    check_plot(plot)
    if not 0 < power < 1:
        raise InputError(f"--power {power:g}: give a probability in (0, 1)")
    from .._core.progress import task
    from ..ranking import RankOptions, rank

    options = RankOptions(
        draws=draws,
        power=power,
        probabilities=_probabilities(probabilities),
        budget=budget,
        votes_per_comparison=tuple(votes_per_comparison or (1, 3, 5)),
        combine=combine,
        repeat_simulations=repeat_simulations,
    )
    settings: dict[str, Any] = {"ties": ties, "level": level, "estimator": estimator, "seed": seed}
    with task("rank", stages={"read": 1.0, "rank": 1.0}) as t:  # progress on stderr
        with t.stage("read"):
            study = inputs.load()
        with t.stage("rank"):
            result = rank(study, options=options, **settings)
    if json:
        ui.print_json(result.to_dict())
    else:
        from ..verdicts.rank import verdicts
        from .rank_render import render

        ui.lines([v.sentence for v in verdicts(result)])
        ui.show("", *render(result))
    if plot is not None:
        from ..plots.rank import rank_intervals
        from ._common import save_plot

        save_plot(rank_intervals(result), plot)


Out = Annotated[
    Path,
    typer.Option(
        "-o",
        "--out",
        metavar="FILE",
        help="The CSV to write (comparison, probability, selected).",
        show_default=False,
    ),
]
SelectBudget = Annotated[
    float,
    typer.Option(
        "--budget", help="Expected number of comparisons to send to voters.", show_default=False
    ),
]
MaxProbability = Annotated[
    float,
    typer.Option("--max-probability", help="No comparison is sent with a higher probability."),
]


@option_group(VoteInputs, "inputs")
def select_command(
    inputs: VoteInputs,
    budget: SelectBudget,
    out: Out,
    ties: Ties = "half",
    mixing: Mixing = 0.5,
    max_probability: MaxProbability = 0.9,
    seed: Seed = 0,
    force: Force = False,
    json: Json = False,
) -> None:
    """Which judge-only comparisons to send to human voters next, where the judges' votes leave the
    pairs the rank-sets cannot yet order most uncertain (active selection, Zrnic & Candès): writes
    comparison, probability, selected; rank afterwards with `humanly rank VOTES ... --probabilities
    FILE`."""
    check_output_file(out, force=force, suffixes=(".csv",), option="--out")
    if not (inputs.judge or inputs.scores):
        raise InputError(
            "humanly rank select needs a judge's votes on the comparisons to choose from; give "
            "--judge FILE (or --scores FILE)"
        )
    if not 0 <= mixing <= 1:
        raise InputError(f"--mixing {mixing:g}: give a share of the budget between 0 and 1")
    if not 0 < max_probability < 1:
        raise InputError(f"--max-probability {max_probability:g}: give a probability in (0, 1)")
    from .._core.atomic import atomic_path
    from ..ranking import RankOptions, select

    study = inputs.load()
    knobs = RankOptions(mixing=mixing, max_probability=max_probability)
    sel = select(study, budget=budget, ties=ties, seed=seed, options=knobs)  # type: ignore[arg-type]
    with atomic_path(out, overwrite=force) as tmp:
        sel.to_frame().to_csv(tmp, index=False)
    if json:
        ui.print_json(sel.to_dict())
        return
    from ..verdicts.rank import selection_sentence

    given = " ".join(f"--judge {j}" for j in inputs.judge or ()) + "".join(
        f" --scores {s}" for s in inputs.scores or ()
    )
    ui.lines(
        [
            f"{selection_sentence(sel).removesuffix('.')}; wrote {out}.",
            f"Once they have human votes: humanly rank VOTES {given.strip()} --probabilities {out}",
        ]
    )


add_command(rank_app, DEFAULT, estimate_command)
add_command(rank_app, "select", select_command)
