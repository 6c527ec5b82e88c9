"""Snippets of docs/attention-that-learns.md: train_torch.py (PyTorch only), the reversal task of
selfattn_ref.training.reversal, restated for readers and held equal to it: the same sequences, the same
model, the same weights after training to the last bit, and the printed figures the package's."""

from __future__ import annotations

import pytest

from publish import SNIPPETS

from snippet_checks import torch_namespace

FOLDER = SNIPPETS / "attention_that_learns"
TRAIN = FOLDER / "train_torch.py"


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
        assert line.split() == [str(s.step), f"{s.loss:.3f}", f"{s.accuracy:.1%}", f"{s.partner_weight:.1%}"]
    assert lines[6] == f"attention weights of {run.example} after {rv.STEPS} steps"
    for row, line in zip(run.snapshots[-1].example, lines[8:], strict=True):
        assert line.split()[1:] == [f"{w:.2f}" for w in row]
