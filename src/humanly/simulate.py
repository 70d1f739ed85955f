"""Generators with a known truth, for tests and for checking a design before paying for labels.

Three models, one per paper, each returning a :class:`SimulatedData` (ratings, gold labels, predictions
and the true parameters) that can be written to long-format files with :meth:`SimulatedData.write`:

1. :func:`urn` — the item-state urn of *Survey Equivalence* (section 2): each item has a state, a
   distribution over labels; its K labels are i.i.d. draws from it. :func:`running_example` is the
   paper's preset.
2. :func:`oracle` — *Humanly Certifying Superhuman Classifiers*: a true label per item, annotators with
   their own accuracies or confusion matrices, optional item difficulty shared by annotators and models.
3. :func:`pair` — *Don't Label Twice*: two binary classifiers (better and worse) and noisy labellers,
   in the independent (p, ε, q) or correlated (q_b, q_w, p_w, p_b⁰, p_b¹) parameterisation.

Every generator takes ``seed`` (an int or a :class:`numpy.random.Generator`); the same seed gives the
same data.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._checks import check_int, check_seed
from ._result import Result
from .data import Gold, InputError, ModelOutput, Predictions, Ratings, write_table

__all__ = [
    "RUNNING_EXAMPLE",
    "SimulatedData",
    "oracle",
    "pair",
    "running_example",
    "urn",
]

Seed = int | np.random.Generator | None


def _rng(seed: Seed) -> np.random.Generator:
    seed = check_seed("seed", seed)
    return seed if isinstance(seed, np.random.Generator) else np.random.default_rng(seed)


def _check_sizes(n_items: int, labels_per_item: int | tuple[int, int] | None) -> None:
    """``n_items`` ≥ 1 and ``labels_per_item`` a whole number ≥ 1 or a range ``(low, high)``."""
    check_int("n_items", n_items, minimum=1)
    if labels_per_item is None or isinstance(labels_per_item, tuple):
        return
    check_int("labels_per_item", labels_per_item, minimum=1)


@dataclasses.dataclass(frozen=True, repr=False)
class SimulatedData(Result):
    """Simulated ratings with their known truth.

    ``truth`` holds the generating parameters and per-item hidden quantities (e.g. item states, the
    true labels, each annotator's and model's true accuracy).
    """

    ratings: Ratings
    gold: Gold | None
    predictions: Predictions | None
    truth: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from .summary import summarize

        return {
            "ratings": summarize(self.ratings).to_dict(),
            "models": list(self.predictions.names) if self.predictions else [],
            "n_gold": 0 if self.gold is None else len(self.gold),
            "truth": {k: v for k, v in self.truth.items() if not isinstance(v, np.ndarray)},
        }

    def __repr__(self) -> str:
        models = list(self.predictions.names) if self.predictions else []
        return f"SimulatedData({self.ratings!r}, gold={self.gold is not None}, models={models})"

    def files(self, path: str | Path) -> dict[str, Path]:
        """Where :meth:`write` puts each table: ``X.csv`` → ``X.csv``, ``X.gold.csv``,
        ``X.predictions.csv`` (and ``X.states.csv`` for the urn)."""
        p = Path(path)
        stem, ext = p.stem, p.suffix
        if not ext:
            raise InputError(
                f"{p}: give the output file an extension (.csv, .tsv, .parquet, .jsonl)"
            )
        out = {"ratings": p}
        if self.gold is not None:
            out["gold"] = p.with_name(f"{stem}.gold{ext}")
        if self.predictions is not None:
            out["predictions"] = p.with_name(f"{stem}.predictions{ext}")
        if "states" in self.truth:
            out["states"] = p.with_name(f"{stem}.states{ext}")
        return out

    def tables(self) -> dict[str, pd.DataFrame]:
        """The long-format tables :meth:`write` writes."""
        out = {"ratings": self.ratings.to_frame()}
        cls = np.asarray(self.ratings.classes, dtype=object)
        if self.gold is not None:
            out["gold"] = pd.DataFrame({"item": self.gold.items, "label": cls[self.gold.codes]})
        if self.predictions is not None:
            frames = []
            for m in self.predictions.models:
                f = pd.DataFrame({"item": self.predictions.items, "model": m.name})
                if m.kind == "label":
                    f["prediction"] = cls[m.values]
                elif m.kind == "proba":
                    for j, c in enumerate(self.ratings.classes):
                        f[f"prob_{c}"] = m.values[:, j]
                else:
                    f["score"] = m.values
                frames.append(f)
            out["predictions"] = pd.concat(frames, ignore_index=True)
        if "states" in self.truth:
            st = np.asarray(self.truth["states"])
            f = pd.DataFrame({"item": self.ratings.items})
            if "state_index" in self.truth:
                f["state"] = self.truth["state_index"]
            for j, c in enumerate(self.ratings.classes):
                f[f"p_{c}"] = st[:, j]
            out["states"] = f
        return out

    def write(self, path: str | Path, *, force: bool = True) -> dict[str, Path]:
        """Write ratings (long ``item, rater, label``), gold and predictions files; return their paths.

        Each file is written atomically. Formats follow the extension of ``path``. ``force=False``
        replaces no existing file: each is published exclusively, in a fixed order, and if one exists
        the files this call already published are removed before :class:`InputError` is raised — so of
        two writers of the same new files exactly one succeeds and the other leaves nothing behind.
        """
        targets = self.files(path)
        published: list[Path] = []
        try:
            for key, frame in self.tables().items():
                published.append(write_table(frame, targets[key], force=force))
        except InputError:
            for done in published:
                done.unlink(missing_ok=True)
            raise
        return targets


# ---------------------------------------------------------------------------------------- helpers
def _labels_from_probs(rng: np.random.Generator, probs: np.ndarray, k: int) -> np.ndarray:
    """``k`` i.i.d. class draws per row of ``probs`` (rows × classes) → rows × k codes."""
    cum = np.cumsum(probs, axis=1)
    cum[:, -1] = 1.0
    u = rng.random((probs.shape[0], k))
    return (u[:, :, None] > cum[:, None, :]).sum(axis=2).astype(np.int16)


def _build_named(
    n_items: int,
    labels: np.ndarray,
    mask: np.ndarray,
    rater_ids: np.ndarray,
    classes: Sequence[Any],
    item_prefix: str = "i",
    rater_names: Sequence[str] | None = None,
) -> Ratings:
    """Ratings from an items × slots label array, a mask of present labels and slot → rater ids."""
    rows, slots = np.nonzero(mask)
    raters = rater_ids[rows, slots]
    n_r = int(rater_ids.max()) + 1
    names = rater_names or [f"r{j + 1}" for j in range(n_r)]
    used = np.unique(raters)
    remap = np.full(n_r, -1, dtype=np.int64)
    remap[used] = np.arange(len(used))
    width = len(str(n_items))
    items = pd.Index([f"{item_prefix}{i:0{width}d}" for i in range(n_items)])
    return Ratings(
        items=items,
        classes=tuple(classes),
        item_codes=rows.astype(np.int32),
        rater_codes=remap[raters].astype(np.int32),
        label_codes=labels[rows, slots].astype(np.int16),
        raters=pd.Index([names[j] for j in used]),
        source="simulated",
    )


def _slot_raters(rng: np.random.Generator, n_items: int, k: int, pool: int | None) -> np.ndarray:
    """Rater id per (item, slot): slot j is rater j when ``pool`` is None or k; else k distinct raters
    drawn per item from a pool."""
    if pool is None or pool == k:
        return np.tile(np.arange(k), (n_items, 1))
    if pool < k:
        raise InputError(f"rater pool {pool} is smaller than {k} labels per item")
    keys = rng.random((n_items, pool))
    return np.argsort(keys, axis=1)[:, :k]


def _n_labels_mask(
    rng: np.random.Generator, n_items: int, labels_per_item: int | tuple[int, int]
) -> tuple[int, np.ndarray]:
    if isinstance(labels_per_item, (int, np.integer)):
        k = int(labels_per_item)
        return k, np.ones((n_items, k), dtype=bool)
    lo, hi = (int(x) for x in labels_per_item)
    if not 1 <= lo <= hi:
        raise InputError(f"labels per item range {labels_per_item} must satisfy 1 ≤ low ≤ high")
    n = rng.integers(lo, hi + 1, size=n_items)
    return hi, np.arange(hi)[None, :] < n[:, None]


# ---------------------------------------------------------------------------------------- 1. urn
#: The running example of Survey Equivalence (section 2, Figs. 1–2): three item states with
#: P(C) = 0.8, 0.5, 0.1 in proportions 70%, 10%, 20%; a hard classifier that says C with probability
#: 0.9, 0.5, 0.05 in those states; the calibrated soft classifier outputs 0.77 after C and 0.32 after D.
RUNNING_EXAMPLE: dict[str, Any] = {
    "classes": ("C", "D"),
    "states": [[0.8, 0.2], [0.5, 0.5], [0.1, 0.9]],
    "weights": [0.7, 0.1, 0.2],
    "hard_p_c": [0.9, 0.5, 0.05],
    "soft_after": {"C": 0.77, "D": 0.32},
}


def urn(
    n_items: int,
    labels_per_item: int | tuple[int, int],
    *,
    states: Sequence[Sequence[float]] | None = None,
    weights: Sequence[float] | None = None,
    dirichlet: Sequence[Sequence[float]] | None = None,
    classes: Sequence[Any] | None = None,
    hard_classifiers: Mapping[str, Sequence[Sequence[float]] | np.ndarray] | None = None,
    soft_classifiers: Mapping[str, Sequence[Sequence[float]]] | None = None,
    n_raters: int | None = None,
    seed: Seed = None,
) -> SimulatedData:
    """Item-state urn (Survey Equivalence, section 2).

    Item states come from a finite mixture (``states``: S × C label distributions, ``weights``: S
    mixture weights) or a Dirichlet mixture (``dirichlet``: S × C concentration vectors, one component
    drawn per item with probability ``weights``). Each item receives ``labels_per_item`` i.i.d. labels
    from its state (an int, or a ``(low, high)`` range for ragged items).

    Classifiers are defined from the state component: ``hard_classifiers[name]`` is S × C, the
    distribution of the hard output in each component; ``soft_classifiers[name]`` is S × C, a fixed
    probability vector output in each component.

    Raters: slot ``j`` is rater ``r{j+1}`` unless ``n_raters`` gives a larger pool, from which each item
    draws distinct raters. Gold is the most likely label of the item's state (first class on ties).
    ``truth`` holds ``states`` (items × C), ``state_index`` (component per item), ``weights``.

    >>> d = urn(100, 4, states=[[0.9, 0.1], [0.2, 0.8]], weights=[0.5, 0.5], seed=1)
    >>> d.ratings
    Ratings(100 items, 4 raters, 400 labels, classes=(0, 1), source='simulated')
    """
    _check_sizes(n_items, labels_per_item)
    if n_raters is not None:
        check_int("n_raters", n_raters, minimum=1)
    rng = _rng(seed)
    if (states is None) == (dirichlet is None):
        raise InputError("give either states (a finite mixture) or dirichlet (a Dirichlet mixture)")
    comps = np.asarray(states if states is not None else dirichlet, dtype=float)
    if comps.ndim != 2 or comps.shape[1] < 2:
        raise InputError("states/dirichlet must be a components × classes table with ≥ 2 classes")
    n_comp, n_cls = comps.shape
    w = np.full(n_comp, 1 / n_comp) if weights is None else np.asarray(weights, dtype=float)
    if len(w) != n_comp or (w < 0).any() or not np.isclose(w.sum(), 1):
        raise InputError(f"weights {list(w)} must be {n_comp} non-negative numbers summing to 1")
    if states is not None and ((comps < 0).any() or not np.allclose(comps.sum(axis=1), 1)):
        raise InputError("each state must be a probability distribution over the classes")
    if dirichlet is not None and (comps <= 0).any():
        raise InputError("Dirichlet concentrations must be positive")
    cls = tuple(classes) if classes is not None else tuple(range(n_cls))
    if len(cls) != n_cls:
        raise InputError(f"{len(cls)} class names for {n_cls} classes")
    comp = rng.choice(n_comp, size=n_items, p=w)
    if states is not None:
        item_states = comps[comp]
    else:
        item_states = np.vstack([rng.dirichlet(comps[s]) for s in comp]) if n_items else comps[:0]
    k, mask = _n_labels_mask(rng, n_items, labels_per_item)
    labels = _labels_from_probs(rng, item_states, k)
    raters = _slot_raters(rng, n_items, k, n_raters)
    ratings = _build_named(n_items, labels, mask, raters, cls)
    gold = Gold(ratings.items, cls, np.argmax(item_states, axis=1).astype(np.int16), "simulated")
    models: list[ModelOutput] = []
    for name, table in (hard_classifiers or {}).items():
        dist = np.asarray(table, dtype=float)
        if dist.shape != (n_comp, n_cls):
            raise InputError(f"hard classifier {name!r}: need a {n_comp} × {n_cls} table")
        out = _labels_from_probs(rng, dist[comp], 1)[:, 0]
        models.append(ModelOutput(name, "label", out))
    for name, table in (soft_classifiers or {}).items():
        probs = np.asarray(table, dtype=float)
        if probs.shape != (n_comp, n_cls):
            raise InputError(f"soft classifier {name!r}: need a {n_comp} × {n_cls} table")
        models.append(ModelOutput(name, "proba", probs[comp].copy()))
    preds = Predictions(ratings.items, cls, models, source="simulated") if models else None
    truth = {
        "model": "urn",
        "states": item_states,
        "state_index": comp,
        "weights": w.tolist(),
        "components": comps.tolist(),
        "kind": "finite" if states is not None else "dirichlet",
    }
    return SimulatedData(ratings, gold, preds, truth)


def running_example(
    n_items: int = 1000, labels_per_item: int | tuple[int, int] = 10, *, seed: Seed = None
) -> SimulatedData:
    """The Survey Equivalence running example (section 2): see :data:`RUNNING_EXAMPLE`.

    Models: ``hard`` (outputs C with probability 0.9 / 0.5 / 0.05 in the three states) and ``soft``
    (0.77 when ``hard`` says C, 0.32 when it says D — the calibrated version of ``hard``).

    >>> d = running_example(200, 5, seed=0)
    >>> d.ratings
    Ratings(200 items, 5 raters, 1000 labels, classes=('C', 'D'), source='simulated')
    >>> [m.name for m in d.predictions.models]
    ['hard', 'soft']
    """
    rng = _rng(seed)
    ex = RUNNING_EXAMPLE
    hard_p = np.asarray(ex["hard_p_c"])
    data = urn(
        n_items,
        labels_per_item,
        states=ex["states"],
        weights=ex["weights"],
        classes=ex["classes"],
        hard_classifiers={"hard": np.column_stack([hard_p, 1 - hard_p])},
        seed=rng,
    )
    assert data.predictions is not None
    hard = data.predictions["hard"].values
    p_c = np.where(hard == 0, ex["soft_after"]["C"], ex["soft_after"]["D"])
    soft = ModelOutput("soft", "proba", np.column_stack([p_c, 1 - p_c]))
    preds = Predictions(data.ratings.items, data.ratings.classes, [data.predictions["hard"], soft])
    truth = dict(data.truth, model="running-example")
    return SimulatedData(data.ratings, data.gold, preds, truth)


# ---------------------------------------------------------------------------------------- 2. oracle
def _confusions(spec: Any, n: int, n_cls: int, what: str) -> np.ndarray:
    """Accuracies (length n) or confusion matrices (n × C × C, rows = true class) → n × C × C."""
    arr = np.asarray(spec, dtype=float)
    if arr.ndim == 1:
        if len(arr) != n:
            raise InputError(f"{what}: {len(arr)} accuracies for {n}")
        if ((arr < 0) | (arr > 1)).any():
            raise InputError(f"{what}: accuracies must be in [0, 1]")
        off = (1 - arr) / (n_cls - 1)
        conf = np.repeat(off[:, None, None], n_cls, axis=1).repeat(n_cls, axis=2)
        idx = np.arange(n_cls)
        conf[:, idx, idx] = arr[:, None]
        return conf
    if arr.shape != (n, n_cls, n_cls):
        raise InputError(f"{what}: confusion matrices must be {n} × {n_cls} × {n_cls}")
    if (arr < 0).any() or not np.allclose(arr.sum(axis=2), 1):
        raise InputError(f"{what}: each confusion-matrix row must be a probability distribution")
    return arr


def oracle(
    n_items: int,
    annotators: Sequence[float] | np.ndarray,
    *,
    n_classes: int = 2,
    classes: Sequence[Any] | None = None,
    prior: Sequence[float] | None = None,
    models: Mapping[str, Any] | None = None,
    difficulty: float = 0.0,
    labels_per_item: int | tuple[int, int] | None = None,
    copy_crowd: Mapping[str, float] | None = None,
    seed: Seed = None,
) -> SimulatedData:
    """Oracle + annotators (Humanly Certifying Superhuman Classifiers, toy experiments). Long for its
    parameter documentation and one draw per kind of output.

    A true label ℓ* per item from ``prior``; ``annotators`` gives K accuracies (errors uniform over the
    other classes) or K × C × C confusion matrices (row = true class). ``models`` maps names to an
    accuracy or a C × C confusion matrix.

    ``difficulty`` d ∈ [0, 1) adds item difficulty shared by annotators and models: a fraction d of the
    items is *hard*, and on a hard item everyone answers uniformly at random. The marginal accuracy of a
    rater with base accuracy a is then (1 − d)·a + d/C; ``truth`` reports the realised accuracies.

    ``labels_per_item`` (default all K annotators) lets each item be labelled by a random subset of the
    annotators (int, or a ``(low, high)`` range).

    ``copy_crowd`` maps model names (of ``models``) to a probability c: on each item, with probability c
    the model outputs the annotators' plurality label (ties broken at random) instead of its own draw — a
    model that learned the crowd's errors, which agrees with the crowd more than with the truth
    (Theorem 3's assumption fails). Its random numbers are drawn after everything else, so the other
    outputs are the same as without it.

    >>> d = oracle(2000, [0.7, 0.7, 0.7], models={"copy": 0.7}, copy_crowd={"copy": 0.9}, seed=0)
    >>> d.truth["model_accuracy"]["copy"] < 0.8
    True
    """
    _check_sizes(n_items, labels_per_item)
    rng = _rng(seed)
    cls = tuple(classes) if classes is not None else tuple(range(n_classes))
    n_cls = len(cls)
    acc = np.asarray(annotators, dtype=float)
    if acc.ndim == 0 or acc.shape[0] == 0:
        raise InputError(
            f"annotators={list(np.atleast_1d(acc))}: give at least one annotator accuracy, "
            "e.g. annotators=0.8,0.7"
        )
    n_ann = acc.shape[0]
    ann_conf = _confusions(acc, n_ann, n_cls, "annotators")
    pri = np.full(n_cls, 1 / n_cls) if prior is None else np.asarray(prior, dtype=float)
    if len(pri) != n_cls or (pri < 0).any() or not np.isclose(pri.sum(), 1):
        raise InputError(f"prior must be {n_cls} non-negative numbers summing to 1")
    if not 0 <= difficulty < 1:
        raise InputError(f"difficulty {difficulty} must be in [0, 1)")
    truth_codes = rng.choice(n_cls, size=n_items, p=pri).astype(np.int16)
    hard = rng.random(n_items) < difficulty
    uniform = np.full(n_cls, 1 / n_cls)

    def draw(conf: np.ndarray) -> np.ndarray:
        probs = conf[truth_codes]
        probs[hard] = uniform
        return _labels_from_probs(rng, probs, 1)[:, 0]

    labels = np.column_stack([draw(ann_conf[a]) for a in range(n_ann)]) if n_ann else None
    if labels_per_item is None:
        mask = np.ones((n_items, n_ann), dtype=bool)
    else:
        k, m = _n_labels_mask(rng, n_items, labels_per_item)
        if k > n_ann:
            raise InputError(f"{k} labels per item but only {n_ann} annotators")
        order = np.argsort(rng.random((n_items, n_ann)), axis=1)
        mask = np.zeros((n_items, n_ann), dtype=bool)
        rows = np.repeat(np.arange(n_items), k)
        mask[rows, order[:, :k].ravel()] = m.ravel()
    assert labels is not None
    rater_ids = np.tile(np.arange(n_ann), (n_items, 1))
    names = [f"a{j + 1}" for j in range(n_ann)]
    ratings = _build_named(n_items, labels, mask, rater_ids, cls, rater_names=names)
    gold = Gold(ratings.items, cls, truth_codes, "simulated")
    outs = []
    model_acc = {}
    for name, spec in (models or {}).items():
        arr = np.asarray(spec, dtype=float)
        conf = _confusions(
            arr[None] if arr.ndim == 2 else arr.reshape(1), 1, n_cls, f"model {name}"
        )
        pred = draw(conf[0])
        outs.append(ModelOutput(str(name), "label", pred))
        model_acc[str(name)] = float((pred == truth_codes).mean())
    if copy_crowd:
        outs = _copy_crowd(rng, outs, copy_crowd, labels, mask, n_cls)
        model_acc = {m.name: float((m.values == truth_codes).mean()) for m in outs}
    preds = Predictions(ratings.items, cls, outs, source="simulated") if outs else None
    hits = (labels == truth_codes[:, None]) & mask
    ann_acc = hits.sum(axis=0) / np.maximum(mask.sum(axis=0), 1)
    truth = {
        "model": "oracle",
        "annotator_accuracy": dict(zip(names, ann_acc.tolist(), strict=True)),
        "average_annotator_accuracy": float(hits.sum() / mask.sum()),
        "model_accuracy": model_acc,
        "difficulty": difficulty,
        "hard_items": hard,
        "labels": truth_codes,
    }
    return SimulatedData(ratings, gold, preds, truth)


def _copy_crowd(
    rng: np.random.Generator,
    outs: list[ModelOutput],
    copy: Mapping[str, float],
    labels: np.ndarray,
    mask: np.ndarray,
    n_cls: int,
) -> list[ModelOutput]:
    """The models of ``copy`` output the plurality of the present labels (ties at random) with their
    probability, item by item."""
    names = [m.name for m in outs]
    unknown = [k for k in copy if k not in names]
    if unknown:
        raise InputError(f"copy_crowd: {unknown} are not among the models {names}")
    counts = np.stack([((labels == c) & mask).sum(axis=1) for c in range(n_cls)], axis=1)
    tied = counts == counts.max(axis=1, keepdims=True)
    noise = rng.random(counts.shape)
    plurality = np.argmax(np.where(tied, noise, -1.0), axis=1).astype(np.int16)
    new = []
    for m in outs:
        c = copy.get(m.name)
        if c is None:
            new.append(m)
            continue
        if not 0 <= c <= 1:
            raise InputError(f"copy_crowd[{m.name!r}] = {c}: give a probability in [0, 1]")
        take = rng.random(len(plurality)) < c
        new.append(
            ModelOutput(m.name, "label", np.where(take, plurality, m.values).astype(np.int16))
        )
    return new


# ---------------------------------------------------------------------------------------- 3. pair
def pair(
    n_items: int,
    labels_per_item: int = 1,
    *,
    p: float | None = None,
    eps: float | None = None,
    q: float | None = None,
    q_b: float | None = None,
    q_w: float | None = None,
    p_w: float | None = None,
    p_b0: float | None = None,
    p_b1: float | None = None,
    q_agree: float | None = None,
    n_raters: int | None = None,
    seed: Seed = None,
    q_both_wrong: float | None = None,
    prior: float | None = None,
    class_shift: float = 0.0,
) -> SimulatedData:
    """Two binary classifiers and noisy labellers (Don't Label Twice, sections 2 and 3.2).

    Independent model (Proposition 1): ``p``, ``eps``, ``q`` — the worse classifier is right with
    probability p, the better with p + ε, independently; every label is right with probability q.

    Correlated model (Proposition 2): ``q_b``, ``q_w``, ``p_w``, ``p_b0``, ``p_b1`` — the worse classifier
    is right with probability p_w; the better one with p_b⁰ when the worse is wrong and p_b¹ when it is
    right; a label is right with probability q_b on items where only the better classifier is right, q_w
    where only the worse one is, and ``q_agree`` (default (q_b + q_w)/2) where they agree.

    Options beyond the paper's parameters (for checking estimators; the defaults draw the same data as
    before): ``q_both_wrong`` — label accuracy where both classifiers are wrong (default ``q_agree``);
    ``prior`` — P(true label = 1) (default a fair coin); ``class_shift`` — label accuracies are
    q + class_shift on items of class 1 and q − class_shift on items of class 0 (labellers leaning
    towards class 1 when positive).

    Classes are 0 and 1 with a fair-coin true label. Models are ``better`` and ``worse`` (hard labels).
    ``truth`` holds the parameters and the gap indicator G of each item under its own majority label.

    >>> d = pair(200, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    >>> d.ratings.n_items, d.predictions.names
    (200, ('better', 'worse'))
    """
    _check_sizes(n_items, labels_per_item)
    rng = _rng(seed)
    independent = p is not None or eps is not None or q is not None
    correlated = any(x is not None for x in (q_b, q_w, p_w, p_b0, p_b1))
    if independent == correlated:
        raise InputError(
            "give either p, eps and q (independent model) or q_b, q_w, p_w, p_b0 and p_b1 (correlated)"
        )
    if independent:
        if p is None or eps is None or q is None:
            raise InputError("the independent model needs p, eps and q")
        q_b = q_w = q_agree = q
        p_w, p_b0, p_b1 = p, p + eps, p + eps
    if q_b is None or q_w is None or p_w is None or p_b0 is None or p_b1 is None:
        raise InputError("the correlated model needs q_b, q_w, p_w, p_b0 and p_b1")
    if q_agree is None:
        q_agree = (q_b + q_w) / 2
    if q_both_wrong is None:
        q_both_wrong = q_agree
    checks = [("q_b", q_b), ("q_w", q_w), ("q_agree", q_agree), ("p_w", p_w)]
    checks += [("q_both_wrong", q_both_wrong)] + ([] if prior is None else [("prior", prior)])
    for name, v in checks:
        if not 0 <= v <= 1:
            raise InputError(f"{name} = {v} must be a probability in [0, 1]")
    for name, v in (("p_b0", p_b0), ("p_b1", p_b1)):
        if not 0 <= v <= 1:
            raise InputError(f"{name} = {v} must be a probability in [0, 1]")
    if prior is None:
        y = rng.integers(0, 2, size=n_items).astype(np.int16)
    else:
        y = (rng.random(n_items) < prior).astype(np.int16)
    w_right = rng.random(n_items) < p_w
    b_right = rng.random(n_items) < np.where(w_right, p_b1, p_b0)
    only_b = b_right & ~w_right
    only_w = w_right & ~b_right
    both_wrong = ~w_right & ~b_right
    q_item = np.where(
        only_b, q_b, np.where(only_w, q_w, np.where(both_wrong, q_both_wrong, q_agree))
    )
    if class_shift:
        q_item = q_item + np.where(y == 1, class_shift, -class_shift)
        if np.any((q_item < 0) | (q_item > 1)):
            raise InputError(f"class_shift={class_shift}: label accuracies must stay in [0, 1]")
    k = int(labels_per_item)
    right = rng.random((n_items, k)) < q_item[:, None]
    labels = np.where(right, y[:, None], 1 - y[:, None]).astype(np.int16)
    raters = _slot_raters(rng, n_items, k, n_raters)
    ratings = _build_named(n_items, labels, np.ones_like(labels, dtype=bool), raters, (0, 1))
    better = np.where(b_right, y, 1 - y).astype(np.int16)
    worse = np.where(w_right, y, 1 - y).astype(np.int16)
    preds = Predictions(
        ratings.items,
        (0, 1),
        [ModelOutput("better", "label", better), ModelOutput("worse", "label", worse)],
        source="simulated",
    )
    gold = Gold(ratings.items, (0, 1), y, "simulated")
    truth = {
        "model": "pair-independent" if independent else "pair-correlated",
        "params": {
            "q_b": q_b,
            "q_w": q_w,
            "q_agree": q_agree,
            "p_w": p_w,
            "p_b0": p_b0,
            "p_b1": p_b1,
            "q_both_wrong": q_both_wrong,
            "prior": 0.5 if prior is None else prior,
            "class_shift": class_shift,
        },
        "labels": y,
        "better_accuracy": float(b_right.mean()),
        "worse_accuracy": float(w_right.mean()),
    }
    return SimulatedData(ratings, gold, preds, truth)
