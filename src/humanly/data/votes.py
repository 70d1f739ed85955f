"""Pairwise votes as data: :class:`Votes` (one source's votes — the humans', or one judge's) and
:class:`VoteStudy` (every source joined by comparison id, in canonical order), what
:func:`humanly.rank` reads.

A *comparison* is one prompt and the two answers of two models to it, shown to a voter as "model A"
and "model B"; a *vote* says which answer is better (``model_a``, ``model_b``) or that they ``tie``.
Several votes on one comparison (several raters, a judge asked twice) are kept.

In a :class:`VoteStudy` each comparison is held in one orientation — its two models in name order,
``first`` < ``second`` — and each vote keeps whether it saw them the other way round (``swapped``), so
swapping a row's ``model_a`` and ``model_b`` and flipping its outcome changes no estimate, only the
sign of a position-bias measure. Comparisons are sorted by id and votes by comparison (the canonical
order): the row order of an input never changes a number.

>>> import pandas as pd
>>> from humanly.data import read_votes, join_votes
>>> human = read_votes(pd.DataFrame({"id": [1, 2], "model_a": ["x", "y"], "model_b": ["y", "x"],
...                                  "winner": ["model_a", "tie (bothbad)"]}))
>>> study = join_votes(human)
>>> study.models, study.human.outcome.tolist(), study.human.swapped.tolist()
(('x', 'y'), [0, 2], [False, True])
"""

from __future__ import annotations

import dataclasses
from typing import Any, Literal

import numpy as np
import pandas as pd

__all__ = ["FIRST", "OUTCOMES", "SECOND", "TIE", "DataNote", "VoteSet", "VoteStudy", "Votes"]

#: the three outcomes of a vote, by their code (0, 1, 2)
OUTCOMES = ("model_a", "model_b", "tie")
#: outcome codes in a :class:`VoteStudy`: relative to the comparison's ``first`` and ``second`` model
FIRST, SECOND, TIE = 0, 1, 2


@dataclasses.dataclass(frozen=True, eq=False)
class Votes:
    """One source's votes, one row per vote, as read (:func:`~humanly.data.read_votes`,
    :func:`~humanly.data.votes_from_scores`).

    Parameters
    ----------
    name : str
        The source's name (``"human"``, or the judge's name).
    comparison : pandas.Index
        The comparison id of each row (not unique: several votes on one comparison are kept).
    models : tuple of str
        The models the rows name, sorted.
    model_a, model_b : numpy.ndarray or None
        Codes into ``models`` per row: the model shown first (A) and second (B). ``None`` when the
        source names no models (a judge's file of ids and outcomes: the models are the human record's).
    outcome : numpy.ndarray
        int8 per row: 0 ``model_a`` won, 1 ``model_b`` won, 2 a tie.
    rater : numpy.ndarray or None
        Codes into ``raters`` per row, when a rater column was read.
    raters : pandas.Index or None
        The raters' ids.
    prompt : numpy.ndarray or None
        The prompt id of each row, when a prompt column was read.
    positional : bool
        Whether the voter saw the two answers in an order (``model_a`` first); ``False`` for votes made
        from scores, which have no position.
    keyed_by : {"comparison", "prompt"}
        How the votes join other sources: by comparison id, or (votes made from scores) by prompt and
        pair of models.
    where : str
        The input's name for messages (a path, or ``"DataFrame"``).
    first_line : int or None
        The line of row 0 in a text file (``None``: rows are counted).

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> v = Votes("human", pd.Index([7, 9]), ("x", "y"), np.array([0, 1]), np.array([1, 0]),
    ...           np.array([0, 2], dtype=np.int8))
    >>> len(v), v.locate(1)
    (2, 'human row 2')
    """

    name: str
    comparison: pd.Index
    models: tuple[str, ...]
    model_a: np.ndarray | None
    model_b: np.ndarray | None
    outcome: np.ndarray
    rater: np.ndarray | None = None
    raters: pd.Index | None = None
    prompt: np.ndarray | None = None
    positional: bool = True
    keyed_by: Literal["comparison", "prompt"] = "comparison"
    where: str | None = None
    first_line: int | None = None

    def __len__(self) -> int:
        return len(self.outcome)

    @property
    def has_models(self) -> bool:
        """Whether the rows name their two models.

        Examples
        --------
        >>> Votes("llm", pd.Index([1]), (), None, None, np.array([2], dtype=np.int8)).has_models
        False
        """
        return self.model_a is not None

    def locate(self, i: int) -> str:
        """Where a row is, for an error message.

        Parameters
        ----------
        i : int
            The row (0-based).

        Returns
        -------
        str
            E.g. ``"votes.jsonl line 3"``.

        Examples
        --------
        >>> v = Votes("h", pd.Index([1]), (), None, None, np.array([2], dtype=np.int8),
        ...           where="v.csv", first_line=2)
        >>> v.locate(0)
        'v.csv line 2'
        """
        label = self.where or self.name
        if self.first_line is None:
            return f"{label} row {i + 1}"
        return f"{label} line {i + self.first_line}"

    def with_name(self, name: str) -> Votes:
        """The same votes under another source name.

        Parameters
        ----------
        name : str
            The new name.

        Returns
        -------
        Votes

        Examples
        --------
        >>> Votes("h", pd.Index([1]), (), None, None, np.array([2], dtype=np.int8)).with_name("llm").name
        'llm'
        """
        return dataclasses.replace(self, name=str(name))

    def to_frame(self) -> pd.DataFrame:
        """One row per vote: ``comparison``, ``model_a``, ``model_b``, ``outcome`` (and ``rater``,
        ``prompt`` when known), as read."""
        out: dict[str, Any] = {"comparison": np.asarray(self.comparison)}
        if self.model_a is not None and self.model_b is not None:
            names = np.asarray(self.models, dtype=object)
            out["model_a"] = names[self.model_a]
            out["model_b"] = names[self.model_b]
        out["outcome"] = np.asarray(OUTCOMES, dtype=object)[self.outcome]
        if self.rater is not None and self.raters is not None:
            out["rater"] = np.asarray(self.raters)[self.rater]
        if self.prompt is not None:
            out["prompt"] = self.prompt
        return pd.DataFrame(out)


@dataclasses.dataclass(frozen=True, eq=False)
class VoteSet:
    """One source's votes inside a :class:`VoteStudy`, in canonical order (by comparison, then
    outcome, then position, then rater).

    Parameters
    ----------
    name : str
        The source (``"human"`` or a judge's name).
    comparison : numpy.ndarray
        int64 codes into :attr:`VoteStudy.ids`, one per vote, sorted.
    outcome : numpy.ndarray
        int8 per vote, relative to the comparison's ``first`` and ``second`` model: 0 ``first`` won,
        1 ``second`` won, 2 a tie.
    swapped : numpy.ndarray
        bool per vote: the voter saw ``second`` as model A (always ``False`` without positions).
    positional : bool
        Whether the votes had positions (not made from scores).
    rater : numpy.ndarray or None
        Codes into ``raters`` per vote.
    raters : pandas.Index or None
        The raters' ids.

    Examples
    --------
    >>> s = VoteSet("human", np.array([0, 0, 1]), np.array([0, 2, 1], dtype=np.int8),
    ...             np.array([False, True, False]))
    >>> s.n_votes, s.shares(2)[0].tolist()
    (3, [0.5, 0.0])
    """

    name: str
    comparison: np.ndarray
    outcome: np.ndarray
    swapped: np.ndarray
    positional: bool = True
    rater: np.ndarray | None = None
    raters: pd.Index | None = None

    @property
    def n_votes(self) -> int:
        """The number of votes."""
        return len(self.outcome)

    def counts(self, n_comparisons: int) -> np.ndarray:
        """Votes per comparison (length ``n_comparisons``)."""
        return np.bincount(self.comparison, minlength=n_comparisons)

    def shares(self, n_comparisons: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per comparison: the share of its votes won by ``first``, the share won by ``second``, and
        the number of votes (shares are 0 where a comparison has no vote)."""
        n = self.counts(n_comparisons).astype(float)
        won_first = np.bincount(
            self.comparison, weights=(self.outcome == FIRST).astype(float), minlength=n_comparisons
        )
        won_second = np.bincount(
            self.comparison, weights=(self.outcome == SECOND).astype(float), minlength=n_comparisons
        )
        safe = np.where(n > 0, n, 1.0)
        return won_first / safe, won_second / safe, n


@dataclasses.dataclass(frozen=True)
class DataNote:
    """Something the join did to the data, as a code (the sentences are written elsewhere).

    Parameters
    ----------
    code : str
        ``"dropped_unjudged"`` (human-voted comparisons some judge did not vote on, dropped with
        ``missing="drop"``) or ``"dropped_unknown"`` (judge votes on comparisons no source with models
        names, dropped with ``missing="drop"``).
    source : str
        The judge concerned.
    count : int
        How many comparisons (or votes).
    example : str
        One of them (its id, as text).

    Examples
    --------
    >>> DataNote("dropped_unjudged", "gpt", 3, "17").count
    3
    """

    code: str
    source: str
    count: int
    example: str


@dataclasses.dataclass(frozen=True, eq=False)
class VoteStudy:
    """Human votes and judges' votes joined by comparison id (:func:`~humanly.data.join_votes`): what
    :func:`humanly.rank` analyses, never re-joined.

    Parameters
    ----------
    ids : pandas.Index
        The comparison ids, sorted (the canonical order).
    models : tuple of str
        Every model, sorted by name.
    first, second : numpy.ndarray
        int32 codes into ``models`` per comparison, ``first`` < ``second``.
    human : VoteSet
        The human votes (comparisons without one are the unlabelled set).
    judges : tuple of VoteSet
        Each judge's votes, in the order given.
    prompt : numpy.ndarray or None
        Each comparison's prompt id, when known.
    notes : tuple of DataNote
        What ``missing="drop"`` dropped.

    Examples
    --------
    >>> import pandas as pd
    >>> from humanly.data import join_votes, read_votes
    >>> frame = pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "y", "x"],
    ...                       "model_b": ["y", "z", "z"], "winner": ["model_a", "tie", "model_b"]})
    >>> judge = frame.assign(winner=["model_a", "model_a", "model_b"])
    >>> study = join_votes(read_votes(frame.iloc[:2]), {"llm": read_votes(judge)})
    >>> study.n_comparisons, study.labelled.tolist(), study.judge_names
    (3, [True, True, False], ('llm',))
    """

    ids: pd.Index
    models: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    human: VoteSet
    judges: tuple[VoteSet, ...] = ()
    prompt: np.ndarray | None = None
    notes: tuple[DataNote, ...] = ()

    @property
    def n_comparisons(self) -> int:
        """The number of comparisons (human-voted or judge-only).

        Examples
        --------
        >>> import pandas as pd
        >>> from humanly.data import join_votes
        >>> study = join_votes(pd.DataFrame({"id": [1, 2], "model_a": ["y", "x"],
        ...                                  "model_b": ["x", "z"], "winner": ["model_a", "tie"]}),
        ...                    {"llm": pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "x", "y"],
        ...                                          "model_b": ["y", "z", "z"],
        ...                                          "winner": ["tie", "tie", "tie"]})})
        >>> study.n_comparisons
        3
        """
        return len(self.ids)

    @property
    def judge_names(self) -> tuple[str, ...]:
        """The judges' names, in order.

        Examples
        --------
        >>> import pandas as pd
        >>> from humanly.data import join_votes
        >>> study = join_votes(pd.DataFrame({"id": [1, 2], "model_a": ["y", "x"],
        ...                                  "model_b": ["x", "z"], "winner": ["model_a", "tie"]}),
        ...                    {"llm": pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "x", "y"],
        ...                                          "model_b": ["y", "z", "z"],
        ...                                          "winner": ["tie", "tie", "tie"]})})
        >>> study.judge_names
        ('llm',)
        """
        return tuple(j.name for j in self.judges)

    @property
    def labelled(self) -> np.ndarray:
        """bool per comparison: it has at least one human vote.

        Examples
        --------
        >>> import pandas as pd
        >>> from humanly.data import join_votes
        >>> study = join_votes(pd.DataFrame({"id": [1, 2], "model_a": ["y", "x"],
        ...                                  "model_b": ["x", "z"], "winner": ["model_a", "tie"]}),
        ...                    {"llm": pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "x", "y"],
        ...                                          "model_b": ["y", "z", "z"],
        ...                                          "winner": ["tie", "tie", "tie"]})})
        >>> study.labelled.tolist()
        [True, True, False]
        """
        return self.human.counts(self.n_comparisons) > 0

    def judge(self, name: str) -> VoteSet:
        """The votes of the judge called ``name``.

        Parameters
        ----------
        name : str
            The judge's name.

        Returns
        -------
        VoteSet

        Raises
        ------
        KeyError
            No judge has that name.

        Examples
        --------
        >>> import pandas as pd
        >>> from humanly.data import join_votes
        >>> study = join_votes(pd.DataFrame({"id": [1, 2], "model_a": ["y", "x"],
        ...                                  "model_b": ["x", "z"], "winner": ["model_a", "tie"]}),
        ...                    {"llm": pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "x", "y"],
        ...                                          "model_b": ["y", "z", "z"],
        ...                                          "winner": ["tie", "tie", "tie"]})})
        >>> study.judge("llm").comparison.tolist()
        [0, 1, 2]
        """
        for j in self.judges:
            if j.name == name:
                return j
        raise KeyError(f"no judge {name!r}; judges are {list(self.judge_names)}")

    def pair_names(self) -> tuple[np.ndarray, np.ndarray]:
        """The two models' names per comparison.

        Returns
        -------
        tuple of numpy.ndarray
            The ``first`` and the ``second`` model of each comparison.

        Examples
        --------
        >>> import pandas as pd
        >>> from humanly.data import join_votes
        >>> study = join_votes(pd.DataFrame({"id": [1, 2], "model_a": ["y", "x"],
        ...                                  "model_b": ["x", "z"], "winner": ["model_a", "tie"]}),
        ...                    {"llm": pd.DataFrame({"id": [1, 2, 3], "model_a": ["x", "x", "y"],
        ...                                          "model_b": ["y", "z", "z"],
        ...                                          "winner": ["tie", "tie", "tie"]})})
        >>> [a.tolist() for a in study.pair_names()]
        [['x', 'x', 'y'], ['y', 'z', 'z']]
        """
        names = np.asarray(self.models, dtype=object)
        return names[self.first], names[self.second]

    def to_frame(self, source: str = "human") -> pd.DataFrame:
        """One row per vote of ``source`` (``"human"`` or a judge's name) as the voter saw it:
        ``comparison``, ``model_a``, ``model_b``, ``outcome``."""
        votes = self.human if source == "human" else self.judge(source)
        first, second = self.pair_names()
        c = votes.comparison
        a = np.where(votes.swapped, second[c], first[c])
        b = np.where(votes.swapped, first[c], second[c])
        # the outcome as the voter saw it: first/second flip when swapped
        shown = np.where(votes.outcome == TIE, 2, votes.outcome ^ votes.swapped.astype(np.int8))
        return pd.DataFrame(
            {
                "comparison": np.asarray(self.ids)[c],
                "model_a": a,
                "model_b": b,
                "outcome": np.asarray(OUTCOMES, dtype=object)[shown],
            }
        )
