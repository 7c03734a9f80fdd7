"""Helpers of the page's browser tests: Debian's Chromium driven by
Playwright's Python API (no browser download), the page loaded from a real
`mtgkb serve`, and where its screenshots go.

`chromium()` is None where no Chromium is installed (the tests skip, saying
so; `.ci/run` installs it where it can).
"""

from __future__ import annotations

import os
import shutil
import urllib.parse
from contextlib import contextmanager
from pathlib import Path


def chromium() -> str | None:
    """The Chromium to test the page in (MTGKB_CHROMIUM, else the system's)."""
    for candidate in (
        os.environ.get("MTGKB_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def launch(playwright, executable: str):
    """A headless Chromium (no sandbox: the tests run in containers)."""
    return playwright.chromium.launch(
        executable_path=executable, args=["--no-sandbox", "--disable-gpu"], timeout=60000
    )


@contextmanager
def served_page():
    """The base URL of a real `mtgkb serve` on a free loopback port, stopped after."""
    from .serving import free_port, start_server, stop_server, wait_for

    port = free_port()
    process = start_server(port)
    try:
        wait_for(f"http://127.0.0.1:{port}/health", 60)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_server(process)


@contextmanager
def chromium_browser(executable: str):
    """A launched headless Chromium, closed after; the test skips, saying why,
    where Playwright cannot start it."""
    import pytest
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        try:
            launched = launch(playwright, executable)
        except Exception as err:  # noqa: BLE001 - any launch failure is a reason to skip
            pytest.skip(f"Chromium at {executable} does not start under Playwright: {err}")
        yield launched
        launched.close()


def watch_errors(page) -> list[str]:
    """The page's script errors and Content-Security-Policy refusals, as they come."""
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.on(
        "console",
        lambda message: (
            errors.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    return errors


def answered(page, before: str | None = None) -> str:
    """Wait until the page has answered a text (another than `before`'s)."""
    page.wait_for_function(
        "(before) => document.body.dataset.answered && document.body.dataset.answered !== before",
        arg=before or "",
    )
    return page.evaluate("document.body.dataset.answered")


def open_scenario(page, base_url: str, text: str) -> None:
    """The page with `text` in its address (`#scenario=`), answered."""
    page.goto(f"{base_url}/#scenario={urllib.parse.quote(text)}")
    answered(page)


def after(page, action) -> None:
    """Do `action()` (a click, a fill) and wait for the answers to the new text."""
    before = page.evaluate("document.body.dataset.answered")
    action()
    answered(page, before)


def arrows(page) -> list[dict]:
    """The attacks and blocks drawn on the table."""
    return page.eval_on_selector_all(
        "#table path.arrow",
        "paths => paths.map(p => ({from: p.dataset.from, to: p.dataset.to, "
        "kind: p.dataset.kind, illegal: p.dataset.illegal === 'true'}))",
    )


# two arrows cross where a piece of one (each curve sampled at 41 points)
# crosses a piece of the other; arrows that share an end meet, not cross
_CROSSINGS = """() => {
  const paths = [...document.querySelectorAll('#table path.arrow')];
  const points = paths.map((p) => {
    const n = p.getTotalLength();
    return [...Array(41).keys()].map((i) => {
      const q = p.getPointAtLength((n * i) / 40);
      return [q.x, q.y];
    });
  });
  const side = (p, q, r) =>
    Math.sign((q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0]));
  const cross = (a, b, c, d) =>
    side(a, b, c) * side(a, b, d) < 0 && side(c, d, a) * side(c, d, b) < 0;
  const found = [];
  for (let i = 0; i < paths.length; i++) {
    for (let j = i + 1; j < paths.length; j++) {
      const ends = new Set([paths[i].dataset.from, paths[i].dataset.to]);
      if (ends.has(paths[j].dataset.from) || ends.has(paths[j].dataset.to)) continue;
      const A = points[i], B = points[j];
      let hit = false;
      for (let x = 1; x < A.length && !hit; x++) {
        for (let y = 1; y < B.length && !hit; y++) hit = cross(A[x - 1], A[x], B[y - 1], B[y]);
      }
      if (hit) found.push([paths[i].dataset.from, paths[j].dataset.from]);
    }
  }
  return found;
}"""


def crossing_arrows(page) -> list[list[str]]:
    """The pairs of arrows on the table that cross (by where they start)."""
    return page.evaluate(_CROSSINGS)


def screenshot_folder(default: Path) -> Path:
    """Where the screenshots of the page's states go: MTGKB_SCREENSHOTS
    (`docs` keeps the guide's pictures current), else `default` (a test's
    temporary folder: running the tests changes no file of the checkout)."""
    folder = Path(os.environ.get("MTGKB_SCREENSHOTS") or default)
    folder.mkdir(parents=True, exist_ok=True)
    return folder
