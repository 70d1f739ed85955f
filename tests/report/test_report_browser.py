"""The demo report in headless Chromium (Debian's package): renders offline, no console errors, no
network, every section visible, embedded JSON parses, hostile names shown as text; screenshot saved.

Skipped locally when /usr/bin/chromium or Playwright is absent; CI sets HUMANLY_REQUIRE_BROWSER=1, which
turns the skip into a failure.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from humanly.report.demo import run_demo

XSS = "<script>alert(1)</script>"

pytestmark = pytest.mark.browser
CHROMIUM = Path("/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def _need_browser() -> None:
    reason = None
    if not CHROMIUM.exists():
        reason = "headless Chromium not installed (apt-get install chromium chromium-driver)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "Playwright not installed (pip install playwright)"
    if reason:
        if os.environ.get("HUMANLY_REQUIRE_BROWSER"):
            pytest.fail(reason + " — HUMANLY_REQUIRE_BROWSER is set, so this is an error")
        pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    _need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--disable-quic",
            ],
        )
        yield b
        b.close()


def _open(browser, path: Path):
    """Open ``path``; return the page, its console errors and every request other than the page."""
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    url = path.resolve().as_uri()
    page.on("request", lambda r: requests.append(r.url) if r.url != url else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, errors, requests


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    return run_demo(tmp_path_factory.mktemp("demo"), bootstrap=20, show_progress=False)


@pytest.mark.parametrize("which", ["report", "simulated_report"])
def test_demo_report_renders_offline(browser, demo, which):
    path = getattr(demo, which)
    page, errors, requests = _open(browser, path)
    assert errors == []
    # figures are data URIs; anything fetched from elsewhere is a failure
    assert [r for r in requests if not r.startswith("data:")] == []
    headings = page.locator("section > h2")
    titles = [headings.nth(i).inner_text() for i in range(headings.count())]
    assert titles[0] == "Data" and titles[-2:] == ["Methods", "Reproducibility"]
    for i in range(headings.count()):
        assert headings.nth(i).is_visible()
    images = page.locator("img")
    assert images.count() >= 1
    for i in range(images.count()):
        assert page.evaluate(
            "(img) => img.complete && img.naturalWidth > 0", images.nth(i).element_handle()
        )
    text = page.locator("#humanly-results").text_content()
    embedded = json.loads(text)
    expected = demo.results if which == "report" else demo.simulated_results
    assert embedded["results"] == expected
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"demo-{which}.png"), full_page=True)
    page.close()


def test_hostile_model_name_shows_as_text(browser, cli, xss_files, tmp_path):
    out = tmp_path / "xss.html"
    res = cli(
        "report", xss_files["ratings"], "--predictions", xss_files["predictions"],
        "-o", out, "--bootstrap", 10,
    )  # fmt: skip
    assert res.exit_code == 0, res.stderr
    page, errors, _ = _open(browser, out)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.reload()
    assert errors == [] and dialogs == []
    assert page.get_by_text(XSS, exact=True).first.is_visible()
    assert page.evaluate("document.querySelectorAll('script').length") == 1
    page.close()
