"""Snippets of docs/positional-encoding.md, held equal to the reference package:

- permutation_numpy.py / permutation_torch.py: self-attention of "dog bites man" in all six
  word orders (the example dog_bites_man);
- with_positions_numpy.py / with_positions_torch.py: the sinusoidal encoding and the two
  sentences with their positions added (selfattn_ref.sinusoidal_positional_encoding and the
  page's audit source);
- train_torch.py (PyTorch only): the word-order experiment, selfattn_ref.training.word_order.
"""

from __future__ import annotations

import numpy as np
import pytest

import selfattn_ref
from publish import SNIPPETS
from selfattn_ref import examples
from selfattn_ref.topics.positional_encoding import with_positions

from snippet_checks import close, snippet_namespace, torch_namespace

FOLDER = SNIPPETS / "positional_encoding"
PERM_NUMPY = FOLDER / "permutation_numpy.py"
PERM_TORCH = FOLDER / "permutation_torch.py"
POS_NUMPY = FOLDER / "with_positions_numpy.py"
POS_TORCH = FOLDER / "with_positions_torch.py"
TRAIN = FOLDER / "train_torch.py"
PAIRS = [(PERM_NUMPY, PERM_TORCH), (POS_NUMPY, POS_TORCH)]
SNIPPET_PATHS = [PERM_NUMPY, PERM_TORCH, POS_NUMPY, POS_TORCH, TRAIN]
ALLOWED_IMPORTS = {p: {"numpy"} if p.stem.endswith("_numpy") else {"torch"} for p in SNIPPET_PATHS}


def test_train_has_no_twin_and_says_why():
    first = TRAIN.read_text(encoding="utf-8").splitlines()[0]
    assert first == "# no-twin: training a model is PyTorch-only on this site"
    assert not (FOLDER / "train_numpy.py").exists()


# --- permutation: every order of "dog bites man" ------------------------------------------


@pytest.fixture(scope="module", params=[PERM_NUMPY, PERM_TORCH], ids=lambda p: p.name)
def perm(request):
    return snippet_namespace(request.param)


def test_permutation_input_and_steps_are_the_examples(perm):
    ex = examples.load("dog_bites_man")
    st = examples.run(ex)
    assert tuple(perm["words"]) == ex.tokens
    close(perm["X"], ex.E)
    close(perm["S"], st.scores)
    close(perm["A"], st.weights)
    close(perm["Y"], st.output)


def test_the_six_orders_are_every_permutation_and_one_is_man_bites_dog(perm):
    orders = [tuple(o) for o in perm["orders"]]
    assert sorted(orders) == sorted(
        {(a, b, c) for a in range(3) for b in range(3) for c in range(3) if len({a, b, c}) == 3}
    )
    words = perm["words"]
    assert " ".join(words[i] for i in (2, 1, 0)) == examples.load("man_bites_dog").title


def test_reordering_reorders_and_the_average_stays(perm):
    ex = examples.load("dog_bites_man")
    st = examples.run(ex)
    for order in perm["orders"]:
        P = np.eye(3)[order]
        out, weights = selfattn_ref.scaled_dot_product_attention(P @ ex.E, P @ ex.E, P @ ex.E, scale=1.0)
        close(weights, P @ st.weights @ P.T)
        close(out, P @ st.output)
        close(out.mean(axis=0), st.output.mean(axis=0))
    # and the reordered example is the man_bites_dog example
    mbd = examples.run(examples.load("man_bites_dog"))
    P = np.eye(3)[[2, 1, 0]]
    close(mbd.scores, P @ st.scores @ P.T)
    close(mbd.output, P @ st.output)


def test_permutation_prints_true_six_times_three():
    text = PERM_NUMPY.with_suffix(".out").read_text(encoding="utf-8")
    assert text.count("True") == 18 and "False" not in text


# --- with positions -------------------------------------------------------------------------


@pytest.fixture(scope="module", params=[POS_NUMPY, POS_TORCH], ids=lambda p: p.name)
def pos(request):
    return snippet_namespace(request.param)


@pytest.mark.parametrize(("n", "d"), [(4, 4), (3, 4), (10, 8), (3, 16), (50, 64)])
def test_positional_encoding_is_the_packages(pos, n, d):
    close(pos["positional_encoding"](n, d), selfattn_ref.sinusoidal_positional_encoding(n, d))


def test_positional_encoding_in_torch_is_the_packages():
    torch_ref = pytest.importorskip("selfattn_ref.torch")
    for n, d in [(4, 4), (10, 8), (3, 16)]:
        close(torch_ref.sinusoidal_positional_encoding(n, d), selfattn_ref.sinusoidal_positional_encoding(n, d))


def test_embeddings_are_the_examples(pos):
    ex = examples.load("dog_bites_man")
    for word, vector in zip(ex.tokens, ex.E, strict=True):
        close(np.array(pos["vectors"][word]), vector)


def test_scores_and_outputs_with_positions_equal_the_reference(pos):
    for slug, S, Y in (("dog_bites_man", "S1", "Y1"), ("man_bites_dog", "S2", "Y2")):
        ref = with_positions(slug)
        close(pos[S], ref["scores"])
        close(pos[Y], ref["output"])
        ex = examples.load(slug)
        X = ex.E + selfattn_ref.sinusoidal_positional_encoding(3, 4)
        close(ref["X"], X)
        close(ref["output"], selfattn_ref.self_attention(X))
    # the math section's two checks, which the script prints: with positions, neither holds
    assert pos["order"] == [2, 1, 0]
    assert pos["same_scores"] is False and pos["same_outputs"] is False


# --- what the page says about the encoding ----------------------------------------------------


def test_position_zero_is_0_1_0_1_and_every_entry_lies_between_minus_1_and_1():
    P = selfattn_ref.sinusoidal_positional_encoding(10, 8)
    np.testing.assert_array_equal(P[0], [0, 1, 0, 1, 0, 1, 0, 1])
    assert (np.abs(P) <= 1).all()


def test_at_d_4_the_slow_columns_are_the_fast_ones_divided_by_100():
    pos_ = np.arange(4)
    P = selfattn_ref.sinusoidal_positional_encoding(4, 4)
    close(P, np.stack([np.sin(pos_), np.cos(pos_), np.sin(pos_ / 100), np.cos(pos_ / 100)], axis=1))
    # x3 grows by about a hundredth per position; x4 rounds to 1 at 3 decimals
    np.testing.assert_allclose(np.diff(P[:, 2]), 0.01, atol=1e-5)
    assert all(f"{x:.3f}" == "1.000" for x in P[:, 3])


def test_at_d_8_the_pairs_divide_by_1_10_100_1000():
    pos_ = np.arange(10)
    P = selfattn_ref.sinusoidal_positional_encoding(10, 8)
    for i, divisor in enumerate([1, 10, 100, 1000]):
        close(P[:, 2 * i], np.sin(pos_ / divisor))
        close(P[:, 2 * i + 1], np.cos(pos_ / divisor))


def test_every_position_gets_its_own_pattern():
    P = selfattn_ref.sinusoidal_positional_encoding(512, 64)
    sq = (P**2).sum(axis=1)
    squared_distances = sq[:, None] + sq[None, :] - 2 * P @ P.T  # (512, 512)
    assert (squared_distances + np.eye(512) > 1e-3).all()


def test_a_shift_by_k_is_the_same_linear_map_at_every_position():
    """PE(pos + k) = PE(pos) · M_k for every pos, with M_k turning each (sin, cos) pair by a
    fixed angle: the page's "relative positions come for free"."""
    n, d = 40, 8
    P = selfattn_ref.sinusoidal_positional_encoding(n, d)
    for k in (1, 2, 5):
        M = np.zeros((d, d))
        for i in range(d // 2):
            angle = k / 10000 ** (2 * i / d)
            M[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
        close(P[: n - k] @ M, P[k:])


def test_the_worked_lines_of_the_page():
    P = selfattn_ref.sinusoidal_positional_encoding(3, 4)
    dog = examples.load("dog_bites_man").E[0]
    np.testing.assert_array_equal(dog + P[0], [1, 2, 1, 1])
    assert [f"{x:.3f}" for x in P[2]] == ["0.909", "-0.416", "0.020", "1.000"]
    assert [f"{x:.3f}" for x in dog + P[2]] == ["1.909", "0.584", "1.020", "1.000"]
    dbm, mbd = with_positions("dog_bites_man"), with_positions("man_bites_dog")
    assert dbm["scores"][0, 0] == 7
    # "bites" keeps its place, its vector and its score with itself; nothing else is shared
    close(dbm["X"][1], mbd["X"][1])
    shared = {f"{x:.3f}" for x in dbm["scores"].ravel()} & {f"{x:.3f}" for x in mbd["scores"].ravel()}
    assert shared == {f"{dbm['scores'][1, 1]:.3f}"}
    assert f"{dbm['scores'][0, 2]:.3f}" == "3.097" and f"{mbd['scores'][2, 0]:.3f}" == "4.513"


def test_dog_keeps_a_larger_share_for_itself_when_first():
    dbm, mbd = with_positions("dog_bites_man"), with_positions("man_bites_dog")
    assert dbm["weights"][0].argmax() == 0 and mbd["weights"][2].argmax() == 2
    assert dbm["weights"][0, 0] > mbd["weights"][2, 2]
    assert not np.allclose(dbm["mean"], mbd["mean"])


# --- the experiment ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def trained():
    word_order = pytest.importorskip("selfattn_ref.training.word_order")
    return torch_namespace(TRAIN), word_order


def test_training_data_is_the_packages(trained):
    import torch

    ns, wo = trained
    assert tuple(ns["animals"]) == wo.ANIMALS and tuple(ns["people"]) == wo.PEOPLE
    assert tuple(ns["vocab"]) == wo.VOCAB
    for held_out in (False, True):
        assert ns["sentences"](held_out) == wo.sentences(held_out)
    train_ids, train_labels = wo.encode(wo.sentences(held_out=False))
    test_ids, test_labels = wo.encode(wo.sentences(held_out=True))
    assert torch.equal(ns["train_ids"], train_ids) and torch.equal(ns["train_labels"], train_labels)
    assert torch.equal(ns["test_ids"], test_ids) and torch.equal(ns["test_labels"], test_labels)


def test_the_snippets_positional_encoding_is_the_packages(trained):
    ns, wo = trained
    close(ns["positional_encoding"](3, wo.D_MODEL), selfattn_ref.sinusoidal_positional_encoding(3, wo.D_MODEL))


def test_trained_models_equal_the_packages_bit_for_bit(trained):
    """Same seed, same operations in the same order: the same weights, to the last bit."""
    import torch

    ns, wo = trained
    for trained_run in wo.experiment():
        mine = dict(ns["models"][trained_run.positional].named_parameters())
        ref = dict(trained_run.model.named_parameters())
        assert sorted(mine) == sorted(ref)
        for name in ref:
            assert torch.equal(mine[name], ref[name]), name


def test_accuracies_and_probabilities_equal_the_packages(trained):
    import torch

    ns, wo = trained
    for trained_run in wo.experiment():
        model = ns["models"][trained_run.positional]
        assert ns["accuracy"](model, ns["train_ids"], ns["train_labels"]) == trained_run.train_accuracy
        assert ns["accuracy"](model, ns["test_ids"], ns["test_labels"]) == trained_run.held_out_accuracy
        for sentence in ("dog bites man", "man bites dog"):
            ids = torch.tensor([[wo.VOCAB.index(w) for w in sentence.split()]])
            with torch.no_grad():
                p = torch.softmax(model(ids), dim=-1)[0, 1].item()
            assert p == wo.person_bites_probability(trained_run.model, sentence)


def test_the_printed_table_is_the_packages_result():
    wo = pytest.importorskip("selfattn_ref.training.word_order")
    without, with_pe = wo.experiment()
    lines = TRAIN.with_suffix(".out").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "96 training sentences, 32 held-out sentences"
    for r, line in ((without, lines[2]), (with_pe, lines[3])):
        assert line.split()[-3:] == [f"{r.train_loss:.3f}", f"{r.train_accuracy:.1%}", f"{r.held_out_accuracy:.1%}"]
    assert lines[2].split()[-2:] == ["50.0%", "50.0%"] and lines[3].split()[-2:] == ["100.0%", "100.0%"]
