"""The small public API (issue 23): ``import humanly`` holds at most 40 documented names — the loader,
the data types, one verb per analysis, the result types, the options objects and ``InputError`` — and
no top-level function takes more than 12 keyword parameters."""

from __future__ import annotations

import inspect

import humanly

VERBS = ("inspect", "agreement", "certify", "equivalence", "plan", "judge", "rank", "analyze")


def test_at_most_forty_public_names_each_documented() -> None:
    names = [n for n in humanly.__all__ if n != "__version__"]
    assert len(humanly.__all__) <= 40
    undocumented = [n for n in names if not (getattr(humanly, n).__doc__ or "").strip()]
    assert not undocumented, undocumented
    assert sorted(set(dir(humanly)) & set(humanly.__all__)) == sorted(humanly.__all__)


def test_one_callable_verb_per_analysis() -> None:
    for name in VERBS:
        assert callable(getattr(humanly, name)), name
    for name in ("read_study", "StudyResult", "InputError", "Ratings", "Predictions", "Gold"):
        assert name in humanly.__all__


def test_no_top_level_function_takes_more_than_twelve_keyword_parameters() -> None:
    for name in humanly.__all__:
        value = getattr(humanly, name)
        if not inspect.isfunction(value):
            continue
        params = inspect.signature(value).parameters.values()
        keywords = [p for p in params if p.kind == p.KEYWORD_ONLY]
        assert len(keywords) <= 12, (name, [p.name for p in keywords])


def test_every_verb_reads_ratings_predictions_gold_in_that_order() -> None:
    for name in ("inspect", "certify", "analyze", "judge"):
        first = list(inspect.signature(getattr(humanly, name)).parameters)[:3]
        assert first == ["ratings", "predictions", "gold"], (name, first)
    for name in ("equivalence", "plan"):  # they read no gold
        first = list(inspect.signature(getattr(humanly, name)).parameters)[:2]
        assert first == ["ratings", "predictions"], (name, first)
