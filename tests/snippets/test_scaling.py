"""Snippets of docs/scaling.md: the variance of q · k and the largest softmax weight, with
and without dividing by √d_k, on seeded random vectors. The NumPy snippets draw what
selfattn_ref.topics.scaling draws; the PyTorch ones draw other numbers (torch.Generator), what
selfattn_ref.torch.topics.scaling draws, and each is also checked against the NumPy package fed
the tensors it drew. And the facts the page states."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from publish.generate.snippets import namespace
from selfattn_ref import examples
from selfattn_ref.topics import scaling

from snippet_checks import as_numpy

FOLDER = SNIPPETS / "scaling"
VARIANCE = {"numpy": FOLDER / "variance_numpy.py", "torch": FOLDER / "variance_torch.py"}
LARGEST = {"numpy": FOLDER / "largest_weight_numpy.py", "torch": FOLDER / "largest_weight_torch.py"}
SNIPPET_PATHS = [*VARIANCE.values(), *LARGEST.values()]


def library(path) -> str:
    return "torch" if path.stem.endswith("_torch") else "numpy"


@pytest.fixture(scope="module")
def namespaces():
    """Every snippet's globals after a run, by path (each snippet runs once)."""
    pytest.importorskip("torch")
    return {p: namespace(p) for p in SNIPPET_PATHS}


@pytest.fixture(scope="module")
def tref():
    return pytest.importorskip("selfattn_ref.torch.topics.scaling")


@functools.cache
def run_of(package: str, experiment: str) -> list[dict]:
    """The rows of an experiment ("variance" or "largest_weight") of the NumPy package or the PyTorch
    one ("numpy", "torch"), run once for the module: each draws up to some ten million numbers (0.2 to
    0.9 s of a core), and the tests below only read them. (That a run gives the same rows every time
    is tests/package/test_topics.py's test_the_experiments_are_deterministic_and_follow_their_draw_order.)"""
    module = scaling if package == "numpy" else pytest.importorskip("selfattn_ref.torch.topics.scaling")
    return getattr(module, f"{experiment}_experiment")()


def test_the_snippets_draw_what_the_page_says():
    for path in SNIPPET_PATHS:
        text = path.read_text(encoding="utf-8")
        seeded = "default_rng(0)" if library(path) == "numpy" else "torch.Generator().manual_seed(0)"
        assert seeded in text and "(4, 64, 512)" in text
    assert scaling.SEED == 0 and scaling.DIMS == (4, 64, 512)
    assert "samples = 10_000" in VARIANCE["numpy"].read_text() and scaling.SAMPLES == 10_000
    assert "trials, n = 1_000, 8" in LARGEST["numpy"].read_text() and (scaling.TRIALS, scaling.KEYS) == (1000, 8)


# --- each snippet equals the package -----------------------------------------------------------


def test_numpy_variance_snippet_is_the_package(namespaces):
    got = namespaces[VARIANCE["numpy"]]["variances"]
    want = run_of("numpy", "variance")
    assert list(got) == [r["d"] for r in want]
    np.testing.assert_allclose([got[r["d"]] for r in want], [r["variance"] for r in want], rtol=1e-12)
    last = namespaces[VARIANCE["numpy"]]
    assert scaling.dot_product_variance(last["q"], last["k"]) == pytest.approx(got[512], rel=1e-12)


def test_torch_variance_snippet_is_the_package(namespaces, tref):
    got = namespaces[VARIANCE["torch"]]["variances"]
    want = run_of("torch", "variance")
    np.testing.assert_allclose([got[r["d"]] for r in want], [r["variance"] for r in want], rtol=1e-12)
    last = namespaces[VARIANCE["torch"]]  # the same inputs, fed to the NumPy package
    q, k = as_numpy(last["q"]), as_numpy(last["k"])
    assert scaling.dot_product_variance(q, k) == pytest.approx(got[512], rel=1e-12)


def test_numpy_largest_weight_snippet_is_the_package(namespaces):
    got = namespaces[LARGEST["numpy"]]["largest"]
    for r in run_of("numpy", "largest_weight"):
        np.testing.assert_allclose(got[r["d"]], (r["unscaled"], r["scaled"]), rtol=1e-12)
    e = np.random.default_rng(3).normal(0, 30, size=(5, 8))
    np.testing.assert_allclose(namespaces[LARGEST["numpy"]]["softmax"](e), selfattn_ref.softmax(e), rtol=0, atol=1e-15)


def test_torch_largest_weight_snippet_is_the_package(namespaces, tref):
    got = namespaces[LARGEST["torch"]]["largest"]
    for r in run_of("torch", "largest_weight"):
        np.testing.assert_allclose(got[r["d"]], (r["unscaled"], r["scaled"]), rtol=1e-12)
    last = namespaces[LARGEST["torch"]]  # d = 512: the same inputs, fed to the NumPy package
    q, K = as_numpy(last["q"]), as_numpy(last["K"])
    assert scaling.largest_weights(q, K, scale=1.0).mean() == pytest.approx(got[512][0], rel=1e-12)
    assert scaling.largest_weights(q, K).mean() == pytest.approx(got[512][1], rel=1e-12)


def test_the_numpy_snippets_print_the_packages_figures():
    """(The page's generated tables show the same figures: tests/content/test_topic_tables.py.)"""
    variance_out = VARIANCE["numpy"].with_suffix(".out").read_text(encoding="utf-8")
    for r in run_of("numpy", "variance"):
        assert f"{r['d']:5d}   {r['variance']:15.2f}   {r['variance'] / r['d']:14.2f}" in variance_out
    largest_out = LARGEST["numpy"].with_suffix(".out").read_text(encoding="utf-8")
    for r in run_of("numpy", "largest_weight"):
        assert f"{r['d']:5d}   {r['unscaled']:8.3f}   {r['scaled']:21.3f}" in largest_out


# --- what the page says ---------------------------------------------------------------------------


@pytest.mark.parametrize("experiment", ["numpy", "torch"])
def test_the_variance_grows_like_d(experiment, tref):
    rows = run_of(experiment, "variance")
    for r in rows:
        assert 0.95 < r["variance"] / r["d"] < 1.05
        assert r["variance_scaled"] == pytest.approx(r["variance"] / r["d"], rel=1e-12)
    variances = [r["variance"] for r in rows]
    assert variances == sorted(variances)
    # roughly linear: a straight line through the origin fits within 5%
    slope = np.polyfit([r["d"] for r in rows], variances, 1)
    assert slope[0] == pytest.approx(1, abs=0.05) and abs(slope[1]) < 5


@pytest.mark.parametrize("experiment", ["numpy", "torch"])
def test_unscaled_softmax_picks_one_key_and_scaled_does_not(experiment, tref):
    rows = run_of(experiment, "largest_weight")
    unscaled = [r["unscaled"] for r in rows]
    scaled = [r["scaled"] for r in rows]
    assert unscaled == sorted(unscaled) and unscaled[-1] > 0.95  # "near 1 at d = 512"
    assert all(s < u for s, u in zip(scaled, unscaled, strict=True))
    assert max(scaled) < 0.4 and max(scaled) - min(scaled) < 0.03  # "near a third at every width"
    assert all(s > 1 / scaling.KEYS for s in scaled)  # but above the uniform 1/8


def test_the_numbers_the_page_quotes():
    var = {r["d"]: r["variance"] for r in run_of("numpy", "variance")}
    assert [f"{var[d]:.2f}" for d in (4, 64, 512)] == ["3.99", "65.27", "509.66"]
    largest = {r["d"]: r for r in run_of("numpy", "largest_weight")}
    assert f"{largest[512]['unscaled']:.1%}" == "95.5%" and f"{largest[512]['scaled']:.1%}" == "36.1%"
    assert f"{math.sqrt(512):.2f}" == "22.63" and 8 * 0.125 == 1 and 1 / scaling.KEYS == 0.125


def test_the_cat_sat_with_and_without_the_division():
    ex = examples.load("the_cat_sat")
    st = examples.run(ex)
    assert math.sqrt(ex.E.shape[1]) == 2
    np.testing.assert_array_equal(st.scores[2], [2, 2, 4])
    np.testing.assert_array_equal(st.scaled[2], [1, 1, 2])
    unscaled = selfattn_ref.softmax(st.scores[2])
    assert f"{unscaled[2]:.2%}" == "78.70%" and f"{st.weights[2, 2]:.2%}" == "57.61%"
    # halving the scores halves the gaps, and the weights even out
    assert unscaled.max() > st.weights[2].max() and unscaled.min() < st.weights[2].min()
