"""The verdict cards that open the report: one card per model, one for the study.

Each card holds the sections' :class:`~humanly.verdicts.Verdict` sentences about one model, in
page order (certify, equivalence, plan), each linked to the Methods paragraph it rests on. Verdicts about
the whole study (``model=None``: the labelling advice, the crowd's agreement) go on one card of their
own, after the models' cards, rather than on every card: they do not differ between models, a reader
comparing cards should see only what differs, and a sentence a reviewer quotes should appear once.

>>> from humanly.verdicts import Verdict
>>> vs = [Verdict("certify", "m is certified superhuman.", "m", "certified", "certify"),
...       Verdict("plan", "Spend the budget on single labels.", None, "single labels")]
>>> [(c.title, [line.href for line in c.lines]) for c in build_cards(vs, ["m"], {"certify", "plan"})]
[('m', ['#methods-certify']), ('This dataset (every model)', ['#methods-plan'])]
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Collection, Iterable, Sequence

from ..verdicts import Verdict
from ..verdicts.text import clean_text, neutral

__all__ = ["STUDY_TITLE", "TOPIC_LABELS", "Card", "CardLine", "build_cards", "status_tone"]

#: Title of the card that holds the verdicts about the whole study.
STUDY_TITLE = "This dataset (every model)"

#: The question each analysis answers, shown before its sentence on a card.
TOPIC_LABELS = {
    "certify": "Superhuman?",
    "equivalence": "Worth in raters",
    "plan": "Labelling advice",
    "inspect": "The crowd",
    "judge": "With the judge",
    "rank": "Ranking",
}

_POSITIVE = ("certified", "superhuman", "consistent")
_NEGATIVE = ("not ", "no ", "no-", "below", "evidence against", "fails", "not-")


@dataclasses.dataclass(frozen=True)
class CardLine:
    """One sentence on a card: the verdict, its text as shown and the link to its Methods paragraph."""

    verdict: Verdict
    text: str
    href: str
    label: str
    tone: str


@dataclasses.dataclass(frozen=True)
class Card:
    """One card of the page: a model's verdicts, or the study's.

    Parameters
    ----------
    id : str
        Its anchor (``verdict-1``, …, ``verdict-study``).
    title : str
        The model's name, or "This dataset (every model)".
    model : str or None
        The model (``None``: the card of the whole study).
    lines : tuple of CardLine
        Its sentences, in page order, each with its Methods link.

    Examples
    --------
    >>> from humanly.verdicts import Verdict
    >>> (card,) = build_cards([Verdict("certify", "m is certified.", "m", "certified")], ["m"], {"certify"})
    >>> card.title, card.lines[0].href
    ('m', '#methods-certify')
    """

    id: str
    title: str
    model: str | None
    lines: tuple[CardLine, ...]


def status_tone(status: str) -> str:
    """``"positive"``, ``"negative"`` or ``"neutral"``: how the card colours a status (never the
    only signal: the status is also written out).

    >>> status_tone("certified"), status_tone("not certified"), status_tone("no evidence")
    ('positive', 'negative', 'negative')
    """
    s = status.strip().lower()
    if not s:
        return "neutral"
    if s.startswith(_NEGATIVE) or s in ("no", "none"):
        return "negative"
    if s.startswith(_POSITIVE):
        return "positive"
    return "neutral"


def methods_href(verdict: Verdict, keys: Collection[str]) -> str:
    """The anchor of the Methods paragraph ``verdict`` rests on (see :class:`Verdict`)."""
    key = re.sub(r"^methods-", "", verdict.methods or "")
    for candidate in (key, verdict.topic):
        if candidate and candidate in keys:
            return f"#methods-{candidate}"
    return "#methods"


def build_cards(
    verdicts: Iterable[Verdict], models: Sequence[str], methods_keys: Collection[str]
) -> tuple[Card, ...]:
    """Group ``verdicts`` into cards: one per model (in the order of ``models``, then any other model
    in order of first appearance), then the study card. No verdicts, no cards."""
    by_model: dict[str | None, list[Verdict]] = {}
    for v in verdicts:
        by_model.setdefault(v.model, []).append(v)
    order = [m for m in models if m in by_model]
    order += [m for m in by_model if m is not None and m not in order]
    protected = set(models) | {m for m in by_model if m is not None}

    def lines(vs: list[Verdict]) -> tuple[CardLine, ...]:
        return tuple(
            CardLine(
                v,
                clean_text(v.sentence, protected),
                methods_href(v, methods_keys),
                TOPIC_LABELS.get(v.topic, v.topic),
                status_tone(v.status),
            )
            for v in vs
        )

    cards = [
        Card(f"verdict-{i}", neutral(m), m, lines(by_model[m])) for i, m in enumerate(order, 1)
    ]
    if None in by_model:
        cards.append(Card("verdict-study", STUDY_TITLE, None, lines(by_model[None])))
    return tuple(cards)
