"""Values of the ``humanly budget`` options that are lists, ranges or files: parsed here, with one-line
errors naming the option (the commands in :mod:`humanly.cli.budget_cmd` stay short)."""

from __future__ import annotations

from pathlib import Path

from ..errors import InputError

#: A confusion matrix as nested lists (rows: the true class).
Matrix = list[list[float]]

__all__ = ["budgets", "chunks", "confusions", "floats", "ints", "matrix_file", "prior", "rules"]


def ints(values: list[str] | None, default: tuple[int, ...], option: str) -> tuple[int, ...]:
    """``['1,3', '5']`` → ``(1, 3, 5)``; nothing → ``default``."""
    if not values:
        return default
    out = []
    for part in (p.strip() for v in values for p in str(v).split(",")):
        if not part:
            continue
        try:
            out.append(int(part))
        except ValueError:
            raise InputError(
                f"{option} {part!r}: give whole numbers, e.g. {option} 1 3 5"
            ) from None
    if not out:
        raise InputError(f"{option}: give at least one value")
    return tuple(out)


def budgets(values: list[str] | None) -> list[int] | None:
    """``['1500,1800']`` → ``[1500, 1800]``; ``['30:3000:30']`` → 30, 60, …, 3000 (the end included)."""
    if not values:
        return None
    out: list[int] = []
    for part in (p.strip() for v in values for p in str(v).split(",")):
        if ":" in part:
            bits = part.split(":")
            try:
                start, stop, step = (int(b) for b in bits) if len(bits) == 3 else (0, 0, 0)
            except ValueError:
                start = stop = step = 0
            if step < 1 or start < 1 or stop < start:
                raise InputError(
                    f"--budgets {part!r}: give START:STOP:STEP with 1 ≤ START ≤ STOP and STEP ≥ 1, "
                    "e.g. --budgets 30:3000:30"
                )
            out.extend(range(start, stop + 1, step))
        elif part:
            out.extend(ints([part], (), "--budgets"))
    return out or None


def chunks(value: str | None) -> list[int] | None:
    """``'0-2,5'`` → ``[0, 1, 2, 5]``."""
    if value is None:
        return None
    out: list[int] = []
    try:
        for part in value.split(","):
            if "-" in part:
                lo, hi = part.split("-", 1)
                out.extend(range(int(lo), int(hi) + 1))
            elif part.strip():
                out.append(int(part))
    except ValueError:
        raise InputError(f"--chunks {value!r}: give indices and ranges, e.g. 0-9,20") from None
    return out


def floats(values: list[str] | None, option: str) -> list[float] | None:
    if not values:
        return None
    out = []
    for part in (p.strip() for v in values for p in str(v).split(",")):
        try:
            out.append(float(part))
        except ValueError:
            raise InputError(
                f"{option} {part!r}: give numbers, e.g. {option} 0.5,0.3,0.2"
            ) from None
    return out


def matrix_file(path: Path, option: str) -> list[list[float]]:
    """A K × K confusion matrix from a CSV file (rows: the true class; an optional header row and an
    optional first column of class names)."""
    import csv

    if not path.is_file():
        raise InputError(f"{option} {path}: no such file")
    with open(path, newline="", encoding="utf-8") as fh:
        rows = [[c.strip() for c in row] for row in csv.reader(fh) if any(c.strip() for c in row)]

    def number(cell: str) -> float | None:
        try:
            return float(cell)
        except ValueError:
            return None

    if rows and any(number(c) is None for c in rows[0]):
        rows = rows[1:]  # a header of class names
    if rows and all(number(r[0]) is None for r in rows):
        rows = [r[1:] for r in rows]  # a first column of class names
    values = [[number(c) for c in r] for r in rows]
    k = len(values)
    if k < 2 or any(len(r) != k or any(v is None for v in r) for r in values):
        raise InputError(
            f"{option} {path}: give a square K × K table of probabilities (K ≥ 2; rows the true "
            "class), optionally with a header row and a first column of class names"
        )
    return [[float(v) for v in r if v is not None] for r in values]


def confusions(
    n_classes: int | None,
    q: float | None,
    p: float | None,
    eps: float | None,
    files: dict[str, Path | None],
) -> tuple[Matrix, Matrix, Matrix]:
    """The crowd's, the better and the worse classifier's confusion matrices (in the order of
    ``files``: ``--labels``, ``--better``, ``--worse``): read from the files given, else symmetric with
    K = ``n_classes`` (or the files' K) and accuracy q, p + ε and p."""
    from ..budget import symmetric_confusion

    mats = {k: None if v is None else matrix_file(v, k) for k, v in files.items()}
    sizes = {len(v) for v in mats.values() if v is not None} | (
        set() if n_classes is None else {n_classes}
    )
    if len(sizes) > 1:
        raise InputError(
            "--labels, --better, --worse, --n-classes: give confusion matrices of one size K"
        )
    k = next(iter(sizes), None)
    for flag, value in (("--q", q), ("--p", p)):
        if value is not None and not 0 <= value <= 1:
            raise InputError(f"{flag} {value:g}: give a probability in [0, 1]")
    if p is not None and eps is not None and not 0 < eps <= 1 - p:
        raise InputError(
            f"--eps {eps:g}: give ε ∈ (0, 1 − p] (the better classifier's accuracy p + ε ≤ 1)"
        )
    accuracy = dict(zip(files, (q, None if p is None or eps is None else p + eps, p), strict=True))
    out: list[Matrix] = []
    for flag, matrix in mats.items():
        if matrix is None:
            acc = accuracy[flag]
            if k is None or acc is None:
                raise InputError(
                    f"{flag}: give --n-classes K with --q, --p and --eps (symmetric confusion: the "
                    f"crowd right with probability q, the classifiers with p + ε and p), or "
                    f"{flag} FILE"
                )
            matrix = symmetric_confusion(k, acc).tolist()
        out.append(matrix)
    return out[0], out[1], out[2]


def prior(values: list[str] | None, n_classes: int) -> list[float] | None:
    """``--prior 0.5,0.3,0.2``: K class probabilities summing to 1 (None: uniform)."""
    out = floats(values, "--prior")
    if out is None:
        return None
    if len(out) != n_classes or any(v < 0 for v in out) or abs(sum(out) - 1.0) > 1e-9:
        shown = ",".join(f"{v:g}" for v in out)
        raise InputError(
            f"--prior {shown}: give {n_classes} class probabilities (≥ 0) summing to 1, one per class"
        )
    return out


def rules(values: list[str] | None) -> list[str]:
    """``--rules plurality,majority`` → ``['plurality', 'majority']`` (both when not given)."""
    out = [r.strip() for v in values or ["plurality,majority"] for r in v.split(",") if r.strip()]
    if not out:
        raise InputError(
            "--rules: give plurality, majority or both, e.g. --rules plurality,majority"
        )
    return out
