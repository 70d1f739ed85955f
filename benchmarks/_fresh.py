"""Shared source for the benchmarks that time each run in a fresh Python process (load, scale, stream).

``PEAK_MB`` is prepended to a child's source: it defines ``_peak_mb()``, the child's own resident
high-water mark in MB. It reads VmHWM from ``/proc/self/status`` because ``ru_maxrss`` inherits the
parent's peak across fork + exec (falling back to ``ru_maxrss`` where ``/proc`` is absent).
"""

PEAK_MB = r"""
import resource
def _peak_mb():
    try:
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmHWM")) / 1024
    except (OSError, StopIteration):
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""
