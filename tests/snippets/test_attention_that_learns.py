"""Snippets of docs/attention-that-learns.md, held equal to selfattn_ref.training.reversal:

- train_torch.py (PyTorch only), the reversal task restated for readers: the same sequences, the same
  model, the same weights after training to the last bit, and the printed figures the package's;
- pattern_numpy.py and pattern_torch.py: the pattern to find (each query on the partner that
  reversal.partner names) and the scoring of a table of weights, which gives the package's figures
  when it scores the trained model's weights on the held-out sequences."""

from __future__ import annotations

import pytest

from publish import SNIPPETS

from snippet_checks import as_numpy, torch_namespace

FOLDER = SNIPPETS / "attention_that_learns"
TRAIN = FOLDER / "train_torch.py"
PATTERN = [FOLDER / "pattern_numpy.py", FOLDER / "pattern_torch.py"]
SNIPPET_PATHS = PATTERN  # the fixture ns (tests/snippets/conftest.py): the pattern's two tabs


@pytest.fixture(scope="module")
def trained():
    reversal = pytest.importorskip("selfattn_ref.training.reversal")
    return torch_namespace(TRAIN), reversal


def test_train_has_no_twin_and_says_why():
    first = TRAIN.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# no-twin: training a model is PyTorch-only on this site"
    assert not (FOLDER / "train_numpy.py").exists()


def test_the_sequences_are_the_packages(trained):
    import torch

    ns, rv = trained
    assert ns["letters"] == rv.LETTERS and ns["n"] == rv.LENGTH
    train_ids, held_out = rv.sequences()
    assert torch.equal(ns["train_ids"], train_ids) and torch.equal(ns["test_ids"], held_out)


def test_the_trained_weights_equal_the_packages_bit_for_bit(trained):
    """Same seed, same operations in the same order: the same weights, to the last bit."""
    import torch

    ns, rv = trained
    mine = dict(ns["model"].named_parameters())
    ref = dict(rv.experiment().model.named_parameters())
    assert sorted(mine) == sorted(ref)
    for name in ref:
        assert torch.equal(mine[name], ref[name]), name


def test_the_printed_figures_are_the_packages(trained):
    _, rv = trained
    run = rv.experiment()
    lines = TRAIN.with_suffix(".out").read_text(encoding="utf-8").splitlines()
    assert lines[0] == f"{rv.TRAIN_SIZE} training sequences, {rv.HELD_OUT_SIZE} held out"
    for s, line in zip(run.snapshots, lines[2:5], strict=True):
        weights = f"{s.partner_weight:.1%}", f"{s.least_partner_weight:.1%}"
        want = [str(s.step), f"{s.loss:.3f}", f"{s.accuracy:.1%}", *weights]
        assert line.split() == want
    assert lines[6] == f"attention weights of {run.example} after {rv.STEPS} steps"
    for row, line in zip(run.snapshots[-1].example, lines[8:], strict=True):
        assert line.split()[1:] == [f"{w:.2f}" for w in row]


def test_the_pattern_is_each_query_on_its_partner(ns):
    import numpy as np

    rv = pytest.importorskip("selfattn_ref.training.reversal")
    n = ns["n"]
    expected = np.zeros((n, n))
    for i in range(1, n + 1):
        expected[i - 1, rv.partner(i, n) - 1] = 1  # positions counted from 1
    np.testing.assert_array_equal(as_numpy(ns["pattern"]), expected)
    # applied to the values, it reverses the page's example
    assert [ns["letters"][k] for k in as_numpy(ns["reversed_by_pattern"]).argmax(axis=1)] == list("gahbfc")
    lines = PATTERN[0].with_suffix(".out").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "the pattern gives: g a h b f c"
    assert lines[2].split() == ["the", "pattern", "100.0%", "100.0%", "0.000"]
    assert lines[3].split()[1:3] == [f"{0.5 + 0.5 / n:.1%}", "100.0%"] and float(lines[3].split()[3]) > 0


def test_scoring_the_trained_weights_gives_the_packages_figures(ns, trained):
    """The page's scoring, run on the trained model's weights for all 256 held-out sequences, gives
    the run's last snapshot: the weight on the partner, the accuracy and the loss."""
    import torch

    train, rv = trained
    _, held_out = rv.sequences()
    with torch.no_grad():
        A = train["model"].attention(held_out)  # (B, n, n)
    V = torch.nn.functional.one_hot(held_out, len(rv.LETTERS)).double()  # (B, n, 8)
    if "torch" not in ns["score"].__globals__:  # the NumPy tab scores NumPy arrays
        A, V = A.numpy(), V.numpy()
    on_partner, accuracy, loss = (float(x) for x in ns["score"](A, V))
    last = rv.experiment().snapshots[-1]
    assert abs(on_partner - last.partner_weight) < 1e-12
    assert accuracy == last.accuracy
    assert abs(loss - last.loss) < 1e-12
