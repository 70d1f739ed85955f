"""The one loader: :func:`read_study` reads ratings, predictions and gold labels in whatever form they
are held and joins them by item id (:func:`~humanly.data.inputs.join`) into a :class:`Study`.

It lives above both the readers and :mod:`humanly.data.inputs` because it uses both: the readers turn
files, frames and arrays into data objects, and ``join`` matches them by item id with its one rule.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from .design import design_columns
from .inputs import Study, _with_design, join
from .layouts import index_as_items
from .matching import MissingPolicy, check_missing
from .options import Counts, CountsSpec, ReadOptions, as_counts, as_read_options
from .outputs import ModelOutput
from .predictions import Predictions
from .ratings import Ratings
from .readers import on_scale, read_gold, read_predictions, read_ratings
from .tables import read_columns, read_table
from .types import GoldLike, JudgeLike, PredictionsLike, RatingsLike

__all__ = ["read_study"]

_TABLE = (str, os.PathLike, pd.DataFrame)


def read_study(
    ratings: RatingsLike | np.ndarray,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | pd.DataFrame | None = None,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    wide: bool = False,
    counts: CountsSpec | Counts | None = None,
    classes: Sequence[Any] | None = None,
    prediction_col: str | None = None,
    prob_col: str | None = None,
    gold_col: str | None = None,
    judge: JudgeLike | None = None,
    missing: MissingPolicy = "error",
    options: ReadOptions | None = None,
) -> Study:
    """Read ratings, predictions, gold labels and judges as they are held, and join them by item id.

    Predictions, gold and judges come from their own files or tables, from columns of the ratings
    table (a column option given without ``predictions=`` or ``gold=``), or from any in-memory form of
    :func:`humanly.data.join`, the one join (read with the ratings' classes, matched by item id).

    Parameters
    ----------
    ratings : str, path, DataFrame, numpy.ndarray, Ratings or Study
        The crowd's labels: a file, a DataFrame, an items × raters array (``wide=True``) or a
        :class:`Ratings`; a :class:`Study` is returned as it is.
    predictions : str, path, DataFrame, Predictions, dict, Series, numpy.ndarray or None
        The models' outputs: a file or a table (a DataFrame is read as a table when a column option
        names its columns), or an in-memory form of :func:`humanly.data.join`.
    gold : str, path, DataFrame, Gold, Series, numpy.ndarray or None
        Gold labels for any subset of the rated items: a file or a table (an item and a gold column),
        or an in-memory form of :func:`humanly.data.join`.
    item_col : str or None
        The item column of the ratings, and of a predictions or gold table that has a column of that
        name (otherwise theirs is found by name).
    rater_col, label_col : str or None
        The rater and label columns of a long ratings table (default: found by name).
    wide : bool
        The ratings have one row per item and one column per rater or slot.
    counts : str, sequence, mapping or Counts
        The ratings have one row per item and one count column per class (:class:`Counts`: the count
        columns, and a total column for a class left out).
    classes : sequence or None
        The classes in order (default: the sorted distinct labels).
    prediction_col, prob_col : str or None
        A hard-label column, or a positive-class probability column (two classes), of the predictions
        table — of the ratings table when ``predictions`` is ``None``.
    gold_col : str or None
        The gold column of the gold table, or of the ratings table without ``gold`` (never a rater).
    judge : str, path, Predictions, dict, Series, DataFrame, numpy.ndarray or None
        Judges' outputs on every item, as ``predictions`` (items no rater labelled: no label).
    missing : {"error", "drop"}
        Ids that do not match: an error naming the counts and the first id, or dropped.
    options : ReadOptions or None
        The rarer knobs (:class:`ReadOptions`: duplicates, streaming, the scale, other columns).

    Returns
    -------
    Study
        Everything joined by item id (:func:`humanly.data.join`), in canonical order.

    Raises
    ------
    InputError
        A file that cannot be read, a missing or ambiguous column, ids that do not match, options
        that do not apply (``TypeError``: ``ratings=None``, or an array without ``wide=True``).

    Examples
    --------
    >>> import pandas as pd
    >>> counts = pd.DataFrame({"rev_id": [7, 8, 9], "n_attack": [1, 4, 0], "n": [5, 5, 4],
    ...                        "prob": [0.2, 0.9, 0.1]})
    >>> attack = Counts("attack=n_attack", total="n", rest_class="none")
    >>> s = read_study(counts, item_col="rev_id", counts=attack, prob_col="prob")
    >>> s.ratings
    Ratings(3 items, anonymous counts, 14 labels, classes=('none', 'attack'), source='DataFrame')
    >>> s.predictions.proba("prob")[:, 1].tolist()
    [0.2, 0.9, 0.1]
    >>> model = pd.Series([1.0, 0.0], index=[9, 7])  # P(attack) by item id; none for item 8
    >>> gold = pd.Series(["attack"], index=[9])
    >>> s = read_study(counts, {"m": model}, gold, item_col="rev_id", counts=attack, missing="drop")
    >>> list(s.ratings.items), s.predictions.hard("m").tolist(), s.gold.codes.tolist()
    ([7, 9], [0, 1], [-1, 1])
    """
    missing = check_missing(missing)
    opts = as_read_options(options)
    spec = as_counts(counts)
    if ratings is None or isinstance(ratings, Study):
        return _given_study(ratings, predictions, gold, judge)
    cols = {"prediction_col": prediction_col, "prob_col": prob_col, "score_col": opts.score_col}
    preds_here, gold_here = _columns_of_ratings(ratings, predictions, gold, cols, gold_col)
    source = ratings
    if isinstance(ratings, pd.DataFrame) and (wide or spec is not None):
        source, item_col = index_as_items(ratings, item_col)  # items in the index
    ignore = [gold_col] if gold_here else []
    ignore += [c for c in cols.values() if preds_here and c is not None]
    r = _ratings(
        source,
        item_col=item_col,
        rater_col=rater_col,
        label_col=label_col,
        wide=wide,
        counts=spec,
        classes=classes,
        ignore_cols=[c for c in ignore if c is not None],
        options=ReadOptions(opts.duplicates, opts.stream, counts_col=opts.counts_col),
    )
    r = r if opts.scale is None else on_scale(r, opts.scale, classes, spec)
    column_options = {**cols, "model_col": opts.model_col, "positive": opts.positive}
    p_icol = item_col if preds_here else (opts.predictions_item_col or item_col)
    p = _predictions(source if preds_here else predictions, r, p_icol, column_options, opts)
    g_icol = opts.gold_item_col if opts.gold_item_col and not gold_here else item_col
    g = _gold(source if gold_here else gold, r, g_icol, gold_col, explicit=g_icol != item_col)
    j = None if judge is None else _judges(judge, r, p_icol, dict.fromkeys(column_options), p)
    study = join(r, p, g, judge=j, missing=missing)
    tables = [source if preds_here else predictions, *_tables_of(judge)]
    return _read_design(study, tables, p_icol, opts, missing)


def _read_design(
    study: Study, tables: list[Any], item_col: str | None, opts: ReadOptions, missing: MissingPolicy
) -> Study:
    """``study`` with the strata and sampling weights of ``opts`` read from the first of ``tables``
    (the predictions and judge tables) that has each column."""
    if opts.strata is None and opts.sampling_weights is None:
        return study
    strata, weights = (
        design_columns(tables, item_col, column, setting(name, column))
        for name, column in (("strata", opts.strata), ("sampling_weights", opts.sampling_weights))
    )
    sources = (setting("strata", opts.strata), setting("sampling_weights", opts.sampling_weights))
    return _with_design(study, strata, weights, missing, sources=sources)


def _tables_of(judge: Any) -> list[Any]:
    """The judge tables (files or DataFrames) among ``judge``'s values."""
    values = list(judge.values()) if isinstance(judge, Mapping) else [judge]
    if isinstance(judge, (list, tuple)) and all(isinstance(v, os.PathLike) for v in judge):
        values = list(judge)
    return [v for v in values if isinstance(v, _TABLE)]


def _as_pandas(p: Predictions) -> dict[str, Any]:
    """Each model of ``p`` as a Series (labels, scores) or a DataFrame (class probabilities) by item
    id, as :func:`join` takes judges."""
    out: dict[str, Any] = {}
    for m in p.models:  # the values are not copied: the join reads them and keeps its own
        if m.kind == "proba":
            out[m.name] = pd.DataFrame(m.values, index=p.items, columns=list(p.classes), copy=False)
        elif m.kind == "label":
            out[m.name] = pd.Series(np.asarray(p.classes, dtype=object)[m.values], index=p.items)
        else:
            out[m.name] = pd.Series(m.values, index=p.items, copy=False)
    return out


def _judges(
    judge: Any, ratings: Ratings, item_col: str | None, options: dict[str, Any], like: Any = None
) -> Any:
    """The judges read: one file or table as a predictions file (one model per judge); several —
    a mapping name → file, or a list of paths — each read and named by its key (a file of one model)
    or by its models' names; any in-memory form as it is. Several files of class probabilities over
    the items of the predictions ``like``, in their order, are handed on as one Predictions
    (:func:`_as_one`)."""
    listed = isinstance(judge, (list, tuple)) and all(isinstance(v, os.PathLike) for v in judge)
    files = isinstance(judge, Mapping) and any(isinstance(v, _TABLE) for v in judge.values())
    if not (listed or files):
        return _predictions(judge, ratings, item_col, options)
    named = list(judge.items()) if isinstance(judge, Mapping) else [(None, v) for v in judge]
    out: dict[str, Any] = {}
    reads: list[tuple[str, Any]] = []
    for name, value in named:
        read = _predictions(value, ratings, item_col, options)
        if name is not None and isinstance(read, Predictions) and len(read.models) == 1:
            reads.append((str(name), read))
        models = _as_pandas(read) if isinstance(read, Predictions) else {str(name): read}
        if name is not None and len(models) == 1:
            models = {str(name): next(iter(models.values()))}
        for key, output in models.items():
            if key in out:
                raise InputError(
                    f"judge: two judges are named {key!r}; name each judge once (NAME=FILE)"
                )
            out[key] = output
    return (_as_one(reads, ratings, like) if len(reads) == len(named) else None) or out


def _as_one(reads: list[tuple[str, Any]], ratings: Ratings, like: Any) -> Predictions | None:
    """Judges read from files, one model each, all class probabilities over the items of ``like``
    (the predictions read), in their order and in the ratings' classes: one Predictions that the
    join takes as it is, each named by its key — what the join makes of the same judges as tables
    by item id (the same values, nothing to match), without copying and checking them again.
    ``None`` for anything else (then the tables)."""
    if len(reads) < 2 or not isinstance(like, Predictions):
        return None
    classes = tuple(map(str, ratings.classes))
    for _, p in reads:
        same = p.models[0].kind == "proba" and tuple(map(str, p.classes)) == classes
        if not (same and p.items.equals(like.items)):
            return None
    models = [ModelOutput(name, "proba", p.models[0].values) for name, p in reads]
    return Predictions(like.items, ratings.classes, models, source="judge")


def _given_study(study: Study | None, predictions: Any, gold: Any, judge: Any) -> Study:
    """A :class:`Study` given as ``ratings``: it carries its predictions, gold and judges."""
    if study is None:
        raise TypeError(
            "ratings=None: give the crowd's labels as a file path, a DataFrame, an items × raters "
            "array (wide=True) or a humanly.Ratings"
        )
    return join(study, predictions, gold, judge=judge)


def _columns_of_ratings(
    ratings: Any, predictions: Any, gold: Any, pred_cols: dict[str, Any], gold_col: str | None
) -> tuple[bool, bool]:
    """Whether the predictions and the gold labels are columns of the ratings file."""
    named = [k for k, v in pred_cols.items() if v is not None]
    preds_here = predictions is None and bool(named)
    gold_here = gold is None and gold_col is not None
    if (preds_here or gold_here) and not isinstance(ratings, _TABLE):
        param = named[0] if preds_here else "gold_col"
        raise InputError(
            f"{setting(param)} names a column of the ratings file, but ratings= is a "
            f"{type(ratings).__name__}; give the {'predictions' if preds_here else 'gold labels'} "
            f"with {setting('predictions' if preds_here else 'gold')}"
        )
    return preds_here, gold_here


def _ratings(source: Any, **options: Any) -> Ratings:
    """The ratings: read from a path, frame or array, or a :class:`Ratings` as given."""
    if isinstance(source, Ratings):
        defaults = {
            "rater_col": None,
            "label_col": None,
            "wide": False,
            "counts": None,
            "classes": None,
            "options": ReadOptions(),
        }
        given = [k for k, v in defaults.items() if options[k] != v]
        if given:
            raise InputError(
                f"{', '.join(k + '=' for k in given)}: options for reading ratings, but ratings= is "
                "already a humanly.Ratings; drop them"
            )
        return source
    if isinstance(source, (np.ndarray, list, tuple)) and not options["wide"]:
        raise TypeError(
            f"ratings=array of shape {np.shape(source)}: say what the array holds — pass wide=True "
            "for an items × raters label matrix (NaN = missing), or use "
            "humanly.Ratings.from_counts(array) for items × classes counts"
        )
    return read_ratings(source, **options)


def _item_col(source: Any, item_col: str | None) -> str | None:
    """``item_col`` if the file or frame ``source`` has that column (else its item column is found by
    name); a file that cannot be read is left to the full reader's error."""
    if item_col is None:
        return None
    try:
        columns = read_columns(source)
    except (InputError, OSError, ValueError):
        return item_col
    return item_col if item_col in columns else None


def _predictions(
    value: Any,
    ratings: Ratings,
    item_col: str | None,
    options: dict[str, Any],
    opts: ReadOptions | None = None,
) -> Any:
    """Predictions read from a file or table, or the in-memory value for :func:`join`; with
    ``columns``, one model per column of the table."""
    given = [k for k, v in options.items() if v is not None]
    columns = opts.prediction_cols if opts is not None else None
    if columns is not None and not isinstance(value, (str, os.PathLike, pd.DataFrame)):
        raise InputError(
            f"{setting('prediction_cols')} names columns of a predictions file or table; give "
            f"{setting('predictions')} as one"
        )
    if isinstance(value, (str, os.PathLike)) or (
        isinstance(value, pd.DataFrame) and (given or columns)
    ):
        icol = _item_col(value, item_col)
        if isinstance(value, pd.DataFrame):
            value, icol = index_as_items(value, icol)  # a table indexed by item id
        if columns:
            return _model_columns(value, ratings, icol, columns, options)
        return read_predictions(value, classes=ratings.classes, item_col=icol, **options)
    if given and value is not None:
        raise InputError(
            f"{', '.join(k + '=' for k in given)}: name columns of a predictions file or table, but "
            f"{setting('predictions')} is a {type(value).__name__}; drop them"
        )
    return value


def _model_columns(
    value: Any, ratings: Ratings, item_col: str | None, columns: Sequence[str], options: Any
) -> Predictions:
    """One model per named column of a predictions table (each read as its hard labels, or with two
    classes as a positive-class probability when the column holds numbers in [0, 1])."""
    given = [k for k, v in options.items() if v is not None and k != "positive"]
    if given:
        raise InputError(
            f"{setting('prediction_cols')} and {given[0]}= both choose prediction columns; give one of them"
        )
    table = read_table(value)
    models = []
    for col in columns:
        if col not in table.columns:
            raise InputError(
                f"prediction_cols: {table.name} has no column {col!r} (columns: "
                f"{', '.join(table.columns)}); name the columns holding one model each"
            )
        numeric = pd.to_numeric(table.frame[col], errors="coerce")
        as_prob = (
            len(ratings.classes) == 2
            and numeric.notna().all()
            and bool(((numeric >= 0) & (numeric <= 1)).all())
            and not set(numeric.unique()) <= set(range(2)) | set(ratings.classes)
        )
        kind = {"prob_col": col} if as_prob else {"prediction_col": col}
        p = read_predictions(
            table.frame,
            classes=ratings.classes,
            item_col=item_col,
            positive=options["positive"],
            model_name=col,
            **kind,
        )
        models.append((p, p.models[0]))
    first = models[0][0]
    outs = [m if p.items.equals(first.items) else _reorder(m, p, first) for p, m in models]
    return Predictions(first.items, first.classes, outs, source=table.name)


def _reorder(model: ModelOutput, p: Predictions, like: Predictions) -> ModelOutput:
    pos = p.items.get_indexer(like.items)
    return ModelOutput(model.name, model.kind, model.values[pos])


def _gold(
    value: Any,
    ratings: Ratings,
    item_col: str | None,
    gold_col: str | None,
    *,
    explicit: bool = False,
) -> Any:
    """Gold read from a file or table, or the in-memory value for :func:`join`."""
    if isinstance(value, _TABLE):
        icol = item_col if explicit else _item_col(value, item_col)
        if isinstance(value, pd.DataFrame):
            value, icol = index_as_items(value, icol)  # a table indexed by item id
        return read_gold(value, classes=ratings.classes, item_col=icol, gold_col=gold_col)
    if gold_col is not None and value is not None:
        raise InputError(
            f"{setting('gold_col')} names a column of a gold file or table, but {setting('gold')} is a "
            f"{type(value).__name__}; drop it"
        )
    return value
