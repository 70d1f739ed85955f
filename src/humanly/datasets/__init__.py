"""Small real datasets bundled with humanly (see ``README.md`` beside this file for provenance).

Only data whose licence allows redistribution is bundled; the larger research datasets used in the tests
live outside the package.
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from ..data import Predictions, Ratings, read_predictions, read_ratings

__all__ = ["WIKI_ATTACK_OPTIONS", "wiki_attack", "wiki_attack_path"]

#: How to read the wiki attack counts file (also the command-line options shown by ``humanly demo``).
WIKI_ATTACK_OPTIONS: dict[str, Any] = {
    "item_col": "rev_id",
    "counts": "attack=n_labelled_attack",
    "total_col": "n_labels",
    "rest_class": "none",
}


def wiki_attack_path() -> Path:
    """Path of the bundled ``wiki_attack_sample.csv`` (2,000 items, MIT licence)."""
    resource = files(__package__).joinpath("wiki_attack_sample.csv")
    with as_file(resource) as path:
        return Path(path)


def wiki_attack() -> tuple[Ratings, Predictions]:
    """The bundled Wikipedia personal-attack sample: anonymous counts of "attack" / "none" per comment
    and the classifier probability ``predictor_prob`` of "attack"."""
    path = wiki_attack_path()
    ratings = read_ratings(path, name="wiki_attack_sample.csv", **WIKI_ATTACK_OPTIONS)
    predictions = read_predictions(
        path, classes=ratings.classes, item_col="rev_id", prob_col="predictor_prob"
    )
    return ratings, predictions
