"""Pairwise votes on the command line, defined once for ``humanly rank`` and ``humanly report --votes``:
the columns of a votes file (:class:`VoteColumns`, each flag the Python name of
:func:`humanly.data.read_votes` it feeds: ``--comparison-col`` is ``comparison_col``), the judges
(``--judge [NAME=]FILE``, ``--scores [NAME=]FILE``) and the one loader, :func:`load_votes`, which reads
every file and joins them by comparison id with :func:`humanly.data.join_votes`.

The column flags name the columns of every votes file (the human votes' and each judge's): files that
share a layout, as the Chatbot Arena's do, need them once. A judge is named by ``NAME=FILE`` or, as
:func:`~humanly.data.join_votes` names a file, by its file name without its table extension
(``v.sharp.csv``: ``v.sharp``).

>>> judge_sources(["llm=votes.csv", "gpt.jsonl"], "--judge", exists=lambda p: False)
[('llm', PosixPath('votes.csv')), ('gpt', PosixPath('gpt.jsonl'))]
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..errors import InputError

if TYPE_CHECKING:
    from ..data import Votes, VoteStudy

__all__ = [
    "JudgeFiles",
    "ScoreFiles",
    "VoteColumns",
    "VoteInputs",
    "judge_sources",
    "load_votes",
    "outcome_map",
]

COLUMNS, FILES = "Columns", "Input files"


def _column(flag: str, help: str, metavar: str = "COLUMN") -> Any:
    return typer.Option(flag, metavar=metavar, help=help, rich_help_panel=COLUMNS)


@dataclasses.dataclass(frozen=True)
class VoteColumns:
    """The columns of the votes files and the outcome spellings (all found by name when not given).

    Parameters
    ----------
    comparison_col, model_a_col, model_b_col, outcome_col, prompt_col : str, optional
        The columns of :func:`humanly.data.read_votes` (and the prompt column of a score table).
    outcomes : str, optional
        Extra outcome spellings, ``"L=model_a,R=model_b,same=tie"``.
    """

    comparison_col: Annotated[
        str | None, _column("--comparison-col", "Comparison id column (id, comparison, num).")
    ] = None
    model_a_col: Annotated[
        str | None, _column("--model-a-col", "Column of the model shown first (model_a).")
    ] = None
    model_b_col: Annotated[
        str | None, _column("--model-b-col", "Column of the model shown second (model_b).")
    ] = None
    outcome_col: Annotated[
        str | None, _column("--outcome-col", "Outcome column (winner, outcome, vote).")
    ] = None
    prompt_col: Annotated[
        str | None, _column("--prompt-col", "Prompt column (prompt, prompt_id, question_id).")
    ] = None
    outcomes: Annotated[
        str | None,
        _column(
            "--outcomes",
            "Extra outcome spellings: SPELLING=model_a|model_b|tie, comma-separated (e.g. "
            "'L=model_a,R=model_b,same=tie').",
            metavar="MAP",
        ),
    ] = None

    def read_kwargs(self) -> dict[str, Any]:
        """The keyword arguments of :func:`humanly.data.read_votes` these options give."""
        return {
            "comparison_col": self.comparison_col,
            "model_a_col": self.model_a_col,
            "model_b_col": self.model_b_col,
            "outcome_col": self.outcome_col,
            "prompt_col": self.prompt_col,
            "outcomes": outcome_map(self.outcomes),
        }


JudgeFiles = Annotated[
    list[str] | None,
    typer.Option(
        "--judge",
        metavar="[NAME=]FILE",
        help="A judge's votes (comparison id, outcome; model columns for comparisons no human "
        "voted on), joined by comparison id; repeat for several judges. Named NAME or by the file "
        "name.",
        rich_help_panel=FILES,
        show_default=False,
    ),
]
ScoreFiles = Annotated[
    list[str] | None,
    typer.Option(
        "--scores",
        metavar="[NAME=]FILE",
        help="A judge's scores, one per model per prompt (wide: a prompt column and a column per "
        "model; long: prompt, model, score), made into one vote per pair of models on a prompt; "
        "joined by prompt and pair. Repeatable.",
        rich_help_panel=FILES,
        show_default=False,
    ),
]


def outcome_map(text: str | None) -> dict[str, str] | None:
    """``--outcomes 'L=model_a,R=model_b'`` → ``{"L": "model_a", "R": "model_b"}``.

    >>> outcome_map("L=model_a, same = tie"), outcome_map(None)
    ({'L': 'model_a', 'same': 'tie'}, None)
    """
    if text is None:
        return None
    out: dict[str, str] = {}
    for part in (p for p in text.split(",") if p.strip()):
        spelling, eq, meaning = part.partition("=")
        if not eq or not spelling.strip():
            raise InputError(
                f"--outcomes {text}: write each spelling as SPELLING=OUTCOME, e.g. "
                "'L=model_a,R=model_b,same=tie'"
            )
        out[spelling.strip()] = meaning.strip()
    return out


def judge_sources(
    values: Sequence[str] | None,
    option: str,
    exists: Callable[[Path], bool] = Path.exists,
) -> list[tuple[str, Path]]:
    """``(name, path)`` of each ``[NAME=]FILE`` given to ``option``: ``NAME=FILE`` unless the whole
    value is an existing file; else named by the file name without its table extension (and
    compression suffix): ``judge-gpt-3.5-turbo.jsonl`` is the judge ``judge-gpt-3.5-turbo``."""
    out = []
    for value in values or ():
        name, eq, file = value.partition("=")
        if eq and name and file and not exists(Path(value)):
            path = Path(file)
        else:
            from ..data.tables import source_name  # on use: pandas is not needed for --help

            path, name = Path(value), source_name(value)
        out.append((name.strip(), path))
    return out


def _check(sources: list[tuple[str, Path]], option: str) -> None:
    for name, path in sources:
        if not path.is_file():
            raise InputError(f"{option} {path}: no such file; give an existing file (or NAME=FILE)")
        if not name or name == "human":
            raise InputError(
                f"{option} {path}: the judge needs a name other than {name!r}; give NAME=FILE"
            )


def load_votes(
    votes: Path,
    judges: Sequence[str] | None,
    scores: Sequence[str] | None,
    columns: VoteColumns,
    *,
    rater_col: str | None = None,
    model_col: str | None = None,
    score_col: str | None = None,
    missing: str = "error",
) -> VoteStudy:
    """Read the human votes, each judge's votes and each judge's scores, and join them by comparison
    id (:func:`humanly.data.join_votes`). Every file is checked before any is read."""
    from ..data import join_votes, read_votes, votes_from_scores

    if not votes.is_file():
        raise InputError(f"VOTES {votes}: no such file; give an existing file")
    named = judge_sources(judges, "--judge")
    scored = judge_sources(scores, "--scores")
    _check(named, "--judge")
    _check(scored, "--scores")
    names = [n for n, _ in named + scored]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise InputError(
            f"--judge/--scores: the judge name {twice[0]!r} is given twice; name each judge "
            "(--judge NAME=FILE)"
        )
    kwargs = columns.read_kwargs()
    human = read_votes(votes, rater_col=rater_col, name="human", **kwargs)
    found: dict[str, Votes] = {}
    for name, path in named:
        found[name] = read_votes(path, name=name, **kwargs)
    for name, path in scored:
        found[name] = votes_from_scores(
            path,
            prompt_col=columns.prompt_col,
            model_col=model_col,
            score_col=score_col,
            name=name,
        )
    ordered = {n: found[n] for n in names}
    return join_votes(human, ordered or None, missing=missing)


VotesArg = Annotated[
    Path,
    typer.Argument(
        metavar="VOTES",
        help="Human votes: comparison id, model_a, model_b, winner (model_a, model_b or a tie); "
        "optional rater and prompt columns.",
        show_default=False,
    ),
]
RaterCol = Annotated[str | None, _column("--rater-col", "Voter column of VOTES.")]
ModelCol = Annotated[str | None, _column("--model-col", "Model column of a long --scores table.")]
ScoreCol = Annotated[str | None, _column("--score-col", "Score column of a long --scores table.")]
Missing = Annotated[
    str,
    typer.Option(
        "--missing",
        metavar="error|drop",
        help="Human-voted comparisons a judge skipped, and judge votes on unknown comparisons: an "
        "error, or dropped (and said).",
        rich_help_panel=FILES,
    ),
]


@dataclasses.dataclass(frozen=True, kw_only=True)
class VoteInputs(VoteColumns):
    """Everything ``humanly rank`` reads: the human votes (VOTES), the judges' votes and scores, the
    columns, and what to do with comparisons that do not match (``--missing``).

    Parameters
    ----------
    votes : pathlib.Path
        The human votes.
    judge, scores : list of str, optional
        ``[NAME=]FILE`` of each judge's votes, and of each judge's score table.
    rater_col, model_col, score_col : str, optional
        The voter column of VOTES; the model and score columns of a long score table.
    missing : str
        ``"error"`` or ``"drop"``.
    """

    votes: VotesArg
    judge: JudgeFiles = None
    scores: ScoreFiles = None
    rater_col: RaterCol = None
    model_col: ModelCol = None
    score_col: ScoreCol = None
    missing: Missing = "error"

    def load(self) -> VoteStudy:
        """The votes read and joined (:func:`load_votes`)."""
        return load_votes(
            self.votes,
            self.judge,
            self.scores,
            self,
            rater_col=self.rater_col,
            model_col=self.model_col,
            score_col=self.score_col,
            missing=self.missing,
        )
