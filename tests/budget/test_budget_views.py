"""What ``humanly budget`` prints (issue 15): bounds named as bounds, whole numbers of classifiers, the
tie rules of every result, the plan's estimator, fit and assumption tests in words, the verdict sentences
after the tables (never with ``--json``), and the commands for Theorem 2, Fig. 3 a and K classes."""

from __future__ import annotations

from pathlib import Path

import pytest

FIG1 = ["--p", "0.75", "--eps", "0.1", "--q", "0.75"]
FIG2 = ["--p", "0.8", "--eps", "0.01", "--q", "0.8"]
FIG3 = ["--p", "0.7", "--eps", "0.1", "--q", "0.75"]
COIN = "ties in an even-m vote: coin (M_2k = M_2k−1)"
FAILURE = "ties in an even-m vote: failure (Lemma C.1)"


@pytest.fixture(scope="module")
def pilot(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    from humanly.simulate import pair

    d = tmp_path_factory.mktemp("pilot")
    data = pair(2000, 5, q_b=0.85, q_w=0.75, p_w=0.7, p_b0=0.6, p_b1=0.9, seed=1)
    return data.write(d / "pilot.csv")


def _plan(cli, pilot: dict[str, Path], *args: str):
    return cli(
        "budget", "plan", pilot["ratings"], "--predictions", pilot["predictions"],
        "--bootstrap", "100", *args,
    )  # fmt: skip


# --------------------------------------------------------------------------- win, size, capacity
def test_win_names_the_bounds_the_tie_rules_and_ends_with_the_verdict(cli) -> None:
    r = cli("budget", "win", *FIG2)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    for header in ("exact", "Hoeffding", "Cramér", "lower bound"):
        assert header in out
    assert "hoeffding" not in out and "cramer" not in out  # the JSON keys are not the headers
    assert COIN in out and "a tied comparison (ΣG = 0) counts as a loss" in out
    last = out.strip().splitlines()[-1]
    assert last == (
        "With 1,500 labels, single labels identify the better of two classifiers 1 point apart "
        "(accuracies 0.81 vs 0.80) with probability 0.652 (exact); 3-label majorities reach 0.609, "
        "5-label majorities 0.588."
    )
    assert "0.652366" in out and "0.608816" in out  # the sentence's numbers are in the table


def test_win_json_stays_json_with_named_bounds(cli) -> None:
    r = cli("budget", "win", *FIG2, "--json")
    d = r.json()
    assert d["vote_ties"] == "coin" and "With 1,500" not in r.stdout
    for row in d["rows"]:
        assert 0 <= row["win_hoeffding_bound"] <= row["win_cramer_bound"] <= row["exact"]
        assert not {"hoeffding", "cramer"} & set(row)


def test_vote_ties_failure_is_said(cli) -> None:
    for cmd, extra in (("win", []), ("size", []), ("capacity", []), ("rates", [])):
        r = cli(
            "budget", cmd, *FIG2, "--labels-per-item", "1", "2", "--vote-ties", "failure", *extra
        )
        assert r.exit_code == 0, (cmd, r.stderr)
        assert FAILURE in r.stdout, cmd


def test_capacity_prints_whole_numbers_of_classifiers(cli) -> None:
    r = cli("budget", "capacity", *FIG1)
    assert r.exit_code == 0, r.stderr
    row = next(line for line in r.stdout.splitlines() if line.strip("│ ").startswith("1 "))
    cells = [c.strip() for c in row.strip("│").split("│")]
    assert cells[:5] == ["1", "1,500", "141", "16", "0"]
    assert "141.95" not in r.stdout and "16.76" not in r.stdout
    assert "guaranteed by" in r.stdout and COIN in r.stdout


def test_size_names_the_bounds_and_plots_budgets(cli, tmp_path: Path) -> None:
    out = tmp_path / "size.svg"
    r = cli("budget", "size", *FIG2, "--labels-per-item", "1", "3", "--plot", out)
    assert r.exit_code == 0, r.stderr
    assert "guaranteed by" in r.stdout and "by Hoeffding" in r.stdout  # headers wrap at 80 columns
    assert "23,762" in r.stdout and COIN in r.stdout
    svg = out.read_text(encoding="utf-8")
    assert "label budget k" in svg and "23,762" in svg  # the budget figure, bars labelled
    assert "log error" not in svg


# --------------------------------------------------------------------------- plan
def test_plan_says_how_it_estimated_and_what_the_tests_found(cli, pilot) -> None:
    r = _plan(cli, pilot)
    assert r.exit_code == 0, r.stderr
    out = r.stdout
    assert "latent-class estimate (EM over the true label)" in out
    assert "proxy truth" not in out and "VIOLATED" not in out and "holds" not in out
    assert (
        "latent variant: simple (BIC " in out
        and "chosen by BIC" in out
        and "bootstrap: simple" in out
    )
    assert "EM converged in " in out and "bootstrap fits converged" in out
    assert "assumption 1 (q_b ≥ q_w): q_b − q_w = " in out and "95% interval" in out
    assert "assumption 2 (eq. 3, m = 3)" in out and "→ consistent" in out
    assert "guaranteed by Cramér bound" in out and "by Hoeffding bound" in out and COIN in out
    assert "recommendation: m = 1, budget 106 labels (106 items)" in out
    assert (
        out.strip()
        .splitlines()[-1]
        .startswith(
            "Label 106 items once (m = 1, 106 labels): under the latent-class estimates from the "
            "2,000-item pilot this ranks the better of 'better' and 'worse' first with probability "
            "≥ 0.95"
        )
    )


def test_plan_method_and_latent_variant_flags(cli, pilot) -> None:
    fixed = _plan(cli, pilot, "--latent-variant", "full", "--json").json()["pilot"]
    assert fixed["latent_variant"] == "full" and fixed["fit"]["selection"] == "fixed"
    shown = _plan(cli, pilot, "--latent-variant", "full")
    assert (
        "latent variant: full (BIC" in shown.stdout and "fixed by --latent-variant" in shown.stdout
    )
    gone = _plan(cli, pilot, "--latent-model", "full")  # the retired flag
    assert gone.exit_code == 2 and "--latent-model" in gone.stderr
    majority = _plan(cli, pilot, "--estimator", "majority", "--budget", "300")
    assert majority.exit_code == 0, majority.stderr
    assert "crowd-majority estimate" in majority.stdout and "biased" in majority.stdout
    assert "EM converged" not in majority.stdout
    assert "Hoeffding lower bound" not in majority.stdout  # headers wrap; the words are there
    assert "Hoeffding" in majority.stdout and "budget 300 labels" in majority.stdout
    assert "under the crowd-majority estimates (biased" in majority.stdout


def test_plan_refuses_gold_in_one_line_saying_why(cli, pilot) -> None:
    r = _plan(cli, pilot, "--gold", pilot["gold"])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "does not use gold labels" in r.stderr
    assert "proxy truth" not in r.stderr


def test_plan_plot_title_fits_and_the_curves_reach_the_budget(cli, pilot, tmp_path: Path) -> None:
    out = tmp_path / "plan.svg"
    r = _plan(cli, pilot, "--plot", out)
    assert r.exit_code == 0, r.stderr
    svg = out.read_text(encoding="utf-8")
    assert "latent-class estimates" in svg and "better vs worse" in svg


def test_plan_title_fits_its_axes_with_long_model_names() -> None:
    from humanly.budget import CorrelatedErrors, win_curve
    from humanly.plots.budget import win_vs_budget_figure

    title = (
        "Fig. 2 b at the pilot's latent-class estimates: roberta-large-finetuned-on-everything "
        "vs bert-base-uncased-distilled-v2"
    )
    curve = win_curve(CorrelatedErrors(0.85, 0.75, 0.7, 0.6, 0.9), (1, 3), range(5, 500, 50))
    fig = win_vs_budget_figure(curve, title=title)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    ax = fig.axes[0]
    assert ax.title.get_window_extent(renderer).width <= ax.get_window_extent(renderer).width + 1


# --------------------------------------------------------------------------- new commands
def test_rates_table_and_plot(cli, tmp_path: Path) -> None:
    out = tmp_path / "rates.png"
    r = cli("budget", "rates", *FIG3, "--labels-per-item", "1", "3", "--plot", out)
    assert r.exit_code == 0, r.stderr
    assert "Cramér per" in r.stdout and "Hoeffding" in r.stdout
    assert "-0.00330931" in r.stdout and "-0.00209688" in r.stdout
    assert "best m (most negative Cramér rate per label, Theorem 2): 1" in r.stdout
    assert out.stat().st_size > 1000
    d = cli("budget", "rates", *FIG3, "--labels-per-item", "1", "3", "--json").json()
    assert d["best_labels_per_item"] == 1 and [row["labels_per_item"] for row in d["rows"]] == [
        1,
        3,
    ]


def test_rates_plot_needs_the_independent_model(cli, tmp_path: Path) -> None:
    args = ["--q-b", "0.8", "--q-w", "0.7", "--p-w", "0.6", "--p-b0", "0.7", "--p-b1", "0.9"]
    assert cli("budget", "rates", *args).exit_code == 0
    r = cli("budget", "rates", *args, "--plot", tmp_path / "r.png")
    assert r.exit_code == 2 and "--p, --eps and --q" in r.stderr and r.stderr.count("\n") == 1
    assert not (tmp_path / "r.png").exists()


def test_convergence_says_where_the_bounds_decide(cli, tmp_path: Path) -> None:
    out = tmp_path / "conv.svg"
    r = cli("budget", "convergence", *FIG3, "--plot", out)
    assert r.exit_code == 0, r.stderr
    assert "the bounds alone decide from k ≥ 1,785" in r.stdout and "m = 1 is better" in r.stdout
    assert "1,785" in r.stdout.split("the bounds alone")[0]  # the crossing's row is in the table
    assert "k ≥ 1,785" in out.read_text(encoding="utf-8")
    fine = cli("budget", "convergence", *FIG3, "--budgets", "1500:2100:30", "--json").json()
    assert fine["crossing"] == 1800  # the paper's "around k = 1800"
    listed = cli("budget", "convergence", *FIG3, "--budgets", "1500,1800,2100", "--json").json()
    assert sorted({p["budget"] for p in listed["points"]}) == [1500, 1800, 2100]


def test_convergence_without_a_crossing_says_so(cli) -> None:
    r = cli("budget", "convergence", *FIG3, "--budgets", "30:300:30")
    assert r.exit_code == 0, r.stderr
    assert "do not decide on this grid (up to k = 300)" in r.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--budgets", "3000:30"], "--budgets '3000:30'"),
        (
            ["--budgets", "2", "--labels-per-item", "3"],
            "at least the largest number of labels per item (3)",
        ),
    ],
)
def test_convergence_bad_budgets(cli, args: list[str], fragment: str) -> None:
    r = cli("budget", "convergence", *FIG3, *args)
    assert r.exit_code == 2 and fragment in r.stderr and r.stderr.count("\n") == 1


def test_cramer_convergence_refuses_budgets_below_m() -> None:
    from humanly.budget import IndependentErrors, cramer_convergence
    from humanly.data import InputError

    with pytest.raises(InputError, match="largest m"):
        cramer_convergence(IndependentErrors(0.7, 0.1, 0.75), (1, 3), [1, 2])


MULTI = ["--n-classes", "4", "--q", "0.7", "--p", "0.7", "--eps", "0.05", "--budget", "600"]


def test_multiclass_symmetric(cli) -> None:
    r = cli("budget", "multiclass", *MULTI, "--labels-per-item", "1", "3")
    assert r.exit_code == 0, r.stderr
    for header in ("rule", "items n", "label accuracy", "no label", "win (exact)"):
        assert header in r.stdout
    assert "0.893553" in r.stdout and "0.80208" in r.stdout and "0.809127" in r.stdout
    assert "best: m = 1 (plurality)" in r.stdout
    assert "a tie among the most frequent at random" in r.stdout and "no test label" in r.stdout
    d = cli("budget", "multiclass", *MULTI, "--labels-per-item", "1", "3", "--json").json()
    assert d["best"] == "m = 1 (plurality)" and len(d["rows"]) == 4
    one = cli(
        "budget", "multiclass", *MULTI, "--labels-per-item", "3", "--rules", "majority", "--json"
    ).json()
    assert [(row["labels_per_item"], row["rule"]) for row in one["rows"]] == [(3, "majority")]


def test_multiclass_from_confusion_files_and_prior(cli, tmp_path: Path) -> None:
    from humanly.budget import symmetric_confusion

    def write(name: str, acc: float, header: bool) -> Path:
        rows = symmetric_confusion(4, acc).tolist()
        lines = (["truth,a,b,c,d"] if header else []) + [
            (f"{'abcd'[i]}," if header else "") + ",".join(repr(v) for v in r)
            for i, r in enumerate(rows)
        ]
        path = tmp_path / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    files = [
        "--labels", write("labels.csv", 0.7, True), "--better", write("better.csv", 0.75, False),
        "--worse", write("worse.csv", 0.7, True),
    ]  # fmt: skip
    a = cli(
        "budget", "multiclass", *files, "--budget", "600", "--labels-per-item", "1", "3", "--json"
    ).json()
    b = cli("budget", "multiclass", *MULTI, "--labels-per-item", "1", "3", "--json").json()
    assert a["rows"] == b["rows"]
    skewed = cli(
        "budget",
        "multiclass",
        *MULTI,
        "--labels-per-item",
        "1",
        "--prior",
        "0.4,0.3,0.2,0.1",
        "--json",
    ).json()
    assert skewed["setting"]["prior"] == [0.4, 0.3, 0.2, 0.1]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--q", "0.7"], "--labels: give --n-classes K"),
        (["--n-classes", "3", "--q", "0.7", "--p", "0.7"], "--better: give --n-classes K"),
        ([*MULTI, "--prior", "0.5,0.5"], "--prior 0.5,0.5: give 4 class probabilities"),
        ([*MULTI, "--rules", ","], "--rules: give plurality, majority or both"),
        ([*MULTI, "--rules", "best"], "--rules best"),
        (["--n-classes", "3", "--q", "1.7", "--p", "0.7", "--eps", "0.1"], "--q 1.7"),
        (["--n-classes", "3", "--q", "0.7", "--p", "0.7", "--eps", "0.4"], "--eps 0.4"),
        (["--labels", "no-such.csv", "--p", "0.7", "--eps", "0.1"], "--labels no-such.csv"),
    ],
)
def test_multiclass_bad_input_is_one_line(cli, args: list[str], fragment: str) -> None:
    r = cli("budget", "multiclass", *args)
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and fragment in r.stderr, r.stderr


def test_multiclass_refuses_a_matrix_that_is_not_square(cli, tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("0.7,0.3\n0.2,0.8\n0.5,0.5\n", encoding="utf-8")
    r = cli(
        "budget", "multiclass", "--labels", bad, "--p", "0.7", "--eps", "0.1", "--n-classes", "2"
    )
    assert r.exit_code == 2 and "square K × K" in r.stderr and r.stderr.count("\n") == 1


def test_open_says_how_ties_are_broken(cli) -> None:
    r = cli(
        "budget",
        "open",
        *FIG3,
        "--n-classes",
        "3",
        "--simulations",
        "50",
        "--labels-per-item",
        "1",
        "3",
    )
    assert r.exit_code == 0, r.stderr
    assert "broken at random" in r.stdout
