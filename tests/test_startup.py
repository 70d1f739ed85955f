"""Fast start: ``humanly --help`` and every ``COMMAND --help`` import none of numpy, pandas, scipy,
matplotlib or pyarrow; ``import humanly`` and ``InputError`` are as light; a command imports what it
uses only (reading a CSV loads no matplotlib). Checked on ``sys.modules`` in fresh processes (wall times
are too noisy for a test: ``benchmarks/`` measures them)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numpy", "pandas", "scipy", "matplotlib", "pyarrow")

_RUN = """
import json, sys
sys.argv = ["humanly", *json.loads(sys.argv[1])]
try:
    from humanly.cli import main
    main()
except SystemExit:
    pass
sys.stderr.write("\\nMODULES " + json.dumps(sorted(sys.modules)))
"""


def loaded(*args: str, cwd: Path | None = None, submodules: bool = False) -> set[str]:
    """Top-level modules (every module with ``submodules``) loaded by ``humanly ARGS`` in a fresh
    process."""
    res = subprocess.run(
        [sys.executable, "-c", _RUN, json.dumps(list(args))],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )
    line = res.stderr.rsplit("MODULES ", 1)[-1]
    return {m for m in json.loads(line) if submodules or "." not in m}


def _commands() -> list[list[str]]:
    import typer.main

    from humanly.cli import app

    root = typer.main.get_command(app)
    out = [[]]
    for name, cmd in root.commands.items():  # type: ignore[attr-defined]
        out.append([name])
        out.extend([name, sub] for sub in getattr(cmd, "commands", {}) or {})
    return out


def test_every_help_is_light() -> None:
    """One process per help page would take long; one process runs them all, in turn."""
    code = (
        "import sys\nfrom humanly.cli import app\n"
        f"for args in {_commands()!r}:\n"
        "    try:\n"
        "        app([*args, '--help'], prog_name='humanly')\n"
        "    except SystemExit as e:\n"
        "        assert e.code in (0, None), (args, e.code)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["certify", "--help"], ["budget"]])
def test_help_and_version_load_no_heavy_library(args: list[str]) -> None:
    assert not loaded(*args) & set(HEAVY)


def test_import_humanly_and_input_error_are_light() -> None:
    code = (
        "import sys, humanly\nfrom humanly import InputError\nfrom humanly.data import InputError\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))"
    )
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and res.stdout.strip() == "[]", res.stderr


def test_reading_a_csv_loads_no_matplotlib(tmp_path: Path) -> None:
    ratings = tmp_path / "r.csv"
    ratings.write_text("item,rater,label\na,r1,x\na,r2,y\nb,r1,x\nb,r2,x\n", encoding="utf-8")
    mods = loaded("inspect", str(ratings), "--json")
    assert "pandas" in mods and "matplotlib" not in mods


def test_budget_win_loads_no_matplotlib() -> None:
    mods = loaded("budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8", "--json")
    assert "matplotlib" not in mods


def test_budget_win_loads_no_pandas() -> None:
    mods = loaded("budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8", "--json")
    assert not mods & {"pandas", "pyarrow", "scipy.stats", "matplotlib"}


@pytest.fixture(scope="module")
def running_example(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """``humanly equivalence`` on the running example (the paper's defaults), as its arguments."""
    from humanly.simulate import running_example as example

    paths = example(200, 10, seed=0).write(tmp_path_factory.mktemp("re") / "re.csv")
    return ["equivalence", str(paths["ratings"]), "--predictions", str(paths["predictions"]),
            "--combiner", "abc", "--scorer", "cross_entropy", "--bootstrap", "20"]  # fmt: skip


def test_equivalence_loads_no_crowd_model(running_example: list[str]) -> None:
    """Only target panels fit the crowd (Dawid–Skene, latent classes): the running example does not
    load them. It calibrates by default, which loads scipy.optimize on use and nothing else of SciPy's
    slow sub-packages."""
    mods = loaded(*running_example, submodules=True)
    assert "humanly.survey.api" in mods  # the command ran
    assert not {m for m in mods if m.startswith("humanly.crowd")}
    assert not mods & {"scipy.stats", "matplotlib", "humanly.budget", "humanly.certification"}


def test_equivalence_without_calibration_loads_no_scipy(running_example: list[str]) -> None:
    mods = loaded(*running_example, "--calibrate", "none", submodules=True)
    assert "humanly.survey.api" in mods
    assert not {m for m in mods if m == "scipy" or m.startswith("scipy.")}


def test_budget_names_stay_importable_and_callable() -> None:
    """Lazy names of humanly.budget: functions named like a module stay the function (the modules are
    called comparison, planning, analysis, rate_tables)."""
    import humanly.budget as b

    for name in b.__all__:
        assert getattr(b, name) is not None
    import humanly.budget.planning  # noqa: F401  (a submodule import must not shadow the function)

    assert callable(b.plan) and callable(b.pilot_plan) and callable(b.compare) and callable(b.rates)


def test_lazy_names_stay_importable() -> None:
    import humanly
    import humanly.data

    for module in (humanly, humanly.data):
        assert set(module.__all__) <= set(dir(module))
        for name in module.__all__:
            assert getattr(module, name) is not None, name
    from humanly import Ratings, read_study

    assert humanly.data.Ratings is Ratings and humanly.read_study is read_study
    with pytest.raises(AttributeError):
        _ = humanly.no_such_name  # type: ignore[attr-defined]


def test_the_script_ends_with_the_commands_status_and_all_its_output(tmp_path: Path) -> None:
    """``python -m humanly`` exits without the interpreter's teardown (``humanly.cli.finish``): the
    command's exit status and every byte it printed survive, and a profiler still gets its file."""
    run = [sys.executable, "-m", "humanly"]
    ok = subprocess.run(
        [*run, "budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8", "--json"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert ok.returncode == 0 and json.loads(ok.stdout)
    bad = subprocess.run(
        [*run, "inspect", str(tmp_path / "missing.csv")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    profile = tmp_path / "p.out"
    prof = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "humanly", "--help"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert prof.returncode == 0 and profile.stat().st_size > 0


def test_the_script_gives_arrow_the_c_allocator_unless_told_otherwise() -> None:
    """``humanly.cli.run`` sets ``ARROW_DEFAULT_MEMORY_POOL=system`` before pyarrow loads (fewer page
    faults on million-row Parquet files, see ``run``'s docstring) and keeps a value the user set."""
    probe = (
        "import os, humanly.cli as c\n"
        "c.main = lambda: print(os.environ['ARROW_DEFAULT_MEMORY_POOL'])\n"
        "c.run()\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "ARROW_DEFAULT_MEMORY_POOL"}
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert (got.returncode, got.stdout.strip()) == (0, "system"), got.stderr
    env["ARROW_DEFAULT_MEMORY_POOL"] = "mimalloc"
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env)
    assert got.stdout.strip() == "mimalloc", got.stderr
