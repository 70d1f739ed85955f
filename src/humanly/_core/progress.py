"""Progress bars on stderr (rich, loaded on first use), for steps slower than about a second. Never on
stdout; nothing when stderr is not a terminal."""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

__all__ = ["progress"]

T = TypeVar("T")


def progress(
    items: Iterable[T], *, total: int | None = None, description: str = "", enabled: bool = True
) -> Iterator[T]:
    """Iterate over ``items`` with a transient progress bar on stderr (only when stderr is a terminal
    and ``enabled``).

    >>> list(progress(range(3), total=3, description="demo"))
    [0, 1, 2]
    """
    if not enabled or not sys.stderr.isatty():
        yield from items
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    if not console.is_terminal:
        yield from items
        return
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)
