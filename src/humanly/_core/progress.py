"""Progress of the steps that can take more than a few seconds, on stderr (never on stdout).

Where it is seen, chosen from where stderr goes:

* a terminal: a transient bar (rich, loaded on first use);
* a notebook (an IPython kernel): one line rewritten in place (``\\r``) about twice a second, from
  the second :data:`DELAY` seconds on (no widgets, no extra dependency);
* anything else — a file, a pipe, a CI log: one short line every :data:`INTERVAL` seconds
  (``humanly: bootstrap: 24%, 10 s, about 32 s left``), and a last line when a step that printed
  one ends; a step shorter than the interval prints nothing;
* nothing, when the caller says so (``enabled=False``, the Python API's ``progress=False``) or the
  command line runs with ``--quiet`` (:func:`set_quiet`).

**The time left comes from measured work, not from counts of steps.** A step's units of work carry
their cost: :meth:`Task.advance` takes the cost of what was just done (e.g. the (pair × replicate)
cells of one survey size, whose numbers differ by 100× between sizes), and the time left is the
elapsed time × the cost still to do / the cost done. A step made of stages of unequal cost (the
analyses of ``humanly.analyze``) gives each stage an estimated duration (:meth:`Task.stage`); a
finished stage counts for its measured duration, the running one for the duration its own work
projects (:attr:`Task.projected`: elapsed / share done, or the estimate its caller gave, ``seconds=``,
before any of its work is done; a child's own projection counts once a tenth of its work is done), and
the stages still to come for their estimates — when those are modelled (``humanly.analyze`` computes
them from the data's size), scaled by the speed measured so far (:attr:`Task.speed`: measured over
modelled seconds of the stages done and the running one's projection). A task opened
while a stage of an enabled task runs is that stage's *child*: it shows nothing itself, its work
moves the parent's report (whatever its own ``enabled``: the parent is what the user asked to see).

A step is either an iterable (:func:`progress`) or a :func:`task` advanced by hand (an EM that does
not know how many steps it will take gives no total).

>>> list(progress(range(3), total=3, description="demo"))
[0, 1, 2]
>>> with task("fit", enabled=False) as t:
...     t.advance()
>>> with task("all", enabled=False, stages={"a": 1.0, "b": 9.0}) as t:
...     with t.stage("a"):  # measured: about 0 s, instead of its estimate
...         pass
...     round(t.projected)  # seconds: what a took, and b's estimate
9
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["DELAY", "INTERVAL", "Task", "progress", "set_quiet", "stages", "task"]

T = TypeVar("T")

#: Seconds between two progress lines when stderr is not a terminal (``HUMANLY_PROGRESS_INTERVAL``).
INTERVAL = 10.0
#: Seconds before a notebook shows a step (shorter steps show nothing), and between two refreshes.
DELAY, REFRESH = 2.0, 0.5
#: The time left is shown once this share of the work is done (before: too little was measured).
MIN_SHARE = 0.005

#: A parent trusts a child step's own projection once this share of its work is done.
TRUSTED = 0.1
#: Seconds of weight the modelled stage durations keep against the measured ones (see
#: :attr:`Task.speed`), and the range of the measured/modelled speed factor.
PRIOR, SPEED_RANGE = 0.25, (0.25, 8.0)

#: The clock every report reads (tests replace it with a fake one).
clock: Callable[[], float] = time.monotonic

_QUIET = False
_BAR_OPEN = False  # a terminal shows one live bar at a time: a step inside a barred step shows none
_STAGES: list[Task] = []  # tasks with a stage running, innermost last


def set_quiet(quiet: bool = True) -> None:
    """Silence (or restore) every progress report of this process: the command line's ``--quiet``."""
    global _QUIET
    _QUIET = bool(quiet)


def _interval() -> float:
    try:
        return max(0.0, float(os.environ.get("HUMANLY_PROGRESS_INTERVAL", INTERVAL)))
    except ValueError:
        return INTERVAL


def _seconds(s: float) -> str:
    return f"{s:.0f} s" if s < 120 else f"{s / 60:.1f} min"


class Task:
    """One step being reported: :meth:`advance` it (or run its :meth:`stage`\\ s); the report ends
    when the ``with`` block does.

    ``total``: the cost of the whole step in the units :meth:`advance` counts (``None``: unknown);
    ``stages``: estimated seconds of each stage, in order (then the step's share done is measured
    in seconds, see the module docstring); ``seconds``: the caller's estimate of the step's duration,
    used by a parent until this step has measured some of its own work.
    """

    def __init__(
        self,
        description: str,
        total: float | None,
        mode: str,
        stages: Mapping[str, float] | None = None,
        seconds: float | None = None,
        counted: bool = True,
        calibrated: bool = False,
    ) -> None:
        self.description, self.total, self.mode = description, total, mode
        self.seconds, self.counted, self.calibrated = seconds, counted, calibrated
        self.done = 0.0
        self.start = self.last = clock()
        self.printed = False
        self.parent: Task | None = None
        self.plan = dict(stages or {})
        self.finished: dict[str, float] = {}  # stage → measured seconds
        self.current: tuple[str, float] | None = None  # (stage, its start)
        self.child: Task | None = None
        self._bar: Any = None
        self._id: Any = None

    # ------------------------------------------------------------------ measures
    def elapsed(self) -> float:
        return clock() - self.start

    @property
    def fraction(self) -> float | None:
        """The share of the step done (``None`` when it is unknown)."""
        if self.plan:
            total = self.projected
            return None if total is None or total <= 0 else min(1.0, self.elapsed() / total)
        if not self.total:
            return None
        return min(1.0, self.done / self.total)

    @property
    def projected(self) -> float | None:
        """The step's projected duration in seconds: elapsed / share of work done, or with stages
        measured + projected (running stage) + estimated (stages to come); before any work is
        measured, the caller's estimate ``seconds`` (``None`` when there is none)."""
        now = clock()
        if self.plan:
            spent = sum(self.finished.values())
            speed = self.speed
            name, run, cur = None, 0.0, 0.0
            if self.current is not None:
                name, began = self.current
                run = now - began
                est = self.child.early if self.child is not None else None
                cur = max(run, self.plan.get(name, 0.0) * speed, est if est is not None else 0.0)
                speed = self._speed(cur, self.plan.get(name, 0.0))  # the running stage counts too
            todo = sum(s for n, s in self.plan.items() if n not in self.finished and n != name)
            outside = max(0.0, now - self.start - spent - run)  # between stages
            return spent + cur + todo * speed + outside
        share = self.done / self.total if self.total else 0.0
        if share >= MIN_SHARE and now > self.start:
            return (now - self.start) / min(1.0, share)
        return self.seconds

    @property
    def speed(self) -> float:
        """Measured over estimated seconds of the finished stages when the estimates are modelled
        (``calibrated``: a slower or busier machine than the model's scales the stages to come), with
        :data:`PRIOR` seconds of the model's own weight; 1 otherwise (the estimates are guesses)."""
        return self._speed(0.0, 0.0)

    def _speed(self, projected: float, modelled_now: float) -> float:
        """:attr:`speed`, with the running stage's projected and modelled seconds counted in."""
        if not self.calibrated:
            return 1.0
        measured = sum(self.finished.values()) + projected
        modelled = sum(self.plan.get(n, 0.0) for n in self.finished) + modelled_now
        return min(SPEED_RANGE[1], max(SPEED_RANGE[0], (measured + PRIOR) / (modelled + PRIOR)))

    @property
    def early(self) -> float | None:
        """This step's projected duration as its parent's running stage reads it: a step of
        counted work only once :data:`TRUSTED` of it is done (before, the first units' speed says
        little: an adaptive grid plans its work as it goes), else its caller's estimate."""
        if self.plan or (self.total and self.done / self.total >= TRUSTED):
            return self.projected
        return self.seconds

    def left(self) -> float | None:
        """Seconds left, from the measured work (``None`` until there is something to go by)."""
        total = self.projected
        if total is None or (not self.plan and self.done / (self.total or 1.0) < MIN_SHARE):
            return None
        return max(0.0, total - self.elapsed())

    # ------------------------------------------------------------------ work
    def advance(self, n: float = 1.0) -> None:
        """``n`` more units of work done (their cost, in the units of ``total``)."""
        self.done += n
        self._show()

    @contextmanager
    def stage(self, name: str, seconds: float | None = None) -> Iterator[Task]:
        """Run one stage (``seconds``: its estimated duration, default the one given in ``stages``
        or 1 s); a task opened inside it is its child (see the module docstring)."""
        if name not in self.plan or seconds is not None:
            self.plan[name] = float(seconds if seconds is not None else self.plan.get(name, 1.0))
        began = clock()
        self.current = (name, began)
        _STAGES.append(self)
        try:
            yield self
        finally:
            _STAGES.remove(self)
            self.finished[name] = clock() - began
            self.current, self.child = None, None
            self._show()

    # ------------------------------------------------------------------ showing
    def _text(self, now: float, final: bool = False) -> str:
        elapsed = now - self.start
        if final:
            return f"{self.description}: done in {_seconds(elapsed)}"
        where = self.description
        shown: Task | None = self
        while shown is not None and shown.current is not None:  # the stages within stages
            where += f": {shown.current[0]}"
            shown = shown.child
        share, left = self.fraction, self.left()
        if share is None:
            return f"{where}: {self.done:,.0f} steps, {_seconds(elapsed)}"
        if self.counted and self.total and not self.plan:
            text = f"{where}: {self.done:,.0f}/{self.total:,.0f} ({share:.0%}), {_seconds(elapsed)}"
        else:
            text = f"{where}: {share:.0%}, {_seconds(elapsed)}"
        if left is not None and share < 1:
            text += f", about {_seconds(left)} left"
        return text

    def _show(self) -> None:
        if self.mode == "child" and self.parent is not None:
            self.parent._show()
            return
        now = clock()
        if self.mode == "bar" and self._bar is not None:
            share = self.fraction
            left = self.left()
            self._bar.update(
                self._id,
                completed=1000 * (share or 0.0),
                left="" if left is None else f"about {_seconds(left)} left",
            )
        elif self.mode == "lines" and now - self.last >= _interval():
            self.last = now
            print(f"humanly: {self._text(now)}", file=sys.stderr, flush=True)
            self.printed = True
        elif self.mode == "notebook" and now - self.start >= DELAY and now - self.last >= REFRESH:
            self.last = now
            print(f"\rhumanly: {self._text(now)}  ", end="", file=sys.stderr, flush=True)
            self.printed = True

    def _open(self) -> None:
        if self.mode != "bar":
            return
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn

        columns = (
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            TextColumn("{task.percentage:>3.0f}%"),
            TextColumn("{task.fields[left]}"),
        )
        global _BAR_OPEN
        self._bar = Progress(*columns, console=Console(stderr=True), transient=True)
        self._bar.start()
        _BAR_OPEN = True
        self._id = self._bar.add_task(self.description, total=1000, left="")

    def close(self) -> None:
        global _BAR_OPEN
        if self.parent is not None and self.parent.child is self:
            self.parent.child = None  # the rest of the parent's stage: its own estimate
        if self.mode == "bar" and self._bar is not None:
            self._bar.stop()
            _BAR_OPEN = False
        elif self.mode == "lines" and self.printed:
            print(f"humanly: {self._text(clock(), final=True)}", file=sys.stderr, flush=True)
        elif self.mode == "notebook" and self.printed:
            print(f"\rhumanly: {self._text(clock(), final=True)}", file=sys.stderr, flush=True)


def _in_notebook() -> bool:
    """Whether this runs in an IPython kernel (a notebook), where ``\\r`` rewrites a line."""
    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    shell = getattr(ipython, "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def _mode(enabled: bool) -> str:
    if not enabled or _QUIET:
        return "off"
    if sys.stderr.isatty():
        return "off" if _BAR_OPEN else "bar"
    return "notebook" if _in_notebook() else "lines"


@contextmanager
def task(
    description: str,
    total: float | None = None,
    *,
    enabled: bool = True,
    stages: Mapping[str, float] | None = None,
    seconds: float | None = None,
    counted: bool = True,
    calibrated: bool = False,
) -> Iterator[Task]:
    """A step reported while the block runs (see the module docstring and :class:`Task`;
    ``counted=False``: the units are costs, shown as a percentage, not as ``done/total``;
    ``calibrated``: the ``stages``' seconds are modelled, scaled by the measured speed)."""
    parent = _STAGES[-1] if _STAGES else None
    mode = "child" if parent is not None else _mode(enabled)
    t = Task(description, total, mode, stages, seconds, counted, calibrated)
    if parent is not None:
        t.parent = parent
        parent.child = t
    t._open()
    try:
        yield t
    finally:
        t.close()


def progress(
    items: Iterable[T],
    *,
    total: int | None = None,
    description: str = "",
    enabled: bool = True,
    costs: Iterable[float] | None = None,
) -> Iterator[T]:
    """Iterate over ``items``, reporting each one done (``costs``: the cost of each item, in order;
    default 1 each, see the module docstring)."""
    weights = list(costs) if costs is not None else None
    whole = sum(weights) if weights is not None else total
    with task(description, whole, enabled=enabled, counted=weights is None) as t:
        for i, item in enumerate(items):
            yield item
            t.advance(weights[i] if weights is not None else 1.0)


def stages(
    names: Iterable[T],
    description: str = "",
    *,
    enabled: bool = True,
    seconds: float | Mapping[str, float] = 1.0,
) -> Iterator[T]:
    """Iterate over ``names``, each one a stage of one task (estimated ``seconds`` each until
    measured — or a mapping of modelled seconds per stage, then scaled by the measured speed of the
    stages done, :attr:`Task.speed`; a task opened while a stage runs reports into it, see the
    module docstring).

    >>> [s for s in stages(["a", "b"], "all", enabled=False)]
    ['a', 'b']
    """
    steps = list(names)
    if isinstance(seconds, Mapping):
        plan = {str(n): float(seconds.get(str(n), 1.0)) for n in steps}
    else:
        plan = dict.fromkeys(map(str, steps), float(seconds))
    modelled = isinstance(seconds, Mapping)
    with task(description, enabled=enabled, stages=plan, calibrated=modelled) as t:
        for step in steps:
            with t.stage(str(step)):
                yield step
