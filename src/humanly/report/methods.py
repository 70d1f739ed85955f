"""One paragraph per analysis for the report's Methods section: paper, equations, assumptions."""

from __future__ import annotations

from .sections.budget import METHODS_TEXT as _BUDGET
from .sections.certify import METHODS_TEXT as _CERTIFY
from .sections.survey import METHODS_TEXT as _SURVEY

METHODS: dict[str, str] = {
    "certify": _CERTIFY,
    "survey": _SURVEY,
    "budget": _BUDGET,
    "inspect": (
        "Data. Pairwise agreement is the mean over items with at least two labels of the share of "
        "agreeing ordered pairs of distinct raters, Σ_c n_c(n_c − 1) / (n(n − 1)). Fleiss' kappa (Fleiss "
        "1971) uses that mean as observed agreement and the pooled class shares for chance agreement; with "
        "unequal numbers of labels per item this is the usual generalisation and reduces to Fleiss' kappa "
        "when every item has the same number. Krippendorff's alpha is the nominal alpha computed from the "
        "coincidence matrix of per-item counts. Ties of the plurality label get fractional credit "
        "1/|tied classes|."
    ),
}
