"""``humanly demo``: run humanly on the small real dataset bundled with the package."""

from __future__ import annotations

from ..datasets import wiki_attack
from ..summary import summarize
from . import _common as c
from .inspect_cmd import render_summary


def demo(json: c.Json = False) -> None:
    """Summarise the bundled Wikipedia personal-attack sample (2,000 comments, MIT licence)."""
    ratings, predictions = wiki_attack()
    summary = summarize(ratings)
    if json:
        c.print_json({"dataset": "wiki_attack_sample", "inspect": summary.to_dict()})
        return
    c.stdout.print(render_summary(summary))
    c.stdout.print(
        f"Model outputs bundled for later analyses: {', '.join(predictions.names)} "
        f"({predictions.n_items:,} items). Data: Wulczyn et al. 2017 via the Survey Equivalence code (MIT)."
    )
