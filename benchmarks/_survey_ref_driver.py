"""Driver run INSIDE the reference virtual environment (``surveyequivalence==0.1.3``, Python 3.10).

Not imported by humanly; :mod:`survey_reference` copies it into ``benchmarks/.ref-venv/`` and runs
it there as a subprocess::

    .ref-venv/bin/python se_driver.py --ratings R.csv --predictions P.csv \
        --combiner abc --scorer cross_entropy --bootstrap 2 --seed 0 --out result.json

Input formats
-------------
``--ratings``: a wide CSV, one row per item, first column the item id, one further column per rater;
blank cells are missing labels. Labels are read as strings.

``--predictions``: a long CSV with columns ``item``, optional ``model`` (one model called "model"
when absent), and either ``prediction`` (a hard label) or ``prob_<label>`` for every label (a
probability vector) — the format ``humanly.simulate.SimulatedData.write`` produces. Rows of a hard
model leave the ``prob_*`` cells blank and vice versa. Every rated item needs a prediction.

The driver writes one JSON object to ``--out``; everything the reference prints (it prints progress
dots with ``verbosity >= 1``) goes to stderr.

Timing
------
``AnalysisPipeline.run`` is timed as a whole and by phase: classifier scores (all item samples),
power-curve set-up (rater subsets + the combiner's predictions for every item × rater subset, done
once on the full data — the reference does not re-learn the ABC on bootstrap samples) and one
"run" per item sample (the actual sample + each bootstrap), which scores every rater subset's
predictions against the held-out raters. With ``--procs 1`` (default) the runs execute in this
process (the package would spawn one worker process and run them there serially: same work, plus
the spawn overhead) so each run can be timed; with ``--procs N > 1`` the package's own pathos
``ProcessPool`` is used and only the total is known.
"""

# ruff: noqa: E402
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
import traceback

REAL_STDOUT = sys.stdout
sys.stdout = sys.stderr  # the reference prints progress; keep it off our stdout

import numpy as np
import pandas as pd
import surveyequivalence as se
from surveyequivalence import equivalence as se_eq

TIMES: dict[str, float] = {}
RUN_TIMES: list[float] = []
_RealPool = se_eq.ProcessPool


class _TimedPool:
    """Stands in for ``pathos.pools.ProcessPool`` inside ``surveyequivalence.equivalence``.

    Created by ``compute_power_curve`` right after the predictions for all rater subsets are made,
    so its creation time ends the set-up phase. With one node it runs the runs serially in-process
    and times each one."""

    def __init__(self, nodes: int = 1, **kwargs):
        TIMES["pool_created"] = time.perf_counter()
        self._real = None if nodes == 1 else _RealPool(nodes=nodes, **kwargs)

    def imap(self, fn, *iterables):
        if self._real is None:
            out = []
            for args in zip(*iterables, strict=True):
                t = time.perf_counter()
                out.append(fn(*args))
                RUN_TIMES.append(time.perf_counter() - t)
            return out
        t = time.perf_counter()
        out = list(self._real.imap(fn, *iterables))
        TIMES["parallel_runs"] = time.perf_counter() - t
        return out

    def close(self):
        if self._real is not None:
            self._real.close()

    def join(self):
        if self._real is not None:
            self._real.join()

    def clear(self):
        if self._real is not None:
            self._real.clear()


se_eq.ProcessPool = _TimedPool


def _num(x):
    """JSON-safe float (None for missing / NaN / inf)."""
    if x is None:
        return None
    try:
        v = float(x)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def load_ratings(path: str, classes: list[str] | None):
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    items = frame.iloc[:, 0].tolist()
    W = frame.iloc[:, 1:].copy()
    W = W.replace("", None).astype(object)
    W = W.where(W.notna(), None)
    # the reference keys its predictions by ROW POSITION but bootstraps by index label: the index
    # must be 0..n-1 (quirk 5 in survey_reference.py)
    W.index = pd.RangeIndex(len(W))
    labels = sorted({v for v in W.to_numpy().ravel() if v is not None})
    if classes:
        extra = set(labels) - set(classes)
        if extra:
            raise SystemExit(f"{path}: labels {sorted(extra)} not in --classes {classes}")
        labels = list(classes)
    return items, W, labels


def load_predictions(path: str, items: list[str], labels: list[str]):
    frame = pd.read_csv(path, dtype={"item": str, "model": str, "prediction": str})
    if "model" not in frame.columns:
        frame["model"] = "model"
    pos = {it: i for i, it in enumerate(items)}
    cols, kinds = {}, {}
    for name, g in frame.groupby("model", sort=False):
        g = g.set_index("item")
        missing = [it for it in items if it not in g.index]
        if missing:
            raise SystemExit(f"{path}: model {name!r} has no prediction for item {missing[0]!r}")
        g = g.loc[items]
        prob_cols = [f"prob_{c}" for c in labels]
        if all(c in g.columns for c in prob_cols) and g[prob_cols].notna().all().all():
            probs = g[prob_cols].to_numpy(float)
            vals = [se.DiscreteDistributionPrediction(labels, list(p)) for p in probs]
            kinds[name] = "proba"
        elif "prediction" in g.columns and g["prediction"].notna().all():
            vals = [se.DiscretePrediction(str(v)) for v in g["prediction"]]
            kinds[name] = "label"
        else:
            raise SystemExit(
                f"{path}: model {name!r} needs a 'prediction' column or prob_<label> columns for "
                f"labels {labels}"
            )
        cols[name] = vals
    df = pd.DataFrame(cols, index=pd.RangeIndex(len(items)))
    assert len(pos) == len(df)
    return df, kinds


COMBINERS = {
    "majority": lambda labels, W: se.PluralityVote(allowable_labels=labels),
    "plurality": lambda labels, W: se.PluralityVote(allowable_labels=labels),
    "frequency": lambda labels, W: se.FrequencyCombiner(allowable_labels=labels),
    "abc": lambda labels, W: se.AnonymousBayesianCombiner(allowable_labels=labels, W=W),
}
SCORERS = {
    "agreement": (se.AgreementScore, False),
    "cross_entropy": (se.CrossEntropyScore, True),
    "dmi": (se.DMIScore_for_Soft_Classifier, True),
    "auc": (se.AUCScore, True),
    "precision": (se.PrecisionScore, False),
    "recall": (se.RecallScore, False),
    "f1": (se.F1Score, False),
}


def _series(s) -> dict:
    return {str(k): _num(v) for k, v in s.items()}


def wiki_attack(argv: list[str]) -> None:
    """The authors' Wikipedia personal-attacks procedure (``surveyequivalence/examples/
    personal_attacks.py``) with a seeded shuffle: every item's labels shuffled into columns padded
    with None to the widest item, the first ``--max-items`` rows of the file, the calibrator
    ``CalibratedClassifierCV(LinearSVC(max_iter=1000), method="isotonic")`` fitted on one row per
    label of the whole file (feature: the predictor's probability; weight 1 / labels of the item),
    the ABC + cross-entropy pipeline with ``verbosity=1`` and ``anonymous_raters=True``. The ABC is
    built with ``W`` (memoised: otherwise every prediction rescans the matrix and a run takes days),
    and every missing label is dropped before it (quirk 7 of ``survey_reference.py`` would otherwise
    crash it with ``KeyError: None``).
    Writes the calibrated predictions of the rows used (``--calibrated-out``) and the curve, score and
    equivalence of the calibrated classifier (``--out``); ``--calibrate-only`` stops after the first."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.svm import LinearSVC

    ap = argparse.ArgumentParser()
    ap.add_argument("--wiki-attack", required=True, help="wiki_attack_labels_and_predictor.csv")
    ap.add_argument("--max-items", type=int, default=2000)
    ap.add_argument("--max-k", type=int, default=20)
    ap.add_argument("--shuffle-seed", type=int, default=0)
    ap.add_argument("--bootstrap", type=int, default=0)
    ap.add_argument("--calibrated-out", default=None)
    ap.add_argument("--calibrate-only", action="store_true")
    ap.add_argument("--out", default=None)
    a = ap.parse_args(argv)
    random.seed(a.shuffle_seed)
    np.random.seed(a.shuffle_seed)  # noqa: NPY002 - the reference draws from the global state
    wiki = pd.read_csv(a.wiki_attack)
    dataset, X, y = {}, [], []
    for index, item in wiki.iterrows():
        raters = []
        n_raters, n_attack = int(item["n_labels"]), int(item["n_labelled_attack"])
        for _ in range(n_attack):
            raters.append("a")
            X.append([item["predictor_prob"], n_raters])
            y.append(1)
        for _ in range(n_raters - n_attack):
            raters.append("n")
            X.append([item["predictor_prob"], n_raters])
            y.append(0)
        random.shuffle(raters)
        dataset[index] = [item["predictor_prob"], *raters]
    length = max(map(len, dataset.values()))
    padded = np.array([xi + [None] * (length - len(xi)) for xi in dataset.values()], dtype=object)
    W = pd.DataFrame(data=padded)[: a.max_items].rename(columns={0: "soft classifier"})
    t0 = time.perf_counter()
    calibrator = CalibratedClassifierCV(LinearSVC(max_iter=1000), method="isotonic").fit(
        pd.DataFrame([x for x, _ in X]), y, sample_weight=[1 / n for _, n in X]
    )
    proba = calibrator.predict_proba(W.loc[:, W.columns == "soft classifier"].to_numpy(float))
    result: dict = {"width": length - 1, "n_items": len(W), "shuffle_seed": a.shuffle_seed,
                    "max_k": a.max_k, "bootstrap": a.bootstrap,
                    "seconds_calibration": time.perf_counter() - t0}  # fmt: skip
    if a.calibrated_out:
        pd.DataFrame(
            {"rev_id": wiki["rev_id"][: a.max_items], "p_attack": proba[:, 1],
             "predictor_prob": wiki["predictor_prob"][: a.max_items]}
        ).to_csv(a.calibrated_out, index=False)  # fmt: skip
    if a.calibrate_only:
        if a.out:
            _write(a.out, result)
        return
    classifiers = pd.DataFrame(
        [
            se.DiscreteDistributionPrediction(["a", "n"], [p1, p0], normalize=True)
            for p0, p1 in proba
        ],
        columns=["Calibrated Jigsaw Personal Attacks Classifier"],
    )
    W = W.drop(["soft classifier"], axis=1)
    abc = se.AnonymousBayesianCombiner(allowable_labels=["a", "n"], W=W)
    combine = abc.combine

    def combine_labels(allowable_labels, labels, W=None, item_id=None, to_predict_for=None):
        # quirk 7: the pipeline removes None labels from the list it iterates over, so two
        # adjacent ones leave one behind (KeyError: None); drop them all, as intended
        labels = [lab for lab in labels if lab[1] is not None]
        return combine(
            allowable_labels, labels, W=W, item_id=item_id, to_predict_for=to_predict_for
        )

    abc.combine = combine_labels
    t0 = time.perf_counter()
    pipe = se.AnalysisPipeline(
        W, combiner=abc,
        scorer=se.CrossEntropyScore(), allowable_labels=["a", "n"],
        num_bootstrap_item_samples=a.bootstrap, verbosity=1, classifier_predictions=classifiers,
        max_K=a.max_k, anonymous_raters=True, procs=1,
    )  # fmt: skip
    name = classifiers.columns[0]
    eq = pipe.expert_survey_equivalences
    result.update(
        {
            "seconds_pipeline": time.perf_counter() - t0,
            "curve": _series(pipe.expert_power_curve.values),
            "score": _num(pipe.classifier_scores.values[name]),
            "equivalence": _num(eq.df.at[0, name]),
        }
    )
    if a.out:
        _write(a.out, result)


def main() -> None:
    if any(arg.startswith("--wiki-attack") for arg in sys.argv[1:]):
        wiki_attack(sys.argv[1:])
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--ratings", required=True)
    ap.add_argument("--predictions", required=True)
    ap.add_argument("--combiner", required=True, choices=sorted(COMBINERS))
    ap.add_argument("--scorer", required=True, choices=sorted(SCORERS))
    ap.add_argument("--bootstrap", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument(
        "--verbosity",
        type=int,
        default=-1,
        help="the reference's verbosity, which also picks its scoring path (quirk 4); -1 = auto: "
        "0 (per held-out column, faster) on a complete matrix, 1 (per held-out label) otherwise",
    )
    ap.add_argument("--max-rater-subsets", type=int, default=200)
    ap.add_argument("--classes", default=None, help="comma-separated label order")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()

    random.seed(a.seed)
    np.random.seed(a.seed)  # noqa: NPY002 - the reference draws from the global state
    t_load = time.perf_counter()
    items, W, labels = load_ratings(a.ratings, a.classes.split(",") if a.classes else None)
    preds, kinds = load_predictions(a.predictions, items, labels)
    scorer_cls, needs_proba = SCORERS[a.scorer]
    used = [m for m in preds.columns if kinds[m] == "proba" or not needs_proba]
    skipped = [m for m in preds.columns if m not in used]
    load_s = time.perf_counter() - t_load
    complete = bool(W.notna().all().all())
    if a.verbosity < 0:
        a.verbosity = 0 if complete else 1

    result: dict = {
        "combiner": a.combiner,
        "scorer": a.scorer,
        "n_items": len(W),
        "n_raters": W.shape[1],
        "complete": complete,
        "labels": labels,
        "bootstrap": a.bootstrap,
        "seed": a.seed,
        "procs": a.procs,
        "verbosity": a.verbosity,
        "models": used,
        "models_skipped": skipped,
        "load_seconds": load_s,
        "versions": {
            "surveyequivalence": getattr(se, "__version__", None) or _dist_version(),
            "numpy": np.__version__,
            "pandas": pd.__version__,
            "python": sys.version.split()[0],
        },
    }
    try:
        pipeline = se.AnalysisPipeline(
            W,
            expert_cols=list(W.columns),
            classifier_predictions=preds[used] if used else None,
            combiner=COMBINERS[a.combiner](labels, W),
            scorer=scorer_cls(),
            allowable_labels=labels,
            num_bootstrap_item_samples=a.bootstrap,
            max_rater_subsets=a.max_rater_subsets,
            anonymous_raters=True,
            verbosity=a.verbosity,
            procs=a.procs,
            run_on_creation=False,
        )
        # time phases by wrapping the pipeline's own methods on the instance
        orig_scores = pipeline.compute_classifier_scores
        orig_curve = pipeline.compute_power_curve

        def timed_scores():
            t = time.perf_counter()
            out = orig_scores()
            TIMES["classifier_scores"] = time.perf_counter() - t
            return out

        def timed_curve(*args, **kwargs):
            TIMES["curve_start"] = time.perf_counter()
            out = orig_curve(*args, **kwargs)
            TIMES["curve_end"] = time.perf_counter()
            return out

        pipeline.compute_classifier_scores = timed_scores
        pipeline.compute_power_curve = timed_curve
        t0 = time.perf_counter()
        pipeline.run()
        total = time.perf_counter() - t0
    except Exception as exc:  # the reference crashes on some inputs: report, don't hide
        result["error"] = f"{type(exc).__name__}: {exc}"
        result["traceback"] = traceback.format_exc()
        _write(a.out, result)
        return

    n_samples = a.bootstrap + 1
    setup = TIMES.get("pool_created", TIMES["curve_start"]) - TIMES["curve_start"]
    cls_s = TIMES.get("classifier_scores", 0.0)
    runs = list(RUN_TIMES)
    if runs:
        per_run = float(np.median(runs))
    else:
        per_run = TIMES.get("parallel_runs", 0.0) / n_samples
    per_sample = per_run + cls_s / n_samples
    curve = pipeline.expert_power_curve
    result.update(
        {
            "seconds_total": total,
            "seconds_setup": setup,
            "seconds_classifier_scores": cls_s,
            "seconds_runs": runs,
            "seconds_per_run": per_run,
            "seconds_per_sample": per_sample,
            "rater_subsets": {
                str(k): len(v) for k, v in next(iter(pipeline.ratersets_memo.values())).items()
            },
            "curve": _series(curve.values),
            "curve_mean": _series(curve.means),
            "curve_std": _series(curve.stds),
            "curve_low": _series(curve.lower_bounds),
            "curve_high": _series(curve.upper_bounds),
            "curve_runs": [_series(row) for _, row in curve.df.iterrows()],
        }
    )
    if used:
        cs = pipeline.classifier_scores
        eq = pipeline.expert_survey_equivalences
        result["classifier_scores"] = {
            m: {
                "score": _num(cs.values[m]),
                "mean": _num(cs.means[m]),
                "low": _num(cs.lower_bounds[m]),
                "high": _num(cs.upper_bounds[m]),
                "runs": [_num(v) for v in cs.df[m]],
            }
            for m in used
        }
        result["equivalence"] = {
            m: {
                "value": _num(eq.df.at[0, m]),
                "mean": _num(eq.means[m]),
                "low": _num(eq.lower_bounds[m]),
                "high": _num(eq.upper_bounds[m]),
                "runs": [_num(v) for v in eq.df[m]],
            }
            for m in used
        }
    _write(a.out, result)


def _dist_version():
    try:
        from importlib.metadata import version

        return version("surveyequivalence")
    except Exception:
        return None


def _write(path: str, obj: dict) -> None:
    with open(path, "w") as f:
        json.dump(obj, f)


if __name__ == "__main__":
    main()
