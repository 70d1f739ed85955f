"""Verdicts of the agreement family (:func:`humanly.agreement`): the table's cells and the sentences.

The family is one table — coefficient, weights, estimate, standard error, interval, the interval's
method, and its reading on a benchmark scale — drawn by ``humanly agreement``, ``humanly inspect`` and
the report's data section from the same cells (built here, from the result's fields only). The verdict
says the headline coefficient with its interval and Gwet's benchmark reading (the band reached with
probability ≥ level), and, when κ is low while raw agreement is high, the one line that explains it
(prevalence and bias). Like every verdict module, this imports no numpy, pandas, matplotlib or jinja2.

>>> import humanly
>>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0], [0, 3], [3, 0]])
>>> [v.sentence for v in verdicts(humanly.agreement(r, bootstrap=0))]
["Fleiss' κ is 0.766 (95% interval 0.149 to 1.000, Gwet's analytic standard error 0.240): at least \
fair on the Landis & Koch (1977) scale with probability 0.99 (the estimate itself reads substantial)."]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import Verdict

if TYPE_CHECKING:
    from .._core.result import Interval
    from ..crowd.family_results import AgreementResult, Coefficient

__all__ = [
    "FAMILY_HEADERS",
    "METHODS_ID",
    "family_caption",
    "family_headers",
    "family_rows",
    "headline_coefficient",
    "paradox_sentence",
    "verdicts",
]

#: the Methods paragraph the agreement verdicts rest on (the report's anchor)
METHODS_ID = "methods-agreement"

#: the family table's columns (``bootstrap`` only when bootstrap intervals were made)
FAMILY_HEADERS = (
    "coefficient",
    "weights",
    "estimate",
    "SE",
    "interval",
    "method",
    "bootstrap",
    "interpretation",
)

_SCALE_NAMES = {"landis_koch": "Landis & Koch", "altman": "Altman", "fleiss": "Fleiss"}


def _finite(x: float | None) -> bool:
    return x is not None and math.isfinite(x)


def _num(x: float | None, digits: int = 3) -> str:
    return f"{x:.{digits}f}" if x is not None and math.isfinite(x) else "—"


def _interval(i: Interval) -> str:
    return f"[{_num(i.low)}, {_num(i.high)}]"


def _weights(c: Coefficient) -> str:
    return "—" if c.weights == "identity" else c.weights.removeprefix("krippendorff ")


def _chosen_interval(c: Coefficient, bootstrap: int) -> tuple[Interval | None, str]:
    """The interval a row shows and its method: Gwet's analytic one, else the bootstrap one."""
    if _finite(c.interval.low) or _finite(c.interval.high):
        return c.interval, "Gwet"
    if bootstrap > 0 and (_finite(c.bootstrap_interval.low) or _finite(c.bootstrap_interval.high)):
        return c.bootstrap_interval, "bootstrap"
    return None, "—"


def _reading(c: Coefficient) -> str:
    """``≥ substantial (0.97)`` on the first benchmark scale; "—" without one."""
    if not c.interpretations:
        return "—"
    first = c.interpretations[0]
    if first.band is None:
        return "—" if first.estimate_band is None else f"{first.estimate_band} (estimate)"
    return f"≥ {first.band} ({first.probability:.2f})"


def family_headers(res: AgreementResult) -> tuple[str, ...]:
    """The family table's column headers: :data:`FAMILY_HEADERS`, without ``bootstrap`` when no
    bootstrap interval was made.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> family_headers(humanly.agreement(r, bootstrap=0))[4:]
    ('interval', 'method', 'interpretation')
    """
    return tuple(h for h in FAMILY_HEADERS if h != "bootstrap" or res.bootstrap > 0)


def family_rows(res: AgreementResult) -> list[tuple[str, ...]]:
    """One row of cells per coefficient, in :func:`family_headers` order: the interval is Gwet's
    analytic one (method ``Gwet``), or the bootstrap one where no analytic variance exists.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    list of tuple of str

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> family_rows(humanly.agreement(r, bootstrap=0))[1]
    ("Fleiss' κ", '—', '0.625', '0.398', '[-0.641, 1.000]', 'Gwet', '≥ poor (1.00)')
    """
    rows = []
    for c in res.coefficients:
        interval, method = _chosen_interval(c, res.bootstrap)
        cells = [c.label, _weights(c), _num(c.estimate), _num(c.standard_error)]
        cells += ["—" if interval is None else _interval(interval), method]
        if res.bootstrap > 0:
            cells.append(_interval(c.bootstrap_interval))
        cells.append(_reading(c))
        rows.append(tuple(cells))
    return rows


def family_caption(res: AgreementResult) -> str:
    """What the table's intervals and readings are, in one line.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    str

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> family_caption(humanly.agreement(r, bootstrap=0)).split(" · ")[:2]
    ['nominal scale', '4 items']
    """
    scale = res.options.scales[0] if res.options.scales else "landis_koch"
    boot = (
        f" · bootstrap: percentile over items ({res.bootstrap:,} resamples, seed {res.seed})"
        if res.bootstrap > 0
        else ""
    )
    return (
        f"{res.scale} scale · {res.items:,} items · intervals at {res.level:.0%}: Gwet = Gwet's "
        f"analytic variance over items, t with n − 1 df{boot} · interpretation: "
        f"{_SCALE_NAMES.get(scale, scale)} band reached with probability ≥ {res.level:.0%}"
    )


def headline_coefficient(res: AgreementResult) -> Coefficient | None:
    """The coefficient the verdict names: κ (Cohen's, Conger's, then Fleiss') for nominal labels,
    Krippendorff's α for ordered ones — the first of these the result holds with an estimate.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    Coefficient or None

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [2, 1], [3, 0]])
    >>> headline_coefficient(humanly.agreement(r, bootstrap=0)).name
    'fleiss_kappa'
    """
    kappas = ["cohen_kappa", "conger_kappa", "fleiss_kappa"]
    order = [*kappas, "krippendorff_alpha"] if res.scale == "nominal" else ["krippendorff_alpha"]
    order += list(c.name for c in res.coefficients if c.name != "percent_agreement")
    for name in order:
        for c in res.coefficients:
            if c.name == name and _finite(c.estimate):
                return c
    return None


def _headline(res: AgreementResult, c: Coefficient) -> str:
    ends = f"{_num(c.interval.low)} to {_num(c.interval.high)}"
    if _finite(c.standard_error):
        how = f"{res.level:.0%} interval {ends}, Gwet's analytic standard error {_num(c.standard_error)}"
    elif res.bootstrap > 0:
        boot = c.bootstrap_interval
        how = f"{res.level:.0%} bootstrap interval {_num(boot.low)} to {_num(boot.high)}"
    else:
        how = "no interval"
    sentence = f"{c.label} is {_num(c.estimate)} ({how})"
    first = c.interpretations[0] if c.interpretations else None
    if first is not None and first.band is not None and first.band == first.bands[-1].label:
        sentence += (
            f": too uncertain to place above {first.band} on the {first.source} scale at "
            f"{first.level:.0%} (the estimate itself reads {first.estimate_band})"
        )
    elif first is not None and first.band is not None:
        sentence += (
            f": at least {first.band} on the {first.source} scale with probability "
            f"{first.probability:.2f} (the estimate itself reads {first.estimate_band})"
        )
    return sentence + "."


def paradox_sentence(res: AgreementResult) -> str | None:
    """The one line that explains a low κ under high raw agreement (the kappa paradox), or ``None``.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    str or None

    Examples
    --------
    >>> import humanly
    >>> rows = [[2, 0]] * 18 + [[1, 1]] * 2
    >>> line = paradox_sentence(humanly.agreement(humanly.Ratings.from_counts(rows), bootstrap=0))
    >>> line.startswith("Fleiss' κ is low (-0.053) while raters agree on 90% of pairs")
    True
    """
    p = res.paradox
    if p is None or not p.flagged:
        return None
    names = {"cohen_kappa": "Cohen's κ", "conger_kappa": "Conger's κ", "fleiss_kappa": "Fleiss' κ"}
    kappa = names.get(p.kappa_name, p.kappa_name)
    text = (
        f"{kappa} is low ({_num(p.kappa)}) while raters agree on {p.agreement:.0%} of pairs: "
        f"class {p.top_class!r} holds {p.top_share:.0%} of the labels, so chance agreement is "
        f"{_num(p.chance_agreement)}"
    )
    if _finite(p.prevalence_index):
        text += f" (prevalence index {_num(p.prevalence_index)}, bias index {_num(p.bias_index)})"
    if _finite(p.gwet_ac):
        ac = "AC2" if "gwet_ac2" in res.names() else "AC1"
        text += f"; Gwet's {ac}, which prevalence does not pull down, is {_num(p.gwet_ac)}"
    if _finite(p.pabak):
        text += f", PABAK {_num(p.pabak)}"
    return text + "."


def verdicts(res: AgreementResult) -> tuple[Verdict, ...]:
    """The agreement family's sentences: the headline coefficient read on a benchmark scale, and the
    kappa-paradox line when it applies.

    Parameters
    ----------
    res : AgreementResult
        The family.

    Returns
    -------
    tuple of Verdict

    Examples
    --------
    >>> import humanly
    >>> r = humanly.Ratings.from_counts([[3, 0], [0, 3], [3, 0], [0, 3]])
    >>> verdicts(humanly.agreement(r, bootstrap=0))[0].status
    'agreement'
    """
    out = []
    c = headline_coefficient(res)
    if c is None:
        sentence = "No agreement coefficient is defined on these ratings."
        out.append(Verdict("agreement", sentence, status="undefined", methods=METHODS_ID))
    else:
        out.append(Verdict("agreement", _headline(res, c), status="agreement", methods=METHODS_ID))
    paradox = paradox_sentence(res)
    if paradox is not None:
        out.append(Verdict("agreement", paradox, status="paradox", methods=METHODS_ID))
    return tuple(out)
