"""The report page itself: verdict cards first (with and without verdicts), Methods anchors, the
terminal headline, "—" instead of nan, the date, and what every section builder receives."""

from __future__ import annotations

import dataclasses
import json
import math
import re
from html import unescape

import numpy as np
import pytest
from report_pages import (
    HANDMADE,
    hand_made_report,
    simulated_report,
    visible_text,
    with_verdicts,
)

from humanly.data import InputError
from humanly.report import Report, Section, Table
from humanly.report import build as build_mod
from humanly.report.build import build_report, report_date
from humanly.report.cards import STUDY_TITLE, build_cards
from humanly.simulate import running_example
from humanly.verdicts import Verdict
from humanly.verdicts.text import DASH_NOTE, cell_text, clean_text


@pytest.fixture(scope="module")
def plain() -> Report:
    return simulated_report()


@pytest.fixture(scope="module")
def carded(plain: Report) -> Report:
    return with_verdicts(plain)


def _ids(html: str) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', html))


def test_cards_open_the_page_and_link_to_methods(carded: Report) -> None:
    html = carded.html()
    body = html.split("<main>", 1)[1]
    assert body.lstrip().startswith('<section id="verdicts"')
    cards = carded.cards()
    assert [c.title for c in cards] == ["hard", "soft", STUDY_TITLE]
    ids = _ids(html)
    for card in cards:
        assert card.id in ids
        for line in card.lines:
            assert line.text in unescape(html)
            assert line.href.startswith("#methods") and line.href[1:] in ids, line.href
    # one Methods paragraph per analysis, each with its anchor
    for key in ("inspect", "certify", "equivalence", "plan"):
        assert f'<p id="methods-{key}">' in html
    # nav starts with the cards
    assert html.index('href="#verdicts"') < html.index('href="#inspect"')


def test_study_verdicts_have_one_card_and_unknown_methods_fall_back_to_the_topic() -> None:
    vs = [v for group in HANDMADE.values() for v in group]
    cards = build_cards(vs, ["soft", "hard"], {"certify", "equivalence", "plan"})
    assert [c.model for c in cards] == ["soft", "hard", None]  # models in the predictions' order
    study = cards[-1]
    assert [ln.href for ln in study.lines] == ["#methods-plan"]  # "no-such-paragraph"
    soft = cards[0]
    assert [ln.href for ln in soft.lines] == ["#methods-certify", "#methods-equivalence"]
    assert soft.lines[0].text.endswith("S = —.")  # nan never reaches a card
    assert build_cards([], ["m"], {"certify"}) == ()


def test_page_without_verdicts_has_no_cards(plain: Report) -> None:
    import dataclasses

    plain = dataclasses.replace(
        plain, sections=tuple(dataclasses.replace(s, verdicts=()) for s in plain.sections)
    )
    html = plain.html()
    assert 'id="verdicts"' not in html and 'href="#verdicts"' not in html
    assert plain.to_dict()["verdicts"] == []
    lines = plain.headline()  # without verdicts, each section's one-line summary
    assert lines[0] == "Data" and lines[1].startswith("data:")
    assert any(ln.startswith("certify:") for ln in lines)


def test_headline_prints_the_sections_sentences_section_by_section(carded: Report) -> None:
    lines = carded.headline()
    sentences = [ln.text for c in carded.cards() for ln in c.lines]
    assert sorted(s for s in lines if s in sentences) == sorted(sentences)  # each card line once
    blocks = "\n".join(lines).split("\n\n")
    shown = [s for s in carded.sections if s.id != "methods"]
    assert [b.splitlines()[0] for b in blocks] == [s.title for s in shown]  # in page order
    for block, section in zip(blocks, shown, strict=True):
        said = [ln.text for c in carded.cards() for ln in c.lines if ln.verdict in section.verdicts]
        assert sorted(block.splitlines()[1:]) == sorted(said) or not section.verdicts
    assert not any(re.search(r"\bnan\b", ln) for ln in lines)
    embedded = carded.to_dict()
    assert [v["sentence"] for v in embedded["verdicts"]] == sentences  # as the cards show them
    assert set(embedded["verdicts"][0]) == {"topic", "sentence", "model", "status", "methods"}


def test_hostile_model_name_on_a_card_is_text() -> None:
    xss = "<script>alert(1)</script>"
    v = Verdict("certify", f"{xss} is not certified.", xss, "not certified", "certify")
    report = hand_made_report(
        (
            Section("certify", "Certify", verdicts=(v,)),
            Section("methods", "Methods", ("m",), paragraph_ids=("methods-certify",)),
        ),
        models=(xss,),
    )
    html = report.html()
    assert xss not in html.split('id="humanly-results"')[0]
    assert "&lt;script&gt;alert(1)&lt;/script&gt; is not certified." in html


def test_cells_nan_none_and_inf_become_a_dash_with_a_footnote() -> None:
    assert [cell_text(x) for x in (None, math.nan, math.inf, -np.inf, np.float64("nan"))] == [
        "—"
    ] * 5
    assert cell_text(np.int64(3)) == "3" and cell_text(np.bool_(False)) == "no"
    assert clean_text("range [nan, -inf]; inference holds, infinite.") == (
        "range [—, —]; inference holds, infinite."
    )
    assert clean_text("nan", protected={"nan"}) == "nan"
    table = Table("t", ("model", "S", "range"), (("m", math.nan, "[nan, 0.9]"), ("n", 0.5, "ok")))
    report = hand_made_report(
        (Section("certify", "Certify", ("S = nan for m.",), tables=(table,)),), models=("m", "n")
    )
    html = report.html()
    assert not re.search(r"\bnan\b", visible_text(html), re.I)
    assert "<td>—</td>" in html and "<td>[—, 0.9]</td>" in html
    assert html.count(DASH_NOTE.replace("'", "&#39;")) == 2  # under the table and the section
    note = Table("t", ("a",), ((None,),), note="— : no model here.")
    report = dataclasses.replace(report, sections=(Section("x", "X", tables=(note,)),))
    assert "— : no model here." in report.html()


def test_date_comes_from_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert report_date() == "2023-11-14T22:13:20+00:00"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputError, match="SOURCE_DATE_EPOCH='yesterday'"):
        report_date()
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", report_date())


def test_builders_get_the_study_and_one_colour_per_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from humanly.study import analyze

    seen: list[tuple] = []

    def spy(study, view):
        seen.append((study, view))
        return Section("spy", "Spy")

    sim = running_example(30, 4, seed=1)
    study = analyze(sim.ratings, sim.predictions, bootstrap=0)
    monkeypatch.setattr(build_mod, "BUILDERS", {"spy": spy, "spy2": spy})
    build_report(study)
    (s1, a), (s2, b) = seen
    assert s1 is s2 is study and a == b and set(a.colors) == {"hard", "soft"}
    assert a.models == ("hard", "soft") and dict(a.kinds) == {"hard": "label", "soft": "proba"}
    seen.clear()
    build_report(analyze(sim.ratings, bootstrap=0))
    assert seen[0][1].colors == {} and seen[0][1].models == ()
    with pytest.raises(TypeError, match="StudyResult"):
        build_report(sim.ratings)  # type: ignore[arg-type]


def test_analyze_reads_the_true_states_by_item_id() -> None:
    from humanly.study import AnalyzeOptions, analyze

    sim = running_example(30, 4, seed=1)
    states = np.asarray(sim.truth["states"])
    res = analyze(sim.ratings, sim.predictions, bootstrap=0, options=AnalyzeOptions(states=states))
    assert all(run.truth is not None for run in res.equivalence)
    with pytest.raises(InputError, match=r"states: an array .* ratings. 30 items .* has 3 entries"):
        analyze(sim.ratings, None, bootstrap=0, options=AnalyzeOptions(states=states[:3]))


def test_embedded_json_has_no_nan_and_every_key(carded: Report) -> None:
    html = carded.html()
    block = re.search(r'id="humanly-results">(.*?)</script>', html, re.S)
    assert block is not None
    text = block.group(1)
    assert "NaN" not in text and "Infinity" not in text
    data = json.loads(text)
    assert set(data) == {"study", "verdicts", "date"}
    assert {"inspect", "certify", "equivalence", "plan", "provenance"} <= set(data["study"])


def test_methods_text_may_be_one_paragraph_several_or_a_mapping(monkeypatch) -> None:
    from humanly.report import methods
    from humanly.report.sections import certify
    from humanly.report.sections import inspect as data
    from humanly.report.sections import plan as budget

    monkeypatch.setattr(certify, "METHODS_TEXT", ("One.", "Two."), raising=False)
    monkeypatch.setattr(budget, "METHODS_TEXT", {"plan": "B.", "plan-pilot": "P."})
    paragraphs = methods.methods_paragraphs()
    assert paragraphs["certify"] == "One." and paragraphs["certify-2"] == "Two."
    assert paragraphs["plan-pilot"] == "P." and paragraphs["inspect"] == data.METHODS_TEXT
    assert next(iter(paragraphs)) == "inspect"


def test_bidirectional_controls_in_names_are_neutralised() -> None:
    """A right-to-left override in a model's name (or the title) cannot reorder how the page reads:
    the page, its cards and its tables hold no bidirectional control character (issue 26)."""
    rlo = "\u202e"
    name = f"model{rlo}gnp.exe"
    v = Verdict("certify", f"{name} is not certified.", name, "not certified", "certify")
    report = hand_made_report(
        (
            Section("certify", "Certify", (f"About {name}.",), verdicts=(v,)),
            Section("methods", "Methods", ("m",), paragraph_ids=("methods-certify",)),
        ),
        models=(name,),
        title=f"humanly report · {name}",
    )
    visible = visible_text(report.html())
    for control in ("\u202a", "\u202b", "\u202c", "\u202d", rlo, "\u2066", "\u2067", "\u2068",
                    "\u2069", "\u200e", "\u200f", "\u061c"):  # fmt: skip
        assert control not in visible
    assert "modelgnp.exe is not certified." in visible and "<h3" in visible
    assert report.title == "humanly report · modelgnp.exe"
