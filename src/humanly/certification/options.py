"""The advanced knobs of :func:`~humanly.certification.certify` and
:func:`~humanly.certification.certify_summary`, as one typed value: :class:`CertifyOptions`.

>>> CertifyOptions(delta=0.01).delta
0.01
>>> CertifyOptions(detla=0.01)
Traceback (most recent call last):
...
TypeError: CertifyOptions.__init__() got an unexpected keyword argument 'detla'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .._core.checks import check_int, check_number, check_probability
from .._core.parallel import check_workers

__all__ = ["CertifyOptions"]


@dataclasses.dataclass(frozen=True)
class CertifyOptions:
    """The rarer knobs of a certificate: the finite-sample bounds, the OMS optimiser, the curve over k
    and where its replicates run.

    Every field is checked when the options are made (``delta=1.5: give a value in (0, 1)``); a
    misspelt field is a ``TypeError``.

    Parameters
    ----------
    delta : float, optional
        The failure probability δ of each reported finite-sample bound (per side: δ_u for
        sqrt(U_N² + t_u), δ_l for L_N − t_l; Theorems 5 and 6). Default ``(1 − level) / 2``.
    t_u, t_l : float, optional
        Fix the deviations of the reported finite-sample bounds instead (> 0); δ of that side then
        follows from t. The verdict does not use them: S is maximised over t_u (Theorem 7).
    oms_steps, oms_lr : optional
        Run the paper's plain gradient ascent for OMS (footnote 3: 100 steps, learning rate 1e-4)
        from the HMS point instead of the bounded maximisation; either one turns it on.
    curve_subsets : int
        Named raters: the k-subsets of raters per k of the curve, all of them when there are at most
        this many, else this many sampled with ``seed`` (default 50).
    curve_max_k : int, optional
        The largest k of the curve (default K; with ragged K the median labels per item; named raters
        at most 50).
    curve_every_k : bool
        ``True`` (default): the curve at every k = 1 … ``curve_max_k``. ``False``: at k = 1 … 20,
        then every fifth k and the largest — the same exact points where they are computed, far fewer
        of them on 100-label data (what :func:`humanly.analyze` and the report draw).
    workers : int, optional
        Run the named curve's k on a local dask.distributed cluster of this many workers (the
        ``humanly[dask]`` extra); the same numbers as in-process.
    scheduler : str, optional
        The address of a running dask scheduler instead.
    client : dask.distributed.Client, optional
        A dask client to run on instead.

    Examples
    --------
    >>> from humanly.certification import certify_summary
    >>> res = certify_summary([0.971], 0.939, 1821, options=CertifyOptions(delta=0.01))
    >>> res.models[0].finite_lower.delta, round(res.models[0].finite_lower.value, 4)
    (0.01, 0.9354)
    """

    delta: float | None = None
    t_u: float | None = None
    t_l: float | None = None
    oms_steps: int | None = None
    oms_lr: float | None = None
    curve_subsets: int = 50
    curve_max_k: int | None = None
    curve_every_k: bool = True
    workers: int | None = None
    scheduler: str | None = None
    client: Any = None

    def __post_init__(self) -> None:
        checked = {
            "delta": None
            if self.delta is None
            else check_probability("delta", self.delta, open_low=True, open_high=True),
            "t_u": check_number("t_u", self.t_u, minimum=0.0, open_low=True, allow_none=True),
            "t_l": check_number("t_l", self.t_l, minimum=0.0, open_low=True, allow_none=True),
            "oms_steps": check_int("oms_steps", self.oms_steps, minimum=1, allow_none=True),
            "oms_lr": check_number(
                "oms_lr", self.oms_lr, minimum=0.0, open_low=True, allow_none=True
            ),
            "curve_subsets": check_int("curve_subsets", self.curve_subsets, minimum=1),
            "curve_max_k": check_int("curve_max_k", self.curve_max_k, minimum=1, allow_none=True),
            "workers": check_int("workers", self.workers, minimum=1, allow_none=True),
        }
        if not isinstance(self.curve_every_k, bool):
            raise TypeError(f"curve_every_k={self.curve_every_k!r}: give True or False")
        for name, value in checked.items():  # whole numbers as int, real numbers as float
            if value is not None:
                kind = (
                    int
                    if name in ("oms_steps", "curve_subsets", "curve_max_k", "workers")
                    else float
                )
                object.__setattr__(self, name, kind(value))
        check_workers(self.workers, self.scheduler)

    @property
    def data_only(self) -> tuple[str, ...]:
        """The fields set away from their defaults that only certify on data reads (the curve and
        where it runs), for :func:`~humanly.certification.certify_summary` to refuse.

        Returns
        -------
        tuple of str
            Their names, in field order.

        Examples
        --------
        >>> CertifyOptions(curve_subsets=10, delta=0.01).data_only
        ('curve_subsets',)
        """
        return tuple(
            name
            for name in (
                "curve_subsets",
                "curve_max_k",
                "curve_every_k",
                "workers",
                "scheduler",
                "client",
            )
            if getattr(self, name) is not _DEFAULTS[name] and getattr(self, name) != _DEFAULTS[name]
        )


#: each field's default (what :attr:`CertifyOptions.data_only` compares with)
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(CertifyOptions)}
