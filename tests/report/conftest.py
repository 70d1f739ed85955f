"""Fixtures for the report tests: a small simulated dataset whose model has a hostile name."""

from __future__ import annotations

from pathlib import Path

import pytest

from humanly.simulate import running_example

XSS = "<script>alert(1)</script>"


@pytest.fixture(scope="session")
def xss_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Ratings, gold and predictions files (200 items × 6 labels) with a model named like a script."""
    folder = tmp_path_factory.mktemp("xss")
    data = running_example(200, 6, seed=3)
    tables = data.tables()
    preds = tables["predictions"]
    preds["model"] = preds["model"].replace({"soft": XSS})
    paths = {
        "ratings": folder / "ratings.csv",
        "gold": folder / "gold.csv",
        "predictions": folder / "predictions.csv",
    }
    tables["ratings"].to_csv(paths["ratings"], index=False)
    tables["gold"].to_csv(paths["gold"], index=False)
    preds.to_csv(paths["predictions"], index=False)
    return paths
