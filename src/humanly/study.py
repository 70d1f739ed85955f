"""Analyse once: :func:`analyze` runs every analysis that applies to a study and returns one typed
:class:`StudyResult`; the report, the exports and the command line are views of it.

What runs (the choices the report used to make section by section, now made once, here):

* ``inspect`` — always: sizes, agreement with bootstrap intervals, raters, models, gold;
* ``certify`` — on every model given as labels or probabilities (a score has no label), with the
  Fig. 3 curve and the margin ``tau``;
* ``equivalence`` — the ABC scored by cross-entropy (calibrated as :func:`~humanly.survey.equivalence`
  does by default; with the headroom), and majority vote (two classes) or plurality scored by agreement;
  with true states, HSCORE* and SEQ* beside each; hard models under agreement and soft ones under
  cross-entropy when both kinds are given (the paper's running example), else every model under both;
* ``plan`` — the label accuracy implied by the crowd's agreement, single vs majority labels (plurality
  votes for more than two classes), with two models the pilot plan (for more than two classes the
  K-class pilot: the confusion matrices of the crowd and of both models); ``judge`` — with a judge:
  :func:`humanly.judging.judge`;
* ``rank`` — on pairwise votes (a :class:`~humanly.data.VoteStudy` as ``ratings``): the ranking;
  the analyses of ratings are skipped (``no_ratings``).

An analysis that does not apply leaves its field empty and says why in :attr:`StudyResult.skipped`.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

from . import __version__
from ._core.checks import check_bootstrap, check_int, check_number, check_probability
from ._core.files import sha256_of, shown_path
from ._core.progress import stages as progress_stages
from ._core.result import Result, Skipped
from ._stage_seconds import stage_seconds
from .budget import PlanResult
from .budget import plan as budget_plan
from .certification import CertifyOptions, CertifyResult, certify
from .crowd.inspect import InspectResult, inspect
from .data import InputError, Study, VoteStudy, join
from .data.inputs import keyed_states
from .data.positional import is_array, keyed
from .data.types import GoldLike, PredictionsLike, RatingsLike
from .errors import setting
from .judging import JudgeResult, judge_study
from .ranking import RankResult, rank_study
from .survey import (
    EquivalenceOptions,
    EquivalenceResult,
    TruthEquivalence,
    equivalence,
    truth_equivalence,
)
from .survey.calibration import DEFAULT_CALIBRATION
from .survey.target_results import check_targets

__all__ = [
    "AnalyzeOptions",
    "EquivalenceRun",
    "InputFile",
    "Provenance",
    "Settings",
    "Skipped",
    "StudyResult",
    "analyze",
]


@dataclasses.dataclass(frozen=True, repr=False)
class InputFile(Result):
    """A file the study was read from.

    Parameters
    ----------
    name : str
        The file's name.
    path : str
        The path as given (files shipped with humanly: relative to the installed package).
    sha256 : str
        The SHA-256 of the file's bytes.

    Examples
    --------
    >>> InputFile("r.csv", "data/r.csv", "0" * 64).name
    'r.csv'
    """

    name: str
    path: str
    sha256: str


@dataclasses.dataclass(frozen=True, repr=False)
class Provenance(Result):
    """Where the numbers come from.

    Parameters
    ----------
    humanly_version : str
        The version of humanly that computed them.
    command : str or None
        The command line that asked for them (``None`` from Python).
    inputs : tuple of InputFile
        The files the study was read from, with their SHA-256.

    Examples
    --------
    >>> Provenance("0.1.0", None, ()).command is None
    True
    """

    humanly_version: str
    command: str | None
    inputs: tuple[InputFile, ...]


@dataclasses.dataclass(frozen=True, repr=False)
class Settings(Result):
    """The settings every analysis of the study shared.

    Parameters
    ----------
    seed : int
        The one seed of every random step.
    level : float
        The confidence level of every interval and of the certificate.
    bootstrap : int
        Bootstrap replicates over items behind every interval.
    tau : float
        Certify's margin τ.
    target_width : float or None
        Survey equivalence: the width of range each model's items needed are computed for.

    Examples
    --------
    >>> Settings(0, 0.95, 1000, 0.0, None).level
    0.95
    """

    seed: int
    level: float
    bootstrap: int
    tau: float
    target_width: float | None


@dataclasses.dataclass(frozen=True, repr=False)
class EquivalenceRun(Result):
    """One survey-equivalence analysis of the study.

    Parameters
    ----------
    combiner, scorer : str
        The combiner of k labels and the scorer (e.g. ``"abc"`` and ``"cross_entropy"``).
    calibrate : str
        The ``calibrate=`` the analysis ran with (``"auto"``, the default of
        :func:`~humanly.survey.equivalence`, or ``"none"`` without models); how each model was
        calibrated is in the result (:attr:`~humanly.survey.ModelEquivalence.calibration`).
    shown : tuple of str
        The models the report shows under this analysis.
    result : EquivalenceResult or None
        The result; ``None`` when the analysis does not apply (``skipped`` says why).
    truth : TruthEquivalence or None
        On simulated data, the same scored against the true item states.
    skipped : Skipped or None
        Why ``result`` is missing (a reason code).
    truth_skipped : Skipped or None
        Why ``truth`` is missing although states were given (a reason code).
    items_needed : tuple of (int or None), optional
        With the study's ``target_width``: the items each model's equivalence range would need to
        narrow below it, one per model of ``result``, read off its ranges by
        :meth:`~humanly.survey.EquivalenceResult.items_needed`.

    Examples
    --------
    >>> why = Skipped("equivalence", "input_error", "scorer: unknown")
    >>> run = EquivalenceRun("abc", "cross_entropy", "auto", ("m",), None, skipped=why)
    >>> run.key, run.result is None
    ('abc+cross_entropy', True)
    """

    combiner: str
    scorer: str
    calibrate: str
    shown: tuple[str, ...]
    result: EquivalenceResult | None
    truth: TruthEquivalence | None = None
    skipped: Skipped | None = None
    truth_skipped: Skipped | None = None
    items_needed: tuple[int | None, ...] | None = None

    @property
    def key(self) -> str:
        """``"combiner+scorer"``, the run's name in the report.

        Examples
        --------
        >>> EquivalenceRun("majority", "agreement", "none", (), None).key
        'majority+agreement'
        """
        return f"{self.combiner}+{self.scorer}"


@dataclasses.dataclass(frozen=True, repr=False)
class StudyResult(Result):
    """Every analysis that applies to one study, computed once.

    ``to_dict()`` is what ``humanly report --save-results`` writes and :meth:`from_dict` reads back,
    exactly; the report is drawn from it alone (``humanly report --from``).

    Parameters
    ----------
    title : str
        The study's title (the report's).
    source : str or None
        Where the ratings came from (a file path, ``"DataFrame"``, ``"simulated"``).
    models : tuple of str
        The models' names, in the order of the predictions.
    model_kinds : tuple of str
        Each model's kind: ``"label"``, ``"proba"``, ``"score"`` or ``"votes"`` (ranked from votes).
    settings : Settings
        The settings the analyses shared.
    inspect : InspectResult or None
        The ratings at a glance (always there for ratings; ``None`` for pairwise votes).
    certify : CertifyResult or None
        The certificate; ``None`` when it does not apply.
    equivalence : tuple of EquivalenceRun
        The survey-equivalence analyses (empty when they do not apply).
    plan : PlanResult or None
        The label-budget analysis (any number of classes); ``None`` when it does not apply (no item
        with two labels, or the input was refused).
    skipped : tuple of Skipped
        The analyses that did not run, and why.
    provenance : Provenance
        Version, command and input files.
    judge : JudgeResult or None
        With a judge (``Study.judge``), the judge-assisted accuracies (else ``None``).
    rank : RankResult or None
        On pairwise votes, the ranking (:func:`humanly.rank`; else ``None``).

    Examples
    --------

    >>> from humanly import simulate
    >>> d = simulate.oracle(200, [0.8, 0.75, 0.7], models={"m": 0.85}, seed=1)
    >>> res = analyze(d.ratings, d.predictions, d.gold, bootstrap=100)
    >>> res.certify.model("m").lower > 0.7, [run.key for run in res.equivalence]
    (True, ['abc+cross_entropy', 'majority+agreement'])
    >>> StudyResult.from_dict(res.to_dict()).to_dict() == res.to_dict()
    True
    """

    title: str
    source: str | None
    models: tuple[str, ...]
    model_kinds: tuple[str, ...]
    settings: Settings
    inspect: InspectResult | None
    certify: CertifyResult | None
    equivalence: tuple[EquivalenceRun, ...]
    plan: PlanResult | None
    skipped: tuple[Skipped, ...]
    provenance: Provenance
    judge: JudgeResult | None = None
    rank: RankResult | None = None

    def skipped_reason(self, analysis: str) -> str | None:
        """Why an analysis did not run: its reason code (the sentence is
        :func:`humanly.verdicts.study.skipped_sentence` of the :class:`Skipped` record).

        Parameters
        ----------
        analysis : str
            The analysis' name.

        Returns
        -------
        str or None
            The reason code, or ``None`` when it ran.

        Examples
        --------
        >>> from humanly import Ratings
        >>> res = analyze(Ratings.from_counts([[1, 0, 0], [0, 1, 0]]), bootstrap=0)
        >>> res.skipped_reason("plan")
        'single_label_items'
        """
        return next((s.reason for s in self.skipped if s.analysis == analysis), None)


@dataclasses.dataclass(frozen=True)
class AnalyzeOptions:
    """The rarer knobs of :func:`analyze`.

    Parameters
    ----------
    states
        A simulation's true item states (a DataFrame indexed by item id, one column per class, or an
        items × classes array in the ratings' order): adds HSCORE* and SEQ* to the equivalence.
    command
        The command line that asked for the analysis (recorded in the provenance).
    inputs
        Files the study was read from (recorded with their SHA-256).
    title
        The study's title (default ``"humanly report · <source file name>"``).
    targets : tuple of (int or "inf"), optional
        Target panels for survey equivalence (``EquivalenceOptions(targets=...)``, e.g. ``(1, 3,
        "inf")``): each equivalence analysis is computed against every target, side by side, and
        the report draws one curve per target (default: the paper's t = 1 only).
    progress
        Report progress on stderr (default ``True``): a bar on a terminal, a line rewritten in place
        in a notebook once a step has run 2 s, a line every ~10 s elsewhere; runs shorter than that
        show nothing. ``False``: never.

    Examples
    --------
    >>> AnalyzeOptions(title="my study").title
    'my study'
    """

    states: Any = None
    command: str | None = None
    inputs: Sequence[str | os.PathLike[str]] = ()
    title: str | None = None
    progress: bool = True
    targets: tuple[int | str, ...] | None = None


def analyze(
    ratings: RatingsLike | VoteStudy,
    predictions: PredictionsLike | None = None,
    gold: GoldLike | None = None,
    *,
    level: float = 0.95,
    bootstrap: int = 1000,
    seed: int = 0,
    tau: float = 0.0,
    target_width: float | None = None,
    missing: Literal["error", "drop"] = "error",
    options: AnalyzeOptions | None = None,
) -> StudyResult:
    """Run every analysis that applies to the study, once.

    Parameters
    ----------
    ratings, predictions, gold
        The crowd's labels, the models' outputs and gold labels in any form
        :func:`humanly.read_study` reads, or a :class:`~humanly.data.Study` as ``ratings``; joined by
        item id (``missing="drop"`` keeps the items both have). Pairwise votes: a
        :class:`~humanly.data.VoteStudy` as ``ratings``, ranked by :func:`humanly.rank`.
    level
        Confidence level of every interval and of the certificate (S ≥ level).
    bootstrap, seed
        Bootstrap replicates over items behind every interval, and the one seed.
    tau
        Certify's margin: the confidence that a model beats the average rater by at least τ.
    target_width
        Survey equivalence: items that would narrow each model's range below this many raters.
    missing
        ``"error"`` or ``"drop"``: what to do with ids that do not match.
    options
        :class:`AnalyzeOptions` (true states, provenance, title, progress).

    Returns
    -------
    StudyResult
        The results of every analysis that applies, and why the others did not run.

    Raises
    ------
    InputError
        For inputs that cannot be read or joined, and settings out of range.

    See Also
    --------
    humanly.report.build_report : the page drawn from the result.

    Examples
    --------
    >>> import humanly
    >>> from humanly import simulate
    >>> d = simulate.running_example(300, 6, seed=1)
    >>> res = humanly.analyze(d.ratings, d.predictions, d.gold, bootstrap=100)
    >>> res.certify.model("soft").evidence.status, [run.key for run in res.equivalence]
    ('not_applicable', ['abc+cross_entropy', 'majority+agreement'])
    >>> humanly.StudyResult.from_dict(res.to_dict()).to_dict() == res.to_dict()
    True
    """
    opts = options or AnalyzeOptions()
    if opts.targets is not None:  # checked before any work, named as the caller wrote it
        opts = dataclasses.replace(opts, targets=check_targets(opts.targets, "options.targets"))
    settings = Settings(
        seed=int(check_int("seed", seed, minimum=0)),
        level=float(check_probability("level", level, open_low=True, open_high=True)),
        bootstrap=int(check_bootstrap(bootstrap, bytes_per_replicate=8)),
        tau=float(check_number("tau", tau, minimum=0.0)),
        target_width=check_number(
            "target_width", target_width, minimum=0.0, open_low=True, allow_none=True
        ),
    )
    if isinstance(ratings, VoteStudy):  # pairwise votes: the ranking alone
        if predictions is not None or gold is not None:
            raise InputError(
                f"ratings= is a VoteStudy of votes; drop {setting('predictions')} and {setting('gold')}"
            )
        return _vote_study(ratings, settings, opts)
    ratings, states = keyed_states(ratings, opts.states)
    study = join(ratings, predictions, gold, missing=missing)  # the one join; a Study as it is
    if is_array(states):  # with a Study: its items, sorted, are the order the caller holds
        r = study.ratings
        states = keyed(states, r.items, r.classes, what="states", ordered_columns=True)
    if states is not opts.states:
        opts = dataclasses.replace(opts, states=states)
    provenance = Provenance(__version__, opts.command, _input_files(opts.inputs))
    r, preds = study.ratings, study.predictions
    models = tuple(str(n) for n in preds.names) if preds is not None else ()
    kinds = tuple(m.kind for m in preds.models) if preds is not None else ()
    steps = ("inspect", "certify", "equivalence", "plan", "judge")
    found: dict[str, Any] = {}
    skipped: list[Skipped] = []
    seconds = stage_seconds(study, settings.bootstrap)
    for step in progress_stages(steps, "analyze", enabled=opts.progress, seconds=seconds):
        found[step] = _RUNNERS[step](study, settings, opts, skipped)
    return StudyResult(
        title=opts.title or f"humanly report · {_shown_source(r.source)}",
        source=r.source,
        models=models,
        model_kinds=kinds,
        settings=settings,
        inspect=found["inspect"],
        certify=found["certify"],
        equivalence=found["equivalence"],
        plan=found["plan"],
        skipped=tuple(skipped),
        provenance=provenance,
        judge=found["judge"],
    )


# ------------------------------------------------------------------------------------- the runners
def _inspect(study: Study, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]) -> Any:
    return inspect(study, bootstrap=s.bootstrap, level=s.level, seed=s.seed)


def _usable(study: Study) -> Study:
    """The study with the models given as labels or probabilities only (a score has no label to
    compare); the same study when every model is."""
    predictions = study.predictions
    if predictions is None:
        return study
    names = [m.name for m in predictions.models if m.kind in ("label", "proba")]
    if len(names) == len(predictions.models):
        return study
    return dataclasses.replace(study, predictions=predictions.select(names) if names else None)


def _certify(study: Study, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]) -> Any:
    try:
        return certify(
            _usable(study),
            level=s.level,
            tau=s.tau,
            curve=True,
            seed=s.seed,
            options=CertifyOptions(
                curve_every_k=False
            ),  # the page's figure: k ≤ 20, every 5th after
        )
    except InputError as exc:
        skipped.append(Skipped("certify", "input_error", str(exc)))
        return None


def _equivalence(
    study: Study, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]
) -> tuple[EquivalenceRun, ...]:
    r = study.ratings
    if int(r.labels_per_item.max()) < 2:
        skipped.append(Skipped("equivalence", "single_label_items"))
        return ()
    study = _usable(study)
    usable = study.predictions
    names = [m.name for m in usable.models] if usable is not None else []
    hard = [m.name for m in usable.models if m.kind == "label"] if usable is not None else []
    soft = [n for n in names if n not in hard]
    paper = bool(hard and soft)
    states = opts.states  # a DataFrame by item id (arrays were keyed by analyze)
    runs = []
    seconds = {k: v for k, v in stage_seconds(study, s.bootstrap).items() if "+" in k}  # the 2 runs
    for key in progress_stages(seconds, "equivalence", enabled=opts.progress, seconds=seconds):
        combiner, scorer = key.split("+")
        # the one default of the API and the command line: calibrated for cross-entropy only
        cal = DEFAULT_CALIBRATION if usable is not None else "none"
        shown = tuple((soft if combiner == "abc" else hard) if paper else names)
        try:
            res = equivalence(
                study,
                combiner=combiner,
                scorer=scorer,
                calibrate=cal,
                bootstrap=s.bootstrap,
                level=s.level,
                seed=s.seed,
                options=EquivalenceOptions(
                    headroom=combiner == "abc", progress=False, targets=opts.targets
                ),
            )
        except InputError as exc:
            why = Skipped("equivalence", "input_error", str(exc))
            runs.append(EquivalenceRun(combiner, scorer, cal, shown, None, skipped=why))
            continue
        truth, truth_skipped = None, None
        if states is not None:
            try:
                truth = truth_equivalence(
                    study,
                    states=states,
                    combiner=combiner,
                    scorer=scorer,
                    calibrate=cal,
                    seed=s.seed,
                )
            except InputError as exc:
                truth_skipped = Skipped("truth_equivalence", "input_error", str(exc))
        needed = None
        if s.target_width is not None and s.bootstrap > 0:
            needed = res.items_needed(s.target_width)
        runs.append(
            EquivalenceRun(combiner, scorer, cal, shown, res, truth, None, truth_skipped, needed)
        )
    return tuple(runs)


def _plan(study: Study, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]) -> Any:
    r = study.ratings
    if not (r.labels_per_item >= 2).any():
        skipped.append(Skipped("plan", "single_label_items"))
        return None
    try:
        return budget_plan(study, level=s.level, bootstrap=s.bootstrap, seed=s.seed)
    except InputError as exc:
        skipped.append(Skipped("plan", "input_error", str(exc)))
        return None


def _judge(study: Study, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]) -> Any:
    try:
        return judge_study(study, level=s.level, seed=s.seed)
    except InputError as exc:
        skipped.append(Skipped("judge", "input_error", str(exc)))
        return None


_RUNNERS = {
    "inspect": _inspect,
    "certify": _certify,
    "equivalence": _equivalence,
    "plan": _plan,
    "judge": _judge,
}


# ------------------------------------------------------------------------------- pairwise votes
def _rank(votes: VoteStudy, s: Settings, opts: AnalyzeOptions, skipped: list[Skipped]) -> Any:
    try:
        return rank_study(votes, level=s.level, seed=s.seed)
    except InputError as exc:
        skipped.append(Skipped("rank", "input_error", str(exc)))
        return None


def _vote_study(votes: VoteStudy, s: Settings, opts: AnalyzeOptions) -> StudyResult:
    """A study of pairwise votes: the ranking; the analyses of ratings skipped (``no_ratings``)."""
    skipped = [Skipped(a, "no_ratings") for a in ("inspect", "certify", "equivalence", "plan")]
    for _ in progress_stages(("rank",), "analyze", enabled=opts.progress):
        found = _rank(votes, s, opts, skipped)
    source = str(opts.inputs[0]) if opts.inputs else None
    title = opts.title or f"humanly report · {_shown_source(source) if source else 'votes'}"
    provenance = Provenance(__version__, opts.command, _input_files(opts.inputs))
    kinds, no_ratings = ("votes",) * len(votes.models), (None, None, (), None)  # inspect … plan
    return StudyResult(
        title, source, votes.models, kinds, s, *no_ratings, tuple(skipped), provenance, rank=found
    )


# ------------------------------------------------------------------------------------------ inputs
def _input_files(paths: Sequence[str | os.PathLike[str]]) -> tuple[InputFile, ...]:
    return tuple(
        InputFile(Path(p).name, shown_path(Path(p)), sha256_of(Path(p)))
        for p in paths
        if Path(p).is_file()
    )


def _shown_source(source: str | None) -> str:
    """The study's source as a title shows it: a file's name, never its folders."""
    if not source:
        return "ratings"
    return Path(source).name or source
