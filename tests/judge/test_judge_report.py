"""The judge section of the report: drawn from ``StudyResult.judge`` alone, so ``humanly report
--from results.json`` draws the same bytes; the verdict cards carry the judge's sentences; no section
without a judge, the reason as a note when the judge analysis could not run."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
from test_judge_study import _study

import humanly
from humanly import Ratings, StudyResult
from humanly.report import build_report


@pytest.fixture(scope="module")
def result() -> StudyResult:
    return humanly.analyze(_study(), bootstrap=0)


def test_the_section_shows_the_estimates_and_the_cards_their_sentences(result, monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    page = build_report(result)
    (section,) = [s for s in page.sections if s.id == "judge"]
    assert section.note is None and len(section.tables) == 2 and len(section.figures) == 1
    assert [row[0] for row in section.tables[0].rows] == ["accuracy of a", "accuracy of b",
                                                          "a − b (points)"]  # fmt: skip
    cards = {c.model: [ln.verdict for ln in c.lines] for c in page.cards()}
    judge_lines = [v for v in cards["a"] if v.topic == "judge"]
    assert judge_lines[0].sentence.startswith("a's accuracy is ")
    study_card = [v.sentence for v in cards[None] if v.topic == "judge"]
    assert study_card and study_card[0].startswith("a is more accurate than b by ")
    html = page.html()
    assert 'id="judge"' in html and 'id="methods-judge"' in html


def test_report_from_saved_results_is_byte_identical(
    result, cli, tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    saved = tmp_path / "results.json"
    saved.write_text(json.dumps(result.to_dict()), encoding="utf-8")
    res = cli("report", "--from", saved, "-o", tmp_path / "again.html")
    assert res.exit_code == 0, res.stderr
    direct = build_report(result).html()
    assert (tmp_path / "again.html").read_text(encoding="utf-8") == direct
    loaded = StudyResult.from_dict(json.loads(saved.read_text(encoding="utf-8")))
    assert build_report(loaded).html() == direct


def test_no_judge_no_section_and_a_failed_judge_says_why(monkeypatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    plain = humanly.analyze(dataclasses.replace(_study(), judge=None), bootstrap=0)
    assert "judge" not in [s.id for s in build_report(plain).sections]
    study = _study()
    full = Ratings.from_counts(
        np.tile([1, 0], (2000, 1)), items=study.ratings.items, classes=[0, 1]
    )
    failed = humanly.analyze(dataclasses.replace(study, ratings=full), bootstrap=0)
    (section,) = [s for s in build_report(failed).sections if s.id == "judge"]
    assert section.note.startswith("Judge: every item has a human label")


def test_the_demo_judge_example_covers_the_answer_from_all_labels() -> None:
    from humanly.demo import judge_example

    res, answer = judge_example(0)
    assert (res.n_labelled, res.n_unlabelled) == (200, 1800)
    assert res.judge == "one rater (simulated)" and res.models[1].model == "noisy (simulated)"
    # 200 labels: fewer than the 500 PPI's interval of one accuracy needs (docs/judge.md), so each
    # accuracy's default interval is the human labels' small-sample one ...
    for m in res.models:
        a = m.accuracy
        assert a.interval.low <= answer[m.model] <= a.interval.high
        assert (a.interval_method, a.small_n, a.lam) == ("adjusted", 500, 0.0)
    assert "small_sample" in res.codes
    # ... and the difference's is PPI++'s (200 is enough for a difference): the judge narrows it
    d = res.comparisons[0].difference
    first, second = res.comparisons[0].first, res.comparisons[0].second
    assert (d.interval_method, d.small_n) == ("clt", 200)
    assert d.interval.low <= answer[first] - answer[second] <= d.interval.high
    assert d.interval.width < d.classical_interval.width
