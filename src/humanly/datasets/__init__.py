"""Small real datasets bundled with humanly (see ``README.md`` beside this file for provenance).

Only data whose licence allows redistribution is bundled; the larger research datasets used in the tests
live outside the package.
"""

from __future__ import annotations

from importlib.resources import as_file, files
from pathlib import Path
from typing import Any

from ..data import Counts, Predictions, Ratings, read_predictions, read_ratings

__all__ = ["WIKI_ATTACK_OPTIONS", "wiki_attack", "wiki_attack_path"]

#: How to read the wiki attack counts file: the keywords of :func:`humanly.data.read_ratings` and
#: :func:`humanly.read_study` (on the command line ``--item-col rev_id --counts
#: attack=n_labelled_attack --total n_labels --rest-class none``).
WIKI_ATTACK_OPTIONS: dict[str, Any] = {
    "item_col": "rev_id",
    "counts": Counts("attack=n_labelled_attack", total="n_labels", rest_class="none"),
}


def wiki_attack_path() -> Path:
    """The path of the bundled ``wiki_attack_sample.csv`` (2,000 items, MIT licence).

    Returns
    -------
    pathlib.Path
        The file, read with :data:`WIKI_ATTACK_OPTIONS`.

    Examples
    --------
    >>> import humanly
    >>> humanly.data.read_ratings(wiki_attack_path(), **WIKI_ATTACK_OPTIONS).n_items
    2000
    """
    resource = files(__package__).joinpath("wiki_attack_sample.csv")
    with as_file(resource) as path:
        return Path(path)


def wiki_attack() -> tuple[Ratings, Predictions]:
    """The bundled Wikipedia personal-attack sample, read.

    Returns
    -------
    ratings : Ratings
        Anonymous counts of "none" and "attack" for 2,000 comments.
    predictions : Predictions
        The classifier's probability of "attack" (model ``predictor_prob``).

    Examples
    --------
    >>> ratings, predictions = wiki_attack()
    >>> ratings.classes, predictions.names
    (('none', 'attack'), ('predictor_prob',))
    """
    path = wiki_attack_path()
    ratings = read_ratings(path, name="wiki_attack_sample.csv", **WIKI_ATTACK_OPTIONS)
    predictions = read_predictions(
        path, classes=ratings.classes, item_col="rev_id", prob_col="predictor_prob"
    )
    return ratings, predictions
