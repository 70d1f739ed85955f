"""The reference implementation of Survey Equivalence, ``surveyequivalence==0.1.3``, run side by side.

    python benchmarks/survey_reference.py [--quick] [--bootstrap 2] [--items 1000] [--raters 10]
                                          [--combos majority:agreement,abc:cross_entropy] [--json F]

The reference package (Resnick et al., PyPI ``surveyequivalence``; source github.com/presnick/
surveyequivalence) pins numpy ~1.24, pandas ~2.0, scikit-learn ~1.2, statsmodels ~0.13, which do
not install next to humanly's stack, so it gets its own virtual environment, created once and cached
in ``benchmarks/.ref-venv/`` (git-ignored) by :func:`ensure_reference_venv`. A small driver
(``benchmarks/_survey_ref_driver.py``, copied into the venv) loads a ratings CSV and a predictions
CSV, runs the reference ``AnalysisPipeline`` for one combiner + scorer with a given number of
bootstrap item samples, times it by phase and writes JSON. :func:`reference_timings` runs it for
several combinations; ``__main__`` does so on the 1,000 items × 10 raters running example built with
:func:`humanly.simulate.running_example`.

Timing: the reference is timed on a FEW bootstrap samples and scaled per curve, since 500 would take
hours. Its pipeline has a one-off set-up (rater subsets + every combiner prediction for every item ×
rater subset, on the full data) and then one "run" per item sample (the actual items + each
bootstrap), each scoring every rater subset's predictions. ``seconds_per_curve`` is the median run
plus that sample's share of the classifier scoring (the marginal cost of one more bootstrap power
curve); ``projected_seconds_500`` = set-up + 501 × ``seconds_per_curve``.

Environment (tested): Python 3.10.13 (pyenv) with the pins in :data:`REFERENCE_PINS`; pip resolves
the package's own ``~=`` pins to these versions. Python 3.11 also satisfies the pins (numpy 1.24 has
3.11 wheels) but 3.10 is what the package authors tested.

Input formats of the driver (what :func:`reference_timings` expects)
-------------------------------------------------------------------
* ratings CSV, *wide*: header ``item,<rater 1>,...,<rater K>``; one row per item; the first column is
  the item id; blank cell = missing label; labels are read as strings. humanly reads the same file
  with ``humanly ... RATINGS --wide`` / ``read_ratings(path, wide=True)``.
* predictions CSV, *long* (the format ``SimulatedData.write`` produces): columns ``item``, ``model``
  (optional; one model "model" if absent) and either ``prediction`` (hard label) or
  ``prob_<label>`` for every label. A hard model's ``prob_*`` cells and a soft model's
  ``prediction`` cells are blank. Soft-only scorers (cross_entropy, auc, dmi) skip hard models.

Combiners: ``majority``/``plurality`` → ``PluralityVote``, ``frequency`` → ``FrequencyCombiner``,
``abc`` → ``AnonymousBayesianCombiner(W=W)`` (memoised, as in the package's running example).
Scorers: ``agreement``, ``cross_entropy``, ``dmi``, ``auc``, ``precision``, ``recall``, ``f1``.
The pipeline is run with ``anonymous_raters=True``, ``max_rater_subsets=200`` and ``verbosity=0`` on
a complete matrix, ``verbosity=1`` otherwise (``verbosity=-1``, the default, picks; see quirk 4).

Quirks of the reference (each with a tiny reproduction; they back claims in docs/survey.md)
------------------------------------------------------------------------------------------
Run the snippets with ``benchmarks/.ref-venv/bin/python``; ``import surveyequivalence as se``.

1. **AUC ranks by the maximum class probability**, not by the probability of the positive class
   (``AUCScore.score`` passes ``p.value_prob`` = max(p) to ``roc_auc_score``), so a perfect
   classifier can score below 0.5::

       P = [se.DiscreteDistributionPrediction(["neg", "pos"], [1 - q, q]) for q in (.1, .3, .7, .9)]
       se.AUCScore.score(P, ["neg", "neg", "pos", "pos"])   # -> 0.5, correct AUC is 1.0
       se.AUCScore.score(P, ["pos", "neg", "neg", "pos"])   # -> 1.0 for a classifier at chance

2. **Overflow beyond 20 labels per item.** ``scoring_functions.comb`` builds factorials by
   recursion, ``frac(n) = frac(n - 1) * n``; ``AgreementScore.expected_score_anonymous_raters`` feeds
   it pandas ``value_counts()``, i.e. ``numpy.int64``, so 21! wraps around int64 (numpy only warns
   "overflow encountered in scalar multiply") and the expected agreement is garbage for any item with
   more than 20 labels; it enters the classifier scores (``anonymous_raters=True``)::

       W = pd.DataFrame([["C"] * 18 + ["D"] * 3])              # one item, 21 labels
       se.AgreementScore().expected_score_anonymous_raters([se.DiscretePrediction("C")], W)
       # -> -10.31 (true value 18/21 = 0.857); 20 labels: correct; 60 labels: -0.017 (true 0.95)

   (Run it in a fresh process: ``frac`` memoises in a module-level dict, so if a scorer that passes
   Python ints, e.g. cross-entropy, filled the cache first, the result is exact — order-dependent.)
   The cross-entropy and DMI scorers and the ABC use Python ints: exact, but big-int arithmetic that
   grows with the labels per item.

3. **Expert vs amateur equivalence crashes.** ``AnalysisPipeline.run`` refers to bare names
   ``amateur_cols``, ``expert_cols``, ``min_k`` and ``max_K`` (not ``self.``) in the amateur branch
   (``W``: any 4 items × 6 raters ``r1..r6`` of labels C/D)::

       se.AnalysisPipeline(W, expert_cols=["r1", "r2", "r3"], amateur_cols=["r4", "r5", "r6"],
                           classifier_predictions=None, combiner=se.FrequencyCombiner(["C", "D"]),
                           scorer=se.CrossEntropyScore(), allowable_labels=["C", "D"],
                           num_bootstrap_item_samples=0, procs=1)
       # NameError: name 'amateur_cols' is not defined

4. **``verbosity`` selects the scoring path.** ``compute_power_curve`` calls
   ``scorer.expected_score(preds, raters, W, self.verbosity)``: the fourth positional parameter is
   ``anonymous``, so ``verbosity=0`` scores against each held-out *column* and ``verbosity >= 1``
   against a random held-out *label* of each item (closed form). On a complete matrix both give the
   same numbers (we checked: curves equal to 1e-15), but with ``verbosity=1`` (the package's own
   running example) majority + agreement is ~50× slower (``AgreementScore`` iterates rows with
   pandas). On ragged data they differ: the per-column path counts a missing reference label as a
   disagreement (``AgreementScore.score`` compares ``pred.value == None``), deflating the curve.
   The harness uses ``verbosity=0`` on complete matrices (faster, same numbers — generous to the
   reference) and ``verbosity=1`` otherwise.

5. **Item index must be 0..n−1.** Predictions for rater subsets are stored by row *position*
   (``make_prediction(idx, row)`` over ``W.to_numpy()``) but bootstrap samples hold index *labels*
   (``W.sample(...).index``) used to look them up: a ratings frame indexed by item ids raises
   ``KeyError`` in the power-curve runs. The driver resets the index.

6. **Rater subsets are not 200 when 200 < C(K, k) ≤ 1000.** ``rater_subsets`` draws 200 indices *with
   replacement* (``np.random.choice(len(all), 200)``) and keeps the distinct ones: with K = 10 the
   curve uses ~127–139 subsets at k = 4, 5, 6 instead of 200 (see ``rater_subsets`` in the JSON).

7. **Missing labels.** Blank cells must be ``None``: ``make_prediction`` drops labels with
   ``label == None``, which is False for pandas' ``NaN``, so a ``read_csv`` matrix with blanks feeds
   ``NaN`` to the combiners (``KeyError: nan`` in ``FrequencyCombiner`` at k ≥ 1 and in the ABC:
   ``se.AnonymousBayesianCombiner(["C", "D"], W=W).combine(["C", "D"], [("a", "C")], item_id=1)``
   with ``W = pd.DataFrame([["C", np.nan, "D"], ["D", "D", "C"]])``). And it removes them from the
   list it is iterating over, so two adjacent missing labels leave one behind:
   ``[("a", None), ("b", None), ("c", "C")]`` → ``[("b", None), ("c", "C")]`` (``KeyError: None``
   in the ABC's ``labelSeqProb``). The driver converts blanks to ``None``; ragged data with adjacent
   blanks still fails: on ``running_example(100, (6, 10), seed=1)`` written wide (blanks at the
   row ends) frequency + cross-entropy and ABC + cross-entropy crash with ``KeyError: None`` in
   ``combine``.

8. **Frequency combiner at k = 0** recounts every label of the whole matrix for every item
   (``np.nditer(W)`` in Python): O(items² × raters) set-up — ~90 s of the pipeline's set-up at
   1,000 × 10 (measured: 92 s, against 16–19 s for majority and ABC), so ~2.5 h at 10⁴ items.
   Its k ≥ 1 output is clipped to [0.02, 0.98] by ``DiscreteDistributionPrediction``.

9. **Equivalence outcomes are numbers.** ``compute_one_equivalence`` returns ``max k`` (e.g. 9) when
   the classifier beats every point of the curve and 0 when it is below c₁ — indistinguishable from
   real equivalences of 9 and 0 — and intervals with fewer than 200 bootstrap samples are mean ± 2 SD.

10. **The ABC is not re-learned on bootstrap samples.** Predictions for every item × rater subset are
    computed once from the full data; bootstrap runs only re-score them, so the bootstrap ranges
    omit the ABC's own estimation noise (the paper's section 3.3 resamples the whole procedure).

11. **Importing it changes multiprocessing globally.** ``surveyequivalence.equivalence`` calls
    ``multiprocess.context._force_start_method('spawn')`` at import and every power curve starts a
    pathos ``ProcessPool``, so any script using it needs an ``if __name__ == "__main__":`` guard
    (without one the snippets above fail with "An attempt has been made to start a new process
    before the current process has finished its bootstrapping phase").

12. **Default (k = 0) outputs differ from the paper.** The paper (section 3.2) makes the frequency
    combiner's default "equal probabilities for all labels"; ``FrequencyCombiner`` outputs the
    overall label frequencies of the whole matrix instead (the item's own labels included), so its
    c₀ on the running example is −0.9585 bits rather than −1. ``PluralityVote`` at k = 0 draws one
    random label per item, so c₀ for majority + agreement is a random draw around 0.5 (0.486 here).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
VENV = HERE / ".ref-venv"
DRIVER = HERE / "_survey_ref_driver.py"

#: Versions tested together (Python 3.10.13); pip resolves surveyequivalence's ``~=`` pins to these.
REFERENCE_PINS = (
    "surveyequivalence==0.1.3",
    "numpy==1.24.4",
    "pandas==2.0.3",
    "scikit-learn==1.2.2",
    "scipy==1.15.3",
    "matplotlib==3.7.5",
    "statsmodels==0.13.5",
    "multipledispatch==0.6.0",
    "multiprocess==0.70.19",
    "pathos==0.3.5",
    "setuptools==67.6.1",
)
#: Interpreters tried in order; the first that builds the venv wins.
PYTHON_CANDIDATES = (
    "/root/.pyenv/versions/3.10.13/bin/python",
    "python3.10",
    "/root/.pyenv/versions/3.9.18/bin/python",
    "python3.9",
    "/root/.pyenv/versions/3.11.7/bin/python",
    "python3.11",
)
DEFAULT_COMBOS = (
    ("majority", "agreement"),
    ("frequency", "cross_entropy"),
    ("abc", "cross_entropy"),
)


def _python_in(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _stamp() -> str:
    return hashlib.sha256("\n".join(REFERENCE_PINS).encode()).hexdigest()[:16]


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def ensure_reference_venv(venv: Path = VENV, *, quiet: bool = True) -> Path:
    """Create (once) the reference venv with :data:`REFERENCE_PINS`; return its Python executable.

    Cached: a stamp file records the pins; a venv with the same stamp is reused as is. Tries the
    interpreters in :data:`PYTHON_CANDIDATES`; raises ``RuntimeError`` if none installs the pins.
    """
    py = _python_in(venv)
    stamp = venv / ".humanly-ref-stamp"
    if py.exists() and stamp.exists() and stamp.read_text().strip() == _stamp():
        return py
    errors = []
    for cand in PYTHON_CANDIDATES:
        exe = (
            shutil.which(cand)
            if not os.path.isabs(cand)
            else (cand if Path(cand).exists() else None)
        )
        if not exe:
            continue
        if venv.exists():
            shutil.rmtree(venv)
        _log(f"survey_reference: creating {venv} with {exe} (one-off, ~1 min)")
        try:
            subprocess.run([exe, "-m", "venv", str(venv)], check=True)
            cmd = [str(py), "-m", "pip", "install", *(["-q"] if quiet else []), *REFERENCE_PINS]
            subprocess.run(cmd, check=True)
            subprocess.run([str(py), "-c", "import surveyequivalence"], check=True)
        except (subprocess.CalledProcessError, OSError) as exc:
            errors.append(f"{exe}: {exc}")
            continue
        stamp.write_text(_stamp() + "\n")
        return py
    raise RuntimeError("could not build the reference venv: " + "; ".join(errors or ["no Python"]))


def run_reference(
    ratings_csv: Path,
    predictions_csv: Path,
    combiner: str,
    scorer: str,
    n_bootstrap: int = 2,
    *,
    seed: int = 0,
    procs: int = 1,
    verbosity: int = -1,
    max_rater_subsets: int = 200,
    classes: list[str] | None = None,
    timeout: float | None = None,
    cache: bool = False,
) -> dict[str, Any]:
    """Run the reference ``AnalysisPipeline`` once in its venv; return the driver's JSON.

    Adds ``seconds_per_curve`` (marginal cost of one more bootstrap power curve) and
    ``projected_seconds_500`` (set-up + 501 curves). On a crash of the reference the dict has
    ``error`` and ``traceback`` instead of results.

    ``cache=True`` reuses a result stored in ``.ref-venv/cache/`` for the same input bytes and
    arguments (``cached: true`` in the dict) — for quick re-runs; timings in a benchmark table
    should be measured in the same run as ours (the default).
    """
    py = ensure_reference_venv()
    driver = VENV / "se_driver.py"
    if not driver.exists() or driver.read_bytes() != DRIVER.read_bytes():
        shutil.copyfile(DRIVER, driver)
    key_src = [
        Path(ratings_csv).read_bytes(), Path(predictions_csv).read_bytes(), DRIVER.read_bytes(),
        repr((combiner, scorer, n_bootstrap, seed, procs, verbosity, max_rater_subsets, classes,
              REFERENCE_PINS)).encode(),
    ]  # fmt: skip
    key = hashlib.sha256(b"\0".join(key_src)).hexdigest()[:24]
    cache_file = VENV / "cache" / f"{key}.json"
    if cache and cache_file.exists():
        res = json.loads(cache_file.read_text())
        res["cached"] = True
        return res
    with tempfile.TemporaryDirectory(prefix="se-ref-") as tmp:
        out = Path(tmp) / "out.json"
        cmd = [
            str(py), str(driver),
            "--ratings", str(Path(ratings_csv).resolve()),
            "--predictions", str(Path(predictions_csv).resolve()),
            "--combiner", combiner, "--scorer", scorer,
            "--bootstrap", str(n_bootstrap), "--seed", str(seed), "--procs", str(procs),
            "--verbosity", str(verbosity), "--max-rater-subsets", str(max_rater_subsets),
            "--out", str(out),
        ]  # fmt: skip
        if classes:
            cmd += ["--classes", ",".join(classes)]
        t0 = time.perf_counter()
        # the reference prints progress on stdout/stderr: keep it out of ours unless it fails
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=timeout)
        wall = time.perf_counter() - t0
        if proc.returncode != 0 or not out.exists():
            raise RuntimeError(
                f"reference driver failed ({combiner}+{scorer}, exit {proc.returncode}):\n"
                + proc.stderr[-3000:]
            )
        res = json.loads(out.read_text())
    res["seconds_process"] = wall
    if "error" not in res:
        res["seconds_per_curve"] = res["seconds_per_sample"]
        res["projected_seconds_500"] = res["seconds_setup"] + 501 * res["seconds_per_sample"]
        cache_file.parent.mkdir(exist_ok=True)
        cache_file.write_text(json.dumps(res))
    res["cached"] = False
    return res


def reference_timings(
    ratings_csv: Path,
    predictions_csv: Path,
    combos: list[tuple[str, str]],
    n_bootstrap: int,
    **kwargs: Any,
) -> dict[str, dict[str, Any]]:
    """Reference results per ``(combiner, scorer)``, keyed ``"combiner+scorer"``.

    Each value: ``seconds`` (pipeline wall time with ``n_bootstrap`` bootstraps), ``seconds_setup``,
    ``seconds_per_curve``, ``projected_seconds_500``, ``curve`` ({k: score on the actual items}),
    ``curve_mean`` / ``low`` / ``high`` ({k: ...}, the reference's bootstrap mean and range —
    mean ± 2 SD below 200 bootstraps, as the package does), ``classifier_scores``
    ({model: {score, mean, low, high, runs}}), ``equivalence`` ({model: {value, low, high, ...}}),
    ``rater_subsets`` ({k: count}), ``n_items``, ``n_raters``, ``bootstrap``; or ``error``.
    Extra keyword arguments go to :func:`run_reference` (seed, procs, verbosity, ...).
    """
    out: dict[str, dict[str, Any]] = {}
    for combiner, scorer in combos:
        _log(f"survey_reference: {combiner} + {scorer}, {n_bootstrap} bootstraps ...")
        res = run_reference(ratings_csv, predictions_csv, combiner, scorer, n_bootstrap, **kwargs)
        if "error" in res:
            out[f"{combiner}+{scorer}"] = res
            continue
        res["seconds"] = res["seconds_total"]
        res["low"] = res["curve_low"]
        res["high"] = res["curve_high"]
        out[f"{combiner}+{scorer}"] = res
    return out


def benchmark_rows(results: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """:func:`reference_timings` output → rows in the ``benchmarks/run.py`` format (reference only).

    Two rows per combination: the time per power curve (one row per timed run: the median, min and
    max of the runs, each plus its share of the classifier scoring) and the projected time for 500
    bootstraps. ``baseline``/``ratio`` are left for the caller, which measures humanly alongside.
    """
    rows = []
    for name, r in results.items():
        if "error" in r:
            rows.append(
                {"name": f"surveyequivalence {name}", "median_s": None, "min_s": None,
                 "max_s": None, "runs": 0, "peak_mb": None, "baseline": None, "ratio": None,
                 "target": None, "notes": f"reference failed: {r['error']}"}
            )  # fmt: skip
            continue
        share = r["seconds_classifier_scores"] / (r["bootstrap"] + 1)
        runs = [t + share for t in r["seconds_runs"]] or [r["seconds_per_curve"]]
        size = f"{r['n_items']}×{r['n_raters']}"
        rows.append(
            {
                "name": f"surveyequivalence 0.1.3 {name} per power curve ({size})",
                "median_s": r["seconds_per_curve"],
                "min_s": min(runs),
                "max_s": max(runs),
                "runs": len(runs),
                "peak_mb": None,
                "baseline": None,
                "ratio": None,
                "target": None,
                "notes": f"reference timed on {r['bootstrap']} bootstrap(s) + the actual items, "
                f"one-off set-up {r['seconds_setup']:.1f} s excluded; procs={r['procs']}",
            }
        )
        rows.append(
            {
                "name": f"surveyequivalence 0.1.3 {name} 500 bootstraps, projected ({size})",
                "median_s": r["projected_seconds_500"],
                "min_s": r["seconds_setup"] + 501 * min(runs),
                "max_s": r["seconds_setup"] + 501 * max(runs),
                "runs": len(runs),
                "peak_mb": None,
                "baseline": None,
                "ratio": None,
                "target": None,
                "notes": "scaled: set-up + 501 × per-curve time (min/max from the fastest and "
                "slowest timed run)",
            }
        )
    return rows


def write_running_example(
    folder: Path, n_items: int = 1000, n_raters: int = 10, seed: int = 0
) -> tuple[Path, Path]:
    """Write the Survey Equivalence running example (humanly.simulate) in the driver's formats.

    Returns ``(ratings_csv, predictions_csv)``: ``re_{n}x{k}.csv`` (wide: item, r1..rK) and
    ``re_{n}x{k}.predictions.csv`` (long: item, model, prediction, prob_C, prob_D; models ``hard``
    and ``soft``).
    """
    from humanly.simulate import running_example

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    data = running_example(n_items, n_raters, seed=seed)
    tables = data.tables()
    long = tables["ratings"]
    wide = long.pivot(index="item", columns="rater", values="label")
    raters = list(dict.fromkeys(long["rater"]))  # order of first appearance: r1..rK
    wide = wide.reindex(index=list(dict.fromkeys(long["item"])), columns=raters)
    wide.index.name = "item"
    wide.columns.name = None
    ratings_csv = folder / f"re_{n_items}x{n_raters}.csv"
    predictions_csv = folder / f"re_{n_items}x{n_raters}.predictions.csv"
    wide.to_csv(ratings_csv)
    tables["predictions"].to_csv(predictions_csv, index=False)
    return ratings_csv, predictions_csv


def run_wiki_attack(
    csv: Path, seed: int, folder: Path, max_k: int = 20, max_items: int = 2000
) -> dict[str, Any]:
    """The authors' Wikipedia procedure (``_survey_ref_driver.py --wiki-attack``) with shuffle
    ``seed`` in the reference venv: writes ``calibrated_seed{seed}.csv`` (their calibrated predictions
    of the rows used) into ``folder`` and returns the driver's JSON (curve, score, equivalence)."""
    py = ensure_reference_venv()
    driver = VENV / "se_driver.py"
    if not driver.exists() or driver.read_bytes() != DRIVER.read_bytes():
        shutil.copyfile(DRIVER, driver)
    folder = Path(folder)
    out = folder / f"wiki_seed{seed}.json"
    cmd = [str(py), str(driver), "--wiki-attack", str(Path(csv).resolve()),
           "--shuffle-seed", str(seed), "--max-k", str(max_k), "--max-items", str(max_items),
           "--calibrated-out", str(folder / f"calibrated_seed{seed}.csv"), "--out", str(out)]  # fmt: skip
    proc = subprocess.run(cmd, cwd=folder, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"wiki-attack driver failed:\n{proc.stderr[-3000:]}")
    return dict(json.loads(out.read_text()))


def padded_columns_expectation(
    counts: Any, calibrated: Any, width: int, max_k: int, leave_out: bool = True
) -> dict[str, Any]:
    """The padded-column procedure's expected curve over shuffles, in closed form, for two classes:
    an item with N labels shuffled into ``width`` columns has j ~ Hypergeometric(width, N, k) real
    labels in k columns; the ABC (with or without the item left out) predicts from those j labels and is
    scored against a random other label of the item (the reference's anonymous scoring). Returns the
    column curve, the same curve with k real labels (humanly's definition), the classifier score (bits)
    and both equivalences. ``counts``: items × [not attack, attack]; ``calibrated``: P(attack)."""
    import math

    import numpy as np
    from scipy.stats import hypergeom

    from humanly.survey.crossing import equivalence_point

    counts = np.asarray(counts, dtype=int)
    n_lab = counts.sum(1)
    lf = np.array([math.lgamma(x + 1.0) for x in range(int(n_lab.max()) + 2)])

    def seq_prob(a: int, k: int) -> Any:  # P_u(an ordered sequence with a attacks among k), all u
        b = k - a
        ok = (counts[:, 1] >= a) & (counts[:, 0] >= b) & (n_lab >= k)
        lp = (lf[counts[:, 1]] - lf[np.maximum(counts[:, 1] - a, 0)] + lf[counts[:, 0]]
              - lf[np.maximum(counts[:, 0] - b, 0)] - (lf[n_lab] - lf[np.maximum(n_lab - k, 0)]))  # fmt: skip
        return np.where(ok, np.exp(lp), 0.0)

    top = int(n_lab.max()) - 1
    terms = np.full((top + 1, len(counts)), np.nan)  # terms[j, i]: item i after j of its labels
    for j in range(top + 1):
        tot = np.zeros(len(counts))
        for a in range(j + 1):
            s1, s0 = seq_prob(a + 1, j + 1), seq_prob(a, j + 1)
            num1 = s1.sum() - (s1 if leave_out else 0.0)
            num0 = s0.sum() - (s0 if leave_out else 0.0)
            den = num1 + num0
            p1 = np.where(den > 0, num1 / np.where(den > 0, den, 1.0), (a + 1) / (j + 2))
            p1 = np.clip(p1, 1e-3, 1 - 1e-3)
            hyp = np.where(n_lab >= j + 1, hypergeom.pmf(a, n_lab, counts[:, 1], j), 0.0)
            q1 = (counts[:, 1] - a) / np.maximum(n_lab - j, 1)
            tot += hyp * (q1 * np.log2(p1) + (1 - q1) * np.log2(1 - p1))
        terms[j] = np.where(n_lab >= j + 1, tot, np.nan)
    by_labels = np.array([np.nanmean(terms[k]) for k in range(min(max_k, top) + 1)])
    by_columns = []
    for k in range(max_k + 1):
        js = np.arange(k + 1)
        w = hypergeom.pmf(js[:, None], width, n_lab[None, :], k)
        w = np.where(js[:, None] <= n_lab[None, :] - 1, w, 0.0)
        t = (w * np.nan_to_num(terms[: k + 1])).sum(0)
        mass = w.sum(0)
        by_columns.append(float((t[mass > 0] / mass[mass > 0]).mean()))
    cal = np.asarray(calibrated, dtype=float)
    q = counts[:, 1] / n_lab
    score = float(np.mean(q * np.log2(cal) + (1 - q) * np.log2(1 - cal)))
    cols = np.array(by_columns)
    return {
        "score": score,
        "curve_columns": cols.tolist(),
        "curve_labels": by_labels.tolist(),
        "equivalence_columns": equivalence_point(np.arange(len(cols)), cols, score)[0],
        "equivalence_labels": equivalence_point(np.arange(len(by_labels)), by_labels, score)[0],
    }


def _fmt_curve(curve: dict[str, float | None]) -> str:
    return " ".join("—" if v is None else f"{v:.4f}" for v in curve.values())


def main(argv: list[str] | None = None) -> dict[str, dict[str, Any]]:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="200 items, 1 bootstrap")
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--raters", type=int, default=10)
    ap.add_argument("--bootstrap", type=int, default=2, help="bootstraps the reference runs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--procs", type=int, default=1)
    ap.add_argument(
        "--combos",
        default=",".join(f"{c}:{s}" for c, s in DEFAULT_COMBOS),
        help="comma-separated combiner:scorer pairs",
    )
    ap.add_argument("--data", type=Path, default=None, help="folder for the CSVs (default: temp)")
    ap.add_argument("--json", type=Path, default=None, help="also write the results here")
    ap.add_argument("--cache", action="store_true", help="reuse stored reference results")
    ap.add_argument(
        "--wiki-attack", type=Path, default=None,
        help="wiki_attack_labels_and_predictor.csv: run the authors' Wikipedia procedure instead",
    )  # fmt: skip
    ap.add_argument("--wiki-seeds", default="0,1,2,3", help="shuffle seeds for --wiki-attack")
    a = ap.parse_args(argv)
    if a.wiki_attack is not None:
        return _wiki_main(a.wiki_attack, [int(x) for x in a.wiki_seeds.split(",")], a.data, a.json)
    n_items, n_boot = (200, 1) if a.quick else (a.items, a.bootstrap)
    combos = [tuple(c.split(":")) for c in a.combos.split(",")]

    ensure_reference_venv()
    with tempfile.TemporaryDirectory(prefix="se-ref-data-") as tmp:
        folder = a.data or Path(tmp)
        ratings_csv, predictions_csv = write_running_example(folder, n_items, a.raters, a.seed)
        res = reference_timings(
            ratings_csv, predictions_csv, combos, n_boot, seed=a.seed, procs=a.procs, cache=a.cache
        )
    print(
        f"surveyequivalence==0.1.3 on the running example, {n_items} items × {a.raters} raters, "
        f"seed {a.seed}.\nThe reference is timed on {n_boot} bootstrap sample(s) (+ the actual "
        f"items) and scaled per curve: per curve = median power-curve run + its share of the "
        f"classifier scoring; 500 bootstraps = set-up + 501 curves. procs={a.procs}."
    )
    for name, r in res.items():
        if "error" in r:
            print(f"\n{name}: reference FAILED: {r['error']}")
            continue
        print(
            f"\n{name}: {r['seconds']:.1f} s for {n_boot} bootstrap(s); set-up "
            f"{r['seconds_setup']:.2f} s; {r['seconds_per_curve']:.2f} s per curve "
            f"(runs {', '.join(f'{s:.2f}' for s in r['seconds_runs'])} s); "
            f"projected 500 bootstraps {r['projected_seconds_500'] / 60:.1f} min"
            + (" [cached result]" if r.get("cached") else "")
        )
        print(f"  k          {' '.join(f'{k:>7}' for k in r['curve'])}")
        print(f"  curve      {_fmt_curve(r['curve'])}")
        print(f"  boot mean  {_fmt_curve(r['curve_mean'])}")
        print(f"  low        {_fmt_curve(r['low'])}")
        print(f"  high       {_fmt_curve(r['high'])}")
        print(f"  subsets    {' '.join(f'{v:>7}' for v in r['rater_subsets'].values())}")
        for m, s in r.get("classifier_scores", {}).items():
            e = r["equivalence"][m]
            print(
                f"  model {m}: score {s['score']:.4f} [{s['low']:.4f}, {s['high']:.4f}], "
                f"equivalence {e['value']:.3f} [{e['low']:.3f}, {e['high']:.3f}]"
            )
        if r.get("models_skipped"):
            print(f"  (skipped hard models for a soft scorer: {', '.join(r['models_skipped'])})")
    if a.json:
        a.json.write_text(json.dumps(res, indent=1))
    return res


def _wiki_main(
    csv: Path, seeds: list[int], data: Path | None, json_out: Path | None
) -> dict[str, dict[str, Any]]:
    """The authors' Wikipedia procedure for each seed, its closed-form expectation over shuffles and
    humanly's definition with the authors' calibrated predictions (see docs/survey.md)."""
    import numpy as np
    import pandas as pd

    from humanly import Predictions, Ratings
    from humanly.survey import EquivalenceOptions, equivalence

    res: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="se-wiki-") as tmp:
        folder = data or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for seed in seeds:
            res[f"seed {seed}"] = run_wiki_attack(csv, seed, folder)
            print(
                f"authors' procedure, shuffle seed {seed}: {res[f'seed {seed}']['equivalence']:.2f}"
            )
        cal = pd.read_csv(folder / f"calibrated_seed{seeds[0]}.csv")["p_attack"].to_numpy()
    df = pd.read_csv(csv)[: len(cal)]
    counts = np.column_stack([df.n_labels - df.n_labelled_attack, df.n_labelled_attack])
    for leave_out in (True, False):
        e = padded_columns_expectation(counts, cal, 46, 20, leave_out)
        res[f"expectation leave_out={leave_out}"] = e
        cols, labs = e["equivalence_columns"], e["equivalence_labels"]
        print(
            f"expectation over shuffles (ABC leaves the item out: {leave_out}): "
            f"{cols:.2f} in columns, {labs:.2f} in labels"
        )
    r = Ratings.from_counts(counts, items=df.rev_id.to_numpy(), classes=["n", "a"])
    p = Predictions.from_arrays(
        r.items, {"authors": np.column_stack([1 - cal, cal])}, classes=r.classes
    )
    quiet = EquivalenceOptions(progress=False)
    m = equivalence(r, p, bootstrap=500, seed=0, options=quiet).models[0]
    res["humanly"] = m.to_dict()
    low, high = m.equivalence_interval
    print(f"humanly, the authors' calibrated predictions: {m.equivalence:.2f} "
          f"[{low:.2f}, {high:.2f}]")  # fmt: skip
    if json_out:
        json_out.write_text(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
