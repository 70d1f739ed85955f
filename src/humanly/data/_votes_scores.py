"""Score tables as pairwise votes: a score per model per prompt (e.g. a judge's 1–10 ratings) becomes
one vote for every pair of models scored on the same prompt — the higher score wins, equal scores tie.

Two layouts are read: *wide* (one row per prompt, one numeric column per model) and *long* (prompt,
model, score; with a rater column, each rater's scores are paired within the rater). The votes have
no position (neither answer was shown first) and join other sources by prompt and pair of models
(:func:`~humanly.data.join_votes`); their comparison id is ``"<prompt>|<model>|<model>"``.

>>> import pandas as pd
>>> scores = pd.DataFrame({"prompt": ["p1", "p2"], "x": [7, 5], "y": [3, 5], "z": [9, None]})
>>> v = votes_from_scores(scores, name="grader")
>>> v.to_frame()[["comparison", "model_a", "model_b", "outcome"]].values.tolist()
[['p1|x|y', 'x', 'y', 'model_a'], ['p1|x|z', 'x', 'z', 'model_b'], ['p1|y|z', 'y', 'z', 'model_b'], \
['p2|x|y', 'x', 'y', 'tie']]
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._votes_read import PROMPT_NAMES, VOTE_RATER_NAMES, text_codes
from .columns import MODEL_NAMES, pick_column
from .tables import Source, Table, read_table
from .votes import Votes

__all__ = ["SCORE_NAMES", "votes_from_scores"]

SCORE_NAMES = ("score", "rating", "grade")


def _numeric(frame: pd.DataFrame, col: str, table: Table) -> np.ndarray:
    values = pd.to_numeric(frame[col], errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(values) & frame[col].notna().to_numpy()
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{table.locate(i)}: score {frame[col].iloc[i]!r} in column '{col}' is not a number; "
            "give numeric scores (leave a cell empty for a model not scored)"
        )
    return values


def _wide(
    table: Table, prompt_col: str, models: Sequence[str] | None
) -> tuple[np.ndarray, tuple[str, ...], np.ndarray, None]:
    frame = table.frame
    if models is None:
        models = [c for c in table.columns if c != prompt_col]
    else:
        absent = [m for m in models if m not in table.columns]
        if absent:
            raise InputError(
                f"{table.name}: no column {absent[0]!r} for a model (columns: "
                f"{', '.join(table.columns)}); check {setting('models')}"
            )
    if len(models) < 2:
        raise InputError(
            f"{table.name}: found {len(models)} model column(s); a score table needs the scores of "
            "at least two models (one column each, beside the prompt column)"
        )
    scores = np.column_stack([_numeric(frame, str(m), table) for m in models])
    prompts = np.asarray(frame[prompt_col].astype(str).str.strip(), dtype=object)
    return scores, tuple(str(m) for m in models), prompts, None


def _long(
    table: Table, prompt_col: str, model_col: str, score_col: str, rater_col: str | None
) -> tuple[np.ndarray, tuple[str, ...], np.ndarray, np.ndarray | None]:
    frame = table.frame
    model, models = text_codes(frame[model_col], model_col, table)
    prompt, prompts = text_codes(frame[prompt_col], prompt_col, table)
    score = _numeric(frame, score_col, table)
    rater = raters = None
    key = prompt.astype(np.int64)
    if rater_col is not None:
        rater, raters = text_codes(frame[rater_col], rater_col, table)
        key = key * len(raters) + rater
    rows, row_of = np.unique(key, return_inverse=True)
    cell = row_of * len(models) + model
    twice = np.bincount(cell, minlength=len(rows) * len(models)) > 1
    if twice.any():
        bad = int(np.flatnonzero(twice[cell])[0])
        who = " by one rater" if rater_col is not None else ""
        raise InputError(
            f"{table.locate(bad)}: model {models[model[bad]]!r} has several scores on prompt "
            f"{prompts[prompt[bad]]!r}{who}; keep one (or give {setting('rater_col')} for several raters)"
        )
    grid = np.full((len(rows), len(models)), np.nan)
    grid[row_of, model] = score
    names = np.asarray(prompts, dtype=object)
    if raters is None:
        return grid, models, names[rows], None
    return (
        grid,
        models,
        names[rows // len(raters)],
        np.asarray(raters, dtype=object)[rows % len(raters)],
    )


def votes_from_scores(
    source: Source,
    *,
    prompt_col: str | None = None,
    model_col: str | None = None,
    score_col: str | None = None,
    rater_col: str | None = None,
    models: Sequence[str] | None = None,
    name: str = "human",
) -> Votes:
    """Turn a table of scores (a score per model per prompt) into pairwise votes.

    Every pair of models scored on the same prompt (by the same rater, when there is a rater column)
    is one vote: the higher score wins, equal scores tie; a missing score leaves the pair out.

    Parameters
    ----------
    source : path or DataFrame
        *Wide*: one row per prompt, a prompt column and one numeric column per model; *long*: a
        prompt, a model and a score column (found by name: ``model``; ``score``, ``rating``,
        ``grade``).
    prompt_col : str, optional
        The prompt column (found by name: ``prompt``, ``prompt_id``, ``question_id``).
    model_col, score_col, rater_col : str, optional
        The long layout's columns (the rater is optional).
    models : sequence of str, optional
        The wide layout's model columns (default: every column but the prompt's).
    name : str
        The source's name (``"human"``, or the judge's).

    Returns
    -------
    Votes
        Keyed by prompt (``keyed_by="prompt"``), without positions.

    Raises
    ------
    InputError
        No prompt column, fewer than two models, a score that is not a number, or (long layout) a
        model scored twice on one prompt by one rater.

    Examples
    --------
    >>> import pandas as pd
    >>> long = pd.DataFrame({"prompt": ["p", "p", "p"], "model": ["x", "y", "z"],
    ...                      "score": [8, 6, 8]})
    >>> votes_from_scores(long).outcome.tolist()  # x>y, x=z, y<z
    [0, 2, 1]
    """
    table = read_table(source, text_columns=lambda cols: [c for c in (prompt_col,) if c])
    p_col = pick_column(
        table.columns,
        prompt_col,
        PROMPT_NAMES,
        role="prompt",
        param="prompt_col",
        where=table.name,
    )
    m_col = pick_column(
        table.columns,
        model_col,
        MODEL_NAMES,
        role="model",
        param="model_col",
        where=table.name,
        required=False,
    )
    assert p_col is not None
    if m_col is None:
        grid, names, prompts, raters = _wide(table, p_col, models)
    else:
        s_col = pick_column(
            table.columns,
            score_col,
            SCORE_NAMES,
            role="score",
            param="score_col",
            where=table.name,
        )
        r_col = pick_column(
            table.columns,
            rater_col,
            VOTE_RATER_NAMES,
            role="rater",
            param="rater_col",
            where=table.name,
            required=False,
            exclude=(p_col, m_col),
        )
        assert s_col is not None
        grid, names, prompts, raters = _long(table, p_col, m_col, s_col, r_col)
    return _pair_votes(grid, names, prompts, raters, str(name), table.name)


def _pair_votes(
    grid: np.ndarray,
    models: tuple[str, ...],
    prompts: np.ndarray,
    raters: np.ndarray | None,
    name: str,
    where: str,
) -> Votes:
    order = np.argsort(np.asarray(models, dtype=object), kind="stable")
    grid, models = grid[:, order], tuple(models[k] for k in order)
    parts_a, parts_b, parts_row, parts_out = [], [], [], []
    for a, b in itertools.combinations(range(len(models)), 2):
        both = np.flatnonzero(~np.isnan(grid[:, a]) & ~np.isnan(grid[:, b]))
        diff = grid[both, a] - grid[both, b]
        parts_row.append(both)
        parts_a.append(np.full(len(both), a, dtype=np.int32))
        parts_b.append(np.full(len(both), b, dtype=np.int32))
        parts_out.append(np.where(diff > 0, 0, np.where(diff < 0, 1, 2)).astype(np.int8))
    row = np.concatenate(parts_row)
    if not len(row):
        raise InputError(
            f"{where}: no prompt has the scores of two models; a vote needs two scores on one prompt"
        )
    model_a, model_b = np.concatenate(parts_a), np.concatenate(parts_b)
    outcome = np.concatenate(parts_out)
    order = np.lexsort((model_b, model_a, row))  # by prompt row, then pair
    row, model_a, model_b, outcome = row[order], model_a[order], model_b[order], outcome[order]
    names = np.asarray(models, dtype=object)
    prompt = prompts[row]
    ids = [f"{p}|{x}|{y}" for p, x, y in zip(prompt, names[model_a], names[model_b], strict=True)]
    rater = rater_index = None
    if raters is not None:
        rater_index = pd.Index(sorted(set(raters[row].tolist())))
        rater = rater_index.get_indexer(raters[row]).astype(np.int32)
    return Votes(
        name=name,
        comparison=pd.Index(ids, dtype=object),
        models=models,
        model_a=model_a,
        model_b=model_b,
        outcome=outcome,
        rater=rater,
        raters=rater_index,
        prompt=np.asarray(prompt, dtype=object),
        positional=False,
        keyed_by="prompt",
        where=where,
    )
