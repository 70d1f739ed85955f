"""Bad input: one line on stderr naming the file/row/value and the fix, exit status 2, no traceback,
nothing on stdout, and no file written."""

from __future__ import annotations

from pathlib import Path

import pytest

GOOD = "item,rater,label\na,r1,x\na,r2,y\nb,r1,x\n"


def _write(tmp: Path, name: str, content: str | bytes) -> Path:
    p = tmp / name
    p.write_bytes(content if isinstance(content, bytes) else content.encode())
    return p


# (id, files to create, args (use {dir}/{name}), expected message fragments)
CASES = [
    ("missing-file", {}, ["inspect", "{d}/nope.csv"], ["nope.csv", "no such file"]),
    ("directory", {}, ["inspect", "{d}"], ["is a directory, not a file"]),
    ("empty", {"e.csv": ""}, ["inspect", "{d}/e.csv"], ["e.csv", "empty (0 bytes)"]),
    (
        "header-only",
        {"h.csv": "item,rater,label\n"},
        ["inspect", "{d}/h.csv"],
        ["header but no data rows"],
    ),
    (
        "extension",
        {"r.xlsx": GOOD},
        ["inspect", "{d}/r.xlsx"],
        ["unknown extension .xlsx", ".csv, .tsv"],
    ),
    (
        "missing-column",
        {"r.csv": "item,label\na,x\n"},
        ["inspect", "{d}/r.csv"],
        ["missing required rater column", "--rater-col"],
    ),
    (
        "blank-label",
        {"r.csv": "item,rater,label\na,r1,x\na,r2,\n"},
        ["inspect", "{d}/r.csv"],
        ["r.csv line 3", "blank or missing value in column 'label'"],
    ),
    (
        "nan-label",
        {"r.csv": "item,rater,label\na,r1,1\na,r2,NaN\n"},
        ["inspect", "{d}/r.csv"],
        ["r.csv line 3", "blank or missing"],
    ),
    (
        "undeclared-label",
        {"r.csv": GOOD},
        ["inspect", "{d}/r.csv", "--classes", "x,z"],
        ["r.csv line 3", "label 'y'", "not one of the declared classes", "--classes"],
    ),
    (
        "duplicate-pair",
        {"r.csv": GOOD + "a,r1,y\n"},
        ["inspect", "{d}/r.csv"],
        [
            "r.csv line 5",
            "rater 'r1' labelled item 'a' more than once",
            "--duplicates keep, --duplicates first or --duplicates last",
        ],
    ),
    (
        "one-class-declared",
        {"r.csv": "item,rater,label\na,r1,x\na,r2,x\n"},
        ["inspect", "{d}/r.csv", "--classes", "x"],
        ["only 1 class", "at least two classes", "--classes"],
    ),
    (
        "one-class-data",
        {"r.csv": "item,rater,label\na,r1,x\na,r2,x\n"},
        ["inspect", "{d}/r.csv"],
        ["only 1 class", "declare them with --classes"],
    ),
    (
        "non-utf8",
        {"r.csv": b"item,rater,label\na,r1,x\na,r2,caf\xe9\n"},
        ["inspect", "{d}/r.csv"],
        ["r.csv line 3", "0xe9", "not UTF-8", "re-save"],
    ),
    (
        "bad-count",
        {"c.csv": "item,x,y\na,1,2\nb,-1,2\n"},
        ["inspect", "{d}/c.csv", "--counts", "x,y"],
        ["c.csv line 3", "count -1 in column 'x'", "non-negative integer"],
    ),
    (
        "prob-negative",
        {"r.csv": GOOD, "p.csv": "item,prob_x,prob_y\na,1.2,-0.2\nb,0.5,0.5\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["p.csv line 2", "outside [0, 1]"],
    ),
    (
        "prob-nan",
        {"r.csv": GOOD, "p.csv": "item,prob_x,prob_y\na,0.5,0.5\nb,,0.5\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["p.csv line 3", "missing or not a number"],
    ),
    (
        "prob-sum",
        {"r.csv": GOOD, "p.csv": "item,prob_x,prob_y\na,0.5,0.4\nb,0.5,0.5\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["p.csv line 2", "sum to 0.9, not 1", "normalise"],
    ),
    (
        "prob-columns-mismatch",
        {"r.csv": GOOD, "p.csv": "item,prob_x,prob_q\na,0.5,0.5\nb,0.5,0.5\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["prediction columns prob_x, prob_q do not match the classes ('x', 'y')"],
    ),
    (
        "prediction-unknown-class",
        {"r.csv": GOOD, "p.csv": "item,prediction\na,x\nb,q\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["p.csv line 3", "label 'q'", "not one of the classes ('x', 'y')"],
    ),
    (
        "prediction-unknown-item",
        {"r.csv": GOOD, "p.csv": "item,prediction\na,x\nb,y\nc,y\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["1 prediction(s) are for items with no ratings (first: 'c')", "--missing drop"],
    ),
    (
        "no-prediction-columns",
        {"r.csv": GOOD, "p.csv": "item,guess\na,x\nb,y\n"},
        ["inspect", "{d}/r.csv", "--predictions", "{d}/p.csv"],
        ["no prediction columns", "--prediction-col"],
    ),
    (
        "simulate-bad-weights",
        {},
        [
            "simulate",
            "urn",
            "-o",
            "{d}/out.csv",
            "--states",
            "0.8,0.2;0.1,0.9",
            "--weights",
            "0.5,0.6",
        ],
        ["weights", "summing to 1"],
    ),
]


@pytest.mark.parametrize("files,args,fragments", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input(tmp_path, cli, files, args, fragments):
    for name, content in files.items():
        _write(tmp_path, name, content)
    before = sorted(p.name for p in tmp_path.iterdir())
    res = cli(*[a.format(d=tmp_path) for a in args])
    assert res.exit_code == 2, (res.stdout, res.stderr)
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("humanly: error: "), res.stderr
    assert "Traceback" not in res.stderr
    for fragment in fragments:
        assert fragment in lines[0], lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no output (or partial) file


def test_duplicates_option_accepts(tmp_path, cli):
    path = _write(tmp_path, "r.csv", GOOD + "a,r1,y\n")
    for policy, n_labels in (("keep", 4), ("first", 3), ("last", 3)):
        res = cli("inspect", path, "--duplicates", policy, "--json")
        assert res.exit_code == 0 and res.json()["n_labels"] == n_labels


def test_simulate_does_not_overwrite(tmp_path, cli):
    out = tmp_path / "s.csv"
    assert (
        cli("simulate", "pair", "-o", out, "--p", "0.8", "--eps", "0.05", "--q", "0.7").exit_code
        == 0
    )
    stamp = out.stat().st_mtime_ns
    res = cli("simulate", "pair", "-o", out, "--p", "0.8", "--eps", "0.05", "--q", "0.7")
    assert res.exit_code == 2 and "--force" in res.stderr and out.stat().st_mtime_ns == stamp


def test_bidirectional_controls_never_reach_the_terminal(cli, tmp_path) -> None:
    """A right-to-left override in a model's name is taken out of what the CLI prints (issue 26)."""
    import pandas as pd

    ratings = tmp_path / "r.csv"
    pd.DataFrame(
        {"item": [1, 1, 2, 2], "rater": ["a", "b", "a", "b"], "label": [0, 0, 1, 1]}
    ).to_csv(ratings, index=False)
    preds = tmp_path / "p.csv"
    pd.DataFrame(
        {"item": [1, 2], "model": ["m\u202eexe", "m\u202eexe"], "prediction": [0, 1]}
    ).to_csv(preds, index=False)
    res = cli("inspect", ratings, "--predictions", preds, "--bootstrap", 0)
    assert res.exit_code == 0, res.stderr
    assert "\u202e" not in res.stdout and "mexe" in res.stdout
