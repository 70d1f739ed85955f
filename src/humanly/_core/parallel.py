"""Run independent tasks in-process or on dask.distributed, with identical results either way.

Every task is a top-level (picklable) function called with its own arguments; a task that draws random
numbers must derive its generator from ``(seed, task index)`` with :func:`humanly._core.rng.stream`, never
from worker order, so the same seed gives the same numbers in-process, on one worker or on many.
Results come back in task order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, TypeVar

from ..errors import InputError, setting
from .progress import progress

__all__ = ["beside", "check_workers", "dask_client", "require_dask", "run_tasks"]

T = TypeVar("T")
U = TypeVar("U")


def beside(side: Callable[[], T], main: Callable[[], U]) -> tuple[U, T]:
    """``(main(), side())``, with ``side`` run on a second thread while ``main`` runs on this one: for
    two independent numpy-heavy steps (numpy lets go of the interpreter in its long loops, so on two
    cores they overlap). Each gives what it would give alone; an exception in either is raised here.

    >>> beside(lambda: 2, lambda: 1)
    (1, 2)
    """
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        pending = pool.submit(side)
        first = main()
        return first, pending.result()


def check_workers(workers: int | None, scheduler: str | None) -> None:
    """One-line errors for ``workers`` / ``scheduler`` misuse, and for either without the optional
    ``dask`` extra installed."""
    if workers is not None and scheduler is not None:
        raise InputError(
            f"{setting('workers')} starts a local cluster and {setting('scheduler')} uses one; give one of "
            "them"
        )
    if workers is not None and (isinstance(workers, bool) or not isinstance(workers, int)):
        raise TypeError(f"workers={workers!r}: give a whole number of worker processes")
    if workers is not None and workers < 1:
        raise InputError(
            f"{setting('workers', workers)}: give a positive number of worker processes"
        )
    if workers is not None or scheduler is not None:
        require_dask(
            setting("workers", workers) if workers is not None else setting("scheduler", scheduler)
        )


def require_dask(what: str) -> None:
    """Raise one line naming the extra to install when dask.distributed is missing."""
    import importlib.util

    if importlib.util.find_spec("distributed") is None:
        raise InputError(
            f"{what} runs on dask.distributed, which is not installed; install the extra with "
            "pip install 'humanly[dask]' or run without it (in-process gives the same numbers)"
        )


@contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator[Any]:
    """A dask.distributed Client: a LocalCluster of ``workers`` single-threaded processes, or a
    connection to ``scheduler`` (an address such as ``tcp://10.0.0.5:8786``)."""
    check_workers(workers, scheduler)
    from distributed import Client, LocalCluster

    if scheduler is not None:
        try:
            client = Client(scheduler, timeout="10s")
        except OSError as exc:
            raise InputError(
                f"{setting('scheduler', scheduler)}: cannot connect ({exc}); check the address"
            ) from None
        try:
            yield client
        finally:
            client.close()
        return
    with (
        LocalCluster(
            n_workers=workers or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=40,
        ) as cluster,
        Client(cluster) as client,
    ):
        yield client


def run_tasks(
    fn: Callable[..., T],
    args: Sequence[tuple[Any, ...]],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    client: Any = None,
    description: str = "",
    show_progress: bool = True,
) -> list[T]:
    """``[fn(*a) for a in args]``, in-process (default) or on dask.distributed.

    ``client``: an existing Client (takes precedence); else ``workers`` starts a LocalCluster and
    ``scheduler`` connects to a running one. Results are returned in the order of ``args``.
    """
    if client is None and workers is None and scheduler is None:
        return [
            fn(*a)
            for a in progress(args, total=len(args), description=description, enabled=show_progress)
        ]
    if client is not None:
        return _on_client(client, fn, args, description, show_progress)
    with dask_client(workers, scheduler) as new_client:
        return _on_client(new_client, fn, args, description, show_progress)


def _on_client(
    client: Any,
    fn: Callable[..., T],
    args: Sequence[tuple[Any, ...]],
    description: str,
    show_progress: bool,
) -> list[T]:
    from distributed import as_completed

    futures = [client.submit(fn, *a, pure=False) for a in args]
    index = {f.key: i for i, f in enumerate(futures)}
    results: list[Any] = [None] * len(futures)
    for future in progress(
        as_completed(futures), total=len(futures), description=description, enabled=show_progress
    ):
        results[index[future.key]] = future.result()
    return results
