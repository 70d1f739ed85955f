"""The sentence of every note a result holds: an analysis says what a reader should know beside its
numbers as a :class:`~humanly._core.result.Note` — a code and the values its sentence quotes — and
this module writes the sentence, once, for the command line, the report and the notebook view.

One entry per code, grouped by the analysis that writes it; each entry is a template over the note's
values (``str.format``), or a function of them where the sentence needs more than a format:

* the agreement family: ``kappa_needs_named_raters`` (``cause``), ``values_only`` (``cause``:
  ``too_many_values`` or ``too_many_patterns``, and the sizes), ``no_ordinal_values_bootstrap``;
* Dawid–Skene: ``ds_not_converged`` (``start``, ``seed``, ``steps``), ``ds_starts_disagree``
  (``start``, ``seed``, ``kept_start``, ``kept_seed``, ``gap``, ``shift``);
* certify: ``items_without_labels``, ``single_label_items_left_out`` (``count``),
  ``labels_per_item_vary`` (``low``, ``high``), ``rater_pairs_disjoint`` (``count``, ``pairs``),
  ``sparse_agreement`` (``raters``, ``max_raters``), ``incomplete_named_design`` (``items``),
  ``lemma2_fails`` (``agreement``, ``chance``, ``classes``), ``pairs_below_chance`` (``count``,
  ``pairs``, ``chance``), ``few_items_more_raters_than_classes`` (``share``, ``classes``),
  ``raters_not_above_classes`` (``raters``, ``classes``), ``weighted_on_anonymous_counts``,
  ``named_curve_capped`` (``max_k``, ``raters``), ``curve_items_subset`` (``k``, ``items``);
* survey equivalence: ``hard_labels_one_hot`` (``model``), ``incomplete_design_subsets``,
  ``abc_floor`` (``floor``), ``sampled_fallback`` (``memory`` or ``seconds``, ``draws``,
  ``standard_error``), ``headroom_not_converged`` (``steps``, ``gap``), ``curve_partly_computed``
  (``computed``, ``sizes``, ``score``, ``rest``);
* the budget: ``labels_at_chance`` (``accuracy``, ``chance``), ``em_not_converged``
  (``max_iter``, ``tolerance``), ``accuracy_below_half`` (the low accuracies by name),
  ``bic_close`` (``variant``, ``bic``, ``bic_<variant>`` of each close one),
  ``few_labels_pilot_items`` (``count``, ``items``, ``with_<k>``: items with k labels),
  ``assumption2_unchecked`` (``m``), ``assumption2_partial`` (``m``, ``items``, ``short``),
  ``assumption2_proxy_majority`` (``m``), ``no_budget_identifies``, ``better_not_more_accurate``
  (``better``, ``worse``, ``truth``: ``latent`` or ``majority``);
* the judge: ``zero_width_interval``, ``judge_adds_nothing`` (``model``, or ``first`` and
  ``second``), ``constant_reference`` (``estimand``), ``labels_not_probabilities``
  (``labels_not_probabilities_in_strata`` for a stratified selection),
  ``dropped_unjudged_ratings`` (``items``, ``models``: what ``missing="drop"`` left out of a
  rating study).

Each sentence has no full stop of its own (the reader adds it where it needs one), but those of
Dawid–Skene, which are whole sentences.

>>> from humanly._core.result import Note
>>> note_text(Note("labels_per_item_vary", {"low": 8, "high": 36}))[:28]
'labels per item vary (8–36):'
>>> note_text(Note("curve_items_subset", {"k": 10, "items": 1585}))
'curve over k = 1 … 10 uses the 1585 items with ≥ 10 labels (the same items at every k)'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .._core.wording import agreement_memory_text, duration_text

if TYPE_CHECKING:
    from .._core.result import Note

__all__ = ["NOTES", "note_text", "notes_text"]

_Values = Mapping[str, Any]


# ------------------------------------------------------------------------------ agreement family
#: why Cohen's and Conger's κ were left out (``cause``)
_UNNAMED = {
    "repeated_raters": "some raters labelled an item more than once (duplicates='keep')",
    "anonymous_counts": "these ratings are anonymous counts",
}


def _values_only(v: _Values) -> str:
    return (
        "percent agreement, κ, AC1/AC2, Brennan–Prediger and α with Gwet's weights are not "
        f"computed: they need classes, and {agreement_memory_text(v, str(v['cause']))}; Krippendorff's α is "
        "computed from the values"
    )


# ----------------------------------------------------------------------------------- Dawid–Skene
_START_NAMES = {
    "plurality": "plurality",
    "vote_shares": "vote-shares",
    "random": "random",
    "random_plurality": "random plurality",
}


def _start(v: _Values, prefix: str = "") -> str:
    """A start in words: ``plurality start``, ``random start (seed 3)``."""
    seed = v.get(f"{prefix}seed")
    name = str(v[f"{prefix}start"])
    return f"{_START_NAMES.get(name, name)} start" + ("" if seed is None else f" (seed {seed})")


def _ds_disagree(v: _Values) -> str:
    gap = float(v["gap"])
    where = (
        f"stops at a log-likelihood {gap:,.1f} lower"
        if gap >= 0.05
        else "ends at the same log-likelihood (to 0.05)"
    )
    return (
        f"The starts disagree: EM from the {_start(v)} {where}, where some rater's accuracy "
        f"differs by {float(v['shift']):.2f}; the fit kept (from the {_start(v, 'kept_')}) is the "
        "best found, but the likelihood has several optima or a flat ridge on these data, so the "
        "raters' accuracies are weakly identified."
    )


# -------------------------------------------------------------------------------- survey equivalence
def _sampled(v: _Values) -> str:
    if "memory" in v:
        nbytes = float(v["memory"])
        need = f"{nbytes / 2**30:.1f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:.0f} MiB"
    else:
        need = f"about {duration_text(float(v['seconds']))}"
    return (
        f"the exact engine would need {need} here, so the power curve was estimated by sampling "
        f"(Algorithm 2, n_draws={v['draws']} draws of each item's labels per level): Monte Carlo "
        f"standard error at most {float(v['standard_error']):.2g} per curve point"
    )


def _spans(ks: Iterable[int]) -> str:
    """``0–7, 8, 16, 32`` from sorted integers."""
    out: list[str] = []
    start = prev = None
    for k in [*ks, None]:
        if k is not None and prev is not None and k == prev + 1:
            prev = k
            continue
        if start is not None:
            out.append(f"{start}–{prev}" if prev != start else f"{start}")
        start = prev = k
    return ", ".join(out)


def _partly(v: _Values) -> str:
    done = tuple(v["computed"])
    return (
        f"the ABC curve was computed with every bootstrap replicate at {len(done)} of its "
        f"{v['sizes']} survey sizes (k = {_spans(done)}: every crossing of a model's score in "
        f"every replicate, k ≤ 3, and where the curve bends), for the data alone at {v['score']} "
        "more (their ranges drawn straight between the sizes computed with every replicate, none "
        f"past the last of those), and drawn straight through the other {v['rest']}; the "
        "equivalences and their ranges are those of every k (options.every_k=True computes every k)"
    )


# ------------------------------------------------------------------------------- budget and judge
def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'s' if n != 1 else ''}"


def _few_labels(v: _Values) -> str:
    ks = sorted(int(k.removeprefix("with_")) for k in v if k.startswith("with_"))
    labels = ", ".join(f"{_plural(k, 'label')}: {_plural(int(v[f'with_{k}']), 'item')}" for k in ks)
    return (
        f"{int(v['count']):,} of {int(v['items']):,} pilot items have fewer than 3 labels "
        f"({labels}); they enter the likelihood but cannot identify the label accuracies on their "
        "own"
    )


def _bic_close(v: _Values) -> str:
    close = ", ".join(
        f"{k.removeprefix('bic_')!r} (BIC {float(b):.1f})" for k, b in v.items() if k[:4] == "bic_"
    )
    return (
        f"BIC barely prefers the latent variant {v['variant']!r} (BIC {float(v['bic']):.1f}) to "
        f"{close}; the bootstrap refits the choice on every replicate, so the ranges include it"
    )


def _named(v: _Values) -> str:
    """The model a judge's note is about, or its comparison ``first − second``."""
    return str(v["model"]) if "model" in v else f"{v['first']} − {v['second']}"


_TRUTHS = {"latent": "the latent true label", "majority": "the crowd majority"}

_PAPER_ADVISES = "(the paper advises more raters than classes)"

#: code → its sentence: a template over the note's values, or a function of them
NOTES: dict[str, str | Callable[[_Values], str]] = {
    # the agreement family
    "kappa_needs_named_raters": lambda v: (
        "Cohen's and Conger's κ are not computed: they need named raters, and "
        + _UNNAMED.get(str(v["cause"]), str(v["cause"]))
    ),
    "values_only": _values_only,
    "too_many_values": lambda v: agreement_memory_text(v, "too_many_values"),
    "too_many_patterns": lambda v: agreement_memory_text(v, "too_many_patterns"),
    "no_ordinal_values_bootstrap": "the bootstrap interval of ordinal α is not computed from "
    "values: the mid-ranks change with every replicate (round the labels to fewer values to get it)",
    # Dawid–Skene
    "ds_not_converged": lambda v: (
        f"Dawid–Skene did not converge: EM from the {_start(v)} was still moving after "
        f"{int(v['steps']):,} steps, so its accuracies are not reported."
    ),
    "ds_starts_disagree": _ds_disagree,
    # certify
    "items_without_labels": "{count} item(s) without labels left out of L_N",
    "single_label_items_left_out": "{count} item(s) with < 2 labels left out of the upper bound",
    "labels_per_item_vary": "labels per item vary ({low}–{high}): U⁽ᵗ⁾ adds each item's own 1/K "
    "diagonal (U⁽ᵗ⁾² = mean over items of 1/K + (K − 1)/K · agreement)",
    "rater_pairs_disjoint": "{count} of {pairs} rater pairs share no item and are left out of U⁽ᵉ⁾",
    "sparse_agreement": "{raters} named raters: the agreement of each pair sharing an item is "
    "counted sparsely; upper_bound.agreement_matrix is kept up to {max_raters} raters",
    "incomplete_named_design": "named raters did not all label every item: the Hoeffding bound on "
    "U_N (Theorem 5) uses the {items} items with ≥ 2 labels as N; it is exact for complete designs "
    "only",
    "lemma2_fails": "Lemma 2: estimated pairwise agreement {agreement:.4f} < 1/N_c = {chance:.4f} "
    "({classes} classes): U⁽ᵉ⁾ need not approach U⁽ᵗ⁾ as K grows",
    "pairs_below_chance": "{count} of {pairs} rater pairs agree less often than chance "
    "(1/N_c = {chance:.4f})",
    "few_items_more_raters_than_classes": "only {share:.1%} of the items have more raters than the "
    "{classes} classes " + _PAPER_ADVISES,
    "raters_not_above_classes": "K = {raters:g} raters per item, not more than the {classes} "
    "classes " + _PAPER_ADVISES,
    "weighted_on_anonymous_counts": 'aggregate="weighted" on anonymous counts: every rater weighs '
    "the same",
    "named_curve_capped": "named curve over k = 1 … {max_k} of up to {raters} raters per item; "
    "give curve_max_k for more",
    "curve_items_subset": "curve over k = 1 … {k} uses the {items} items with ≥ {k} labels (the "
    "same items at every k)",
    # survey equivalence
    "hard_labels_one_hot": "model {model!r} gives hard labels; for cross-entropy they are scored "
    "as one-hot vectors clipped like the frequency combiner (calibrate them per value to score "
    "them as probabilities)",
    "incomplete_design_subsets": "raters did not all label every item: rater subsets are drawn "
    "from each item's own labels",
    "abc_floor": "ABC predictions are kept at or above {floor:g} per class",
    "sampled_fallback": _sampled,
    "headroom_not_converged": "the headroom fit stopped after {steps} steps without converging "
    "(its mean log-likelihood may be up to {gap:.2g} nats per item below the maximum); raise "
    "max_iter with humanly.survey.headroom",
    "curve_partly_computed": _partly,
    # the budget
    "labels_at_chance": "label accuracy {accuracy:.3g} ≤ {chance:.3g}: labels carry no signal; "
    "clipped to just above chance",
    "em_not_converged": "EM stopped after max_iter={max_iter} iterations without converging "
    "(tolerance {tolerance:g}); the estimates may still move",
    "accuracy_below_half": lambda v: (
        "label accuracy below ½ ("
        + ", ".join(f"{k} = {float(q):.3f}" for k, q in v.items())
        + "): outside the paper's setting (q(x) > ½), where the latent class is not identified; "
        "read these estimates with care"
    ),
    "bic_close": _bic_close,
    "few_labels_pilot_items": _few_labels,
    "assumption2_unchecked": "assumption 2 for m = {m} cannot be checked: no pilot item has "
    "≥ {m} labels",
    "assumption2_partial": "assumption 2 for m = {m}: E[M_m(q(x)) | E] from the {items:,} items "
    "with ≥ {m} labels; {short:,} have fewer",
    "assumption2_proxy_majority": "assumption 2 for m = {m}: some items have fewer than {m} "
    "labels; used M_m(q̂(x))",
    "no_budget_identifies": "E[G] ≤ 0 for every m: no budget identifies the better model under "
    "these estimates",
    "better_not_more_accurate": lambda v: (
        f"on the pilot, {v['better']!r} is not more accurate than {v['worse']!r} against "
        f"{_TRUTHS.get(str(v['truth']), str(v['truth']))}; the budget is for telling them apart "
        "in this direction"
    ),
    # the judge
    "zero_width_interval": lambda v: (
        f"{_named(v)}: every labelled item scores the same, so the interval has width 0; label "
        "more items"
    ),
    "judge_adds_nothing": lambda v: (
        f"{_named(v)}: λ̂ = 0, the judge's scores do not track the human reference, so the "
        "estimate is the human-only one"
    ),
    "constant_reference": "{estimand}: the pilot's human reference does not vary (every labelled "
    "item scores the same), so there is no spread to plan from; label more items",
    "dropped_unjudged_ratings": 'missing="drop" dropped {items:,} human-rated item(s) and '
    "{models} model(s) the judges do not rate",
    "labels_not_probabilities": "the judge gives labels, not probabilities: no uncertainty to "
    "steer by, so every item has the same probability (the estimate afterwards is PPI)",
    "labels_not_probabilities_in_strata": "the judge gives labels, not probabilities: no "
    "uncertainty to steer by inside a stratum, so every item of a stratum has the same probability",
}


def note_text(note: Note) -> str:
    """The sentence of one note (a code the floor does not know reads as the code itself, with its
    values).

    Parameters
    ----------
    note : Note
        A result's note: its code and values.

    Returns
    -------
    str
        The sentence, without a full stop of its own (but Dawid–Skene's, which are whole
        sentences).

    Examples
    --------
    >>> from humanly._core.result import Note
    >>> note_text(Note("abc_floor", {"floor": 0.001}))
    'ABC predictions are kept at or above 0.001 per class'
    >>> note_text(Note("something_new", {"n": 3}))
    'something new (n 3)'
    """
    writer = NOTES.get(note.code)
    values = dict(note.values)
    if writer is None:
        said = ", ".join(f"{k} {v}" for k, v in values.items())
        return note.code.replace("_", " ") + (f" ({said})" if said else "")
    if isinstance(writer, str):
        return writer.format(**values)
    return writer(values)


def notes_text(notes: Iterable[Note]) -> tuple[str, ...]:
    """The sentences of a result's notes, in order.

    >>> from humanly._core.result import Note
    >>> notes_text([Note("weighted_on_anonymous_counts")])
    ('aggregate="weighted" on anonymous counts: every rater weighs the same',)
    """
    return tuple(note_text(n) for n in notes)
