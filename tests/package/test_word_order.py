"""Layer 1: the word-order experiment of selfattn_ref.training.word_order (PyTorch only).

The data make the task impossible without word order (every sentence's reverse holds the
same words with the opposite label, in the same split); without positional encoding the
model gives a sentence and its reverse the same logits, so it is right on exactly half of
any split; with it, the published run gets every held-out sentence right.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import selfattn_ref.torch as tref  # noqa: E402
from selfattn_ref.training import word_order as wo  # noqa: E402

TRAIN = wo.sentences(held_out=False)
HELD_OUT = wo.sentences(held_out=True)


@pytest.fixture(scope="module")
def runs():
    return wo.experiment()


# --- the data -----------------------------------------------------------------------------------


def test_sizes():
    assert len(wo.ANIMALS) == len(wo.PEOPLE) == 8
    assert len(TRAIN) == 96 and len(HELD_OUT) == 32
    assert len(set(TRAIN)) == 96 and len(set(HELD_OUT)) == 32


def test_every_sentence_is_an_animal_and_a_person_with_the_biter_first():
    for sentence, label in TRAIN + HELD_OUT:
        first, verb, second = sentence.split()
        assert verb == wo.VERB
        if label == 0:
            assert first in wo.ANIMALS and second in wo.PEOPLE
        else:
            assert label == 1 and first in wo.PEOPLE and second in wo.ANIMALS
    all_pairs = {frozenset((s.split()[0], s.split()[2])) for s, _ in TRAIN + HELD_OUT}
    assert all_pairs == {frozenset((a, p)) for a in wo.ANIMALS for p in wo.PEOPLE}


@pytest.mark.parametrize("split", [TRAIN, HELD_OUT], ids=["train", "held-out"])
def test_every_sentences_reverse_is_in_the_same_split_with_the_opposite_label(split):
    labels = dict(split)
    for sentence, label in split:
        reverse = wo.reverse(sentence)
        assert reverse != sentence
        assert Counter(reverse.split()) == Counter(sentence.split())  # the same bag of words
        assert labels[reverse] == 1 - label
    assert Counter(label for _, label in split) == {0: len(split) // 2, 1: len(split) // 2}


def test_the_splits_do_not_overlap_in_sentences_or_in_pairs():
    assert not {s for s, _ in TRAIN} & {s for s, _ in HELD_OUT}
    pairs = [{frozenset((s.split()[0], s.split()[2])) for s, _ in split} for split in (TRAIN, HELD_OUT)]
    assert not pairs[0] & pairs[1]
    assert len(pairs[1]) == 16 and len(pairs[0]) == 48


def test_every_word_appears_in_training_and_the_pages_sentences_are_held_out():
    assert {w for s, _ in TRAIN for w in s.split()} == set(wo.VOCAB)
    held = dict(HELD_OUT)
    assert held["dog bites man"] == 0 and held["man bites dog"] == 1
    # every animal and every person is held out with exactly two partners
    for noun in (*wo.ANIMALS, *wo.PEOPLE):
        assert sum(noun in s.split() for s, _ in HELD_OUT) == 4  # 2 partners x 2 orders


def test_encode():
    ids, labels = wo.encode([("dog bites man", 0), ("man bites dog", 1)])
    assert ids.dtype == torch.int64 and ids.shape == (2, 3)
    assert ids.tolist() == [[0, 16, 8], [8, 16, 0]] and labels.tolist() == [0, 1]


# --- without positions: chance by construction -----------------------------------------------------


def reversed_pairs(split):
    ids, labels = wo.encode(split)
    rev, rev_labels = wo.encode([(wo.reverse(s), 1 - label) for s, label in split])
    return ids, labels, rev, rev_labels


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_without_positions_any_weights_give_a_sentence_and_its_reverse_the_same_logits(seed):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = wo.AttentionClassifier(positional=False)
    ids, _, rev, _ = reversed_pairs(TRAIN + HELD_OUT)
    with torch.no_grad():
        np.testing.assert_allclose(model(ids).numpy(), model(rev).numpy(), rtol=0, atol=1e-12)
        # and so for every order of the three words
        for order in ([0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1]):
            np.testing.assert_allclose(model(ids[:, order]).numpy(), model(ids).numpy(), rtol=0, atol=1e-12)


def test_without_positions_the_trained_model_is_right_on_exactly_half(runs):
    without, _ = runs
    for split in (TRAIN, HELD_OUT):
        ids, labels, rev, _ = reversed_pairs(split)
        with torch.no_grad():
            logits, logits_rev = without.model(ids), without.model(rev)
        np.testing.assert_allclose(logits.numpy(), logits_rev.numpy(), rtol=0, atol=1e-12)
        # the answers are equal, not only the logits: no tie is broken by rounding
        gap = (logits[:, 1] - logits[:, 0]).abs()
        assert gap.min().item() > 1e-9, gap.min().item()
        assert torch.equal(logits.argmax(dim=1), logits_rev.argmax(dim=1))
        _, accuracy = wo.evaluate(without.model, ids, labels)
        assert accuracy == 0.5
    assert without.train_accuracy == without.held_out_accuracy == 0.5
    # the best a model can do when both answers of every pair are the same: 50/50, loss ln 2
    assert abs(without.train_loss - np.log(2)) < 1e-5


# --- with positions: the task is learned --------------------------------------------------------------


def test_with_positions_every_sentence_is_right_and_a_sentence_and_its_reverse_differ(runs):
    _, with_pe = runs
    assert with_pe.train_accuracy == with_pe.held_out_accuracy == 1.0
    assert with_pe.train_loss < 0.01
    ids, labels, rev, rev_labels = reversed_pairs(HELD_OUT)
    with torch.no_grad():
        logits, logits_rev = with_pe.model(ids), with_pe.model(rev)
    assert torch.equal(logits.argmax(dim=1), labels) and torch.equal(logits_rev.argmax(dim=1), rev_labels)
    # a margin wide enough that no rounding on another CPU could flip an answer
    margin = (logits.gather(1, labels[:, None]) - logits.gather(1, 1 - labels[:, None])).min().item()
    assert margin > 1.0, margin
    assert wo.person_bites_probability(with_pe.model, "dog bites man") < 0.01
    assert wo.person_bites_probability(with_pe.model, "man bites dog") > 0.99


def test_the_two_runs_start_from_the_same_weights():
    models = []
    for positional in (False, True):
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(wo.SEED)
            models.append(wo.AttentionClassifier(wo.D_MODEL, positional))
    a, b = (dict(m.named_parameters()) for m in models)
    assert all(torch.equal(a[k], b[k]) for k in a)


def test_the_models_attention_is_the_packages(runs):
    _, with_pe = runs
    model = with_pe.model
    ids, _ = wo.encode(HELD_OUT)
    with torch.no_grad():
        X = model.embed(ids) + tref.sinusoidal_positional_encoding(3, wo.D_MODEL)
        Q, K, V = model.W_Q(X), model.W_K(X), model.W_V(X)
        expected_out, expected_weights = tref.scaled_dot_product_attention(Q, K, V)  # scale 1/√d
        out, weights = model.attention(ids)
    np.testing.assert_allclose(out.numpy(), expected_out.numpy(), rtol=0, atol=1e-12)
    np.testing.assert_allclose(weights.numpy(), expected_weights.numpy(), rtol=0, atol=1e-12)
    np.testing.assert_array_equal(model.PE.numpy(), tref.sinusoidal_positional_encoding(3, wo.D_MODEL).numpy())


# --- reproducibility -----------------------------------------------------------------------------------


def test_training_is_deterministic_and_leaves_the_callers_torch_settings_alone(runs):
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    state = torch.random.get_rng_state()
    again = wo.train(True)
    assert torch.get_num_threads() == threads
    assert torch.are_deterministic_algorithms_enabled() == deterministic
    assert torch.equal(torch.random.get_rng_state(), state)
    published = dict(runs[1].model.named_parameters())
    assert all(torch.equal(p, published[k]) for k, p in again.model.named_parameters())
    assert wo.experiment() is runs  # cached: trained once per process


# --- bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "at least one"),
        ([("dog bites", 0)], r"data\[0\]: a sentence has 3 words"),
        ([("dog bites unicorn", 0)], r"unknown word 'unicorn'"),
        ([("dog bites man", 2)], "the label must be 0 or 1"),
        (["dog bites man"], r"data\[0\] must be a \(sentence, label\) pair"),
    ],
)
def test_encode_names_what_is_wrong(data, message):
    with pytest.raises(ValueError, match=message):
        wo.encode(data)


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="held_out must be True or False"):
        wo.sentences("yes")
    with pytest.raises(ValueError, match="positional must be True or False"):
        wo.train("yes")
    with pytest.raises(ValueError, match="seed must be an integer"):
        wo.train(True, seed=1.5)
    with pytest.raises(ValueError, match="d must be a positive integer"):
        wo.AttentionClassifier(d=0)
    # sizes and seeds that torch cannot take are refused before it is asked, briefly
    with pytest.raises(ValueError) as info:
        wo.AttentionClassifier(d=10**6)
    assert str(info.value) == (
        "with d = 1000000, each of W_Q, W_K and W_V (d, d) would hold 1,000,000,000,000 entries; at most 100,000,000"
    )
    with pytest.raises(ValueError) as info:
        wo.train(True, seed=2**70)
    assert str(info.value) == "seed must be an integer from -2**63 to 2**64 - 1, got an integer of 22 digits"
    model = wo.AttentionClassifier()
    with pytest.raises(ValueError, match=r"ids must be an int64 tensor of shape \(batch, n\), got shape \(3,\)"):
        model(torch.tensor([0, 16, 8]))
    with pytest.raises(ValueError, match=r"got shape \(1, 3\), dtype float32$"):  # as NumPy names it, not torch.float32
        model(torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"sentences of 3 words, got shape \(1, 2\)"):
        model(torch.tensor([[0, 16]]))
    ids, labels = wo.encode(HELD_OUT)
    with pytest.raises(ValueError, match=r"labels must be a tensor of shape \(32,\)"):
        wo.evaluate(model, ids, labels[:5])


# --- the record the site is built from (publish/generate/topics/positional_encoding.py) ----------------


def test_the_record_is_what_training_gives_and_is_made_from_the_code_as_it_is(runs):
    """The build and `make update` quote the experiment from docs/generated/positional_encoding/
    word_order.json instead of training it: here it is trained, and the record must hold its figures
    under the key of the code as it is. The run is seeded and deterministic, so on one machine they are
    equal to the last bit; another CPU may round float32 sums differently in the last places, far
    below the digits the page shows, hence the relative tolerance of 1e-6."""
    import math

    from publish.generate.topics import positional_encoding as pe

    data = pe.recorded()
    assert data is not None, f"{pe.RECORD} is missing: run `make update`"
    assert data["key"] == pe.record_key(), f"{pe.RECORD} was made from other code: run `make update`"
    trained = pe.trained()
    assert [sorted(r) for r in data["runs"]] == [sorted(r) for r in trained]
    for recorded_run, trained_run in zip(data["runs"], trained, strict=True):
        for name in ("train_accuracy", "held_out_accuracy"):
            assert recorded_run[name] == trained_run[name], name
        assert math.isclose(recorded_run["train_loss"], trained_run["train_loss"], rel_tol=1e-6)
        assert recorded_run["person_bites"].keys() == trained_run["person_bites"].keys()
        for sentence, p in trained_run["person_bites"].items():
            assert math.isclose(recorded_run["person_bites"][sentence], p, rel_tol=1e-6), sentence
    assert [r["held_out_accuracy"] for r in data["runs"]] == [r.held_out_accuracy for r in runs] == [0.5, 1.0]
    assert pe.word_order() == {"key": data["key"], "runs": data["runs"]}


def test_a_record_made_from_other_code_is_not_used(monkeypatch, tmp_path):
    """A changed training module (or PyTorch twin, or sentence) changes the key, and a record
    under another key is not used: the figures then come from training."""
    import shutil

    from publish.generate.topics import positional_encoding as pe

    key = pe.record_key()
    with monkeypatch.context() as m:
        m.setattr(pe, "_sentences", lambda: ["dog bites man"])
        assert pe.record_key() != key
    for rel in pe._KEYED:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(pe.ROOT / rel, tmp_path / rel)
    with monkeypatch.context() as m:
        m.setattr(pe, "ROOT", tmp_path)
        assert pe.record_key() == key
        module = tmp_path / "selfattn_ref" / "training" / "word_order.py"
        text = module.read_text(encoding="utf-8")
        assert "STEPS = 150\n" in text
        module.write_text(text.replace("STEPS = 150\n", "STEPS = 151\n"), encoding="utf-8")
        assert pe.record_key() != key
    monkeypatch.setattr(pe, "recorded", lambda: {"key": "0" * 64, "runs": [{"train_accuracy": 0.25}]})
    assert pe.word_order()["runs"] == pe.trained()
