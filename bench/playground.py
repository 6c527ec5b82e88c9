"""How long the playground takes from an edit to the updated page, at 3×4 and at 16×16.

Run:  .venv/bin/python bench/playground.py [--edits 30] [--chromium PATH]

Builds the site into a temporary folder, serves it on 127.0.0.1, opens the playground in Chromium
and, for each size, types N numbers into the grid (synthetic `input` events, one cell after the
other) and measures inside the page with performance.now():

- handler: from dispatching the input event to its return (parse, check, compute every step,
  update the tables: the playground does all of it synchronously);
- layout:  the same, plus a forced style and layout (reading offsetHeight);
- frame:   from dispatching to the next animation frame's callback and a task after it, i.e. once
  the frame that shows the edit has been produced. Chromium runs with its frame-rate limit
  off, so this counts work, not the wait for the display's next refresh.

Prints the median and the 90th percentile of each, in milliseconds. The target is a frame under
16 ms at 16×16. bench/run.py (`make bench`) uses measure() for its table. This is a benchmark,
not a test: nothing fails.

Then the language model's mode (measure_model(), on the site served gzip-compressed, as a real
host sends it): what opening its tab loads, which a playground load does not (the files, their bytes
as they are and gzip-compressed), and the time from the click on its tab to the mode shown with its
numbers, in a fresh browser context, as it is and as Lighthouse's phone sees it (slow 4G: 150 ms
round trips, 1.6 Mbit/s down; a CPU 4 times slower).
"""

from __future__ import annotations

import argparse
import base64
import gzip
import json
import statistics
import tempfile
from pathlib import Path

import numpy as np
from common import CHROMIUM, launch_chromium, mkdocs_build, start, static_server
from playwright.sync_api import sync_playwright

BUDGET_FRAME_MS = 16.0
# Frames are not held back to the display's refresh rate: the time to the next frame is work.
CHROMIUM_EXTRA_ARGS = ("--disable-frame-rate-limit", "--disable-gpu-vsync")

MEASURE_JS = """async ([edits, keys]) => {
  const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve(performance.now());
    channel.port2.postMessage(0);
  }));
  const out = {handler: [], layout: [], frame: []};
  for (let i = 0; i < edits; i++) {
    const input = document.getElementById('pg-' + keys[i % keys.length]);
    input.value = String(((i * 7919) % 401 - 200) / 100);
    const t0 = performance.now();
    input.dispatchEvent(new Event('input', {bubbles: true}));
    const t1 = performance.now();
    void document.body.offsetHeight;
    const t2 = performance.now();
    const t3 = await nextFrame();
    out.handler.push(t1 - t0);
    out.layout.push(t2 - t0);
    out.frame.push(t3 - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return out;
}"""


def state_link(words: int, dims: int, projections: str) -> str:
    rng = np.random.default_rng(0)
    X = np.round(rng.normal(0, 1, (words, dims)), 2).tolist()
    state = {"v": 1, "words": [f"w{i}" for i in range(words)], "X": X, "scale": True, "causal": True}
    state |= {"projections": projections, "decimals": 3}
    if projections == "custom":
        for name in ("W_Q", "W_K", "W_V"):
            state[name] = np.round(rng.normal(0, 0.5, (dims, dims)), 3).tolist()
    raw = json.dumps(state, separators=(",", ":")).encode()
    return "#s=" + base64.urlsafe_b64encode(raw).decode().rstrip("=")


def summary(values: list[float]) -> str:
    values = sorted(values)
    p90 = values[min(len(values) - 1, int(round(0.9 * (len(values) - 1))))]
    return f"{statistics.median(values):6.2f} ms (p90 {p90:6.2f})"


def cases() -> list[tuple[str, str, list[str]]]:
    """(label, URL fragment, ids of the cells to edit in turn) of each measured case."""
    return [
        ("3×4, bank of river (no projections)", "#preset=bank_of_river", ["x-0-1", "x-1-2", "x-2-3"]),
        ("3×4, learned weights", "#preset=learned", ["x-0-1", "x-1-2", "x-2-3"]),
        ("16×16, identity, scaled, causal", state_link(16, 16, "identity"), ["x-3-5", "x-10-2", "x-15-15"]),
        ("16×16, own matrices, scaled, causal", state_link(16, 16, "custom"), ["x-3-5", "W_Q-4-7", "W_V-15-0"]),
    ]


def measure(browser, base: str, edits: int = 30) -> tuple[dict[str, dict[str, list[float]]], list[str]]:
    """For each case, the milliseconds of every edit ({"handler": [...], "layout": [...],
    "frame": [...]}), after 5 edits to warm up; and the console errors seen. ``browser`` should
    be launched with CHROMIUM_EXTRA_ARGS; the site is served at ``base``."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    results = {}
    try:
        for label, fragment, keys in cases():
            page.goto("about:blank")  # a new document each time: a new #part alone would not reload
            page.goto(base + "playground/" + fragment)
            page.wait_for_selector("#playground[data-state=ready]")
            page.evaluate(MEASURE_JS, [5, keys])  # warm-up: JIT, fonts, first layout
            results[label] = page.evaluate(MEASURE_JS, [edits, keys])
    finally:
        page.close()
    return results, errors


# Lighthouse's mobile throttling (its default "simulate" settings, applied here as DevTools does).
PHONE_NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1.6 * 1024 * 1024 / 8 * 0.9,
                 "uploadThroughput": 750 * 1024 / 8 * 0.9}  # fmt: skip
PHONE_CPU = 4
MODEL_READY = "#pg-panel-model[data-state=ready]"
OPEN_MODEL_JS = """() => new Promise((resolve) => {
  const panel = document.getElementById('pg-panel-model');
  const t0 = performance.now();
  const done = () => panel.dataset.state === 'ready' && document.getElementById('pg-model-next')?.tBodies.length;
  new MutationObserver((_, observer) => {
    if (!done()) return;
    observer.disconnect();
    requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));  // once it is painted
  }).observe(panel, {attributes: true, childList: true, subtree: true});
  document.getElementById('pg-tab-model').click();
})"""


def measure_model(browser, base: str, phone: bool = False) -> dict:
    """Open the playground in a fresh context (no cache), then its language-model tab: {"files":
    {name: (bytes, gzip bytes)} of what the click loaded, "before": the names of the mode's files
    the page had loaded before it (there should be none), "open_ms": the click to the mode shown}.
    ``phone``: under PHONE_NETWORK and PHONE_CPU."""
    context = browser.new_context(viewport={"width": 412, "height": 823} if phone else {"width": 1280, "height": 900})
    page = context.new_page()
    loaded: list = []
    page.on("response", lambda r: loaded.append(r))
    try:
        if phone:
            cdp = context.new_cdp_session(page)
            cdp.send("Network.enable")
            cdp.send("Network.emulateNetworkConditions", PHONE_NETWORK)
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_CPU})
        page.goto(base + "playground/")
        page.wait_for_selector("#playground[data-state=ready]")
        page.wait_for_load_state("networkidle")
        before = [r.url.rsplit("/", 1)[-1] for r in loaded]
        loaded.clear()
        open_ms = page.evaluate(OPEN_MODEL_JS)
        page.wait_for_selector(MODEL_READY)
        page.wait_for_load_state("networkidle")
        files = {}
        for r in loaded:
            body = r.body()
            files[r.url.rsplit("/", 1)[-1]] = (len(body), len(gzip.compress(body, compresslevel=6, mtime=0)))
    finally:
        context.close()
    mode = ("model_app.js", "language_model.js", "language_model.json")
    return {"files": files, "before": [f for f in before if f in mode], "open_ms": open_ms}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--chromium", default=str(CHROMIUM))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        with static_server(site) as (httpd, base):
            print(f"building the site into {site} ...", flush=True)
            mkdocs_build(site, base, strict=False)
            start(httpd)
            with sync_playwright() as p:
                browser = launch_chromium(p, args.chromium, CHROMIUM_EXTRA_ARGS)
                print(f"\n{args.edits} edits each (after 5 to warm up); median and 90th percentile\n")
                print(f"{'case':40} {'handler':>24} {'handler + layout':>24} {'to the next frame':>24}")
                results, errors = measure(browser, base, args.edits)
                for label, r in results.items():
                    print(
                        f"{label:40} {summary(r['handler']):>24} {summary(r['layout']):>24} {summary(r['frame']):>24}"
                    )
                browser.close()
                if errors:
                    print("console errors:", *errors, sep="\n  ")
                    return 1
        with static_server(site, compress=True) as (httpd, base), sync_playwright() as p:
            start(httpd)
            browser = launch_chromium(p, args.chromium)
            print("\nthe language model's mode, opened:")
            for phone in (False, True):
                m = measure_model(browser, base, phone)
                files = ", ".join(f"{name} {raw:,} B ({packed:,} B gzip)" for name, (raw, packed) in m["files"].items())
                print(f"  {'phone' if phone else 'as is'}: {m['open_ms']:.0f} ms; loads {files}; before: {m['before']}")
            browser.close()
    print(f"\ntarget: under {BUDGET_FRAME_MS:.0f} ms from an edit to the next frame at 16×16")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
