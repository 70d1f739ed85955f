"""Shared source for the benchmarks that time each run in a fresh Python process (load, scale, stream).

``PEAK_MB`` is prepended to a child's source: it defines ``_peak_mb()``, the child's own resident
high-water mark in MB. It reads VmHWM from ``/proc/self/status`` because ``ru_maxrss`` inherits the
parent's peak across fork + exec (falling back to ``ru_maxrss`` where ``/proc`` is absent).

:func:`as_installed` makes fresh processes load humanly as a user's install does: ``pip install``
compiles every module to bytecode, so a user's process never compiles humanly's source. An editable
checkout under ``PYTHONDONTWRITEBYTECODE=1`` would compile ~100 modules in every timed process
(~0.05–0.1 s each run on the 2-core machine), which a user never pays.
"""

import compileall
import os
from pathlib import Path


def as_installed() -> None:
    """Compile humanly's modules to bytecode and let child processes read it (see the docstring)."""
    import humanly

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    compileall.compile_dir(str(Path(humanly.__file__).parent), quiet=1)


PEAK_MB = r"""
import resource
def _peak_mb():
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""
