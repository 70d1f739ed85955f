"""Target panels on the page (issue 33 item 1): ``humanly report --targets 1,3,inf`` and
``AnalyzeOptions(targets=...)`` compute each equivalence analysis against every target, and the
Survey equivalence section draws one curve per target with each model's sentence against every
target (the verdicts floor's words); ``--from`` draws the same bytes; bad input is one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import humanly
from humanly.report import build_report
from humanly.simulate import running_example
from humanly.study import AnalyzeOptions
from humanly.verdicts.targets import targets_sentence


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    d = running_example(300, 6, seed=2)
    return d.write(tmp_path_factory.mktemp("targets") / "re.csv")


def test_analyze_with_targets_and_the_section(files: dict[str, Path]) -> None:
    study = humanly.data.read_study(files["ratings"], files["predictions"])
    res = humanly.analyze(
        study, bootstrap=0, options=AnalyzeOptions(targets=(1, 3), progress=False)
    )
    plain = humanly.analyze(study, bootstrap=0, options=AnalyzeOptions(progress=False))
    for run, base in zip(res.equivalence, plain.equivalence, strict=True):
        assert run.result is not None and base.result is not None
        assert [e.target for e in run.result.targets] == [1, 3]
        # t = 1 is the paper's analysis: the same curve as without targets
        assert [p.score for p in run.result.targets[0].power_curve] == [
            p.score for p in base.result.power_curve
        ]
    section = next(s for s in build_report(res).sections if s.id == "equivalence")
    plain_section = next(s for s in build_report(plain).sections if s.id == "equivalence")
    assert len(section.figures) == len(plain_section.figures) + len(res.equivalence)
    for run in res.equivalence:
        for model in run.shown:
            said = targets_sentence(run.result, model)
            assert said is not None and said in section.paragraphs
    # the round trip keeps the targets
    back = humanly.StudyResult.from_dict(json.loads(res.to_json()))
    assert back.to_dict() == res.to_dict()


def test_report_cli_targets_and_from(
    cli, files: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    out, saved = tmp_path / "r.html", tmp_path / "r.json"
    common = [files["ratings"], "--predictions", files["predictions"], "--bootstrap", 0]
    r = cli("report", *common, "--targets", "1,3", "-o", out, "--save-results", saved)
    assert r.exit_code == 0, r.stderr
    page = out.read_text()
    assert "against each target panel" in page
    again = tmp_path / "again.html"
    assert cli("report", "--from", saved, "-o", again).exit_code == 0
    assert again.read_text() == page  # the same bytes from the saved results


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (["--targets", "1,x"], "--targets 1,x: give whole numbers"),
        (["--targets", "0"], "--targets 0:"),
    ],
)
def test_bad_targets_are_one_sentence(cli, files, tmp_path: Path, extra, words) -> None:
    out = tmp_path / "bad.html"
    r = cli("report", files["ratings"], "--predictions", files["predictions"], *extra, "-o", out)
    assert r.exit_code == 2 and words in r.stderr and not out.exists()
    assert len(r.stderr.strip().splitlines()) == 1


def test_targets_with_from_are_refused(cli, tmp_path: Path) -> None:
    r = cli("report", "--from", tmp_path / "x.json", "--targets", "1,3", "-o", tmp_path / "o.html")
    assert r.exit_code == 2 and "drop it with --from" in r.stderr


def test_analyze_refuses_bad_targets_by_name(files: dict[str, Path]) -> None:
    with pytest.raises(humanly.InputError, match=r"^options\.targets="):
        humanly.analyze(files["ratings"], options=AnalyzeOptions(targets=(0,)))
