"""The label-budget verdicts (one quotable sentence per study) and the report section: the latent-class
plan in words, a note (never an error or a NaN) when the data cannot give a plan or an analysis."""

from __future__ import annotations

import dataclasses
import re

import numpy as np
import pytest

from humanly import Ratings
from humanly.budget import CorrelatedErrors, IndependentErrors, compare, pilot_plan, plan
from humanly.report.sections.plan import METHODS_TEXT
from humanly.simulate import pair
from humanly.verdicts.pilot import assumption_sentence
from humanly.verdicts.plan import probability, scheme, verdicts
from study_sections import section as study_section


@pytest.fixture(scope="module")
def five() -> object:
    return pair(2000, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)


def _text(section) -> str:
    parts = [section.note or "", *section.paragraphs]
    for t in section.tables:
        parts += [t.caption, *t.headers, *(str(c) for r in t.rows for c in r)]
    parts += [f.caption for f in section.figures] + [v.sentence for v in section.verdicts]
    return "\n".join(parts)


@pytest.mark.parametrize(
    ("p", "shown"),
    [(0.5, "0.500"), (0.98765, "0.988"), (0.99973, "0.9997"), (0.9961, "0.996"),
     (0.9999994, "0.999999"), (0.9999996, "> 0.999999"), (1.0, "> 0.999999"), (float("nan"), "—")],
)  # fmt: skip
def test_probability_shows_the_digits_that_matter(p: float, shown: str) -> None:
    assert probability(p) == shown


def test_scheme_words() -> None:
    assert [scheme(m) for m in (1, 3)] == ["single labels", "3-label majorities"]


def test_comparison_verdict_leads_with_the_best_m() -> None:
    # q_b < q_w: several labels can win (the paper's exception to assumption 1)
    model = CorrelatedErrors(0.6, 0.9, 0.6, 0.7, 0.9, check=False)
    res = compare(model, 1000, (1, 3))
    (v,) = verdicts(res)
    assert res.best_labels_per_item == 3 and v.sentence.startswith(
        "With 1,000 labels, 3-label majorities identify"
    )
    assert v.sentence.endswith("with probability 0.781 (exact); single labels reach 0.658.")
    assert v.model is None and v.methods == "methods-plan" and v.topic == "plan"
    assert v.status == "3-majority best"


def test_plan_verdict_names_the_estimate_and_the_tests(five) -> None:
    res = pilot_plan(five.ratings, five.predictions, bootstrap=100, seed=0)
    (v,) = verdicts(res)
    assert v.sentence.startswith(f"Label {res.recommended_budget:,} items once (m = 1, ")
    assert "under the latent-class estimates from the 2,000-item pilot" in v.sentence
    assert "the pilot is consistent with assumptions 1 and 2 (m = 3, 5)" in v.sentence
    proxy = pilot_plan(five.ratings, five.predictions, bootstrap=100, seed=0, estimator="majority")
    assert "crowd-majority estimates (biased towards agreement" in verdicts(proxy)[0].sentence


def test_plan_verdict_reports_evidence_against(five) -> None:
    res = pilot_plan(five.ratings, five.predictions, bootstrap=100, seed=0)
    tests = list(res.assumptions.tests)
    tests[1] = dataclasses.replace(tests[1], verdict="evidence_against")
    changed = dataclasses.replace(
        res, assumptions=dataclasses.replace(res.assumptions, tests=tuple(tests))
    )
    sentence = verdicts(changed)[0].sentence
    assert "assumption 1 consistent with the pilot" in sentence
    assert "assumption 2 contradicted by the pilot (evidence against at 95%) for m = 3" in sentence
    assert "assumption 2 consistent with the pilot for m = 5" in sentence


def test_plan_without_a_recommendation(five) -> None:
    res = pilot_plan(five.ratings, five.predictions, bootstrap=0, seed=0)
    none = dataclasses.replace(res, recommended_labels_per_item=None, recommended_budget=None)
    v = verdicts(none)[0]
    assert v.sentence.startswith("No number of labels per item ranks") and v.status
    assert "first with probability ≥ 0.95" in v.sentence


def test_the_verdicts_module_is_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys; import humanly.verdicts.plan\n"
        "print(sorted(m for m in ('pandas', 'matplotlib', 'jinja2') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr


# --------------------------------------------------------------------------- report section
def test_methods_describe_the_latent_class_estimate() -> None:
    """Two paragraphs: two classes (``methods-plan``) and more (``methods-plan-2``)."""
    two, more = METHODS_TEXT
    for words in ("latent-class", "EM", "unobserved true label", "BIC", "95%", "3 labels"):
        assert words in two, words
    assert "plug-in against the crowd majority" not in two
    for words in ("latent-class", "EM", "plurality", "Wald", "confusion matrix", "3 labels"):
        assert words in more, words


def test_section_lays_out_the_latent_plan(five) -> None:
    section, a = study_section("plan", five.ratings, five.predictions, bootstrap=100)
    text = _text(section)
    assert a.pilot is not None and a.pilot.estimator == "latent"
    assert "latent-class estimate (EM over the true label)" in text
    assert "BIC chose the latent variant 'simple'" in text and "EM converged in" in text
    for t in a.pilot.assumptions.tests:
        assert assumption_sentence(t) in text
    assert "holds" not in text and "fails" not in text and "nan" not in text.lower()
    assert [v.methods for v in section.verdicts] == ["methods-plan"] * 2
    assert all(v.model is None for v in section.verdicts)
    assert section.verdicts == verdicts(a)
    assert len(section.figures) == 2 and "latent-class" in section.figures[1].caption


def test_section_with_two_labels_explains_why_there_is_no_plan() -> None:
    d = pair(300, 2, p=0.7, eps=0.1, q=0.75, seed=1)
    section, a = study_section("plan", d.ratings, d.predictions, bootstrap=100)
    text = _text(section)
    assert a is not None and a.pilot is None and section.note is None
    assert "No pilot plan" in text and "here 0 items have 3 or more (2 labels: 300 items)" in text
    assert 'estimator="' not in text  # Python spelling is not for report readers
    assert len(section.verdicts) == 1


def test_one_label_per_item_is_a_note_not_an_error() -> None:
    d = pair(300, 1, p=0.7, eps=0.1, q=0.75, seed=1)
    section, a = study_section("plan", d.ratings, d.predictions)
    assert a is None and section.note and "one label" in section.note
    assert "nan" not in section.note.lower()


def test_agreement_zero_and_a_few_double_labels_give_finite_numbers() -> None:
    counts = np.tile([[1, 0], [0, 1]], (100, 1))
    counts[:3] = [1, 1]  # three items with two disagreeing labels: agreement 0, q̂ = ½
    r = Ratings.from_counts(counts, classes=[0, 1])
    section, a = study_section("plan", r, None)
    assert a is not None and a.label_accuracy == 0.5
    text = _text(section)
    assert "nan" not in text.lower() and not re.search(r"\binf\b", text)


def test_section_notes_when_plan_refuses(monkeypatch: pytest.MonkeyPatch) -> None:
    from humanly import study
    from humanly.data import InputError

    def refuse(*args: object, **kwargs: object) -> None:
        raise InputError("q=nan: give a finite number")

    monkeypatch.setattr(study, "budget_plan", refuse)
    d = pair(100, 3, p=0.7, eps=0.1, q=0.75, seed=1)
    section, a = study_section("plan", d.ratings, d.predictions)
    assert a is None and section.note == "Not applicable: q=nan: give a finite number."


def test_plan_verdict_quotes_the_table(five) -> None:
    a = plan(five.ratings, five.predictions, bootstrap=0)
    first = verdicts(a)[0].sentence
    assert first.startswith(f"With {a.budget:,} labels and the crowd's label accuracy of 0.")
    assert f"{a.label_accuracy:.3f}" in first and probability(a.comparison.win[0]) in first
    assert verdicts(IndependentErrors(0.8, 0.01, 0.8)) == ()
    assert [v.status for v in verdicts(a)] == ["single labels best", "single labels"]
    assert verdicts(a)[1] == verdicts(a.pilot)[0]  # the pilot plan's own sentence


def test_the_labels_per_item_note_counts_in_words() -> None:
    from humanly.data import InputError

    d = pair(300, 2, p=0.7, eps=0.1, q=0.75, seed=1)
    counts = np.asarray(d.ratings.counts).copy()
    counts[0] = [1, 0]  # one item with one label
    r = Ratings.from_counts(counts, classes=d.ratings.classes, items=d.ratings.items)
    with pytest.raises(InputError, match=r"1 label: 1 item, 2 labels: 299 items\)"):
        pilot_plan(r, d.predictions, bootstrap=0)
