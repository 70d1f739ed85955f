"""The study inputs of every data command, defined once, and the one loader.

:class:`StudyOptions` holds the options that say where the ratings, predictions and gold labels are and
how to read them; each field is a command-line option (its ``Annotated`` type carries the flag and the
help) named as the Python name it feeds: a parameter of :func:`humanly.read_study` (``--item-col`` is
``item_col``), a field of :class:`humanly.data.Counts` (``--total`` is ``total``, ``--rest-class``
``rest_class``) or of :class:`humanly.data.ReadOptions` (``--stream`` is ``stream``). A command
declares that it takes the study inputs with :func:`study_inputs`, which puts the fields in the
command's signature (typer reads the signature) and hands the command one :class:`StudyOptions`;
:func:`load_study` builds the ``Counts`` and ``ReadOptions`` and reads the study with
:func:`humanly.read_study`.

:func:`option_group` does the same for any frozen dataclass of options (the budget commands'
:class:`~humanly.cli.budget_cmd.ErrorModelOptions`).

>>> import inspect
>>> @study_inputs(gold=False)
... def command(study: StudyOptions, json: bool = False) -> None:
...     print(study.ratings, study.item_col, json)
>>> list(inspect.signature(command).parameters)[:4]
['ratings', 'json', 'predictions', 'missing']
>>> command(ratings=Path("r.csv"), json=True, predictions=None, missing="error", item_col="id",
...         rater_col=None, label_col=None, wide=False, counts=None, total=None,
...         rest_class="other", classes=None, duplicates="error", stream=False,
...         prediction_col=None, prob_col=None, score_col=None, model_col=None, positive=None,
...         scale=None, counts_col=None, predictions_item_col=None, prediction_cols=None)
r.csv id True
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import typing
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer
from typer.models import ArgumentInfo

from ..errors import InputError, setting

if TYPE_CHECKING:
    from ..data import Study

__all__ = ["StudyOptions", "load_study", "option_group", "split_list", "study_inputs"]

F = TypeVar("F", bound=Callable[..., Any])

FILES, LAYOUT, COLUMNS = "Input files", "Ratings layout", "Columns"

RatingsArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="RATINGS",
        help="Ratings file (.csv, .tsv, .parquet, .jsonl, .json) or a folder of Parquet files.",
        show_default=False,
    ),
]
OptionalRatingsArg = Annotated[
    Path | None,
    typer.Argument(
        metavar="RATINGS",
        help="Ratings file (optional).",
        show_default=False,
    ),
]


def _column(flag: str, help: str, panel: str = COLUMNS, metavar: str = "COLUMN") -> Any:
    """A text option (``typer.Option``) naming a column."""
    return typer.Option(flag, help=help, metavar=metavar, rich_help_panel=panel)


PredictionsOpt = Annotated[
    Path | None,
    typer.Option(
        "--predictions",
        metavar="FILE",
        help="Model predictions file: item, [model,] and a prediction, prob_<class>, prob or score "
        "column.",
        rich_help_panel=FILES,
    ),
]
GoldOpt = Annotated[
    Path | None,
    typer.Option(
        "--gold",
        metavar="FILE",
        help="Gold labels file (item, label); any subset of the items.",
        rich_help_panel=FILES,
    ),
]
MissingOpt = Annotated[
    str,
    typer.Option(
        "--missing",
        metavar="error|drop",
        help="Rated items without a prediction, or predictions or gold for unrated items: an error, "
        "or drop them (keep the items both have).",
        rich_help_panel=FILES,
    ),
]
ItemCol = Annotated[
    str | None, _column("--item-col", "Item id column (default: found by name).", LAYOUT)
]
RaterCol = Annotated[str | None, _column("--rater-col", "Rater id column (long format).", LAYOUT)]
LabelCol = Annotated[str | None, _column("--label-col", "Label column (long format).", LAYOUT)]
Wide = Annotated[
    bool,
    typer.Option(
        "--wide",
        help="Wide format: one row per item, one column per rater or slot.",
        rich_help_panel=LAYOUT,
    ),
]
Counts = Annotated[
    str | None,
    _column(
        "--counts",
        "Counts format: count columns 'e,n,c' (or 'CLASS=COL,...'), a glob 'cnt*_ret' or a prefix.",
        LAYOUT,
        "SPEC",
    ),
]
Total = Annotated[
    str | None,
    _column("--total", "Column with each item's number of labels (counts format).", LAYOUT),
]
RestClass = Annotated[
    str,
    _column(
        "--rest-class",
        "Name of the class counted as total minus the others (counts format).",
        LAYOUT,
        "NAME",
    ),
]
Classes = Annotated[
    str | None,
    _column("--classes", "Declared classes in order, e.g. '0,1' or 'neg,pos'.", LAYOUT, "A,B,..."),
]
Duplicates = Annotated[
    str,
    _column("--duplicates", "A rater labelling an item twice.", LAYOUT, "error|keep|first|last"),
]
Stream = Annotated[
    bool,
    typer.Option(
        "--stream",
        help="Read a long-format Parquet file or folder in batches, keeping per-item counts only "
        "(memory ∝ items, for data larger than memory; rater identity is dropped).",
        rich_help_panel=LAYOUT,
    ),
]
Scale = Annotated[
    str | None,
    _column(
        "--scale",
        "Measurement scale of the labels (ordinal: classes in --classes order, or by value; "
        "interval and ratio: numeric labels). Default: nominal.",
        LAYOUT,
        "nominal|ordinal|interval|ratio",
    ),
]
PredictionCol = Annotated[
    str | None, _column("--prediction-col", "Hard prediction column (a class per item).")
]
ProbCol = Annotated[
    str | None,
    _column(
        "--prob-col",
        "Positive-class probability column (two classes): of the predictions file, or without "
        "--predictions of the ratings file.",
    ),
]
ScoreCol = Annotated[
    str | None,
    _column(
        "--score-col",
        "Real-valued score column (not a probability): of the predictions file, or without "
        "--predictions of the ratings file.",
    ),
]
ModelCol = Annotated[
    str | None, _column("--model-col", "Model name column (several models in one file).")
]
Positive = Annotated[
    str | None,
    _column(
        "--positive",
        "Positive class of a single probability column (default: the second class).",
        metavar="CLASS",
    ),
]
CountsCol = Annotated[
    str | None,
    _column(
        "--counts-col",
        "Column of per-item count dictionaries, e.g. ChaosNLI's label_counter "
        '({"e": 30, "n": 70}); detected in JSON files.',
        LAYOUT,
    ),
]
GoldItemCol = Annotated[
    str | None, _column("--gold-item-col", "Item id column of the gold file (if named otherwise).")
]
PredictionsItemCol = Annotated[
    str | None,
    _column(
        "--predictions-item-col", "Item id column of the predictions file (if named otherwise)."
    ),
]
PredictionCols = Annotated[
    str | None,
    _column(
        "--prediction-cols",
        "Several models as columns of the predictions file, one model per column, e.g. 'better,worse'.",
        metavar="COL,COL,...",
    ),
]
GoldCol = Annotated[
    str | None,
    _column(
        "--gold-col", "Gold label column: of the gold file, or without --gold of the ratings file."
    ),
]


@dataclasses.dataclass(frozen=True)
class StudyOptions:
    """The study inputs as typed on the command line (see :func:`humanly.read_study` for each rule).

    Field names are the Python names they feed: parameters of :func:`humanly.read_study`, fields of
    :class:`humanly.data.Counts` (``total``, ``rest_class``) and of :class:`humanly.data.ReadOptions`
    (``duplicates``, ``stream``, ``scale``, ``score_col``, ``model_col``, ``positive``); the order is
    the order of ``--help``.
    """

    ratings: RatingsArg
    predictions: PredictionsOpt = None
    gold: GoldOpt = None
    missing: MissingOpt = "error"
    item_col: ItemCol = None
    rater_col: RaterCol = None
    label_col: LabelCol = None
    wide: Wide = False
    counts: Counts = None
    total: Total = None
    rest_class: RestClass = "other"
    classes: Classes = None
    duplicates: Duplicates = "error"
    stream: Stream = False
    scale: Scale = None
    prediction_col: PredictionCol = None
    prob_col: ProbCol = None
    score_col: ScoreCol = None
    model_col: ModelCol = None
    positive: Positive = None
    gold_col: GoldCol = None
    counts_col: CountsCol = None
    gold_item_col: GoldItemCol = None
    predictions_item_col: PredictionsItemCol = None
    prediction_cols: PredictionCols = None

    def given(self) -> list[str]:
        """The flags given a value other than their default (``--predictions``, ``--item-col``)."""
        hints = typing.get_type_hints(type(self), include_extras=True)
        out = []
        for f in dataclasses.fields(self):
            if f.name != "ratings" and getattr(self, f.name) != f.default:
                out.append(_flag(hints[f.name], f.name))
        return out

    def ratings_only(self, path: Path) -> StudyOptions:
        """The same layout options for another ratings file (``equivalence --amateurs``), without
        predictions or gold."""
        return dataclasses.replace(
            self,
            ratings=path,
            predictions=None,
            gold=None,
            prediction_col=None,
            prob_col=None,
            score_col=None,
            model_col=None,
            positive=None,
            gold_col=None,
            gold_item_col=None,
            predictions_item_col=None,
            prediction_cols=None,
        )


#: the study inputs that say where the models' outputs are and how to read them
PREDICTION_FIELDS = (
    "predictions",
    "prediction_col",
    "prob_col",
    "score_col",
    "model_col",
    "positive",
    "predictions_item_col",
    "prediction_cols",
)
#: the study inputs that say where the gold labels are
GOLD_FIELDS = ("gold", "gold_col", "gold_item_col")


def _flag(annotation: Any, name: str) -> str:
    for meta in typing.get_args(annotation)[1:]:
        decls = [d for d in (getattr(meta, "param_decls", None) or ()) if d.startswith("--")]
        default = getattr(meta, "default", None)
        if isinstance(default, str) and default.startswith("--"):
            decls.insert(0, default)
        if decls:
            return decls[0]
    return "--" + name.replace("_", "-")


def _is_argument(annotation: Any) -> bool:
    return any(isinstance(m, ArgumentInfo) for m in typing.get_args(annotation)[1:])


def option_group(
    cls: type,
    param: str,
    *,
    exclude: Collection[str] = (),
    override: Mapping[str, tuple[Any, Any]] | None = None,
) -> Callable[[F], F]:
    """Decorator: the command's parameter ``param`` (annotated ``cls``, a frozen dataclass whose
    fields are typer options) becomes ``cls``'s fields in the command's signature — its arguments
    first, then the command's own parameters, then its options — and the command receives one
    ``cls`` value. ``exclude`` leaves fields out (they keep their defaults); ``override`` gives a field
    another (annotation, default)."""
    hints = typing.get_type_hints(cls, include_extras=True)
    group = []
    for f in dataclasses.fields(cls):
        if f.name in exclude:
            continue
        default = inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        annotation, default = (override or {}).get(f.name, (hints[f.name], default))
        group.append(
            inspect.Parameter(
                f.name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
    names = [p.name for p in group]

    def decorate(func: F) -> F:
        sig = inspect.signature(func, eval_str=True)
        if param not in sig.parameters:
            raise TypeError(f"{func.__name__} has no parameter {param!r}")
        own = [
            p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
            for p in sig.parameters.values()
            if p.name != param
        ]
        args = [p for p in group if _is_argument(p.annotation)]
        opts = [p for p in group if not _is_argument(p.annotation)]
        params = [*args, *own, *opts]

        @functools.wraps(func)
        def wrapper(**kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in names}
            return func(**kwargs, **{param: cls(**values)})

        wrapper.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        wrapper.__annotations__["return"] = sig.return_annotation
        return typing.cast(F, wrapper)

    return decorate


def study_inputs(
    *,
    predictions: bool = True,
    gold: bool = True,
    optional: bool = False,
    optional_help: str | None = None,
) -> Callable[[F], F]:
    """Decorator for a command taking the study inputs as its parameter ``study: StudyOptions``:
    RATINGS (optional with ``optional=True``; ``optional_help`` says when it may be left out),
    predictions (unless ``predictions=False``), gold (unless ``gold=False``), the ratings layout and
    the columns: a command shows only the flags it reads (``--missing`` with predictions or gold)."""
    arg: Any = OptionalRatingsArg
    if optional_help is not None:
        arg = Annotated[
            Path | None,
            typer.Argument(metavar="RATINGS", help=optional_help, show_default=False),
        ]
    override = {"ratings": (arg, None)} if optional else None
    exclude = (() if predictions else PREDICTION_FIELDS) + (() if gold else GOLD_FIELDS)
    if not predictions and not gold:
        exclude += ("missing",)
    return option_group(StudyOptions, "study", exclude=exclude, override=override)


def split_list(value: str | None) -> list[str] | None:
    """``'a, b,,c'`` → ``['a', 'b', 'c']``; ``None`` or nothing → ``None``.

    >>> split_list(" neg, pos ")
    ['neg', 'pos']
    """
    if value is None:
        return None
    items = [v.strip() for v in value.split(",") if v.strip()]
    return items or None


def _check_file(path: Path | None, flag: str, what: str) -> None:
    """A predictions or gold path that is a folder without Parquet files: say which option."""
    if path is None or not path.is_dir():
        return
    if not (any(path.glob("*.parquet")) or any(path.glob("*.pq"))):
        raise InputError(
            f"{flag} {path}: is a directory, not a file; give the {what} file "
            "(.csv, .tsv, .parquet, .jsonl, .json)"
        )


@contextmanager
def reading(path: Path, threshold_bytes: int = 50_000_000) -> Iterator[None]:
    """A spinner on stderr while a large file loads (nothing for small files or non-terminals)."""
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError:
        size = 0
    if size < threshold_bytes:
        yield
        return
    from ._console import clean, stderr

    with stderr().status(clean(f"reading {path.name} ({size / 1e6:,.0f} MB)")):
        yield


def load_study(
    options: StudyOptions,
    judge: Any = None,
    *,
    strata: str | None = None,
    sampling_weights: str | None = None,
) -> Study:
    """Read the study the options describe with :func:`humanly.read_study`: ``--counts``, ``--total``
    and ``--rest-class`` become one :class:`~humanly.data.Counts`, ``--duplicates``, ``--stream``,
    ``--score-col``, ``--model-col`` and ``--positive`` one :class:`~humanly.data.ReadOptions`, and
    ``--classes`` is split at commas (predictions, gold and the ``judge`` file — or several, a dict
    name → file — are joined to the ratings by item id there: the command line never joins);
    ``strata`` and ``sampling_weights`` name columns of the predictions or judge files."""
    from ..data import Counts, ReadOptions, read_study

    if options.ratings is None:
        raise InputError("give a RATINGS file")
    _check_file(options.predictions, "--predictions", "predictions")
    _check_file(options.gold, "--gold", "gold labels")
    for path in judge.values() if isinstance(judge, dict) else [judge]:
        _check_file(path, "--judge", "judge's outputs")
    counts = None
    if options.counts is not None:
        counts = Counts(options.counts, total=options.total, rest_class=options.rest_class)
    elif options.total is not None or options.rest_class != "other":
        which = setting("total" if options.total is not None else "rest_class")
        raise InputError(
            f"{which} belongs to the counts layout; give {setting('counts')} too, or drop it"
        )
    read = ReadOptions(
        duplicates=options.duplicates,  # type: ignore[arg-type]
        stream=options.stream,
        score_col=options.score_col,
        model_col=options.model_col,
        positive=options.positive,
        scale=options.scale,
        counts_col=options.counts_col,
        gold_item_col=options.gold_item_col,
        predictions_item_col=options.predictions_item_col,
        prediction_cols=split_list(options.prediction_cols),
        strata=strata,
        sampling_weights=sampling_weights,
    )
    with reading(options.ratings):
        study = read_study(
            options.ratings,
            options.predictions,
            options.gold,
            item_col=options.item_col,
            rater_col=options.rater_col,
            label_col=options.label_col,
            wide=options.wide,
            counts=counts,
            classes=split_list(options.classes),
            prediction_col=options.prediction_col,
            prob_col=options.prob_col,
            gold_col=options.gold_col,
            judge=judge,
            missing=options.missing,  # type: ignore[arg-type]
            options=read,
        )
    notes = getattr(study, "notes", ())
    if notes:
        from ._console import note

        for text in notes:
            note(text)
    return study
