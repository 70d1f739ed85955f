"""The numbers-unchanged check of the 0.1.0 reset (issue 23): the JSON every command printed before the
reset (``outputs/``, recorded by ``record.py`` at commit d31f6eb) against what the new command prints.

The reset renames keys, flags and the order of positional data; it changes no number. :func:`compare`
checks that every number, boolean and string of the recorded output is in the new output, under its new
path (``renames``: regular expressions on the old path, applied in order), with the same value — floats
to 1e-12 relative (the arithmetic is the same; only a 1 − level in place of α may move the last bit).
Paths that hold no longer-printed values are named in ``skip`` with the reason beside them in the test.

Since the record, two intentional changes moved numbers that are not point estimates (issue 26):
``--bootstrap`` refuses 1–99 replicates (the tests ask for 100, or 200 where the record had ≥ 100), and
every random stream draws in the study's canonical order (items and raters sorted by id). So

* values drawn from random streams — bootstrap intervals, ranges, means, shares, the replicate count
  itself, and the Monte Carlo averages over random rater subsets — are named in ``resampled`` by each
  test (the reason beside them) and not compared; every point estimate computed on the full data still
  is, to 1e-12;
* per-rater values (the inspect table's ``raters.rows[i]``, certify's ``upper_bound.raters[i]`` and
  ``upper_bound.agreement_matrix[i][j]``) are compared by rater name, not position
  (:func:`by_rater`): the raters are listed sorted by id now, in order of first appearance then;
* OMS's ``t_u``/``t_l`` (where the confidence S(t_u) is largest) are compared to 1e-6 (:data:`ARGMAX`).
"""

from __future__ import annotations

import json
import math
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUTPUTS = HERE / "outputs"
DATA = HERE.parents[2] / "shared" / "data"

RTE = DATA / "snow2008_rte" / "rte.standardized.tsv"
TEMP = DATA / "snow2008_temp" / "temp.standardized.tsv"
WSD = DATA / "snow2008_wsd" / "wsd.standardized.tsv"
PRODUCT = DATA / "product" / "answer.csv"
TRUTH = DATA / "product" / "truth.csv"
WIKI = DATA / "wiki_attack_se" / "wiki_attack_labels_and_predictor.csv"
CRED = DATA / "credbank_se" / "credweb.csv"
#: a path rename: a regular expression on the recorded path and its replacement (text or function)
Rename = tuple[str, str | Callable[[re.Match[str]], str]]
#: the maximiser of a flat function moves with the last bits of its inputs, √ε of them: OMS's
#: ``t_u``/``t_l`` (the argmax of S(t_u)) moved by 6e-8 relative when U_N moved by one ulp (the items
#: summed in sorted order); the maximum itself (``oms``) and every other number is compared to 1e-12
ARGMAX = (re.compile(r"\.confidence\.t_[lu]$"), 1e-6)
#: the last rename before 0.1.0 (issue 30, item 5; CHANGELOG.md's rename table), applied to every
#: recorded path after a test's own renames: the same values under their one name
LAST_RESET: list[Rename] = [
    (r"(^|\.)agreement_ci\.", r"\1agreement_intervals."),
    (r"(^|\.)ranges\.", r"\1intervals."),
    (r"(^|\.)(hoeffding|cramer)_lower_bound$", r"\1win_\2_bound"),
    (r"(^|\.)pilot\.method$", r"\1pilot.estimator"),
    (r"(^|\.)(best_|recommended_)?m(?=$|\[)", r"\1\2labels_per_item"),
]
SNOW = ["--item-col", "orig_id", "--rater-col", "!amt_worker_ids", "--label-col", "response"]


def old(name: str) -> Any:
    """The output recorded for case ``name`` before the reset."""
    return json.loads((OUTPUTS / f"{name}.json").read_text(encoding="utf-8"))


def leaves(value: Any, prefix: str = "") -> dict[str, Any]:
    """Every scalar of a JSON value by path: ``a.b[2].c``."""
    out: dict[str, Any] = {}
    if isinstance(value, dict):
        for k, v in value.items():
            out.update(leaves(v, f"{prefix}.{k}" if prefix else str(k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.update(leaves(v, f"{prefix}[{i}]"))
    else:
        out[prefix] = value
    return out


def _same(a: Any, b: Any, rel: float = 1e-12) -> bool:
    if isinstance(a, float) and isinstance(b, (int, float)) and not isinstance(b, bool):
        return math.isclose(a, b, rel_tol=rel, abs_tol=1e-15)
    if isinstance(a, int) and not isinstance(a, bool) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)
    return bool(a == b)


def _ds_same(path: str, a: Any, b: Any) -> bool:
    """Dawid–Skene's fit changed after the record (issue 25: several starts, a stopping rule on the
    distance from the fixed point instead of the last step's size): the same optimum, so its numbers
    agree to 1e-5 (the old rule's precision), and its step count is not compared."""
    if path.endswith("iterations"):
        return True
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-5 * max(1.0, abs(a))
    return False


def reorder(prefix: str, before: list[Any], after: list[Any], dims: int = 1) -> Rename:
    """The rename of ``prefix[i]`` (``dims=2``: ``prefix[i][j]``) from the position of key ``i`` in
    ``before`` (the recorded order) to its position in ``after`` (the new order): the same keys, each
    once, in both."""
    assert len(set(before)) == len(before) and sorted(map(str, before)) == sorted(
        map(str, after)
    ), f"{prefix}: not the same keys"
    where = {key: j for j, key in enumerate(after)}
    to = [where[key] for key in before]

    def swap(m: re.Match[str]) -> str:
        return prefix + "".join(f"[{to[int(i)]}]" for i in m.groups())

    return "^" + re.escape(prefix) + r"\[(\d+)\]" * dims, swap


def by_rater(before: Any, after: Any) -> list[Rename]:
    """The renames that compare per-rater values by rater name: the inspect table's rows
    (``raters.rows[i]``, keyed by ``rater``) and certify's named-rater upper bound
    (``upper_bound.raters[i]`` and the agreement matrix's rows and columns)."""
    out: list[Rename] = []
    rows = before.get("raters") if isinstance(before, dict) else None
    if isinstance(rows, dict) and rows.get("rows"):
        keys = [[r["rater"] for r in x["raters"]["rows"]] for x in (before, after)]
        out.append(reorder("raters.rows", *keys))
    upper = before.get("upper_bound") if isinstance(before, dict) else None
    if isinstance(upper, dict) and upper.get("raters"):
        keys = [before["upper_bound"]["raters"], after["upper_bound"]["raters"]]
        out.append(reorder("upper_bound.raters", *keys))
        out.append(reorder("upper_bound.agreement_matrix", *keys, dims=2))
    return out


#: the last rename before 0.1.0 (issue 30, item 5), applied to every recorded path after the case's own
VOCABULARY: list[Rename] = [
    (r"\.lower_finite\.", ".finite_lower."),
    (r"\.upper_finite\.", ".finite_upper."),
    (r"(\.lemma2)\.raters_per_item$", r"\1.labels_per_item"),
    (r"^((?:study\.)?(?:certify\.)?raters)\.k$", r"\1.labels_per_item"),
    (r"^((?:study\.)?(?:certify\.)?raters)\.k_(min|max)$", r"\1.\2_labels_per_item"),
]


def worded(value: Any, key: str = "") -> Any:
    """``value`` (a new output) with its codes in the words the verdicts floor writes for them
    (issue 30, item 4: results hold codes, ``humanly.verdicts`` the sentences), as the record held
    them: each note its sentence, each evidence status and method code its words."""
    from humanly.verdicts.certify import status_text
    from humanly.verdicts.methods import method_text
    from humanly.verdicts.notes import note_text

    if isinstance(value, dict):
        if set(value) == {"code", "values"}:  # a Note
            from humanly._core.result import Note

            return note_text(Note(value["code"], value["values"]))
        if key == "evidence" and isinstance(value.get("status"), str):
            value = {**value, "status": status_text(value["status"])}
        return {
            k: method_text(v) if k == "method" and isinstance(v, str) else worded(v, k)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [worded(v, key) for v in value]
    return value


def compare(
    name: str,
    new: Any,
    renames: Iterable[Rename] = (),
    skip: Iterable[str] = (),
    strings: bool = False,
    part: str | None = None,
    resampled: Iterable[str] = (),
) -> None:
    """Assert that every number and boolean (and with ``strings`` every string) recorded for ``name``
    is in ``new`` under its renamed path with the same value. ``part``: compare only the recorded
    values under that path prefix (e.g. ``"certify"`` of a report), the prefix taken off.
    ``resampled``: recorded paths (regular expressions) of values drawn from random streams, not
    compared (issue 26: ≥ 100 bootstrap replicates, drawn in the canonical order). Per-rater values
    are compared by rater name (:func:`by_rater`)."""
    before = old(name)
    if part is not None:
        for key in part.split("."):
            before = before[key]
    renames = [*by_rater(before, new), *renames, *VOCABULARY]
    skip_res = [re.compile(s) for s in (*skip, *resampled)]
    now = leaves(worded(new))
    missing, changed = [], []
    recorded = leaves(before)
    if part is not None:
        assert recorded, f"{name}: nothing recorded under {part}"
    for path, value in recorded.items():
        if value is None or (isinstance(value, str) and not strings):
            continue
        if any(s.search(path) for s in skip_res):
            continue
        target = path
        for pattern, replacement in [*renames, *LAST_RESET]:
            target = re.sub(pattern, replacement, target)
        if target not in now:
            missing.append(f"{path} → {target}")
        elif "dawid_skene" in path and _ds_same(path, value, now[target]):
            continue
        elif not _same(value, now[target], ARGMAX[1] if ARGMAX[0].search(path) else 1e-12):
            changed.append(f"{path} → {target}: {value!r} became {now[target]!r}")
    assert not missing and not changed, (
        f"{name}: {len(missing)} recorded values without a new path, {len(changed)} changed\n"
        + "\n".join(missing[:40] + changed[:40])
    )


def simulated(folder: Path) -> dict[str, Path]:
    """The simulated studies of the record (fixed seeds; the generators are unchanged), written with
    today's flags: oracle crowd ``o``, running-example urn ``u``, budget pair ``p``."""
    runs = {
        "o": ["simulate", "oracle", "-o", str(folder / "o.csv"), "--rater-accuracies", "0.8,0.75,0.7,0.85",
              "--models", "a=0.85,b=0.75", "--n-items", "300", "--seed", "1"],
        "u": ["simulate", "urn", "--preset", "running-example", "-o", str(folder / "u.csv"),
              "--n-items", "300", "--seed", "2"],
        "p": ["simulate", "pair", "-o", str(folder / "p.csv"), "--n-items", "400", "--labels-per-item", "3",
              "--p", "0.7", "--eps", "0.1", "--q", "0.75", "--seed", "3"],
    }  # fmt: skip
    for argv in runs.values():
        if not Path(argv[argv.index("-o") + 1]).exists():
            subprocess.run(
                [sys.executable, "-m", "humanly", *argv], check=True, capture_output=True
            )
    return {k: folder / f"{k}.csv" for k in runs}


def sibling(path: Path, kind: str) -> Path:
    """``X.csv`` → ``X.<kind>.csv`` (predictions, gold, states)."""
    return path.with_name(f"{path.stem}.{kind}{path.suffix}")
