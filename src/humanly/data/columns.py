"""Column-name conventions: which column of a table holds the items, raters, labels, gold or predictions.

Names are detected from common conventions so crowd-kit and cleanlab frames load as they are:

========  ===================================================================================
role      recognised names (case-insensitive, a leading ``!`` or ``#`` ignored)
========  ===================================================================================
item      item, task, item_id, question, task_id, question_id
rater     rater, worker, annotator, performer (and the same with ``_id``), worker_ids, amt_worker_ids
label     label, answer, response, rating
gold      label, gold, truth, gold_label, true_label
model     model
hard      prediction, predicted, pred
prob      prob, proba, probability (one positive-class probability, two classes)
========  ===================================================================================

Any role can be named explicitly (``item_col=...``; on the command line ``--item-col``); messages name
the Python parameter, which the command line rewrites as its flag.

>>> pick_column(["Task", "worker", "label"], None, ITEM_NAMES, role="item", param="item_col")
'Task'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..errors import InputError, setting

__all__ = [
    "GOLD_NAMES",
    "HARD_NAMES",
    "ITEM_NAMES",
    "LABEL_NAMES",
    "MODEL_NAMES",
    "PROB_NAMES",
    "RATER_NAMES",
    "id_text_columns",
    "normalise_name",
    "pick_column",
]

ITEM_NAMES = ("item", "task", "item_id", "question", "task_id", "question_id")
RATER_NAMES = (
    "rater",
    "worker",
    "annotator",
    "performer",
    "rater_id",
    "worker_id",
    "annotator_id",
    "performer_id",
    "worker_ids",
    "amt_worker_ids",
)
LABEL_NAMES = ("label", "answer", "response", "rating")
GOLD_NAMES = ("label", "gold", "truth", "gold_label", "true_label")
MODEL_NAMES = ("model",)
HARD_NAMES = ("prediction", "predicted", "pred")
PROB_NAMES = ("prob", "proba", "probability")


def normalise_name(name: str) -> str:
    """A column name as the conventions compare it.

    >>> normalise_name("!AMT_Worker_IDs")
    'amt_worker_ids'
    """
    return str(name).strip().lstrip("!#").strip().lower()


def pick_column(
    columns: Sequence[str],
    override: str | None,
    names: Sequence[str],
    *,
    role: str,
    param: str,
    where: str = "input",
    required: bool = True,
    exclude: Sequence[str] = (),
) -> str | None:
    """The column that plays ``role``: ``override`` if given (it must exist), else the one column whose
    name follows a convention in ``names`` (not in ``exclude``).

    Raises :class:`InputError` naming the parameter ``param`` when the column is absent, ambiguous or
    (``required``) not found; returns ``None`` when an optional column is not found.

    >>> pick_column(["doc", "who", "y"], None, ITEM_NAMES, role="item", param="item_col", where="r.csv")
    Traceback (most recent call last):
    humanly.errors.InputError: r.csv: missing required item column (looked for item, task, \
item_id, question, task_id, question_id; columns: doc, who, y); name it with item_col=
    """
    cols = [str(c) for c in columns]
    listed = ", ".join(cols)
    if override is not None:
        if override not in cols:
            raise InputError(
                f"{where}: no column {override!r} for the {role} (columns: {listed}); "
                f"check {setting(param)}"
            )
        return override
    found = [c for c in cols if normalise_name(c) in names and c not in exclude]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise InputError(
            f"{where}: several columns could be the {role} ({', '.join(found)}); choose one with "
            f"{setting(param)}"
        )
    if required:
        raise InputError(
            f"{where}: missing required {role} column (looked for {', '.join(names)}; columns: "
            f"{listed}); name it with {setting(param)}"
        )
    return None


def id_text_columns(*groups: Sequence[str | None]) -> Callable[[list[str]], list[str]]:
    """CSV columns to read as text: the explicitly named ones, and any following an id convention
    (so ids like ``007`` keep their leading zeros).

    >>> id_text_columns(["orig_id"])(["orig_id", "worker", "label"])
    ['orig_id', 'worker']
    """

    def pick(columns: list[str]) -> list[str]:
        out: list[str] = []
        for group in groups:
            out.extend(g for g in group if g is not None and g in columns)
        names = set(ITEM_NAMES) | set(RATER_NAMES) | set(MODEL_NAMES)
        out.extend(c for c in columns if normalise_name(c) in names)
        return list(dict.fromkeys(out))

    return pick
