"""The report's label-budget section and ``humanly.analyze`` for more than two classes (issue 33,
item 3): the study runs the plan on three-class data (plurality votes, the K-class pilot), the section
lays out the budgets per m, the estimates, the confusion matrices and the verdicts of
:mod:`humanly.verdicts.multiclass`, ``humanly report --from`` a saved K-class result draws the same
page byte for byte, and ChaosNLI (three classes, 100 labels per item, two models) runs end to end
(skipped without ../shared/data holding it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from humanly import Predictions, Ratings, analyze, plan
from humanly.budget.multiclass_plan import VERDICTS
from humanly.report import build_report
from humanly.simulate import oracle
from humanly.study import StudyResult
from humanly.verdicts.multiclass import estimate_words, multiclass_verdicts
from humanly.verdicts.plan import plan_verdicts

PRIOR = np.array([0.4, 0.35, 0.25])
CROWD = np.array([[0.8, 0.12, 0.08], [0.1, 0.8, 0.1], [0.08, 0.12, 0.8]])
BETTER = np.array([[0.9, 0.06, 0.04], [0.05, 0.9, 0.05], [0.04, 0.06, 0.9]])
WORSE = np.array([[0.85, 0.1, 0.05], [0.1, 0.8, 0.1], [0.05, 0.1, 0.85]])


def _data(n: int = 600, labels: int = 3, seed: int = 1):
    return oracle(
        n,
        np.stack([CROWD] * labels),
        n_classes=3,
        prior=PRIOR,
        models={"a": BETTER, "b": WORSE},
        seed=seed,
    )


@pytest.fixture(scope="module")
def study() -> StudyResult:
    d = _data()
    return analyze(d.ratings, d.predictions, bootstrap=100, seed=0)


def _section(study: StudyResult):
    return next(s for s in build_report(study).sections if s.id == "plan")


def test_analyze_plans_for_three_classes(study) -> None:
    a = study.plan
    assert a is not None and study.skipped_reason("plan") is None
    assert a.n_classes == 3 and a.pilot is None and a.pilot_skipped is None
    mp = a.multiclass_pilot
    assert mp is not None and mp.better == "a" and mp.verdict in VERDICTS
    assert mp.bootstrap == 100 and mp.level == study.settings.level
    # the same numbers as the verb on the same data and settings
    d = _data()
    direct = plan(d.ratings, d.predictions, bootstrap=100, seed=0, level=study.settings.level)
    assert direct == a


def test_the_section_lays_out_the_k_class_plan(study) -> None:
    sec = _section(study)
    mp = study.plan.multiclass_pilot
    assert sec.note is None
    captions = [t.caption for t in sec.tables]
    assert len(sec.tables) == 4, captions
    quick, est, matrices, sizes = sec.tables
    # the comparison at q̂: pluralities over three classes
    assert "3 classes, errors uniform over the other classes, plurality votes" in quick.caption
    assert [row[0] for row in quick.rows] == [
        "m = 1 (single labels)",
        "m = 3 (3-plurality)",
        "m = 5 (5-plurality)",
    ]
    # the estimates: prior, per-class accuracies of the three sources, overall accuracies
    assert len(est.rows) == 3 + 3 * 3 + 3 and "95% Wald interval" in est.headers
    shown = {row[0]: row for row in est.rows}
    for p in mp.parameters:
        if p.name in shown:
            assert shown[p.name][1] == estimate_words(p.name, mp.classes)
            assert float(shown[p.name][2]) == pytest.approx(p.estimate, abs=5e-5)
    # the three confusion matrices, rows the true class, each row a distribution
    assert len(matrices.rows) == 9 and matrices.headers[2:] == ("label 0", "label 1", "label 2")
    for row in matrices.rows:
        assert sum(float(x) for x in row[2:]) == pytest.approx(1, abs=5e-4)
    assert [float(x) for x in matrices.rows[3][2:]] == pytest.approx(
        mp.estimates.better[0], abs=5e-5
    )
    # the budgets per m with plurality votes
    assert [row[1] for row in sizes.rows] == [f"{r.budget_exact:,}" for r in mp.sizes]
    assert "plurality votes" in sizes.caption
    # two figures: at q̂, and at the K-class pilot's estimates
    assert len(sec.figures) == 2 and "3-class confusion matrices" in sec.figures[1].caption
    # the verdicts: the floor's, linked to the K-class Methods paragraph
    assert sec.verdicts == plan_verdicts(study.plan)
    assert sec.verdicts[-1] == multiclass_verdicts(mp)[0]
    assert {v.methods for v in sec.verdicts} == {"methods-plan-2"}
    assert any("EM converged in" in p for p in sec.paragraphs)


def test_the_page_links_the_k_class_methods_paragraph(study) -> None:
    page = build_report(study)
    methods = next(s for s in page.sections if s.id == "methods")
    assert "methods-plan" in methods.paragraph_ids and "methods-plan-2" in methods.paragraph_ids
    text = methods.paragraphs[methods.paragraph_ids.index("methods-plan-2")]
    assert text.startswith("Label budget for more than two classes")
    html = page.html()
    assert 'id="methods-plan-2"' in html and 'href="#methods-plan-2"' in html


def test_too_few_labels_for_the_k_class_pilot_says_so() -> None:
    d = _data(300, labels=2, seed=2)
    res = analyze(d.ratings, d.predictions, bootstrap=0)
    assert res.plan is not None and res.plan.multiclass_pilot is None
    assert res.plan.pilot_skipped is not None
    sec = _section(res)
    said = " ".join(sec.paragraphs)
    assert "the K-class latent-class estimate of the confusion matrices" in said
    assert "here 0 items have 3 or more (2 labels: 300 items)" in said
    assert len(sec.tables) == 1  # the comparison at q̂ only


def test_report_from_a_saved_k_class_result_is_the_same_page(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    files = _data(300, labels=3, seed=3).write(tmp_path / "k3.csv")
    saved = tmp_path / "results.json"
    first = cli(
        "report", files["ratings"], "--predictions", files["predictions"], "--bootstrap", "100",
        "-o", tmp_path / "a.html", "--save-results", saved,
    )  # fmt: skip
    assert first.exit_code == 0, first.stderr
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["plan"]["multiclass_pilot"]["classes"] == [0, 1, 2]
    again = cli("report", "--from", saved, "-o", tmp_path / "b.html")
    assert again.exit_code == 0, again.stderr
    assert (tmp_path / "a.html").read_bytes() == (tmp_path / "b.html").read_bytes()
    assert "K-class error model estimated from this data" in (tmp_path / "a.html").read_text(
        encoding="utf-8"
    )


# ------------------------------------------------------------------------------ ChaosNLI (real)
def _chaosnli(shared_data: Path) -> tuple[Ratings, Predictions]:
    """ChaosNLI-SNLI (1,514 items × 100 labels over e, n, c) and two models' predictions, from the
    release's files (``chaosNLI_snli.jsonl``, ``model_predictions_for_snli_mnli.json``)."""
    found = sorted(shared_data.glob("**/chaosNLI_snli.jsonl"))
    preds = sorted(shared_data.glob("**/model_predictions_for_snli_mnli.json"))
    if not found or not preds:
        pytest.skip(f"ChaosNLI-SNLI and its model predictions are not under {shared_data}")
    rows = [json.loads(line) for line in found[0].read_text(encoding="utf-8").splitlines() if line]
    classes = ["e", "n", "c"]
    counts = np.array([[r["label_counter"].get(c, 0) for c in classes] for r in rows])
    ratings = Ratings.from_counts(counts, classes=classes, items=[r["uid"] for r in rows])
    models = json.loads(preds[0].read_text(encoding="utf-8"))
    short = {"entailment": "e", "neutral": "n", "contradiction": "c"}
    chosen = {
        name: [short[models[name][uid]["predicted_label"]] for uid in ratings.items]
        for name in ("roberta-large", "bert-base")
    }
    return ratings, Predictions.from_arrays(ratings.items, chosen, classes=classes)


def test_chaosnli_runs_end_to_end(shared_data: Path) -> None:
    ratings, predictions = _chaosnli(shared_data)
    assert ratings.n_items == 1514 and ratings.n_classes == 3
    res = plan(ratings, predictions, bootstrap=100, seed=0)
    mp = res.multiclass_pilot
    assert mp is not None and mp.converged and mp.verdict in VERDICTS
    assert mp.better == "roberta-large" and mp.n_used == 1514 and mp.n_few_labels == 0
    b, w = mp.estimates.accuracies()
    assert 0.6 < w < b < 1
    assert multiclass_verdicts(mp)[0].sentence
