"""Tables by file extension: ``.csv``, ``.tsv``, ``.parquet`` (a file or a folder of files), ``.jsonl``
and ``.json`` (optionally compressed: ``.gz``, ``.bz2``, ``.xz``, ``.zst``), or a DataFrame.

:func:`read_table` returns a :class:`Table`: the frame plus how to name its rows in error messages
("ratings.csv line 7"), so every reader reports problems as one line that points at the data.

>>> import pandas as pd
>>> t = read_table(pd.DataFrame({"item": ["a", "b"], "label": [1, 0]}))
>>> t.columns, t.locate(1)
(['item', 'label'], 'DataFrame row 2')
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from io import StringIO
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._core.atomic import atomic_path
from ..errors import InputError

__all__ = [
    "COMPRESSIONS",
    "EXTENSIONS",
    "Source",
    "Table",
    "column_to_pandas",
    "dictionary_codes",
    "format_of",
    "read_columns",
    "read_table",
    "source_name",
    "write_table",
]

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

#: What a table reader accepts: a path or a DataFrame.
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
        """Where data row ``i`` (0-based) is, for an error message: ``"r.csv line 3"``."""
        if self.first_line is None:
            return f"{self.name} row {i + 1}"
        return f"{self.name} line {i + self.first_line}"

    @property
    def columns(self) -> list[str]:
        """The column names, as text."""
        return [str(c) for c in self.frame.columns]


def source_name(path: str | os.PathLike[str]) -> str:
    """The name a file gives what it holds (a judge, a model) when none is given: its file name
    without a compression suffix and a table extension; other dots stay (``gpt-3.5-turbo``).

    >>> source_name("data/judge-gpt-3.5-turbo.jsonl"), source_name("llm.csv.gz"), source_name("a.b")
    ('judge-gpt-3.5-turbo', 'llm', 'a.b')
    """
    name = Path(path).name
    for suffixes in (COMPRESSIONS, tuple(EXTENSIONS)):
        low = name.lower()
        cut = next((s for s in suffixes if low.endswith(s) and len(name) > len(s)), None)
        if cut is not None:
            name = name[: -len(cut)]
    return name


def format_of(path: Path) -> str:
    """The table format of ``path`` by its extension (compression suffixes skipped).

    >>> format_of(Path("ratings.tsv.gz"))
    'tsv'
    """
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
    columns: Sequence[str] | None = None,
) -> Table:
    """Read a table by extension (or wrap a DataFrame), with one-line errors for unreadable input.

    ``text_columns(columns)`` names columns to read as text in CSV/TSV files (ids keep leading zeros);
    ``name`` labels the table in messages (default: the path, or ``"DataFrame"``); ``columns``, when
    given, are the only columns kept (a Parquet file's others are not read; each must exist).
    Column names become text.

    >>> read_table(pd.DataFrame({"item": []}))
    Traceback (most recent call last):
    humanly.errors.InputError: DataFrame: no rows; give at least one
    """
    if isinstance(source, pd.DataFrame):
        return _wrap_frame(source, name or "DataFrame")
    path = Path(source)
    label = name or str(path)
    fmt = _checked_format(path, label)
    try:
        frame, first_line = _read_format(path, fmt, label, text_columns, columns)
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
    frame.columns = pd.Index([str(c) for c in frame.columns])
    if columns is not None and fmt != "parquet":
        frame = frame[list(columns)]
    return Table(frame, label, first_line)


def _wrap_frame(source: pd.DataFrame, label: str) -> Table:
    frame = source.reset_index(drop=True)
    if any(not isinstance(c, str) for c in frame.columns):
        frame.columns = pd.Index([str(c) for c in frame.columns])  # e.g. cleanlab's 0..M-1
    if frame.shape[1] == 0:
        raise InputError(f"{label}: no columns")
    if len(frame) == 0:
        raise InputError(f"{label}: no rows; give at least one")
    return Table(frame, label, None)


def _checked_format(path: Path, label: str) -> str:
    """The format of an existing, non-empty file, or ``parquet`` for a folder of Parquet files."""
    if not path.exists():
        raise InputError(f"{label}: no such file; check the path")
    if path.is_dir():
        parts = sorted(path.glob("*.parquet")) + sorted(path.glob("*.pq"))
        if not parts:
            raise InputError(
                f"{label}: is a directory, not a file; give the path of a file (a directory is "
                "read only as a dataset of .parquet files)"
            )
        return "parquet"
    fmt = format_of(path)
    if path.stat().st_size == 0:
        raise InputError(f"{label}: file is empty (0 bytes); give a file with a header and rows")
    return fmt


def _read_format(
    path: Path,
    fmt: str,
    label: str,
    text_columns: Callable[[list[str]], Sequence[str]] | None,
    columns: Sequence[str] | None = None,
) -> tuple[pd.DataFrame, int | None]:
    """The frame and the line number of its first data row (``None``: rows are counted, not lines);
    a Parquet file's ``columns`` only, when given (the caller keeps them of any other format)."""
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
        fast = _read_csv_fast(path, sep, dtype)
        if fast is not None:
            return fast, 2
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
        return frame, 2
    if fmt == "parquet":
        return _read_parquet(path, columns), None
    if fmt == "jsonl":
        frame = pd.read_json(path, lines=True, **_JSON_OPTIONS)
        return _flat_json(frame, label, 1, text_columns), 1
    # json: records array, columns object, or JSON lines saved as .json
    with open(path, encoding="utf-8") as fh:
        text = fh.read()
    stripped = text.lstrip()
    lines = [ln for ln in stripped.splitlines() if ln.strip()]
    as_lines = stripped.startswith("{") and len(lines) > 1 and lines[1].lstrip().startswith("{")
    frame = pd.read_json(StringIO(text), lines=as_lines, orient=None, **_JSON_OPTIONS)
    first = 1 if as_lines else None
    return _flat_json(frame, label, first, text_columns), first


#: bytes read to decide whether the fast CSV parser applies
_SNIFF_BYTES = 1 << 16


def _read_csv_fast(path: Path, sep: str, dtype: dict[str, Any]) -> pd.DataFrame | None:
    """The CSV through pyarrow's multithreaded parser (several times faster than pandas' own), with the
    same reading rules: id columns as text, only empty cells missing. ``None`` — read it with pandas'
    parser, whose messages name the line — when the file's start has a space after a separator
    (pandas strips it: ``skipinitialspace``), is compressed, or pyarrow cannot read it."""
    if path.suffix.lower() not in (".csv", ".tsv"):
        return None
    with open(path, "rb") as fh:
        head = fh.read(_SNIFF_BYTES)
    sep_b = sep.encode()
    if sep_b + b" " in head or sep_b + b"\t" in head or b"\n " in head or head.startswith(b" "):
        return None
    if b"\r" in head:  # \r\n line ends: leave them to pandas' parser
        return None
    try:
        frame = pd.read_csv(
            path,
            sep=sep,
            engine="pyarrow",
            encoding="utf-8",
            dtype=dtype or None,
            keep_default_na=False,
            na_values=[""],
        )
    except Exception:  # any problem: pandas' parser reads it or says where
        return None
    for col in frame.columns:  # text that is not UTF-8 arrives as bytes: pandas' parser says where
        if frame[col].dtype == object and any(isinstance(v, bytes) for v in frame[col]):
            return None
    return frame


def _flat_json(
    frame: pd.DataFrame,
    label: str,
    first_line: int | None,
    text_columns: Callable[[list[str]], Sequence[str]] | None,
) -> pd.DataFrame:
    """JSON cells holding objects or arrays: an error in an id column (an id must be text or a
    number), their JSON text elsewhere (so an unused nested column does not stop the reading)."""
    ids = set(text_columns([str(c) for c in frame.columns])) if text_columns else set()
    for col in frame.columns:
        if frame[col].dtype != object:
            continue
        nested = frame[col].map(lambda v: isinstance(v, (dict, list))).to_numpy(dtype=bool)
        if not nested.any():
            continue
        i = int(np.flatnonzero(nested)[0])
        value = json.dumps(frame[col].iloc[i], sort_keys=True)
        if str(col) in ids:
            where = f"line {i + first_line}" if first_line is not None else f"row {i + 1}"
            shown = value if len(value) <= 40 else value[:37] + "..."
            raise InputError(
                f"{label} {where}: id {shown} in column '{col}' is a JSON "
                f"{'object' if value.startswith('{') else 'array'}; ids must be text or numbers "
                "(write the id as one value, e.g. a string)"
            )
        frame[col] = frame[col].map(
            lambda v: json.dumps(v, sort_keys=True) if isinstance(v, (dict, list)) else v
        )
    return frame


def read_columns(source: Source) -> list[str]:
    """The column names of a table, reading as little as possible (the header, or the schema).

    >>> read_columns(pd.DataFrame({"item": [1], 0: [2]}))
    ['item', '0']
    """
    if isinstance(source, pd.DataFrame):
        return [str(c) for c in source.columns]
    path = Path(source)
    if path.is_dir() or format_of(path) == "parquet":
        import pyarrow.parquet as pq

        return [f.name for f in pq.ParquetDataset(path).schema]
    fmt = format_of(path)
    if fmt in ("csv", "tsv"):
        try:
            head = pd.read_csv(path, sep="," if fmt == "csv" else "\t", nrows=0, encoding="utf-8")
        except (pd.errors.EmptyDataError, UnicodeDecodeError, OSError, ValueError):
            return read_table(path).columns  # the full reader gives the right one-line error
        return [str(c) for c in head.columns]
    return read_table(path).columns


def _read_parquet(path: Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """Read Parquet with text columns as dictionaries: ids arrive already integer-coded (fast and small
    for millions of labels), as pandas Categoricals whose categories keep the file's order; only
    ``columns`` (in that order) when given."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pq.ParquetDataset(path).schema
    text = [
        f.name for f in schema if pa.types.is_string(f.type) or pa.types.is_large_string(f.type)
    ]
    if columns is not None:
        text = [c for c in text if c in columns]
    wanted = None if columns is None else list(columns)
    table = pq.read_table(path, columns=wanted, read_dictionary=text or None)
    frame = {name: column_to_pandas(table.column(name)) for name in table.column_names}
    return pd.DataFrame(frame, copy=False)


def column_to_pandas(col: Any) -> Any:
    """One column of an Arrow table as :func:`read_table` holds it: a dictionary column as a pandas
    Categorical, any other as pandas converts it."""
    import pyarrow as pa

    if pa.types.is_dictionary(col.type):
        return _dictionary_to_categorical(col)
    return col.to_pandas()


def _dictionary_to_categorical(col: Any) -> pd.Categorical:
    """A chunked Arrow dictionary column → one pandas Categorical (:func:`dictionary_codes`)."""
    got = dictionary_codes(col)
    if got is None:
        return pd.Categorical([])
    codes, values, unified = got
    if not unified:  # one dictionary: codes are the indices
        try:
            return pd.Categorical.from_codes(codes, categories=pd.Index(values.to_pandas()))
        except ValueError:  # a dictionary holding a value twice: unify below
            again = dictionary_codes(col, unify=True)
            assert again is not None
            codes, values = again[0], again[1]
    return pd.Categorical.from_codes(codes, categories=pd.Index(values.to_pandas()))


def dictionary_codes(col: Any, *, unify: bool = False) -> tuple[np.ndarray, Any, bool] | None:
    """The codes (int32, -1 for a null) and values (a pyarrow array) of a chunked Arrow dictionary
    column, and whether the values were unified here (then distinct); ``None`` for no rows.

    Chunks carry their own dictionaries; instead of unifying them in Arrow (hashing every row), factorise
    the concatenated small dictionaries once and remap each chunk's indices (O(rows), no string hashing).
    One dictionary shared by every chunk, with no null, is taken as it is (``unify`` unifies it too:
    the caller found a value twice in it).
    """
    chunks = [c for c in col.chunks if len(c)]
    if not chunks:
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    dicts = [c.dictionary for c in chunks]
    same = all(d is dicts[0] or d.equals(dicts[0]) for d in dicts[1:])
    if same and not unify and not any(c.null_count for c in chunks):
        codes = np.concatenate(
            [c.indices.to_numpy(zero_copy_only=False).astype(np.int32) for c in chunks]
        )
        return codes, dicts[0], False
    # batches of one row group share its dictionary: hash each distinct dictionary once
    distinct: list[Any] = []
    which = []
    for d in dicts:
        if not distinct or not (d is distinct[-1] or d.equals(distinct[-1])):
            distinct.append(d)
        which.append(len(distinct) - 1)
    encoded = pc.dictionary_encode(pa.concat_arrays(distinct))
    global_codes = encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)
    offsets = np.concatenate([[0], np.cumsum([len(d) for d in distinct])])
    out = np.empty(sum(len(c) for c in chunks), dtype=np.int32)
    pos = 0
    for k, c in enumerate(chunks):
        idx = c.indices.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64, copy=False)
        w = which[k]
        mapped = global_codes[offsets[w] : offsets[w + 1]][np.maximum(idx, 0)] if len(idx) else idx
        if c.null_count:
            mapped = np.where(c.is_null().to_numpy(zero_copy_only=False), -1, mapped)
        out[pos : pos + len(c)] = mapped
        pos += len(c)
    return out, encoded.dictionary, True


def write_table(frame: pd.DataFrame, path: str | os.PathLike[str], *, force: bool = True) -> Path:
    """Write ``frame`` by extension, atomically (temporary file in the same folder, then rename).

    ``force=False`` never replaces an existing file: the file is published by an exclusive link, so of
    two writers of the same new file exactly one succeeds and the other raises
    :class:`~humanly._core.atomic.OutputExists` (an :class:`InputError`).

    >>> import tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = write_table(pd.DataFrame({"item": ["a"], "label": [1]}), Path(folder) / "r.csv")
    >>> read_table(path).frame.to_dict("list")
    {'item': ['a'], 'label': [1]}
    """
    target = Path(path)
    fmt = format_of(target)
    with atomic_path(target, overwrite=force) as tmp:
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
