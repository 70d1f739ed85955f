"""One voice for results (issue 30, item 4): the analyses return codes and numbers, the verdicts floor
(``humanly.verdicts``) writes every sentence, and the command line, the report and the notebook view
(``_repr_html_``) quote the same sentences.

* every public result's ``_repr_html_`` leads with the sentences the command line prints for it (the
  result read back from the command's own ``--json``), then a compact table: "—" for what is
  undefined, "< 1e-16" for a p-value below it, nested results in words;
* results hold codes, not prose: no result field is named like a sentence (``note``, ``sentence``,
  ``message``), every ``reason`` a study's JSON holds is a snake-case code, and no other string in it
  reads as a sentence but under the keys listed below, left to the analyses that own them;
* the command line, the report and the demo import sentence builders from ``humanly.verdicts`` only,
  and no module outside it defines one.
"""

from __future__ import annotations

import ast
import dataclasses
import html
import importlib
import inspect
import json
import re
from pathlib import Path
from typing import Any

import pytest

import humanly
from humanly._core.result import Result
from humanly.verdicts import verdicts_for
from table4 import SUMMARY_ARGS

SRC = Path(__file__).resolve().parents[1] / "src" / "humanly"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    import pandas as pd

    from humanly import simulate

    d = tmp_path_factory.mktemp("voice")
    simulate.oracle(150, [0.8, 0.75, 0.7, 0.85], models={"a": 0.85, "b": 0.75}, seed=1).write(
        d / "o.csv"
    )
    simulate.running_example(n_items=120, seed=2).write(d / "u.csv")
    simulate.pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=3).write(d / "p.csv")
    long = pd.read_csv(d / "o.csv")  # the judge: human labels on 60 items, the gold as judge
    long[long["item"].isin(sorted(set(long["item"]))[:60])].to_csv(d / "j.csv", index=False)
    gold = pd.read_csv(d / "o.gold.csv").rename(columns={"label": "prediction"})
    gold.to_csv(d / "j.judge.csv", index=False)
    out = {k: str(d / f"{k}.csv") for k in "oupj"}
    for k in "oup":
        out[f"{k}p"] = str(d / f"{k}.predictions.csv")
    out["og"], out["jj"], out["dir"] = str(d / "o.gold.csv"), str(d / "j.judge.csv"), str(d)
    votes = simulate.arena(5, 800, 300, seed=4).write(d / "v.csv")  # pairwise votes, two judges
    out["v"], out["vj"] = str(votes["human"]), str(votes["sharp"])
    return out


#: command → (its arguments, how to read its result back from ``--json``)
def _commands(f: dict[str, str]) -> dict[str, tuple[list[str], Any]]:
    from humanly.budget import Comparison, PlanResult
    from humanly.certification import CertifyResult
    from humanly.crowd.family_results import AgreementResult
    from humanly.judging import JudgeResult
    from humanly.ranking import RankResult

    return {
        "inspect": (
            ["inspect", f["o"], "--predictions", f["op"], "--gold", f["og"], "--bootstrap", "0"],
            humanly.InspectResult.from_dict,
        ),
        "agreement": (["agreement", f["o"], "--bootstrap", "0"], AgreementResult.from_dict),
        "certify": (
            ["certify", f["o"], "--predictions", f["op"], "--gold", f["og"]],
            CertifyResult.from_dict,
        ),
        "certify_summary": (
            [*SUMMARY_ARGS],
            CertifyResult.from_dict,
        ),
        "equivalence": (
            ["equivalence", f["u"], "--predictions", f["up"], "--bootstrap", "0"],
            humanly.EquivalenceResult.from_dict,
        ),
        "budget_plan": (
            ["budget", "plan", f["p"], "--predictions", f["pp"], "--bootstrap", "0"],
            PlanResult.from_dict,
        ),
        "budget_win": (
            ["budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8"],
            Comparison.from_dict,
        ),
        "judge": (
            ["judge", f["j"], "--predictions", f["op"], "--judge", f["jj"]],
            lambda d: JudgeResult.from_dict(d["judge"]),
        ),
        "rank": (["rank", f["v"], "--judge", f["vj"], "--draws", "500"], RankResult.from_dict),
    }


COMMANDS = [
    "inspect",
    "agreement",
    "certify",
    "certify_summary",
    "equivalence",
    "budget_plan",
    "budget_win",
    "judge",
    "rank",
]


def _shown(result: Result) -> str:
    """The text of a result's notebook view (tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "\n", result._repr_html_()))


@pytest.mark.parametrize("name", COMMANDS)
def test_the_notebook_view_leads_with_the_sentences_the_cli_prints(cli, files, name) -> None:
    args, read = _commands(files)[name]
    done = cli(*args, "--json")
    assert done.exit_code == 0, done.stderr
    result = read(done.json())
    said = [v.sentence for v in verdicts_for(result)]
    assert said, f"{name}: no verdict sentence"
    printed = cli(*args)
    assert printed.exit_code == 0, printed.stderr
    out = " ".join(printed.stdout.split())
    at = [out.index(" ".join(s.split())) for s in said]  # each printed, in the same order
    assert at == sorted(at)
    view = result._repr_html_()
    shown = _shown(result)
    assert " ".join(said[0].split()) in " ".join(shown.split())
    first_table = view.index("<table")
    for sentence in said:  # the sentences lead, before the table
        assert view.index(html.escape(sentence, quote=False)) < first_table
    assert not re.search(r"\bnan\b", shown, re.I) and "e+00" not in shown


def test_a_study_leads_with_what_humanly_report_prints(cli, files) -> None:
    saved = Path(files["dir"]) / "study.json"
    done = cli(
        "report", files["o"], "--predictions", files["op"], "--gold", files["og"], "--bootstrap",
        "0", "-o", Path(files["dir"]) / "r.html", "--save-results", saved, "--force",
    )  # fmt: skip
    assert done.exit_code == 0, done.stderr
    study = humanly.StudyResult.from_dict(json.loads(saved.read_text()))
    printed = [ln for ln in done.stdout.splitlines() if not ln.startswith("report: ")]
    shown = [ln.strip() for ln in _shown(study).splitlines() if ln.strip()]
    # the terminal's lines (section titles and sentences), in order, lead the notebook view
    lines = [ln for ln in printed if ln.strip() and not ln.startswith("results: ")]
    assert shown[1 : 1 + len(lines)] == lines
    assert lines[0] == "Data" and lines[1] == verdicts_for(study)[0].sentence
    view = study._repr_html_()
    for name in ("Settings", "InspectResult", "Provenance", "CertifyResult"):
        assert f">{name}<" not in view  # nested results in words, never a type name alone
    assert "seed 0 · level 0.95 · bootstrap 0" in " ".join(shown)


def test_the_table_says_undefined_and_tiny_p_values_as_the_page_does() -> None:
    r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0], [0, 3], [3, 0]] * 30)
    res = humanly.agreement(r, bootstrap=0)
    frame = res.to_frame()
    # what the frame's own HTML showed: NaN and p-values such as 5.9e-104
    assert (frame["p_value"] < 1e-16).all() and frame.isna().any().any()
    shown = _shown(res)
    assert not re.search(r"\bnan\b", shown, re.I) and "e+00" not in shown
    assert not re.search(r"\de[-+]\d", shown.replace("< 1e-16", ""))  # no e-104, e-45
    assert "—" in shown and shown.count("< 1e-16") == len(frame)
    from humanly.verdicts.notebook import value_text

    assert value_text("p_value", 0.0) == "< 1e-16" and value_text("p_value", 3.2e-9) == "3.2e-09"
    assert value_text("p_value", float("nan")) == "—" and value_text("estimate", None) == "—"
    assert value_text("n_items", 12000) == "12,000" and value_text("holds", True) == "yes"


def test_every_result_type_has_a_view_without_type_names_alone() -> None:
    """A result of every public type renders: a title, then text — nested results by a summary."""
    from humanly import simulate

    d = simulate.running_example(200, 5, seed=0)
    study = humanly.analyze(d.ratings, d.predictions, bootstrap=0)
    seen = set()
    stack: list[Any] = [study]
    while stack:
        value = stack.pop()
        if not isinstance(value, Result) or id(value) in seen:
            continue
        seen.add(id(value))
        view = value._repr_html_()
        cells = re.findall(r"<td[^>]*>(.*?)</td>", view)
        names = {type(x).__name__ for x in _nested(value)}
        assert not (set(cells) & names), f"{type(value).__name__}: {set(cells) & names}"
        stack += _nested(value)
    assert len(seen) > 20


def _nested(value: Result) -> list[Any]:
    out: list[Any] = []
    for f in dataclasses.fields(value):  # type: ignore[arg-type]
        v = getattr(value, f.name)
        out += [x for x in (v if isinstance(v, tuple) else (v,)) if isinstance(x, Result)]
    return out


# ------------------------------------------------------------------------------ codes, not prose
#: Keys whose strings may read as sentences, and why: ``title`` (the title the user gave the
#: report) and ``command`` (the command line that made the study, quoted as typed) are the user's
#: text, not humanly's; ``quantity``, ``left_formula`` and ``right_formula`` are formulas (maths,
#: e.g. "P(l_b = l* | l_a != l*)"), not prose; ``error`` quotes the message of the InputError a
#: skipped analysis raised, beside its reason code (the error path's own sentence). Everything else
#: an analysis says is a code: statuses, method and definition codes, and ``notes`` as
#: ``{"code", "values"}`` (worded by ``humanly.verdicts``).
PROSE_LEFT = re.compile(r"(^|\.)(title|command|quantity|left_formula|right_formula|error)$")
#: Keys whose strings are codes (checked below): reasons and notes, statuses, methods, definitions.
CODED = re.compile(r"(^|\.)([a-z_]*(reason|note|status|method)|definition|notes\[\]\.code)$")
#: A code: lower-case words joined by underscores (or empty).
CODE = re.compile(r"^([a-z][a-z0-9]*(_[a-z0-9]+)*)?$")


def _strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _strings(v, f"{path}.{k}" if path else k)]
    if isinstance(value, list):
        return [p for v in value for p in _strings(v, f"{path}[]")]
    return [(path, value)] if isinstance(value, str) else []


def _prose(text: str) -> bool:
    """A sentence: six words or more."""
    return len(text.split()) >= 6


def _studies() -> list[humanly.StudyResult]:
    from humanly import Ratings, simulate
    from humanly.datasets import wiki_attack

    out = []
    d = simulate.running_example(300, 5, seed=0)
    out.append(humanly.analyze(d.ratings, d.predictions, d.gold, bootstrap=100))
    d = simulate.pair(300, 3, p=0.7, eps=0.1, q=0.75, seed=1)  # untested assumptions: no bootstrap
    out.append(humanly.analyze(d.ratings, d.predictions, bootstrap=0))
    d = simulate.pair(300, 2, p=0.7, eps=0.1, q=0.75, seed=1)  # no pilot plan: two labels
    out.append(humanly.analyze(d.ratings, d.predictions, bootstrap=0))
    out.append(humanly.analyze(Ratings.from_counts([[2, 1, 0], [0, 3, 0], [1, 1, 1]]), bootstrap=0))
    out.append(humanly.analyze(Ratings.from_counts([[1, 0], [0, 1], [1, 0]]), bootstrap=0))
    ratings, predictions = wiki_attack()
    out.append(humanly.analyze(ratings, predictions, bootstrap=100))
    out.append(humanly.analyze(simulate.arena(6, 600, 200, seed=0).study()))  # pairwise votes
    return out


@pytest.fixture(scope="module")
def study_json() -> list[dict[str, Any]]:
    return [s.to_dict() for s in _studies()]


def test_a_study_holds_codes_not_sentences(study_json) -> None:
    reasons, prose = set(), set()
    for data in study_json:
        for path, text in _strings(data):
            if CODED.search(path):
                assert CODE.match(text), (path, text)
                reasons.add(text)
            elif _prose(text) and not PROSE_LEFT.search(path):
                prose.add((path, text))
    assert not prose, sorted(prose)
    # the reason codes these studies hold
    assert {"no_predictions", "single_label_items", "no_bootstrap", "too_few_labels"} <= reasons
    assert "no_ratings" in reasons
    # the codes of notes, methods, definitions and statuses these studies hold
    assert {"curve_items_subset", "raters_not_above_classes", "abc_floor"} <= reasons
    assert {"gwet_analytic_t", "t_test", "bonferroni_union", "normal_delta"} <= reasons
    assert {"fleiss_kappa", "not_applicable"} <= reasons


def test_the_shared_data_studies_hold_codes_not_sentences(shared_data) -> None:
    """Snow et al.'s RTE (named raters, gold) and the product-matching data (3 labels per item)."""
    from humanly import read_study

    rte = read_study(
        shared_data / "snow2008_rte" / "rte.standardized.tsv",
        item_col="orig_id", rater_col="!amt_worker_ids", label_col="response", gold_col="gold",
    )  # fmt: skip
    product = read_study(
        shared_data / "product" / "answer.csv", item_col="question", rater_col="worker",
        label_col="answer",
    )  # fmt: skip
    for study in (rte, product):
        data = humanly.analyze(study, bootstrap=100).to_dict()
        bad = [(p, t) for p, t in _strings(data) if _prose(t) and not PROSE_LEFT.search(p)]
        assert not bad
        assert all(CODE.match(t) for p, t in _strings(data) if CODED.search(p))
        assert all(CODE.match(s["reason"]) for s in data["skipped"])


def _result_types() -> list[type]:
    found = {}
    for path in SRC.rglob("*.py"):
        parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if name.startswith(("humanly.cli", "humanly.__main__")):
            continue
        module = importlib.import_module(name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if issubclass(cls, Result) and dataclasses.is_dataclass(cls):
                found[f"{cls.__module__}.{cls.__qualname__}"] = cls
    return list(found.values())


def test_no_result_field_is_named_like_a_sentence() -> None:
    """A result's fields hold codes and numbers: none is named ``sentence`` or ``message`` (or
    ``*_sentence``, ``*_message``); a ``reason`` or ``note`` field is a string code (its values are
    checked in the studies' JSON above), and what a reader needs to know about it is written by the
    verdicts floor; every ``notes`` field is a tuple of :class:`~humanly._core.result.Note` (a code
    and its values), which the verdicts floor words."""
    types = _result_types()
    assert len(types) > 50
    fields = [(cls, f) for cls in types for f in dataclasses.fields(cls)]
    named = [
        f"{cls.__module__}.{cls.__qualname__}.{f.name}"
        for cls, f in fields
        if re.fullmatch(r"([a-z_]+_)?(sentence|message)", f.name)
    ]
    assert named == []
    coded = [f for _, f in fields if re.fullmatch(r"([a-z_]+_)?(note|reason)", f.name)]
    assert len(coded) >= 7 and all(f.type in ("str", "str | None") for f in coded)
    notes = [(cls.__qualname__, f.type) for cls, f in fields if f.name == "notes"]
    assert len(notes) >= 10 and all(t == "tuple[Note, ...]" for _, t in notes), notes


# --------------------------------------------------------------------- who writes the sentences
PRESENTATION = ("cli", "report", "demo.py")


def _modules(*parts: str) -> list[Path]:
    out: list[Path] = []
    for part in parts:
        target = SRC / part
        out += sorted(target.rglob("*.py")) if target.is_dir() else [target]
    return out


def test_the_cli_and_the_report_take_sentences_from_the_verdicts_floor() -> None:
    """No module of the command line, the report or the demo imports a sentence builder (a name
    with ``sentence``, ``verdict``, ``headline``, ``words`` or ``note`` in it) from anywhere but
    ``humanly.verdicts``, nor defines one (``sentence``, ``headline``, ``words``) at module level."""
    bad = []
    for path in _modules(*PRESENTATION):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                source = "." * node.level + (node.module or "")
                from_floor = re.match(r"^(\.+|humanly\.)verdicts(\.|$)", source) is not None
                for alias in node.names:
                    wordy = re.search(r"sentence|verdict|headline|words|_note", alias.name)
                    if wordy and not from_floor:
                        bad.append(f"{path.name}: from {source} import {alias.name}")
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and re.search(
                r"sentence|headline|words", node.name
            ):
                bad.append(f"{path.name}: defines {node.name}")
    assert bad == []


def test_no_analysis_defines_a_sentence_builder() -> None:
    """Below the verdicts floor no module defines a function or method that writes a sentence."""
    below = ("_core", "data", "crowd", "certification", "survey", "budget", "judging", "study.py")
    bad = []
    for path in _modules(*below):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and re.search(
                r"(^|_)(sentence|sentences|headline|verdict_text|words)($|_)", node.name
            ):
                bad.append(f"{path.relative_to(SRC)}: {node.name}")
    assert bad == []


def test_the_verdicts_floor_loads_light() -> None:
    """The command line imports the verdicts floor: loading every module of it (the notebook view
    included) imports no numpy, pandas, matplotlib or jinja2."""
    import subprocess
    import sys

    modules = sorted(p.stem for p in (SRC / "verdicts").glob("*.py") if p.stem != "__init__")
    code = (
        "import sys, importlib\n"
        f"for m in {modules!r}: importlib.import_module('humanly.verdicts.' + m)\n"
        "print(sorted(m for m in ('numpy', 'pandas', 'matplotlib', 'jinja2') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stderr
    assert len(modules) >= 9


def test_every_note_an_analysis_writes_has_its_sentence() -> None:
    """Each ``Note("code", ...)`` written below the verdicts floor has a sentence in
    ``humanly.verdicts.notes`` (no code reads as itself), and a note round-trips through JSON."""
    from humanly._core.result import Note, from_jsonable, jsonable
    from humanly.verdicts.notes import NOTES, note_text

    below = ("_core", "data", "crowd", "certification", "survey", "budget", "judging", "ranking")
    written = set()
    for path in _modules(*below):
        written |= set(re.findall(r'\bNote\(\s*"([a-z0-9_]+)"', path.read_text(encoding="utf-8")))
    assert len(written) >= 40
    assert written <= set(NOTES), sorted(written - set(NOTES))
    note = Note("curve_partly_computed", {"computed": (0, 1, 2, 3, 8), "sizes": 9, "score": 2,
                                          "rest": 2})  # fmt: skip
    back = from_jsonable(Note, json.loads(json.dumps(jsonable(note))))
    assert back == note and note_text(back) == note_text(note)
    assert "k = 0–3, 8:" in note_text(note)
