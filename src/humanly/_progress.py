"""Progress bars on stderr (rich), for steps slower than about a second. Never on stdout."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["progress"]

T = TypeVar("T")
_console = Console(stderr=True)


def progress(
    items: Iterable[T], *, total: int | None = None, description: str = "", enabled: bool = True
) -> Iterator[T]:
    """Iterate over ``items`` with a transient progress bar on stderr (only when stderr is a terminal
    and ``enabled``)."""
    if not enabled or not _console.is_terminal:
        yield from items
        return
    columns = (
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=_console, transient=True) as bar:
        task = bar.add_task(description, total=total)
        for item in items:
            yield item
            bar.advance(task)
