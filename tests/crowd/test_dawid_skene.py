"""Dawid–Skene at scale: many starts screened and the best polished, the stopping rule on the
parameters, the memory guard, and the comparison with crowd-kit (1.4.2, test-only:
``pytest.importorskip``) on simulated ragged data, on a simulated analogue of the TREC relevance crowd
(``ds_sim.py``) and on the shared data sets (Snow et al.'s RTE, TEMP and WSD, the product data)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from ds_sim import relevance_like
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

import humanly
from humanly.crowd import _ds_em as em
from humanly.crowd._ds_starts import RANDOM_STARTS, STARTS, Start, start_posteriors
from humanly.crowd.dawid_skene import DISAGREE, DawidSkeneFit, dawid_skene
from humanly.verdicts.notes import notes_text


def _ragged(seed: int, n_items: int, n_raters: int, n_classes: int = 4) -> humanly.Ratings:
    """1–7 labels per item from raters of very unequal activity (Pareto weights), accuracies
    uniform on [0.35, 0.95], a wrong label uniform over the other classes: a sparse, ragged design
    whose likelihood has flat ridges and several local maxima."""
    rng = np.random.default_rng(seed)
    truth = rng.choice(n_classes, n_items, p=np.array([4, 3, 2, 1][:n_classes]) / 10)
    acc = rng.uniform(0.35, 0.95, n_raters)
    items = np.repeat(np.arange(n_items), rng.integers(1, 8, n_items))
    w = rng.pareto(1.0, n_raters) + 0.1
    raters = rng.choice(n_raters, len(items), p=w / w.sum())
    frame = pd.DataFrame({"item": items, "rater": raters}).drop_duplicates()
    items, raters = frame.item.to_numpy(), frame.rater.to_numpy()
    right = rng.random(len(items)) < acc[raters]
    wrong = (truth[items] + rng.integers(1, n_classes, len(items))) % n_classes
    labels = np.where(right, truth[items], wrong)
    return humanly.Ratings.from_long(items, raters, labels, classes=list(range(n_classes)))


def _crowdkit_log_likelihood(r: humanly.Ratings, fitted) -> tuple[float, np.ndarray]:
    """crowd-kit's fitted prior and confusion matrices scored by our log-likelihood."""
    n_c = r.n_classes
    theta = np.zeros((r.n_raters, n_c, n_c))
    for (worker, label), row in fitted.errors_.iterrows():
        theta[int(worker), :, int(label)] = row.reindex(range(n_c)).to_numpy()
    prior = fitted.priors_.reindex(range(n_c)).to_numpy()
    loglik = em.log_likelihood(prior, theta, em.codes(r, r.n_raters))
    return loglik, np.einsum("c,rcc->r", prior, theta)


def _crowdkit_frame(r: humanly.Ratings) -> pd.DataFrame:
    return pd.DataFrame({"task": r.item_codes, "worker": r.rater_codes, "label": r.label_codes})


@pytest.mark.slow
def test_twenty_thousand_items_fast_and_at_least_as_likely_as_crowd_kit():
    """20,000 items, 800 raters, 4 classes, ragged (about 70,000 labels): the 22 starts screened and
    the best polished take ≤ 8 s of CPU time (measured 3–4 s CPU on the shared 2-core machine), and
    the fit's log-likelihood is at least crowd-kit's (its default stopping rule, tol 1e-5 on the
    loss)."""
    ck = pytest.importorskip("crowdkit.aggregation")
    r = _ragged(0, 20_000, 800)
    t0 = time.process_time()  # CPU time: the machine's other jobs do not count against the fit
    fit = dawid_skene(r)
    elapsed = time.process_time() - t0
    assert fit.converged
    assert elapsed <= 8.0, elapsed
    theirs, _ = _crowdkit_log_likelihood(
        r, ck.DawidSkene(n_iter=100, tol=1e-5).fit(_crowdkit_frame(r))
    )
    assert fit.log_likelihood >= theirs


@pytest.mark.slow
def test_relevance_analogue_against_crowd_kit():
    """10⁵ items, 400 raters, 4 graded classes (the relevance analogue at the size the issue names,
    about 3 × 10⁵ labels): the default fit — 22 starts screened, the best polished to its stopping
    rule — against crowd-kit 1.4.2's ``DawidSkene()`` run to its own stop (n_iter 100, tol 1e-5 on
    the loss), timed interleaved in this process (the smaller of two runs each).

    Issue 34 asks for no slower than crowd-kit; that is NOT met: measured 0.84–1.35× crowd-kit's time
    on the shared 2-core machine (0.45× under heavy load, where crowd-kit's pandas steps suffer
    more). This test guards that level (at most 1.5×) and that the fit ends at least as high."""
    ck = pytest.importorskip("crowdkit.aggregation")
    r = relevance_like(0, n_items=100_000, n_raters=400, max_labels=5)
    frame = _crowdkit_frame(r)
    ours, theirs = [], []
    for _ in range(2):
        t0 = time.perf_counter()
        fit = dawid_skene(r)
        ours.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        fitted = ck.DawidSkene().fit(frame)
        theirs.append(time.perf_counter() - t0)
    assert fit.converged
    assert min(ours) <= 1.5 * min(theirs), (ours, theirs)
    assert fit.log_likelihood >= _crowdkit_log_likelihood(r, fitted)[0]


def test_snow_rte_equals_crowd_kit(shared_data: Path):
    """On RTE (800 items × 10 labels, 164 workers) the fit kept is crowd-kit's optimum: accuracies and
    prior to 1e-6 (measured 1e-8), posteriors to 1e-5. Most starts end there; one random start ends at
    a local maximum 0.51 lower, with no rater's accuracy more than 0.05 away (no note)."""
    ck = pytest.importorskip("crowdkit.aggregation")
    path = shared_data / "snow2008_rte" / "rte.standardized.tsv"
    r = humanly.data.read_ratings(
        path, item_col="orig_id", rater_col="!amt_worker_ids", label_col="response"
    )
    fit = dawid_skene(r)
    assert fit.converged and fit.notes == () and fit.accuracy_shift < DISAGREE
    assert fit.log_likelihood_spread < 1.0
    fitted = ck.DawidSkene(n_iter=10_000, tol=1e-12).fit(_crowdkit_frame(r))
    loglik, acc = _crowdkit_log_likelihood(r, fitted)
    np.testing.assert_allclose(fit.accuracy, acc, atol=1e-6)
    assert fit.log_likelihood == pytest.approx(loglik, abs=1e-6)
    post = fitted.probas_.reindex(index=range(r.n_items), columns=range(r.n_classes)).to_numpy()
    np.testing.assert_allclose(fit.posterior, post, atol=1e-5)


def test_several_starts_find_the_higher_optimum():
    """A ragged 3,000-item crowd where EM from the plurality converges (the stopping rule met) at a
    local maximum 6 below the best the default reaches: the default keeps the higher, says which
    start won (a random one, with the seed that gives it alone) and notes that the polished starts
    disagree."""
    r = _ragged(0, 3_000, 150)
    alone = dawid_skene(r, starts="plurality")
    fit = dawid_skene(r)
    assert alone.converged and fit.converged
    assert fit.start != "plurality" and fit.start_seed is not None
    assert fit.log_likelihood >= alone.log_likelihood + 1.0
    assert [s.name for s in fit.starts] == (
        ["plurality", "vote_shares"] + ["random"] * 10 + ["random_plurality"] * 10
    )
    assert [s.seed for s in fit.starts] == [None, None, *range(10), *range(10)]
    kept = next(s for s in fit.starts if (s.name, s.seed) == (fit.start, fit.start_seed))
    assert kept.accuracy_shift == 0.0 and kept.polished and kept.converged
    polished = [s for s in fit.starts if s.polished]
    assert 2 <= len(polished) < len(fit.starts)
    assert fit.log_likelihood == pytest.approx(max(s.log_likelihood for s in polished), abs=1e-9)
    assert fit.log_likelihood >= max(s.log_likelihood for s in fit.starts)
    assert fit.log_likelihood_spread == pytest.approx(
        max(s.log_likelihood for s in polished) - min(s.log_likelihood for s in polished)
    )
    assert fit.accuracy_shift > DISAGREE
    assert any(n.startswith("The starts disagree") for n in notes_text(fit.notes))
    assert alone.notes == ()  # one start: nothing to compare


def _single_starts(r: humanly.Ratings, seeds: range) -> dict[tuple[str, int | None], float]:
    """The log-likelihood of every fit from a single start a user could ask for with these seeds."""
    out: dict[tuple[str, int | None], float] = {}
    for name in ("plurality", "vote_shares"):
        out[(name, None)] = dawid_skene(r, starts=name).log_likelihood
    for seed in seeds:
        for name in ("random", "random_plurality"):
            fit = dawid_skene(r, starts=name, random_starts=1, seed=seed)
            out[(name, seed)] = fit.log_likelihood
    return out


def _never_below_a_single_start(r: humanly.Ratings) -> DawidSkeneFit:
    fit = dawid_skene(r)
    singles = _single_starts(r, range(10))
    best = max(singles, key=singles.__getitem__)
    assert fit.log_likelihood >= singles[best] - 1e-6 * abs(singles[best]), (best, singles[best])
    return fit


@pytest.mark.parametrize("data", ["ragged", "ragged_small", "rte", "temp", "wsd", "product"])
@pytest.mark.slow
def test_the_default_is_never_below_a_single_start_of_seeds_0_to_9(data: str, shared_data: Path):
    """Over seeds 0..9, no fit from a single start (plurality, vote shares, or one random start of
    either kind with that seed) ends higher than the default fit with seed 0, to 1e-6 relative: on
    simulated ragged crowds with several optima and on the shared data sets."""
    _never_below_a_single_start(_dataset(data, shared_data))


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1])
def test_relevance_analogue_default_is_never_below_a_single_start(seed: int):
    """The relevance analogue (20,000 items, 766 raters, 4 graded classes, ~89,000 labels; raters
    careful, lenient, strict, spammers and swappers) has many optima: single starts end up to 34
    apart. The default fit is at least the best of every single start of seeds 0..9 (to 1e-6
    relative), converged, and notes that the polished starts disagree."""
    fit = _never_below_a_single_start(relevance_like(seed))
    assert fit.converged and fit.start_seed is not None
    assert any(n.startswith("The starts disagree") for n in notes_text(fit.notes))


def _dataset(name: str, shared_data: Path) -> humanly.Ratings:
    if name == "ragged":
        return _ragged(0, 3_000, 150)
    if name == "ragged_small":
        return _ragged(1, 1_000, 40)
    if name == "product":
        return humanly.data.read_ratings(
            shared_data / "product" / "answer.csv",
            item_col="question",
            rater_col="worker",
            label_col="answer",
        )
    return humanly.data.read_ratings(
        shared_data / f"snow2008_{name}" / f"{name}.standardized.tsv",
        item_col="orig_id",
        rater_col="!amt_worker_ids",
        label_col="response",
    )


def test_the_kept_start_alone_gives_the_same_fit():
    """A start's path does not depend on the other starts screened beside it: the kept random start
    rerun alone (its seed, one random start) ends at the same fit, to the last bit."""
    r = _ragged(1, 1_000, 40)
    fit = dawid_skene(r)
    assert fit.start_seed is not None
    alone = dawid_skene(r, starts=fit.start, random_starts=1, seed=fit.start_seed)
    assert alone.log_likelihood == fit.log_likelihood
    assert alone.iterations == fit.iterations and alone.converged == fit.converged
    np.testing.assert_array_equal(alone.accuracy, fit.accuracy)
    np.testing.assert_array_equal(alone.confusion, fit.confusion)


def test_ties_go_to_the_earlier_start(shared_data: Path):
    """On RTE every start ends at the same optimum: the fit kept is the earliest polished start whose
    log-likelihood is within 1e-9 (relative) of the best."""
    fit = dawid_skene(_dataset("rte", shared_data))
    polished = [s for s in fit.starts if s.polished]
    top = max(s.log_likelihood for s in polished)
    tied = [s for s in polished if s.log_likelihood >= top - 1e-9 * abs(top)]
    assert len(tied) >= 2
    assert (fit.start, fit.start_seed) == (tied[0].name, tied[0].seed)


def test_converged_when_the_kept_start_converged():
    """Screening and polishing have separate step limits: the kept start takes more M steps in all
    than ``max_iter`` (screening included) and still converges, and ``converged`` says so; with too
    few polishing steps it does not, and the note names the start."""
    r = _ragged(0, 3_000, 150)
    full = dawid_skene(r)
    assert full.converged
    screened = next(s for s in full.starts if s.seed == full.start_seed and s.name == full.start)
    fit = dawid_skene(r, max_iter=full.iterations - 10)
    assert fit.converged and fit.iterations == full.iterations > fit.max_iter
    assert fit.log_likelihood == full.log_likelihood and screened.converged
    short = dawid_skene(r, max_iter=20)
    assert not short.converged
    assert any(
        n.startswith("Dawid–Skene did not converge: EM from the ") for n in notes_text(short.notes)
    )


def test_same_seed_same_fit_other_seed_other_starts():
    r = _ragged(1, 1_000, 40)
    a, b = dawid_skene(r, seed=5), dawid_skene(r, seed=5)
    assert a.to_dict() == b.to_dict()
    c = dawid_skene(r, seed=6)
    assert [s.seed for s in c.starts if s.name == "random"] == list(range(6, 16))
    assert c.to_dict() != a.to_dict()


def test_seed_none_is_recorded_and_replays():
    r = _ragged(1, 1_000, 40)
    fit = dawid_skene(r, seed=None)
    assert isinstance(fit.seed, int)
    assert dawid_skene(r, seed=fit.seed).to_dict() == fit.to_dict()


def test_starts_settings_are_checked():
    r = _ragged(1, 200, 10)
    with pytest.raises(humanly.InputError, match=r"^starts='majority': this start is called"):
        dawid_skene(r, starts="majority")
    with pytest.raises(humanly.InputError, match=r"^random_starts=0: "):
        dawid_skene(r, random_starts=0)
    fit = dawid_skene(r, starts=("vote_shares", "random"), random_starts=3, seed=7)
    assert [(s.name, s.seed) for s in fit.starts] == [
        ("vote_shares", None),
        ("random", 7),
        ("random", 8),
        ("random", 9),
    ]
    assert STARTS == ("plurality", "vote_shares", "random", "random_plurality")
    assert RANDOM_STARTS == 10


def test_stopping_rule_and_non_convergence_are_reported():
    r = _ragged(1, 1_000, 40)
    short = dawid_skene(r, max_iter=3, starts="plurality")
    assert not short.converged and short.iterations == 3
    assert any("did not converge" in n for n in notes_text(short.notes))
    # the rule is on the distance from the fixed point: at convergence two more EM steps move the
    # parameters by far less than tol
    fit = dawid_skene(r, tol=1e-8, starts="plurality")
    k = em.codes(r, r.n_raters)
    x = k.canonical_x(fit.prior, fit.confusion)
    x1, _ = em.em_map(x, k)
    assert np.abs(x1 - x).max() <= 1e-8
    # a stricter rule than "one step moved little": never more steps for a looser tolerance
    assert dawid_skene(r, tol=1e-4, starts="plurality").iterations <= fit.iterations


def test_squarem_never_lowers_the_likelihood_and_counts_only_the_m_steps_it_takes(monkeypatch):
    """SQUAREM from a random start on a ragged crowd with several optima, one cycle at a time: the
    log-likelihood never decreases from cycle to cycle (to rounding: 1e-12 relative), a jump that
    would lower it costs its E step only — the M steps counted (``steps``) are exactly the M steps
    computed — and some jumps were refused, so that path is exercised. Plain EM from the same start
    reaches the same optimum: log-likelihood to 1e-6 relative, π and θ to 1e-4."""
    r = _ragged(1, 1_000, 40)
    k = em.codes(r, r.n_raters)
    start = Start("random", 3)
    x0 = np.concatenate([a.reshape(-1) for a in em.m_step(start_posteriors(r, start, k), k)])
    computed = {"m": 0, "e": 0}
    m_steps, e_steps = em._m_steps, em._e_steps

    def counted_m(post: np.ndarray, codes: em.Codes) -> np.ndarray:
        computed["m"] += len(post)
        return m_steps(post, codes)

    def counted_e(xs: np.ndarray, codes: em.Codes) -> tuple[np.ndarray, np.ndarray]:
        computed["e"] += len(xs)
        return e_steps(xs, codes)

    monkeypatch.setattr(em, "_m_steps", counted_m)
    monkeypatch.setattr(em, "_e_steps", counted_e)
    runs = em.Runs(x0[None])
    path = [float(em.log_likelihoods(runs.x, k)[0])]
    limit = np.array([100_000])
    while not runs.done[0]:
        runs.advance(np.array([0]), k, (1e-10, True), limit, cycles=1)
        path.append(float(em.log_likelihoods(runs.x, k)[0]))
    monkeypatch.undo()
    assert runs.converged[0]
    steps = np.diff(path)
    assert steps.min() >= -1e-12 * abs(path[-1]), steps.min()
    # each cycle computes one M step per E step except a refused jump's; log_likelihoods' own E
    # steps (one per entry of ``path``) take none
    assert computed["m"] == runs.steps[0] - 1
    refused = computed["e"] - len(path) - computed["m"]
    assert refused > 0
    plain = em.solve(x0, k, 1e-10, 200_000, accelerate=False)
    assert plain.converged[0]
    ll_plain = float(em.log_likelihoods(plain.x, k)[0])
    assert path[-1] == pytest.approx(ll_plain, rel=1e-6)
    np.testing.assert_allclose(runs.x[0], plain.x[0], atol=1e-4)


def test_memory_is_refused_before_allocating():
    """3,000 classes × 766 raters: 6.9 × 10⁹ confusion cells; refused in one sentence at once."""
    n = 766
    r = humanly.Ratings.from_long(
        np.arange(n) // 2, [f"r{i}" for i in range(n)], np.arange(n) % 3000, classes=range(3000)
    )
    t0 = time.perf_counter()
    with pytest.raises(humanly.InputError, match=r"^ratings: Dawid–Skene with 3,000 classes") as e:
        dawid_skene(r)
    assert time.perf_counter() - t0 < 1.0
    assert str(e.value).count(". ") == 0 and "memory" in str(e.value)
    with pytest.raises(humanly.InputError, match=r"^starts=\('x',\): "):
        dawid_skene(r, starts=("x",))
    with pytest.raises(humanly.InputError, match=r"^memory=0: "):
        dawid_skene(r, memory=0)


def test_fit_round_trips_with_its_starts_and_notes():
    fit = dawid_skene(_ragged(0, 3_000, 150))
    data = json.loads(fit.to_json())
    assert data["start"] == fit.start and len(data["starts"]) == 22 and data["notes"]
    assert data["start_seed"] == fit.start_seed and data["random_starts"] == 10
    assert {"seed", "polished"} <= set(data["starts"][0])
    back = DawidSkeneFit.from_dict(data)
    assert back.to_dict() == data
    assert back.starts == fit.starts and back.notes == fit.notes


@settings(max_examples=25, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 5), st.integers(0, 2)),
        min_size=20,
        max_size=120,
        unique_by=lambda t: (t[0], t[1]),
    ),
    order=st.randoms(use_true_random=False),
)
def test_permuting_rows_does_not_change_the_fit(rows, order):
    """The same labels in another row order give the same fit and start, to 1e-9 (the EM runs in a
    canonical order of items and raters, so even a fit on a flat ridge, or one still creeping to a
    boundary after ``max_iter`` steps, is reproduced)."""
    items, raters, labels = (list(c) for c in zip(*rows, strict=True))
    shuffled = list(rows)
    order.shuffle(shuffled)
    s_items, s_raters, s_labels = (list(c) for c in zip(*shuffled, strict=True))
    a = dawid_skene(humanly.Ratings.from_long(items, raters, labels, classes=[0, 1, 2]), tol=1e-12)
    b = dawid_skene(
        humanly.Ratings.from_long(s_items, s_raters, s_labels, classes=[0, 1, 2]), tol=1e-12
    )
    assert a.start == b.start and a.converged == b.converged
    atol = 1e-9
    acc_b = dict(zip(b.raters, b.accuracy, strict=True))
    np.testing.assert_allclose(a.accuracy, [acc_b[x] for x in a.raters], atol=atol, rtol=0)
    np.testing.assert_allclose(a.prior, b.prior, atol=atol, rtol=0)
    assert a.log_likelihood == pytest.approx(b.log_likelihood, abs=1e-9)


def test_inspect_verdict_quotes_disagreeing_starts_and_non_convergence():
    """What the fit says reaches the reader: the raters table's Dawid–Skene row and the raters
    sentence of ``inspect`` carry disagreeing starts; a fit that did not converge says so."""
    from humanly.crowd.raters import rater_summary
    from humanly.verdicts.inspect import dawid_skene_text, verdicts

    r = _ragged(0, 3_000, 150)
    res = humanly.inspect(r, bootstrap=0)
    assert res.raters is not None and res.raters.dawid_skene is not None
    summary = res.raters.dawid_skene
    assert summary.start != "plurality" and summary.accuracy_shift > DISAGREE
    assert summary.start_seed is not None
    assert "starts disagree" in dawid_skene_text(res.raters)
    sentence = next(v.sentence for v in verdicts(res) if v.status == "raters")
    assert "The starts disagree" in sentence and "weakly identified" in sentence
    short = rater_summary(r, tol=1e-30, max_iter=3)  # no start meets it while screened
    assert short.dawid_skene is not None and not short.dawid_skene.converged
    assert "did not converge" in dawid_skene_text(short)


def test_cli_refuses_too_many_classes_in_one_sentence(tmp_path: Path):
    """``humanly inspect`` on 2,000 items with labels from 2,577 classes and 765 raters: exit 2, one
    line naming the command line's way out (``--no-dawid-skene``), no traceback, nothing on stdout."""
    import subprocess
    import sys

    rng = np.random.default_rng(0)
    rows = [
        (f"i{i}", f"r{r}", int(rng.integers(0, 3000)))
        for i in range(2000)
        for r in rng.choice(766, 3, replace=False)
    ]
    path = tmp_path / "many.csv"
    pd.DataFrame(rows, columns=["item", "rater", "label"]).to_csv(path, index=False)
    res = subprocess.run(
        [sys.executable, "-m", "humanly", "inspect", str(path), "--bootstrap", "0"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 2 and res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert lines[0].startswith("humanly: error: ratings: Dawid–Skene with 2,577 classes")
    assert lines[0].endswith("or pass --no-dawid-skene")
