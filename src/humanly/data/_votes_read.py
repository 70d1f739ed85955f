"""Reading pairwise votes: a table of comparison id, model A, model B and outcome (CSV, TSV, Parquet,
JSON lines, JSON or a DataFrame) → :class:`~humanly.data.votes.Votes`.

Columns are found by name unless given:

=========== ==========================================================
role        recognised names (case-insensitive)
=========== ==========================================================
comparison  comparison, comparison_id, id, num
model A     model_a
model B     model_b
outcome     winner, outcome, vote
rater       rater, worker, annotator, voter, judge (and the ``_id`` forms)
prompt      prompt, prompt_id, question_id
=========== ==========================================================

An outcome is ``model_a``, ``model_b`` or a tie; every usual spelling of a tie — ``tie``,
``tie (bothbad)``, ``both_bad``, ``draw`` … — is a tie, and a cell that holds the winning model's own
name (``gpt-4``) names that side. ``outcomes={"left": "model_a", ...}`` adds or overrides spellings.
Spellings are compared without case and surrounding spaces.

>>> import pandas as pd
>>> v = read_votes(pd.DataFrame({"num": [3, 4], "model_a": ["x", "y"], "model_b": ["y", "x"],
...                              "winner": ["Tie (bothbad)", "x"]}))
>>> v.outcome.tolist(), v.models
([2, 1], ('x', 'y'))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._coding import show
from .columns import RATER_NAMES, normalise_name, pick_column
from .tables import Source, Table, read_table
from .votes import OUTCOMES, Votes

__all__ = [
    "COMPARISON_NAMES",
    "MODEL_A_NAMES",
    "MODEL_B_NAMES",
    "OUTCOME_NAMES",
    "PROMPT_NAMES",
    "SPELLINGS",
    "VOTE_RATER_NAMES",
    "read_votes",
    "text_codes",
]

COMPARISON_NAMES = ("comparison", "comparison_id", "id", "num")
MODEL_A_NAMES = ("model_a",)
MODEL_B_NAMES = ("model_b",)
OUTCOME_NAMES = ("winner", "outcome", "vote")
PROMPT_NAMES = ("prompt", "prompt_id", "question_id")
VOTE_RATER_NAMES = (*RATER_NAMES, "voter", "voter_id", "judge", "judge_id")

#: the spellings read by default (compared lower-cased and stripped) → outcome code
SPELLINGS: dict[str, int] = {
    "model_a": 0,
    "model a": 0,
    "a": 0,
    "model_b": 1,
    "model b": 1,
    "b": 1,
    **dict.fromkeys(
        (
            "tie",
            "tie (bothbad)",
            "tie(bothbad)",
            "tie (both bad)",
            "tie_bothbad",
            "tie_both_bad",
            "bothbad",
            "both_bad",
            "both bad",
            "draw",
        ),
        2,
    ),
}


def _spellings(outcomes: Mapping[Any, str] | None) -> dict[str, int]:
    table = dict(SPELLINGS)
    if outcomes is None:
        return table
    if not isinstance(outcomes, Mapping):
        raise TypeError(
            f"outcomes={outcomes!r}: give a mapping from a spelling in the file to one of "
            f"{', '.join(OUTCOMES)} (e.g. {{'left': 'model_a'}})"
        )
    for spelling, meaning in outcomes.items():
        if meaning not in OUTCOMES:
            raise InputError(
                f"outcomes={{{spelling!r}: {meaning!r}}}: {meaning!r} is not an outcome; map each "
                f"spelling to one of {', '.join(OUTCOMES)}"
            )
        table[str(spelling).strip().lower()] = OUTCOMES.index(meaning)
    return table


def _factorized(values: pd.Series) -> tuple[np.ndarray, list[str]]:
    """Per-row codes into the distinct cell texts (stripped), -1 for a missing cell: factorising first,
    so that only the distinct values are turned into text (fast for millions of rows)."""
    if isinstance(values.dtype, pd.CategoricalDtype):
        codes = np.asarray(values.cat.codes, dtype=np.int64)
        uniques: Any = values.cat.categories
    else:
        codes, uniques = pd.factorize(values, sort=False, use_na_sentinel=True)
        codes = np.asarray(codes, dtype=np.int64)
    return codes, [str(u).strip() for u in uniques]


def _first_blank(codes: np.ndarray, texts: list[str]) -> np.ndarray:
    """bool per row: a missing or empty cell."""
    empty = np.array([t == "" for t in texts] + [True], dtype=bool)  # the last entry: code -1
    if not empty[:-1].any() and (not len(codes) or codes.min() >= 0):
        return np.zeros(len(codes), dtype=bool)
    return empty[np.where(codes < 0, len(texts), codes)]


def _refuse_blanks(codes: np.ndarray, texts: list[str], table: Table, what: str, fix: str) -> None:
    blank = _first_blank(codes, texts)
    if blank.any():
        i = int(np.flatnonzero(blank)[0])
        raise InputError(f"{table.locate(i)}: blank {what} ({int(blank.sum())} such rows); {fix}")


def text_codes(values: pd.Series, column: str, table: Table) -> tuple[np.ndarray, tuple[str, ...]]:
    """Per-row codes into the distinct values of a text column (as text, stripped, sorted); a blank
    cell is an error naming its line."""
    codes, texts = _factorized(values)
    _refuse_blanks(
        codes, texts, table, f"value in column '{column}'", "fill it in or remove the row"
    )
    uniq, inverse = np.unique(np.asarray(texts, dtype=object), return_inverse=True)
    return inverse[codes].astype(np.int32), tuple(str(u) for u in uniq)


def _ids(values: pd.Series, column: str, table: Table) -> pd.Index:
    """The comparison id of each row, as given (integral floats as integers, text stripped)."""
    if pd.api.types.is_integer_dtype(values.dtype) and not pd.api.types.is_bool_dtype(values.dtype):
        return pd.Index(values.to_numpy(dtype=np.int64))
    if pd.api.types.is_float_dtype(values.dtype):
        arr = values.to_numpy(dtype=float)
        bad = ~np.isfinite(arr)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{table.locate(i)}: blank comparison id in column '{column}' ({int(bad.sum())} "
                "such rows); every vote needs the id of its comparison"
            )
        return pd.Index(arr.astype(np.int64) if np.all(arr == np.round(arr)) else arr)
    codes, texts = _factorized(values)
    _refuse_blanks(
        codes,
        texts,
        table,
        f"comparison id in column '{column}'",
        "every vote needs the id of its comparison",
    )
    return pd.Index(np.asarray(texts, dtype=object)[codes])


def _outcome_codes(
    values: pd.Series,
    column: str,
    table: Table,
    spellings: dict[str, int],
    names_a: np.ndarray | None,
    names_b: np.ndarray | None,
) -> np.ndarray:
    """int8 outcome codes; a cell holding a row's own model name names that side."""
    raw, text = _factorized(values)
    _refuse_blanks(
        raw, text, table, f"outcome in column '{column}'", "give model_a, model_b or tie"
    )
    mapped = np.array([spellings.get(t.lower(), -1) for t in text], dtype=np.int8)
    out = mapped[raw]
    unknown = out < 0
    if unknown.any() and names_a is not None and names_b is not None:
        cell = np.asarray(text, dtype=object)[raw]
        out = np.where(unknown & (cell == names_a), np.int8(0), out)
        out = np.where(unknown & (cell == names_b), np.int8(1), out).astype(np.int8)
        unknown = out < 0
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise InputError(
            f"{table.locate(i)}: outcome {show(values.iloc[i])} in column '{column}' is not model_a, "
            f"model_b, a tie or the row's model; fix it or map the spelling with {setting('outcomes')}"
        )
    return out.astype(np.int8)


def _pick(
    table: Table,
    given: str | None,
    names: tuple[str, ...],
    role: str,
    param: str,
    required: bool = True,
) -> str | None:
    return pick_column(
        table.columns, given, names, role=role, param=param, where=table.name, required=required
    )


def read_votes(
    source: Source | Votes,
    *,
    comparison_col: str | None = None,
    model_a_col: str | None = None,
    model_b_col: str | None = None,
    outcome_col: str | None = None,
    rater_col: str | None = None,
    prompt_col: str | None = None,
    outcomes: Mapping[Any, str] | None = None,
    name: str = "human",
) -> Votes:
    """Read pairwise votes: one row per vote, its comparison id, the two models and the outcome.

    Parameters
    ----------
    source : path, DataFrame or Votes
        A CSV, TSV, Parquet, JSON-lines or JSON file, or a DataFrame (a :class:`Votes` is returned
        under ``name``).
    comparison_col, model_a_col, model_b_col, outcome_col : str, optional
        The columns of the comparison id, the model shown first (A), the model shown second (B) and
        the outcome; found by name when not given (see the module docstring). A judge's file may
        leave out the two model columns: its votes then refer to the human record's models.
    rater_col, prompt_col : str, optional
        The voter and the prompt (optional columns, found by name).
    outcomes : mapping, optional
        Extra spellings of the outcome: ``{"left": "model_a", "right": "model_b", "same": "tie"}``.
    name : str
        The source's name (``"human"``, or the judge's).

    Returns
    -------
    Votes

    Raises
    ------
    InputError
        A missing or ambiguous column, a blank cell, a model compared with itself, an outcome that
        is not ``model_a``, ``model_b``, a tie or the row's model (each naming the line).

    Examples
    --------
    >>> import pandas as pd
    >>> v = read_votes(pd.DataFrame({"comparison": ["c1", "c2"], "model_a": ["x", "x"],
    ...                              "model_b": ["y", "z"], "outcome": ["model_b", "draw"]}),
    ...                name="panel")
    >>> v.name, v.comparison.tolist(), v.outcome.tolist()
    ('panel', ['c1', 'c2'], [1, 2])
    """
    if isinstance(source, Votes):
        return source if source.name == name else source.with_name(name)
    spellings = _spellings(outcomes)
    columns = [comparison_col, model_a_col, model_b_col, rater_col, prompt_col]

    def text(cols: list[str]) -> list[str]:
        named = [c for c in columns if c is not None and c in cols]
        found = [c for c in cols if normalise_name(c) in (*COMPARISON_NAMES, *PROMPT_NAMES)]
        return list(dict.fromkeys(named + found))

    table = read_table(source, text_columns=text)
    frame = table.frame
    comp = _pick(table, comparison_col, COMPARISON_NAMES, "comparison id", "comparison_col")
    out_col = _pick(table, outcome_col, OUTCOME_NAMES, "outcome", "outcome_col")
    a_col = _pick(table, model_a_col, MODEL_A_NAMES, "model A", "model_a_col", required=False)
    b_col = _pick(table, model_b_col, MODEL_B_NAMES, "model B", "model_b_col", required=False)
    if (a_col is None) != (b_col is None):
        missing = "model_b_col" if b_col is None else "model_a_col"
        raise InputError(
            f"{table.name}: found one model column ({a_col or b_col}) but not the other; name it "
            f"with {setting(missing)}"
        )
    r_col = _pick(table, rater_col, VOTE_RATER_NAMES, "rater", "rater_col", required=False)
    p_col = _pick(table, prompt_col, PROMPT_NAMES, "prompt", "prompt_col", required=False)
    assert comp is not None and out_col is not None
    ids = _ids(frame[comp], comp, table)
    models: tuple[str, ...] = ()
    model_a = model_b = names_a = names_b = None
    if a_col is not None and b_col is not None:
        model_a, model_b, models = _model_codes(frame, a_col, b_col, table)
        names = np.asarray(models, dtype=object)
        names_a, names_b = names[model_a], names[model_b]
    outcome = _outcome_codes(frame[out_col], out_col, table, spellings, names_a, names_b)
    rater = raters = None
    if r_col is not None:
        rater, rater_names = text_codes(frame[r_col], r_col, table)
        raters = pd.Index(rater_names)
    prompt = None
    if p_col is not None:
        prompt = np.asarray(_ids(frame[p_col], p_col, table), dtype=object)
    return Votes(
        name=str(name),
        comparison=ids,
        models=models,
        model_a=model_a,
        model_b=model_b,
        outcome=outcome,
        rater=rater,
        raters=raters,
        prompt=prompt,
        where=table.name,
        first_line=table.first_line,
    )


def _model_codes(
    frame: pd.DataFrame, a_col: str, b_col: str, table: Table
) -> tuple[np.ndarray, np.ndarray, tuple[str, ...]]:
    """Codes of model A and model B per row into the sorted model names; a model compared with
    itself is an error naming the line."""
    ca, names_a = text_codes(frame[a_col], a_col, table)
    cb, names_b = text_codes(frame[b_col], b_col, table)
    models = tuple(sorted(set(names_a) | set(names_b)))
    index = pd.Index(models)
    model_a = index.get_indexer(pd.Index(names_a))[ca].astype(np.int32)
    model_b = index.get_indexer(pd.Index(names_b))[cb].astype(np.int32)
    same = model_a == model_b
    if same.any():
        i = int(np.flatnonzero(same)[0])
        raise InputError(
            f"{table.locate(i)}: model {models[model_a[i]]!r} is compared with itself "
            f"({a_col} and {b_col} are the same); a comparison needs two different models"
        )
    return model_a, model_b, models
