"""Layer 1: the reversal task of selfattn_ref.training.reversal (PyTorch only), which
docs/attention-that-learns.md trains: the data, the model, the pattern it learns (each query's weight
on its partner), and the record the site is built from, which must be what training gives.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import selfattn_ref.torch as tref  # noqa: E402
from publish.generate.topics import attention_that_learns as atl  # noqa: E402
from selfattn_ref.training import reversal as rv  # noqa: E402

TRAIN, HELD_OUT = rv.sequences()


@pytest.fixture(scope="module")
def run():
    return rv.experiment()


def last(run):
    (snapshot,) = [s for s in run.snapshots if s.step == rv.STEPS]
    return snapshot


# --- the data --------------------------------------------------------------------------------------


def test_the_sequences_are_distinct_different_letters_and_the_splits_do_not_overlap():
    assert TRAIN.shape == (rv.TRAIN_SIZE, rv.LENGTH) and HELD_OUT.shape == (rv.HELD_OUT_SIZE, rv.LENGTH)
    rows = [tuple(r) for r in torch.cat([TRAIN, HELD_OUT]).tolist()]
    assert len(set(rows)) == len(rows)  # no sequence twice, so none held out is in training
    assert all(len(set(r)) == rv.LENGTH and all(0 <= k < len(rv.LETTERS) for k in r) for r in rows)
    assert rv.letters(HELD_OUT[0]) == "c f b h a g"  # the page's example, the first held-out sequence


def test_the_answer_is_the_sequence_reversed_and_the_partner_is_n_plus_1_minus_i():
    assert torch.equal(rv.targets(HELD_OUT[:1]), HELD_OUT[:1].flip(1))
    assert rv.letters(rv.targets(HELD_OUT[:1])[0]) == "g a h b f c"
    assert [rv.partner(i) for i in range(1, 7)] == [6, 5, 4, 3, 2, 1]
    for i in range(1, rv.LENGTH + 1):  # the answer at position i is the letter at the partner's
        assert rv.targets(HELD_OUT)[:, i - 1].tolist() == HELD_OUT[:, rv.partner(i) - 1].tolist()


# --- the model ---------------------------------------------------------------------------------------


def test_the_output_is_the_weights_of_the_keys_that_hold_each_letter():
    """With different letters, the share of the right letter is the weight on the partner, and the loss
    is -ln of that weight, averaged: what the page says of the model."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(1)
        model = rv.ReversalAttention()
    with torch.no_grad():
        A, P = model.attention(HELD_OUT), model(HELD_OUT)
        partner = A[:, torch.arange(rv.LENGTH), torch.arange(rv.LENGTH - 1, -1, -1)]
        right = P.gather(-1, rv.targets(HELD_OUT)[..., None])[..., 0]
        np.testing.assert_allclose(right.numpy(), partner.numpy(), rtol=0, atol=1e-15)
        np.testing.assert_allclose(P.sum(-1).numpy(), 1.0, atol=1e-12)
        assert abs(rv.loss_of(model, HELD_OUT).item() - (-torch.log(partner)).mean().item()) < 1e-12
        X = model.embed(HELD_OUT) + tref.sinusoidal_positional_encoding(rv.LENGTH, rv.D_MODEL)
        _, weights = tref.scaled_dot_product_attention(model.W_Q(X), model.W_K(X), X)
        np.testing.assert_allclose(A.numpy(), weights.numpy(), rtol=0, atol=1e-12)


def test_without_positions_attention_only_sees_which_letters_not_where():
    """Why the page needs the positional encoding: without it, reordering a sequence only reorders the
    model's weights (permutation equivariance), so no query can single out a position."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(2)
        model = rv.ReversalAttention()
    model.PE = torch.zeros_like(model.PE)
    order = torch.tensor([3, 0, 5, 1, 4, 2])
    with torch.no_grad():
        A, A_reordered = model.attention(HELD_OUT), model.attention(HELD_OUT[:, order])
    np.testing.assert_allclose(A_reordered.numpy(), A[:, order][:, :, order].numpy(), rtol=0, atol=1e-12)


# --- what it learns: the pattern known in advance ------------------------------------------------------------


def test_the_trained_model_puts_at_least_95_percent_of_each_querys_weight_on_its_partner(run):
    s = last(run)
    assert s.accuracy == 1.0
    assert min(s.partner_weight_by_query) >= 0.95, s.partner_weight_by_query
    assert s.least_partner_weight >= 0.95  # in every held-out sequence, not only on average
    with torch.no_grad():
        A = run.model.attention(HELD_OUT)
    partner = A[:, torch.arange(rv.LENGTH), torch.arange(rv.LENGTH - 1, -1, -1)]
    assert partner.min().item() == pytest.approx(s.least_partner_weight, abs=1e-15)
    assert (A.argmax(dim=-1) == torch.arange(rv.LENGTH - 1, -1, -1)).all()


def test_the_pattern_forms_over_the_snapshots(run):
    """What the page says of each: spread out at first (about a sixth on the partner, about a sixth
    right, a loss near ln 6), half formed at step 25, with most of the rest next to the partner."""
    first, middle, end = run.snapshots
    assert [s.step for s in run.snapshots] == list(rv.SNAPSHOTS) == [0, 25, 200]
    assert abs(first.partner_weight - 1 / 6) < 0.01 and abs(first.accuracy - 1 / 6) < 0.02
    assert abs(first.loss - math.log(6)) < 0.05 and first.loss > math.log(6)
    assert 0.4 < middle.partner_weight < 0.6 and middle.neighbour_weight > (1 - middle.partner_weight) / 2
    assert first.accuracy < middle.accuracy < end.accuracy and first.loss > middle.loss > end.loss
    example = np.array(end.example)
    assert (example.argmax(axis=1) == np.arange(rv.LENGTH - 1, -1, -1)).all()
    # at step 25, in "c f b h a g", "h" (position 4) still looks most at "f", next to its partner "b"
    h = np.array(middle.example)[3]
    assert h.argmax() == 1 and abs(h.argmax() - 2) == 1 and h[2] < h[1]


def test_training_is_deterministic_and_leaves_the_callers_torch_settings_alone(run):
    threads, deterministic = torch.get_num_threads(), torch.are_deterministic_algorithms_enabled()
    state = torch.random.get_rng_state()
    again = rv.train(steps=25, snapshots=(25,))
    assert torch.get_num_threads() == threads
    assert torch.are_deterministic_algorithms_enabled() == deterministic
    assert torch.equal(torch.random.get_rng_state(), state)
    assert again.snapshots[0] == run.snapshots[1]  # step 25 of the published run, to the last bit
    assert rv.experiment() is run


# --- the record the site is built from (publish/generate/topics/attention_that_learns.py) --------------------


def test_the_record_is_what_training_gives_and_is_made_from_the_code_as_it_is():
    """The build quotes the run from docs/generated/attention_that_learns/run.json instead of training:
    here it is trained, and the record must hold its figures under the key of the code as it is. On one
    machine they are equal to the last bit; another CPU may round sums differently in the last places,
    far below the digits the page shows, hence the relative tolerance of 1e-6."""
    data = atl.recorded()
    assert data is not None, f"{atl.RECORD} is missing: run `make update`"
    assert data["key"] == atl.record_key(), f"{atl.RECORD} was made from other code: run `make update`"
    recorded, trained = data["run"], atl.trained()
    assert sorted(recorded) == sorted(trained)
    for name in ("learning_rate", "weight_decay", "training_sequences", "held_out_sequences", "example"):
        assert recorded[name] == trained[name], name
    assert len(recorded["snapshots"]) == len(trained["snapshots"])
    for rec, new in zip(recorded["snapshots"], trained["snapshots"], strict=True):
        assert sorted(rec) == sorted(new)
        assert rec["step"] == new["step"] and rec["accuracy"] == new["accuracy"]
        for name in ("loss", "partner_weight", "neighbour_weight", "least_partner_weight"):
            assert math.isclose(rec[name], new[name], rel_tol=1e-6), (new["step"], name)
        np.testing.assert_allclose(rec["partner_weight_by_query"], new["partner_weight_by_query"], rtol=1e-6)
        np.testing.assert_allclose(rec["example"], new["example"], rtol=1e-6, atol=1e-12)
    assert atl.run() == {"key": data["key"], "run": recorded}


def test_the_builds_constants_are_the_training_modules():
    """publish/generate/topics/attention_that_learns.py does not import the training module (PyTorch): its copies
    of the length and the snapshots' steps must be the module's."""
    assert atl.LENGTH == rv.LENGTH and atl.SNAPSHOTS == rv.SNAPSHOTS


def test_a_record_made_from_other_code_is_not_used(monkeypatch, tmp_path):
    """A changed training module (or positional encoding, or PyTorch version) changes the key, and a
    record under another key is not used: the figures then come from training."""
    import shutil

    key = atl.record_key()
    for rel in atl._KEYED:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(atl.ROOT / rel, tmp_path / rel)
    with monkeypatch.context() as m:
        m.setattr(atl, "ROOT", tmp_path)
        assert atl.record_key() == key
        module = tmp_path / "selfattn_ref" / "training" / "reversal.py"
        text = module.read_text(encoding="utf-8")
        assert "STEPS = 200\n" in text
        module.write_text(text.replace("STEPS = 200\n", "STEPS = 201\n"), encoding="utf-8")
        assert atl.record_key() != key
    with monkeypatch.context() as m:
        m.setattr(atl, "versions", lambda: {"torch": "0.0"})
        assert atl.record_key() != key
    monkeypatch.setattr(atl, "recorded", lambda: {"key": "0" * 64, "run": {"snapshots": []}})
    assert atl.run()["run"] == atl.trained()


# --- bad input -------------------------------------------------------------------------------------


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="i must be a position from 1 to n = 6, got 7"):
        rv.partner(7)
    with pytest.raises(ValueError, match="n must be a positive integer"):
        rv.partner(1, n=0)
    with pytest.raises(ValueError, match="seed must be an integer"):
        rv.sequences(1.5)
    with pytest.raises(ValueError, match="steps must be a non-negative integer"):
        rv.train(steps=-1)
    with pytest.raises(ValueError, match=r"snapshots must be steps from 0 to steps = 5"):
        rv.train(steps=5, snapshots=(6,))
    with pytest.raises(ValueError, match="d must be a positive integer"):
        rv.ReversalAttention(d=0)
    with pytest.raises(ValueError, match="ids must be a non-empty sequence of letter ids from 0 to 7"):
        rv.letters([9])
    model = rv.ReversalAttention()
    with pytest.raises(ValueError, match=r"ids must be an int64 tensor of shape \(batch, 6\), got shape \(6,\)"):
        model(torch.arange(6))
    with pytest.raises(ValueError, match=r"sequences of 6 letter ids from 0 to 7, got shape \(1, 5\)"):
        model(torch.zeros((1, 5), dtype=torch.int64))
    with pytest.raises(ValueError, match=r"sequences of 6 letter ids from 0 to 7"):
        model(torch.full((1, 6), 8))
