"""Readers and writers: ``.csv``, ``.tsv``, ``.parquet``, ``.jsonl``/``.json`` by extension, or DataFrames.

Column names are detected from common conventions so crowd-kit and cleanlab frames load as they are:

========  ===================================================================================
role      recognised names (case-insensitive, a leading ``!`` or ``#`` ignored)
========  ===================================================================================
item      item, task, item_id, question, task_id, question_id
rater     rater, worker, annotator, performer (and the same with ``_id``), worker_ids, amt_worker_ids
label     label, answer, response, rating
gold      label, gold, truth, gold_label, true_label
model     model
hard      prediction, predicted, pred
========  ===================================================================================

Any role can be named explicitly (``item_col=...``; on the command line ``--item-col``). Every problem is
reported as one :class:`~humanly.data.errors.InputError` line naming the file, line/row, column or value,
and what to do.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._atomic import atomic_path
from ._coding import code_labels, coerce_classes, ids_to_index, python_scalar, show
from .errors import InputError
from .predictions import Gold, ModelOutput, Predictions
from .ratings import DuplicatePolicy, Ratings

__all__ = [
    "GOLD_NAMES",
    "ITEM_NAMES",
    "LABEL_NAMES",
    "RATER_NAMES",
    "Table",
    "check_probabilities",
    "read_columns",
    "read_gold",
    "read_predictions",
    "read_ratings",
    "read_table",
    "write_table",
]

ITEM_NAMES = ("item", "task", "item_id", "question", "task_id", "question_id")
RATER_NAMES = (
    "rater",
    "worker",
    "annotator",
    "performer",
    "rater_id",
    "worker_id",
    "annotator_id",
    "performer_id",
    "worker_ids",
    "amt_worker_ids",
)
LABEL_NAMES = ("label", "answer", "response", "rating")
GOLD_NAMES = ("label", "gold", "truth", "gold_label", "true_label")
MODEL_NAMES = ("model",)
HARD_NAMES = ("prediction", "predicted", "pred")
PROB_NAMES = ("prob", "proba", "probability")

EXTENSIONS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".json": "json",
}
COMPRESSIONS = (".gz", ".bz2", ".xz", ".zst")

Source = str | os.PathLike[str] | pd.DataFrame

# Keep JSON values as written (ids stay text, no date parsing); pandas ≥ 3 deprecates convert_dates.
_JSON_OPTIONS: dict[str, Any] = {"dtype": False}
if int(pd.__version__.split(".")[0]) < 3:
    _JSON_OPTIONS["convert_dates"] = False


# ---------------------------------------------------------------------------------------- tables
@dataclass
class Table:
    """A DataFrame read from a file, with how to name its rows in error messages."""

    frame: pd.DataFrame
    name: str
    first_line: int | None  # line number of data row 0 for text formats, None -> "row N"

    def locate(self, i: int) -> str:
        if self.first_line is None:
            return f"{self.name} row {i + 1}"
        return f"{self.name} line {i + self.first_line}"

    @property
    def columns(self) -> list[str]:
        return [str(c) for c in self.frame.columns]


def _format_of(path: Path) -> str:
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] in COMPRESSIONS:
        suffixes = suffixes[:-1]
    ext = suffixes[-1] if suffixes else ""
    if ext not in EXTENSIONS:
        shown = ext or "(none)"
        raise InputError(
            f"{path}: unknown extension {shown}; use .csv, .tsv, .parquet, .jsonl or .json "
            "(rename or convert the file)"
        )
    return EXTENSIONS[ext]


def _unicode_error(path: Path) -> InputError:
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        byte = data[exc.start : exc.start + 1].hex()
        return InputError(
            f"{path} line {line}: byte 0x{byte} at offset {exc.start} is not UTF-8; re-save the file "
            "as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
        )
    return InputError(f"{path}: could not decode the file as UTF-8; re-save it as UTF-8")


def read_table(
    source: Source,
    *,
    text_columns: Callable[[list[str]], Sequence[str]] | None = None,
    name: str | None = None,
) -> Table:
    """Read a table by extension (or wrap a DataFrame), with one-line errors for unreadable input.

    ``text_columns(columns)`` names columns to read as text in CSV/TSV files (ids keep leading zeros).
    """
    if isinstance(source, pd.DataFrame):
        frame = source.reset_index(drop=True)
        label = name or "DataFrame"
        if frame.shape[1] == 0:
            raise InputError(f"{label}: no columns")
        if len(frame) == 0:
            raise InputError(f"{label}: no rows; give at least one")
        return Table(frame, label, None)

    path = Path(source)
    label = name or str(path)
    if not path.exists():
        raise InputError(f"{label}: no such file; check the path")
    if path.is_dir():
        parts = sorted(path.glob("*.parquet")) + sorted(path.glob("*.pq"))
        if not parts:
            raise InputError(
                f"{label}: is a directory, not a file; give the path of a ratings file "
                "(a directory must hold .parquet files to be read as a dataset)"
            )
        fmt = "parquet"
    else:
        fmt = _format_of(path)
        if path.stat().st_size == 0:
            raise InputError(
                f"{label}: file is empty (0 bytes); give a file with a header and rows"
            )

    try:
        if fmt in ("csv", "tsv"):
            sep = "," if fmt == "csv" else "\t"
            try:
                header = pd.read_csv(path, sep=sep, nrows=0, encoding="utf-8")
            except pd.errors.EmptyDataError:
                raise InputError(
                    f"{label}: file has no header or rows; give a file with a header and rows"
                ) from None
            columns = [str(c) for c in header.columns]
            dtype = {c: str for c in (text_columns(columns) if text_columns else [])}
            frame = pd.read_csv(
                path,
                sep=sep,
                encoding="utf-8",
                dtype=dtype or None,
                keep_default_na=False,
                na_values=[""],
                skipinitialspace=True,
                low_memory=False,
            )
            first_line: int | None = 2
        elif fmt == "parquet":
            frame = _read_parquet(path)
            first_line = None
        elif fmt == "jsonl":
            frame = pd.read_json(path, lines=True, **_JSON_OPTIONS)
            first_line = 1
        else:  # json: records array, columns object, or JSON lines saved as .json
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            stripped = text.lstrip()
            lines = [ln for ln in stripped.splitlines() if ln.strip()]
            as_lines = (
                stripped.startswith("{") and len(lines) > 1 and lines[1].lstrip().startswith("{")
            )
            from io import StringIO

            frame = pd.read_json(StringIO(text), lines=as_lines, orient=None, **_JSON_OPTIONS)
            first_line = 1 if as_lines else None
    except InputError:
        raise
    except UnicodeDecodeError:
        raise _unicode_error(path) from None
    except pd.errors.ParserError as exc:
        msg = " ".join(str(exc).split())
        raise InputError(
            f"{label}: could not parse as {fmt.upper()} ({msg}); fix the file"
        ) from None
    except (ValueError, OSError) as exc:
        msg = " ".join(str(exc).split())[:200]
        raise InputError(
            f"{label}: could not read as {fmt} ({msg}); check the file format"
        ) from None
    except Exception as exc:  # pyarrow errors and friends: still one line, never a traceback
        msg = " ".join(str(exc).split())[:200]
        raise InputError(
            f"{label}: could not read as {fmt} ({type(exc).__name__}: {msg})"
        ) from None

    if frame.shape[1] == 0:
        raise InputError(f"{label}: no columns found; give a file with a header and rows")
    if len(frame) == 0:
        raise InputError(f"{label}: has a header but no data rows; add rows")
    frame.columns = [str(c) for c in frame.columns]
    return Table(frame, label, first_line)


def read_columns(source: Source) -> list[str]:
    """The column names of a table, reading as little as possible (the header, or the schema)."""
    if isinstance(source, pd.DataFrame):
        return [str(c) for c in source.columns]
    path = Path(source)
    if path.is_dir() or _format_of(path) == "parquet":
        import pyarrow.parquet as pq

        return [f.name for f in pq.ParquetDataset(path).schema]
    fmt = _format_of(path)
    if fmt in ("csv", "tsv"):
        try:
            head = pd.read_csv(path, sep="," if fmt == "csv" else "\t", nrows=0, encoding="utf-8")
        except (pd.errors.EmptyDataError, UnicodeDecodeError, OSError, ValueError):
            return read_table(path).columns  # the full reader gives the right one-line error
        return [str(c) for c in head.columns]
    return read_table(path).columns


def _read_parquet(path: Path) -> pd.DataFrame:
    """Read Parquet with text columns as dictionaries: ids arrive already integer-coded (fast and small
    for millions of labels), as pandas Categoricals whose categories keep the file's order."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.ParquetDataset(path).schema
    text = [
        f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    table = pq.read_table(path, read_dictionary=text or None)
    columns: dict[str, Any] = {}
    for name in table.column_names:
        col = table.column(name)
        if pa.types.is_dictionary(col.type):
            columns[name] = _dictionary_to_categorical(col)
        else:
            columns[name] = col.to_pandas()
    return pd.DataFrame(columns, copy=False)


def _dictionary_to_categorical(col: Any) -> pd.Categorical:
    """A chunked Arrow dictionary column → one pandas Categorical.

    Chunks carry their own dictionaries; instead of unifying them in Arrow (hashing every row), factorise
    the concatenated small dictionaries once and remap each chunk's indices (O(rows), no string hashing).
    """
    chunks = [c for c in col.chunks if len(c)]
    if not chunks:
        return pd.Categorical([])
    import pyarrow as pa
    import pyarrow.compute as pc

    dicts = [c.dictionary for c in chunks]
    encoded = pc.dictionary_encode(pa.concat_arrays(dicts))
    global_codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)
    uniques = encoded.dictionary.to_pandas()
    offsets = np.concatenate([[0], np.cumsum([len(d) for d in dicts])])
    out = np.empty(sum(len(c) for c in chunks), dtype=np.int32)
    pos = 0
    for k, c in enumerate(chunks):
        idx = c.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        mapped = global_codes[offsets[k] : offsets[k + 1]][np.maximum(idx, 0)] if len(idx) else idx
        if c.null_count:
            mapped = np.where(c.is_null().to_numpy(zero_copy_only=False), -1, mapped)
        out[pos : pos + len(c)] = mapped
        pos += len(c)
    return pd.Categorical.from_codes(out, categories=pd.Index(uniques))


def write_table(frame: pd.DataFrame, path: str | os.PathLike[str]) -> Path:
    """Write ``frame`` by extension, atomically (temporary file in the same folder, then rename)."""
    target = Path(path)
    fmt = _format_of(target)
    with atomic_path(target) as tmp:
        if fmt == "csv":
            frame.to_csv(tmp, index=False)
        elif fmt == "tsv":
            frame.to_csv(tmp, index=False, sep="\t")
        elif fmt == "parquet":
            frame.to_parquet(tmp, index=False)
        elif fmt == "jsonl":
            frame.to_json(tmp, orient="records", lines=True)
        else:
            frame.to_json(tmp, orient="records")
    return target


# ---------------------------------------------------------------------------------------- columns
def _norm(name: str) -> str:
    return str(name).strip().lstrip("!#").strip().lower()


def _pick(
    table: Table,
    override: str | None,
    names: Sequence[str],
    role: str,
    option: str,
    *,
    required: bool = True,
    exclude: Sequence[str] = (),
) -> str | None:
    cols = table.columns
    if override is not None:
        if override not in cols:
            raise InputError(
                f"{table.name}: no column {override!r} for the {role} (columns: {', '.join(cols)}); "
                f"check {option}"
            )
        return override
    found = [c for c in cols if _norm(c) in names and c not in exclude]
    if len(found) == 1:
        return found[0]
    if len(found) > 1:
        raise InputError(
            f"{table.name}: several columns could be the {role} ({', '.join(found)}); choose one with "
            f"{option}"
        )
    if required:
        raise InputError(
            f"{table.name}: missing required {role} column (looked for {', '.join(names)}; columns: "
            f"{', '.join(cols)}); name it with {option}"
        )
    return None


def _id_text_columns(*groups: Sequence[str | None]) -> Callable[[list[str]], list[str]]:
    """CSV columns to read as text: explicitly named ones, else any matching an id convention."""

    def pick(columns: list[str]) -> list[str]:
        out: list[str] = []
        for group in groups:
            explicit = [g for g in group if g is not None and g in columns]
            out.extend(explicit)
        names = set(ITEM_NAMES) | set(RATER_NAMES) | set(MODEL_NAMES)
        out.extend(c for c in columns if _norm(c) in names)
        return list(dict.fromkeys(out))

    return pick


def _parse_counts_spec(
    spec: str | Sequence[str], columns: list[str], table: Table
) -> list[tuple[Any, str]]:
    """``e,n,c`` / ``CLASS=COL,...`` / a glob ``credCount*_ret`` / a prefix ``count_``."""
    if isinstance(spec, str) and "," not in spec and "=" not in spec and spec not in columns:
        pattern = spec if "*" in spec else spec + "*"
        matched = [c for c in columns if fnmatch.fnmatchcase(c, pattern)]
        if not matched:
            raise InputError(
                f"{table.name}: no columns match the counts pattern {pattern!r} "
                f"(columns: {', '.join(columns)}); check --counts"
            )
        star = pattern.index("*")
        tail = len(pattern) - star - 1
        names = [c[star : len(c) - tail] if tail else c[star:] for c in matched]
        classes = coerce_classes(names)
        pairs = list(zip(classes, matched, strict=True))
        if all(isinstance(c, int) for c in classes):
            pairs.sort(key=lambda p: p[0])
        return pairs
    entries = [e.strip() for e in spec.split(",")] if isinstance(spec, str) else list(spec)
    pairs = []
    for e in entries:
        if not e:
            continue
        cls_name, _, col = e.partition("=") if "=" in e else (e, "", e)
        if col not in columns:
            raise InputError(
                f"{table.name}: no count column {col!r} (columns: {', '.join(columns)}); check --counts"
            )
        pairs.append((cls_name, col))
    classes = coerce_classes([p[0] for p in pairs])
    return list(zip(classes, [p[1] for p in pairs], strict=True))


# ---------------------------------------------------------------------------------------- ratings
def read_ratings(
    source: Source,
    *,
    item_col: str | None = None,
    rater_col: str | None = None,
    label_col: str | None = None,
    classes: Sequence[Any] | None = None,
    wide: bool = False,
    rater_cols: Sequence[str] | None = None,
    counts: str | Sequence[str] | None = None,
    total_col: str | None = None,
    rest_class: str = "other",
    duplicates: DuplicatePolicy = "error",
    ignore_cols: Sequence[str] = (),
    name: str | None = None,
    stream: bool = False,
) -> Ratings:
    """Read ratings from a file or DataFrame into a :class:`~humanly.data.ratings.Ratings`.

    Three layouts:

    * **long** (default): one row per label with item, rater and label columns (detected by name);
    * **wide** (``wide=True``): one row per item, one column per rater or slot, blanks missing; rater
      columns are ``rater_cols`` or every column but the item column (and ``ignore_cols``);
    * **counts** (``counts=...``): one row per item, one count column per class. ``counts`` is a list
      ``"e,n,c"`` (class names = column names, or ``"CLASS=COL,..."``), a glob ``"credCount*_ret"``
      (classes = what ``*`` matched) or a prefix ``"n_"``. With ``total_col``, the count columns may
      omit one class, whose count is the total minus the others (named ``rest_class``, placed first).

    ``name`` labels the source in messages (default: the path, or "DataFrame").

    ``stream=True`` reads a long-format Parquet dataset (a file or a folder of files) in batches and keeps
    only per-item class counts (anonymous; memory proportional to items, not labels): see
    :func:`humanly.data.stream.read_counts_stream`.
    """
    if stream:
        if isinstance(source, pd.DataFrame) or wide or counts is not None:
            raise InputError(
                "--stream reads a long-format Parquet file or folder; drop --wide/--counts or --stream"
            )
        from .stream import read_counts_stream

        return read_counts_stream(
            source, item_col=item_col, label_col=label_col, classes=classes, name=name
        )
    frame_or_path = source
    src_name = name or ("DataFrame" if isinstance(source, pd.DataFrame) else str(source))

    if counts is not None:
        table = read_table(frame_or_path, text_columns=_id_text_columns([item_col]))
        return _ratings_from_counts(
            table, item_col, counts, total_col, rest_class, classes, src_name
        )
    if wide:
        table = read_table(frame_or_path, text_columns=_id_text_columns([item_col]))
        return _ratings_from_wide(table, item_col, rater_cols, ignore_cols, classes, src_name)
    table = read_table(frame_or_path, text_columns=_id_text_columns([item_col, rater_col]))
    icol = _pick(table, item_col, ITEM_NAMES, "item", "--item-col")
    rcol = _pick(table, rater_col, RATER_NAMES, "rater", "--rater-col")
    lcol = _pick(table, label_col, LABEL_NAMES, "label", "--label-col")
    assert icol and rcol and lcol
    df = table.frame
    return Ratings.from_long(
        df[icol],
        df[rcol],
        df[lcol],
        classes=classes,
        duplicates=duplicates,
        source=src_name,
        columns=(icol, rcol, lcol),
        locate=table.locate,
    )


def _ratings_from_counts(
    table: Table,
    item_col: str | None,
    spec: str | Sequence[str],
    total_col: str | None,
    rest_class: str,
    classes: Sequence[Any] | None,
    src_name: str,
) -> Ratings:
    df = table.frame
    icol = _pick(table, item_col, ITEM_NAMES, "item", "--item-col")
    assert icol is not None
    pairs = _parse_counts_spec(spec, table.columns, table)
    values = {}
    for cls_name, col in pairs:
        values[cls_name] = pd.to_numeric(df[col], errors="coerce").to_numpy(dtype=float)
        bad = ~np.isfinite(values[cls_name]) | (values[cls_name] < 0)
        bad |= values[cls_name] != np.round(values[cls_name])
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{table.locate(i)}: count {show(df[col].iloc[i])} in column '{col}' is not a "
                "non-negative integer; counts must be whole numbers of raters"
            )
    names = [p[0] for p in pairs]
    if total_col is not None:
        if total_col not in table.columns:
            raise InputError(
                f"{table.name}: no total column {total_col!r} (columns: {', '.join(table.columns)}); "
                "check --total"
            )
        total = pd.to_numeric(df[total_col], errors="coerce").to_numpy(dtype=float)
        rest = total - np.sum([values[n] for n in names], axis=0)
        bad = ~np.isfinite(rest) | (rest < 0) | (rest != np.round(rest))
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            raise InputError(
                f"{table.locate(i)}: total {show(df[total_col].iloc[i])} in column '{total_col}' is smaller "
                "than the sum of the class counts or not a whole number; fix the total"
            )
        rest_name = coerce_classes([rest_class])[0]
        if rest_name in names:
            raise InputError(
                f"--rest-class {rest_class!r} is already a class of the counts; choose another name"
            )
        names = [rest_name, *names]
        values[rest_name] = rest
    mat = np.column_stack([values[n] for n in names]).astype(np.int64)
    cls_ = tuple(python_scalar(n) for n in names)
    if classes is not None:
        declared = coerce_classes(classes)
        if set(map(str, declared)) != set(map(str, cls_)):
            raise InputError(
                f"{table.name}: declared classes {declared!r} differ from the count columns' classes "
                f"{cls_!r}; make them match"
            )
        order = [list(map(str, cls_)).index(str(c)) for c in declared]
        mat, cls_ = mat[:, order], tuple(cls_[j] for j in order)
    codes, item_index = ids_to_index(df[icol], column=icol, locate=table.locate)
    if len(item_index) != len(df):
        dup = pd.Series(codes).duplicated().to_numpy()
        i = int(np.flatnonzero(dup)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} appears on more than one row of a counts "
            "file; give one row per item"
        )
    return Ratings(items=item_index, classes=cls_, counts=mat, source=src_name)


def _ratings_from_wide(
    table: Table,
    item_col: str | None,
    rater_cols: Sequence[str] | None,
    ignore_cols: Sequence[str],
    classes: Sequence[Any] | None,
    src_name: str,
) -> Ratings:
    df = table.frame
    icol = _pick(table, item_col, ITEM_NAMES, "item", "--item-col")
    if rater_cols is None:
        rater_cols = [c for c in table.columns if c != icol and c not in ignore_cols]
    for c in rater_cols:
        if c not in table.columns:
            raise InputError(f"{table.name}: no rater column {c!r}; check --rater-cols")
    if not rater_cols:
        raise InputError(f"{table.name}: no rater columns besides the item column '{icol}'")
    n_rows = len(df)
    item_codes, item_index = ids_to_index(df[icol], column=str(icol), locate=table.locate)
    if len(item_index) != n_rows:
        dup = pd.Series(item_codes).duplicated().to_numpy()
        i = int(np.flatnonzero(dup)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} appears on more than one row of a wide "
            "file; give one row per item"
        )
    block = df[list(rater_cols)]
    stacked = block.to_numpy(dtype=object).ravel()  # row-major: item-major order
    rows = np.repeat(np.arange(n_rows), len(rater_cols))
    raters = np.tile(np.arange(len(rater_cols)), n_rows)
    series = pd.Series(stacked)
    codes, cls_ = code_labels(
        series,
        classes,
        column="rater columns",
        locate=lambda k: f"{table.locate(int(rows[k]))} column '{rater_cols[int(raters[k])]}'",
        allow_missing=True,
    )
    keep = codes >= 0
    if not keep.any():
        raise InputError(f"{table.name}: every rater cell is blank; there are no labels")
    return Ratings(
        items=item_index,
        classes=cls_,
        item_codes=item_codes[rows[keep]],
        rater_codes=raters[keep].astype(np.int32),
        label_codes=codes[keep],
        raters=pd.Index([str(c) for c in rater_cols]),
        source=src_name,
    )


# ---------------------------------------------------------------------------------------- predictions
def check_probabilities(p: np.ndarray, where: Callable[[int], str], tol: float = 1e-6) -> None:
    """Raise :class:`InputError` for NaN, negative, >1 or rows not summing to 1 (± ``tol``)."""
    bad_nan = ~np.isfinite(p).all(axis=1)
    if bad_nan.any():
        i = int(np.flatnonzero(bad_nan)[0])
        raise InputError(
            f"{where(i)}: probability is missing or not a number; give a value in [0, 1]"
        )
    bad_neg = (p < 0).any(axis=1) | (p > 1).any(axis=1)
    if bad_neg.any():
        i = int(np.flatnonzero(bad_neg)[0])
        v = p[i][(p[i] < 0) | (p[i] > 1)][0]
        raise InputError(f"{where(i)}: probability {v:g} is outside [0, 1]; fix it")
    sums = p.sum(axis=1)
    bad_sum = np.abs(sums - 1) > tol
    if bad_sum.any():
        i = int(np.flatnonzero(bad_sum)[0])
        raise InputError(
            f"{where(i)}: probabilities sum to {sums[i]:.6g}, not 1 (±{tol:g}); normalise each row"
        )


def read_predictions(
    source: Source,
    *,
    classes: Sequence[Any] | None = None,
    item_col: str | None = None,
    model_col: str | None = None,
    prediction_col: str | None = None,
    prob_prefix: str = "prob_",
    prob_col: str | None = None,
    score_col: str | None = None,
    positive: Any = None,
    model_name: str | None = None,
) -> Predictions:
    """Read model outputs: hard ``prediction``, ``prob_<class>`` columns, one ``prob`` column (two
    classes: probability of ``positive``, default the second class) or a real-valued ``score_col``.

    An optional ``model`` column holds several models in one file (one row per item and model); each
    model's kind is read from the columns its rows fill, so a hard and a soft model can share a file
    (blank cells where a column does not apply). ``classes`` should be the ratings' classes; hard
    predictions outside them are an error.
    """
    src_name = "DataFrame" if isinstance(source, pd.DataFrame) else str(source)
    table = read_table(source, text_columns=_id_text_columns([item_col, model_col]))
    df = table.frame
    cols = table.columns
    icol = _pick(table, item_col, ITEM_NAMES, "item", "--item-col")
    mcol = _pick(table, model_col, MODEL_NAMES, "model", "--model-col", required=False)
    assert icol is not None
    cls_ = coerce_classes(classes) if classes is not None else None

    # candidate column groups, by kind
    groups: dict[str, list[str]] = {}
    if score_col is not None:
        groups["score"] = [str(_pick(table, score_col, (), "score", "--score-col"))]
    if prediction_col is not None:
        groups["label"] = [str(_pick(table, prediction_col, (), "prediction", "--prediction-col"))]
    if prob_col is not None:
        groups["prob1"] = [str(_pick(table, prob_col, (), "probability", "--prob-col"))]
    if not groups:
        hard = [c for c in cols if _norm(c) in HARD_NAMES]
        single = [c for c in cols if _norm(c) in PROB_NAMES]
        multi = [c for c in cols if c.startswith(prob_prefix) and len(c) > len(prob_prefix)]
        for kind, found in (("label", hard), ("prob1", single), ("proba", multi)):
            if len(found) > 1 and kind != "proba":
                raise InputError(
                    f"{table.name}: several columns could be the prediction ({', '.join(found)}); "
                    "choose one with --prediction-col or --prob-col"
                )
            if found:
                groups[kind] = found
    if not groups:
        raise InputError(
            f"{table.name}: no prediction columns (columns: {', '.join(cols)}); give a "
            f"'prediction' column, one '{prob_prefix}<class>' column per class, or a single 'prob' "
            "column for two classes (or name one with --prediction-col/--prob-col/--score-col)"
        )

    # classes the outputs refer to
    if "proba" in groups:
        suffixes = coerce_classes([c[len(prob_prefix) :] for c in groups["proba"]])
        if cls_ is None:
            cls_ = suffixes
        if sorted(map(str, suffixes)) != sorted(map(str, cls_)):
            raise InputError(
                f"{table.name}: prediction columns {', '.join(groups['proba'])} do not match the "
                f"classes {cls_!r}; give exactly one '{prob_prefix}<class>' column per class"
            )
        order = [list(map(str, suffixes)).index(str(c)) for c in cls_]
        groups["proba"] = [groups["proba"][j] for j in order]
    if cls_ is None and "label" in groups:
        _, cls_ = code_labels(
            df[groups["label"][0]],
            None,
            column=groups["label"][0],
            locate=table.locate,
            allow_missing=True,
        )
    if cls_ is None:
        cls_ = (0, 1)

    # items and models
    item_codes, item_index = ids_to_index(df[icol], column=str(icol), locate=table.locate)
    if mcol is None:
        if len(groups) > 1:
            found = ", ".join(c for cols in groups.values() for c in cols)
            raise InputError(
                f"{table.name}: several kinds of prediction columns ({found}) but no model column; "
                "choose one with --prediction-col, --prob-col or --score-col, or add a 'model' column"
            )
        explicit = score_col or prob_col or prediction_col
        default = model_name or (explicit if explicit else Path(src_name).stem)
        model_codes = np.zeros(len(df), dtype=np.int64)
        model_names: list[str] = [str(default)]
    else:
        mc, mi = ids_to_index(df[mcol], column=mcol, locate=table.locate)
        model_codes, model_names = mc.astype(np.int64), [str(x) for x in mi]
    key = model_codes * len(item_index) + item_codes
    dup = pd.Series(key).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        raise InputError(
            f"{table.locate(i)}: more than one prediction for item {show(df[icol].iloc[i])}"
            + (f" and model {show(df[mcol].iloc[i])}" if mcol else "")
            + "; give one row per item (and model)"
        )
    models = []
    for m, mname in enumerate(model_names):
        rows = np.flatnonzero(model_codes == m)
        if len(rows) != len(item_index):
            have = np.zeros(len(item_index), dtype=bool)
            have[item_codes[rows]] = True
            missing_item = item_index[~have][0]
            raise InputError(
                f"{table.name}: model {mname!r} has no prediction for {int((~have).sum())} item(s) "
                f"that other models predict (first: {show(missing_item)}); give every model every item"
            )
        kind, values = _model_outputs(table, rows, groups, cls_, positive, mname)
        out = np.empty_like(values)
        out[item_codes[rows]] = values
        models.append(ModelOutput(mname, kind, out))  # type: ignore[arg-type]
    return Predictions(item_index, cls_, models, source=src_name)


def _model_outputs(
    table: Table,
    rows: np.ndarray,
    groups: dict[str, list[str]],
    classes: tuple[Any, ...],
    positive: Any,
    model: str,
) -> tuple[str, np.ndarray]:
    """The kind and values of one model's outputs (its ``rows`` of the table)."""
    df = table.frame
    sub = df.iloc[rows]

    def locate(k: int) -> str:
        return table.locate(int(rows[k]))

    filled = {k: bool(sub[c].notna().all(axis=None)) for k, c in groups.items()}
    usable = [k for k, ok in filled.items() if ok]
    if len(groups) == 1:
        usable = list(groups)
    if len(usable) != 1:
        names = ", ".join(c for cols in groups.values() for c in cols)
        what = "several complete" if usable else "no complete"
        raise InputError(
            f"{table.name}: model {model!r} has {what} prediction columns among {names}; fill exactly "
            "one kind per model (blank the others) or choose with --prediction-col/--prob-col"
        )
    kind = usable[0]
    cols = groups[kind]
    if kind == "label":
        codes, _ = code_labels(sub[cols[0]], classes, column=cols[0], locate=locate)
        return "label", codes
    if kind == "score":
        s = pd.to_numeric(sub[cols[0]], errors="coerce").to_numpy(dtype=float)
        if not np.isfinite(s).all():
            i = int(np.flatnonzero(~np.isfinite(s))[0])
            raise InputError(
                f"{locate(i)}: score {show(sub[cols[0]].iloc[i])} in column '{cols[0]}' is not a finite "
                "number; fix it"
            )
        return "score", s
    if kind == "proba":
        raw = sub[cols].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
        check_probabilities(raw, locate)
        return "proba", raw
    # a single positive-class probability
    if len(classes) != 2:
        raise InputError(
            f"{table.name}: a single probability column '{cols[0]}' needs two classes, but there are "
            f"{len(classes)} {classes!r}; give one 'prob_<class>' column per class"
        )
    pos = classes[1] if positive is None else coerce_classes([positive])[0]
    if str(pos) not in map(str, classes):
        raise InputError(f"--positive {positive!r} is not one of the classes {classes!r}")
    j = list(map(str, classes)).index(str(pos))
    p1 = pd.to_numeric(sub[cols[0]], errors="coerce").to_numpy(dtype=float)
    values = np.empty((len(p1), 2))
    values[:, j], values[:, 1 - j] = p1, 1 - p1
    check_probabilities(values, locate)
    return "proba", values


def read_gold(
    source: Source,
    *,
    classes: Sequence[Any] | None = None,
    item_col: str | None = None,
    label_col: str | None = None,
) -> Gold:
    """Read gold (oracle) labels: columns ``item`` and ``label`` (or ``gold``/``truth``).

    An item may appear on several rows (e.g. gold stored beside each rating) if they agree.
    """
    src_name = "DataFrame" if isinstance(source, pd.DataFrame) else str(source)
    table = read_table(source, text_columns=_id_text_columns([item_col]))
    icol = _pick(table, item_col, ITEM_NAMES, "item", "--item-col")
    lcol = _pick(table, label_col, GOLD_NAMES, "gold label", "--gold-col")
    df = table.frame
    codes, cls_ = code_labels(df[lcol], classes, column=str(lcol), locate=table.locate)
    item_codes, item_index = ids_to_index(df[icol], column=str(icol), locate=table.locate)
    out = np.full(len(item_index), -1, dtype=np.int16)
    out[item_codes] = codes
    conflict = out[item_codes] != codes
    if conflict.any():
        i = int(np.flatnonzero(conflict)[0])
        raise InputError(
            f"{table.locate(i)}: item {show(df[icol].iloc[i])} has conflicting gold labels; give one gold "
            "label per item"
        )
    return Gold(item_index, cls_, out, source=src_name)
