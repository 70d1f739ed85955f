"""Progress of the steps that can take more than a few seconds, on stderr (never on stdout).

Three ways to be seen, chosen from where stderr goes:

* a terminal: a transient bar (rich, loaded on first use);
* anything else — a file, a pipe, a CI log, a notebook cell: one short line every
  :data:`INTERVAL` seconds (``humanly: bootstrap: 120/500 (24%), 10 s, about 32 s left``), and a last
  line when a step that printed one ends; a step shorter than the interval prints nothing;
* nothing, when the caller says so (``enabled=False``, the Python API's ``progress=False``) or the
  command line runs with ``--quiet`` (:func:`set_quiet`).

A step is either an iterable (:func:`progress`) or a :func:`task` advanced by hand (an EM that does
not know how many steps it will take gives no total).

>>> list(progress(range(3), total=3, description="demo"))
[0, 1, 2]
>>> with task("fit", enabled=False) as t:
...     t.advance()
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

__all__ = ["INTERVAL", "Task", "progress", "set_quiet", "task"]

T = TypeVar("T")

#: Seconds between two progress lines when stderr is not a terminal (``HUMANLY_PROGRESS_INTERVAL``).
INTERVAL = 10.0

_QUIET = False
_BAR_OPEN = False  # a terminal shows one live bar at a time: a step inside a barred step shows none


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
    """One step being reported: :meth:`advance` it; the report ends when the ``with`` block does."""

    def __init__(self, description: str, total: int | None, mode: str) -> None:
        self.description, self.total, self.mode = description, total, mode
        self.done = 0
        self.start = self.last = time.monotonic()
        self.printed = False
        self._bar: Any = None
        self._id: Any = None

    def _open(self) -> None:
        if self.mode != "bar":
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        columns = (
            TextColumn("[progress.description]{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
        )
        global _BAR_OPEN
        self._bar = Progress(*columns, console=Console(stderr=True), transient=True)
        self._bar.start()
        _BAR_OPEN = True
        self._id = self._bar.add_task(self.description, total=self.total)

    def advance(self, n: int = 1) -> None:
        """``n`` more units done."""
        self.done += n
        if self.mode == "bar":
            self._bar.advance(self._id, n)
        elif self.mode == "lines":
            now = time.monotonic()
            if now - self.last >= _interval():
                self.last = now
                self._line(now)

    def _line(self, now: float, final: bool = False) -> None:
        elapsed = now - self.start
        if final:
            text = f"{self.description}: done in {_seconds(elapsed)}"
        elif self.total:
            share = self.done / self.total
            text = f"{self.description}: {self.done:,}/{self.total:,} ({share:.0%}), {_seconds(elapsed)}"
            if 0 < share < 1:
                text += f", about {_seconds(elapsed * (1 - share) / share)} left"
        else:
            text = f"{self.description}: {self.done:,} steps, {_seconds(elapsed)}"
        print(f"humanly: {text}", file=sys.stderr, flush=True)
        self.printed = True

    def close(self) -> None:
        global _BAR_OPEN
        if self.mode == "bar" and self._bar is not None:
            self._bar.stop()
            _BAR_OPEN = False
        elif self.mode == "lines" and self.printed:
            self._line(time.monotonic(), final=True)


def _mode(enabled: bool) -> str:
    if not enabled or _QUIET:
        return "off"
    if sys.stderr.isatty():
        return "off" if _BAR_OPEN else "bar"
    return "lines"


@contextmanager
def task(description: str, total: int | None = None, *, enabled: bool = True) -> Iterator[Task]:
    """A step reported while the block runs (see the module docstring)."""
    t = Task(description, total, _mode(enabled))
    t._open()
    try:
        yield t
    finally:
        t.close()


def progress(
    items: Iterable[T], *, total: int | None = None, description: str = "", enabled: bool = True
) -> Iterator[T]:
    """Iterate over ``items``, reporting each one done (see the module docstring)."""
    with task(description, total, enabled=enabled) as t:
        for item in items:
            yield item
            t.advance()
