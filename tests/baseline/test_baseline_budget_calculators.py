"""Numbers unchanged by the 0.1.0 reset: an example of the check (the budget calculators that need no
data); every area adds its own cases in a module beside this one."""

from __future__ import annotations

from baseline import compare


def test_budget_win_numbers_unchanged(cli) -> None:
    new = cli("budget", "win", "--p", "0.8", "--eps", "0.01", "--q", "0.8", "--budget", "1500",
              "--m", "1", "3", "5", "--json")  # fmt: skip
    assert new.exit_code == 0, new.stderr
    # the retired aliases held the same values as the named bounds
    renames = [(r"\.hoeffding$", ".hoeffding_lower_bound"), (r"\.cramer$", ".cramer_lower_bound")]
    compare("budget_win", new.json(), renames)
