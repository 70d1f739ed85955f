"""The one join of pairwise votes: human votes and each judge's votes, by comparison id, into a
:class:`~humanly.data.votes.VoteStudy` in canonical order.

The rules:

* A comparison's two models are the same in every source that names them; the same pair in the other
  order is the same comparison shown the other way round (the vote keeps its position). A different
  pair for the same id is an error naming the line.
* A judge may vote on comparisons no human saw: those are the *unlabelled* comparisons. Such a vote
  must name its two models (a judge file of ids and outcomes only refers to comparisons another
  source names); a vote for an id no source with models knows is an error, or dropped with
  ``missing="drop"``.
* Every human-voted comparison needs a vote from every judge; with ``missing="drop"`` the human-voted
  comparisons some judge skipped are dropped (from every source), and the result says how many.
* Votes made from scores (``keyed_by="prompt"``) join human votes by prompt and pair of models.
* Comparison ids of different kinds (``266`` against ``"266"``) are compared as text.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError, setting
from ._canonical import sort_positions
from ._coding import show
from ._votes_read import read_votes
from .matching import check_missing
from .tables import source_name
from .votes import TIE, DataNote, Votes, VoteSet, VoteStudy

__all__ = ["join_votes"]


def _as_votes(source: Any, name: str) -> Votes:
    if isinstance(source, VoteStudy):
        raise InputError(
            f"{name}: a joined VoteStudy cannot be joined again; give the votes it was made from"
        )
    if isinstance(source, Votes):
        return source.with_name(name) if source.name != name else source
    if isinstance(source, (str, os.PathLike, pd.DataFrame)):
        return read_votes(source, name=name)
    raise TypeError(
        f"{name}={type(source).__name__}: give votes as a path, a DataFrame or humanly.data.Votes"
    )


def _judge_sources(judges: Any) -> list[tuple[str, Any]]:
    """``(name, source)`` of every judge, in the order given."""
    if judges is None:
        return []
    if isinstance(judges, Mapping):
        items = [(str(k), v) for k, v in judges.items()]
    elif isinstance(judges, (str, os.PathLike, pd.DataFrame, Votes)):
        items = [(_default_name(judges, 0), judges)]
    elif isinstance(judges, Sequence):
        items = [(_default_name(j, k), j) for k, j in enumerate(judges)]
    else:
        raise TypeError(
            f"judges={type(judges).__name__}: give a mapping name → votes, a list of votes, or one"
        )
    names = [n for n, _ in items]
    for n in names:
        if n == "human" or names.count(n) > 1:
            raise InputError(
                f"judges: the name {n!r} is "
                + ("reserved for the human votes" if n == "human" else "given twice")
                + "; give each judge its own name (judges={'name': votes, ...})"
            )
    return items


def _default_name(source: Any, k: int) -> str:
    if isinstance(source, Votes) and source.name != "human":
        return source.name
    if isinstance(source, (str, os.PathLike)):
        return source_name(source)
    return f"judge{k + 1}"


def _unify_ids(sources: list[Votes]) -> list[pd.Index]:
    """Each source's ids, as text when the sources hold ids of different kinds."""
    kinds = {pd.api.types.infer_dtype(v.comparison, skipna=False) for v in sources}
    if len(kinds) <= 1:
        return [v.comparison for v in sources]
    return [pd.Index(v.comparison.astype(str), dtype=object) for v in sources]


class _Table:
    """The comparisons known so far: id → pair code (first·M + second) and the reference
    orientation (whether the reference record showed ``second`` as model A; -1 when ambiguous)."""

    def __init__(self, n_models: int) -> None:
        self.m = n_models
        self.ids = pd.Index([])
        self.pair = np.empty(0, dtype=np.int64)
        self.swapped = np.empty(0, dtype=np.int8)

    def lookup(self, ids: pd.Index) -> np.ndarray:
        return np.asarray(self.ids.get_indexer(ids)) if len(self.ids) else np.full(len(ids), -1)

    def add(self, ids: pd.Index, pair: np.ndarray, swapped: np.ndarray, votes: Votes) -> np.ndarray:
        """Add the rows' comparisons not yet known; a row naming another pair for an id known before,
        or named by an earlier row, is an error naming its line. Returns each row's position in the
        table."""
        known_row = self.lookup(ids)
        has = known_row >= 0
        clash = np.zeros(len(ids), dtype=bool)
        clash[has] = self.pair[known_row[has]] != pair[has]
        codes, uniq = pd.factorize(ids, sort=False)
        first_row = np.full(len(uniq), len(ids), dtype=np.int64)
        np.minimum.at(first_row, codes, np.arange(len(ids)))
        clash |= pair[first_row][codes] != pair
        if clash.any():
            i = int(np.flatnonzero(clash)[0])
            raise _pair_error(votes, i, ids[i])
        sw = swapped.astype(np.int8)  # orientation of each new comparison: -1 when rows disagree
        lo = np.full(len(uniq), 2, dtype=np.int8)
        hi = np.full(len(uniq), -1, dtype=np.int8)
        np.minimum.at(lo, codes, sw)
        np.maximum.at(hi, codes, sw)
        orient = np.where(lo == hi, lo, -1).astype(np.int8)
        at = np.full(len(uniq), -1, dtype=np.int64)  # each distinct id's position in the table
        at[codes[has]] = known_row[has]
        new = at < 0
        if new.any():
            fresh = pd.Index(uniq)[new]
            at[new] = len(self.ids) + np.arange(int(new.sum()))
            self.ids = self.ids.append(fresh) if len(self.ids) else fresh
            self.pair = np.concatenate([self.pair, pair[first_row[new]]])
            self.swapped = np.concatenate([self.swapped, orient[new]])
        return at[codes]


def _pair_error(votes: Votes, i: int, cid: Any) -> InputError:
    names = votes.models
    a, b = votes.model_a, votes.model_b
    assert a is not None and b is not None
    return InputError(
        f"{votes.locate(i)}: comparison {show(cid)} is between {names[a[i]]!r} and {names[b[i]]!r} "
        "here but between two other models elsewhere; one comparison id is one pair of models"
    )


def _oriented(votes: Votes, models: pd.Index) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per row: the pair code (first·M + second, first < second in ``models``), whether model A is
    ``second`` (swapped), and the outcome relative to (first, second)."""
    assert votes.model_a is not None and votes.model_b is not None
    remap = np.asarray(models.get_indexer(pd.Index(votes.models)), dtype=np.int64)
    a, b = remap[votes.model_a], remap[votes.model_b]
    swapped = a > b
    pair = np.minimum(a, b) * len(models) + np.maximum(a, b)
    return pair, swapped, _relative(votes.outcome, swapped)


def _relative(outcome: np.ndarray, swapped: np.ndarray) -> np.ndarray:
    """An outcome as seen in position (A/B) → relative to (first, second)."""
    flip = swapped & (outcome != TIE)
    return np.where(flip, 1 - outcome, outcome).astype(np.int8)


def _by_prompt(judge: Votes, human: Votes, human_ids: pd.Index, models: pd.Index) -> Votes:
    """A judge's votes made from scores, re-keyed to the human comparisons with the same prompt and
    pair of models (a vote is copied to each such comparison); the others keep their own ids."""
    if human.prompt is None:
        raise InputError(
            f"judges[{judge.name!r}]: votes made from scores join by prompt; give the human votes' "
            "prompt column (read_votes(..., prompt_col=...))"
        )
    assert judge.prompt is not None
    h_pair, _, _ = _oriented(human, models)
    j_pair, _, _ = _oriented(judge, models)
    keys = pd.DataFrame({"prompt": human.prompt.astype(str), "pair": h_pair, "id": human_ids})
    keys = keys.drop_duplicates(["prompt", "pair", "id"]).reset_index(drop=True)
    keys["at"] = np.arange(len(keys))
    rows = pd.DataFrame(
        {"prompt": judge.prompt.astype(str), "pair": j_pair, "row": np.arange(len(judge))}
    )
    merged = rows.merge(keys[["prompt", "pair", "at"]], on=["prompt", "pair"], how="left")
    merged = merged.sort_values(["row", "at"], kind="stable")
    row = merged["row"].to_numpy()
    at = merged["at"].to_numpy(dtype=float)
    found = ~np.isnan(at)
    own = np.asarray(judge.comparison, dtype=object)[row]
    matched = np.asarray(keys["id"].to_numpy(), dtype=object)[np.where(found, at, 0).astype(int)]
    ids = np.where(found, matched, own)
    take = np.asarray(row)
    return Votes(
        name=judge.name,
        comparison=pd.Index(ids, dtype=object),
        models=judge.models,
        model_a=None if judge.model_a is None else judge.model_a[take],
        model_b=None if judge.model_b is None else judge.model_b[take],
        outcome=judge.outcome[take],
        rater=None if judge.rater is None else judge.rater[take],
        raters=judge.raters,
        prompt=judge.prompt[take],
        positional=judge.positional,
        keyed_by="comparison",
        where=judge.where,
        first_line=judge.first_line,
    )


def join_votes(votes: Any, judges: Any = None, *, missing: str = "error") -> VoteStudy:
    """Join human votes and judges' votes by comparison id, in canonical order.

    Parameters
    ----------
    votes : path, DataFrame or Votes
        The human votes (they must name the two models of each comparison).
    judges : mapping, sequence, path, DataFrame or Votes, optional
        Each judge's votes: ``{"name": votes, ...}``, or a list (named by file name, or
        ``judge1``, ``judge2``, …). A judge's comparisons without a human vote are the unlabelled
        ones.
    missing : {"error", "drop"}
        Human-voted comparisons a judge did not vote on, and judge votes for comparisons no source
        with models names: an error, or dropped (said in :attr:`VoteStudy.notes`).

    Returns
    -------
    VoteStudy

    Raises
    ------
    InputError
        Human votes without model columns, a comparison id naming two different pairs of models, a
        judge vote for an unknown comparison or a human-voted comparison a judge skipped (with
        ``missing="error"``), a judge named twice or ``"human"``.

    Examples
    --------
    >>> import pandas as pd
    >>> human = pd.DataFrame({"id": [1, 2], "model_a": ["x", "y"], "model_b": ["y", "z"],
    ...                       "winner": ["model_a", "model_b"]})
    >>> llm = pd.DataFrame({"id": [1, 2, 3], "model_a": ["y", "y", "x"],
    ...                     "model_b": ["x", "z", "z"], "winner": ["model_b", "tie", "model_a"]})
    >>> study = join_votes(human, {"llm": llm})
    >>> j = study.judge("llm")
    >>> j.outcome.tolist(), j.swapped.tolist()  # comparison 1 shown the other way round
    ([0, 2, 0], [True, False, False])
    """
    missing = check_missing(missing)
    human = _as_votes(votes, "human")
    if not human.has_models:
        raise InputError(
            f"{human.where or 'votes'}: the human votes name no models; give the model_a and "
            f"model_b columns (or name them with {setting('model_a_col')} and {setting('model_b_col')})"
        )
    judge_votes = [_as_votes(src, name) for name, src in _judge_sources(judges)]
    models = pd.Index(sorted(set(human.models).union(*(j.models for j in judge_votes))))
    if human.keyed_by == "comparison":
        judge_votes = [
            _by_prompt(j, human, human.comparison, models) if j.keyed_by == "prompt" else j
            for j in judge_votes
        ]
    ids = _unify_ids([human, *judge_votes])
    table = _Table(len(models))
    h_pair, h_sw, h_out = _oriented(human, models)
    positions = [table.add(ids[0], h_pair, h_sw, human)]
    n_human = len(table.ids)
    oriented: list[tuple[np.ndarray, np.ndarray]] = [(h_out, h_sw)]
    for j, jid in zip(judge_votes, ids[1:], strict=True):  # the judges that name models first
        if j.has_models:
            pair, sw, out = _oriented(j, models)
            positions.append(table.add(jid, pair, sw, j))
            oriented.append((out, sw))
        else:
            positions.append(np.full(len(j), -1, dtype=np.int64))
            oriented.append((j.outcome, np.zeros(len(j), dtype=bool)))
    notes: list[DataNote] = []
    drop = np.zeros(len(table.ids), dtype=bool)
    for k, (j, jid) in enumerate(zip(judge_votes, ids[1:], strict=True), start=1):
        pos = positions[k]
        if not j.has_models:
            pos = table.lookup(jid)
            pos, oriented[k] = _modelless(j, jid, pos, table, missing, notes)
        covered = np.zeros(n_human, dtype=bool)
        covered[pos[(pos >= 0) & (pos < n_human)]] = True
        if not covered.all():
            first = table.ids[int(np.flatnonzero(~covered)[0])]
            if missing == "error":
                raise InputError(
                    f"judges[{j.name!r}]: {int((~covered).sum())} human-voted comparison(s) have no "
                    f"vote from this judge (first: {show(first)}); give its votes on every "
                    f"human-voted comparison, or pass {setting('missing', 'drop')} to keep only the "
                    "comparisons "
                    "every judge voted on"
                )
            notes.append(DataNote("dropped_unjudged", j.name, int((~covered).sum()), str(first)))
            drop[:n_human] |= ~covered
        positions[k] = pos
    return _assemble(human, judge_votes, table, positions, oriented, drop, models, notes)


def _modelless(
    j: Votes, jid: pd.Index, pos: np.ndarray, table: _Table, missing: str, notes: list[DataNote]
) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """A judge whose rows name no models: each row takes its comparison's models and orientation
    from the record that named them; rows for unknown ids are an error or dropped."""
    unknown = pos < 0
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        if missing == "error":
            raise InputError(
                f"{j.locate(i)}: judge {j.name!r} votes on comparison {show(jid[i])}, which no "
                "source with models names; give the judge's model_a and model_b columns, or pass "
                f"{setting('missing', 'drop')} to leave such votes out"
            )
        notes.append(DataNote("dropped_unknown", j.name, int(unknown.sum()), str(jid[i])))
    sw = np.zeros(len(pos), dtype=np.int8)
    sw[~unknown] = table.swapped[pos[~unknown]]
    ambiguous = (sw < 0) & ~unknown
    if ambiguous.any():
        i = int(np.flatnonzero(ambiguous)[0])
        raise InputError(
            f"{j.locate(i)}: comparison {show(jid[i])} was shown in both orders, so judge "
            f"{j.name!r}'s model_a is ambiguous; give the judge's model_a and model_b columns"
        )
    swapped = sw.astype(bool)
    return pos, (_relative(j.outcome, swapped), swapped)


def _assemble(
    human: Votes,
    judges: list[Votes],
    table: _Table,
    positions: list[np.ndarray],
    oriented: list[tuple[np.ndarray, np.ndarray]],
    drop: np.ndarray,
    models: pd.Index,
    notes: list[DataNote],
) -> VoteStudy:
    """The study in canonical order: comparisons sorted by id, each source's votes by comparison,
    outcome, position and rater."""
    kept = np.flatnonzero(~drop)
    ids = table.ids[kept]
    order = sort_positions(ids)
    if order is not None:
        kept, ids = kept[order], ids[order]
    code_of = np.full(len(table.ids), -1, dtype=np.int64)
    code_of[kept] = np.arange(len(kept))
    m = len(models)
    sets = []
    for votes, pos, (out, sw) in zip([human, *judges], positions, oriented, strict=True):
        code = np.where(pos >= 0, code_of[np.maximum(pos, 0)], -1)
        keep = code >= 0
        rater = votes.rater[keep] if votes.rater is not None else None
        rank = _vote_order(code[keep], out[keep], sw[keep], rater)
        sets.append(
            VoteSet(
                name=votes.name,
                comparison=code[keep][rank],
                outcome=out[keep][rank].astype(np.int8),
                swapped=sw[keep][rank].astype(bool)
                if votes.positional
                else np.zeros(len(rank), dtype=bool),
                positional=votes.positional,
                rater=None if rater is None else rater[rank],
                raters=votes.raters,
            )
        )
    pair = table.pair[kept]
    return VoteStudy(
        ids=ids,
        models=tuple(str(x) for x in models),
        first=(pair // m).astype(np.int32),
        second=(pair % m).astype(np.int32),
        human=sets[0],
        judges=tuple(sets[1:]),
        prompt=_prompts(human, positions[0], code_of, len(kept)),
        notes=tuple(notes),
    )


def _vote_order(
    code: np.ndarray, out: np.ndarray, sw: np.ndarray, rater: np.ndarray | None
) -> np.ndarray:
    """The canonical order of one source's votes: by comparison, outcome, position, rater (no sort
    when each comparison has one vote and they already come in order)."""
    if len(code) < 2 or bool(np.all(code[1:] > code[:-1])):
        return np.arange(len(code))
    keys = (sw, out, code) if rater is None else (rater, sw, out, code)
    return np.lexsort(keys)


def _prompts(human: Votes, pos: np.ndarray, code_of: np.ndarray, n: int) -> np.ndarray | None:
    """Each comparison's prompt from the human votes (``None`` without a prompt column, or for a
    comparison no human saw)."""
    if human.prompt is None:
        return None
    out = np.full(n, None, dtype=object)
    code = code_of[pos]
    keep = code >= 0
    out[code[keep][::-1]] = human.prompt[keep][::-1]  # the first row of each comparison wins
    return out
