"""Layer 1: what the language model's heads do, measured (selfattn_ref/topics/language_model.py).

First, that the measures are what they say: means of the weights of the model's own forward pass,
and the scores of the model with a head removed. Then the claims a page may make about the trained
model, held on the recorded weights and the held-out sentences (a retrained model that does
otherwise fails here, and the page must change with it). Heads are (block, head), from 1; in the
arrays, [block - 1, head - 1].
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.topics import language_model as heads

HELD = corpus.held_out()
IT_GROUPS = [(sense, form) for sense in ("animal", "place") for form in corpus.IT_FORMS]
BANK_GROUPS = [(sense, form) for sense in ("river", "money") for form in ("3 back", "4 back")]


@cache
def shares(kind, sense=None, form=None, distractor=None):
    return heads.attention(heads.sentences_of(kind, sense, form, distractor))


@cache
def scores(kind, sense=None, form=None):
    return heads.removal(heads.sentences_of(kind, sense, form))


# --- the measures ----------------------------------------------------------------------------------


def test_the_groups_are_the_held_out_sentences_by_sense_form_and_distractor():
    assert len(heads.sentences_of("bank")) == 204 and len(heads.sentences_of("it")) == 56
    assert len(heads.sentences_of("bank", "money")) == 136 and len(heads.sentences_of("bank", "river")) == 68
    for sense, form in IT_GROUPS:
        group = heads.sentences_of("it", sense, form)
        assert len(group) == 14 and all(s.sense == sense and s.form == form for s in group)
    animals = heads.sentences_of("it", "place", "referent second", "animal")
    assert animals and all(s.words[s.distractor] in corpus.ANIMALS for s in animals)
    assert "near the animal the street was cold so it froze ." in {s.text for s in animals}
    mine = corpus.training()[:50]
    assert heads.sentences_of("it", sentences=mine) == tuple(s for s in mine if s.kind == "it")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: heads.sentences_of("sat"), "kind must be 'bank' or 'it', got 'sat'"),
        (lambda: heads.sentences_of("it", "river"), "sense of it sentences must be None, 'animal' or 'place'"),
        (lambda: heads.sentences_of("bank", form="first"), "form of bank sentences must be None, '3 back' or"),
        (lambda: heads.sentences_of("bank", distractor="animal"), "distractor: bank sentences have none"),
        (lambda: heads.sentences_of("it", distractor="cat"), "distractor of it sentences must be None, 'animal'"),
        (lambda: heads.attention(HELD), "sentences must all be bank sentences or all it sentences, got kinds"),
        (lambda: heads.removal([]), "sentences must be a non-empty list of corpus Sentences"),
        (lambda: heads.attention(heads.sentences_of("it"), "W"), "weights must be the language model's Weights"),
    ],
)
def test_bad_input_is_one_clear_message(call, message):
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value).startswith(message), str(info.value)


def test_attention_is_the_mean_of_the_forward_pass_weights():
    """Recomputed sentence by sentence with forward(): the weight of "it" on each word it reads."""
    group = heads.sentences_of("it", "animal", "referent second")
    measured = heads.attention(group)
    assert set(measured) == set(heads.MEASURES["it"])
    rows = [lm.forward(list(s.words)).blocks[1].weights[0, s.query, : s.query + 1] for s in group]  # head 2.1
    for word, at in [("referent", lambda s: s.cue), ("distractor", lambda s: s.distractor),
                     ("adjective", lambda s: s.query - 2), ("first", lambda s: 0)]:  # fmt: skip
        expected = np.mean([row[at(s)] for s, row in zip(group, rows, strict=True)])
        assert measured[word].mean[1, 0] == pytest.approx(expected, abs=1e-12)
        most = np.mean([row[at(s)] == row.max() for s, row in zip(group, rows, strict=True)])
        assert measured[word].most[1, 0] == most and measured[word].sentences == 14
    bank = heads.attention(heads.sentences_of("bank", "river", "4 back"))
    s = heads.sentences_of("bank", "river", "4 back")[0]
    assert s.words[2] == "the" and set(bank) == set(heads.MEASURES["bank"])
    assert all(v.mean.shape == v.most.shape == (2, 2) for v in bank.values())


def test_attention_overall_is_the_mean_over_every_word_but_the_first():
    few = list(HELD[:3]) + list(heads.sentences_of("it")[:3])
    measured = heads.attention_overall(few)
    rows = [(lm.forward(list(s.words)).blocks, q) for s in few for q in range(1, len(s.words))]
    for name, at in (("previous", lambda q: q - 1), ("itself", lambda q: q), ("first", lambda q: 0)):
        expected = np.mean([[[b.weights[h, q, at(q)] for h in range(2)] for b in blocks] for blocks, q in rows], axis=0)
        np.testing.assert_allclose(measured[name], expected, rtol=0, atol=1e-12)
    assert set(heads.attention_overall()) == {"previous", "itself", "first"}


def test_removal_is_the_models_score_after_the_word_with_a_head_removed():
    group = heads.sentences_of("bank", "money")
    measured = heads.removal(group)
    assert list(measured) == [None, (1, 1), (1, 2), (2, 1), (2, 2)]
    assert measured[None] == lm.evaluate(group)["after bank"]
    assert measured[(2, 1)] == lm.evaluate(group, lm.without_heads(lm.load(), [(2, 1)]))["after bank"]
    assert measured[None].positions == 136


# --- what a page may say about the trained model -----------------------------------------------------


def test_the_model_gets_the_word_after_it_and_bank_right_in_every_group():
    for kind, groups in (("it", IT_GROUPS), ("bank", BANK_GROUPS)):
        for sense, form in groups:
            full = scores(kind, sense, form)[None]
            assert full.accuracy == 1.0 and full.loss < 0.01, (kind, sense, form)


def test_head_2_1_reads_the_referent_of_it_in_both_forms_and_not_the_other_noun():
    """Position 4 holds the other noun in the first form and the referent in the second: head 2.1
    puts almost nothing there in the first and most of its weight in the second. It reads the
    referent, not a position."""
    both = {form: shares("it", form=form) for form in corpus.IT_FORMS}
    assert both["referent first"]["referent"].mean[1, 0] > 0.99  # position 1
    assert both["referent second"]["referent"].mean[1, 0] > 0.5  # position 4
    assert both["referent first"]["distractor"].mean[1, 0] < 0.01  # position 4, the other noun
    for sense, form in IT_GROUPS:
        for distractor in ("animal", "place"):  # whatever the other noun is, even of the referent's kind
            group = shares("it", sense, form, distractor)
            assert group["distractor"].mean[1, 0] < 0.05 and group["distractor"].most[1, 0] == 0
    assert shares("it", "animal")["referent"].most[1, 0] == 1.0  # an animal: its largest weight, every sentence
    for sense, form in IT_GROUPS[:3]:
        assert shares("it", sense, form)["referent"].mean[1, 0] > 0.8
    # the exception: a place second, "near the animal the street": a quarter on the referent,
    # more than on the other noun, and more still on the adjective
    weak = shares("it", "place", "referent second")
    assert 0.2 < weak["referent"].mean[1, 0] < 0.3 and weak["adjective"].mean[1, 0] > weak["referent"].mean[1, 0]
    assert weak["referent"].mean[1, 0] > 5 * weak["distractor"].mean[1, 0]


def test_head_2_2_reads_the_adjective_and_no_head_of_it_reads_a_fixed_place():
    for sense, form in IT_GROUPS:
        group = shares("it", sense, form)
        assert group["adjective"].mean[1, 1] > 0.9 and group["adjective"].most[1, 1] == 1.0
        assert (group["first"].mean < 0.15).all() and (group["previous"].mean < 0.15).all()
        assert (group["referent"].mean[0] < 0.1).all()  # block 1's heads do not read the referent from "it"


def test_head_2_1_of_bank_reads_a_money_word_and_otherwise_the_article():
    """Head 2.1 is not reading "the thing carried": it reads it when it is money, cash or a
    cheque, and the "the" before it when it is a boat, fish or net, at either distance."""
    for form in ("3 back", "4 back"):
        money, river = shares("bank", "money", form), shares("bank", "river", form)
        assert money["thing"].mean[1, 0] > 0.9 and money["thing"].most[1, 0] == 1.0
        assert river["thing"].mean[1, 0] < 0.05 and river["article"].mean[1, 0] > 0.55
        assert river["article"].most[1, 0] > 0.8
    whole = shares("bank")["thing"].mean[1, 0]
    assert 0.6 < whole < 0.65  # the mean over both senses, a number no sentence shows


def test_removing_head_2_1_takes_away_one_sense_and_leaves_the_other():
    """Without head 2.1 the model always says the word of the other sense: every money sentence
    and every animal sentence goes wrong, every river and place sentence stays right."""
    for kind, lost, kept in (("bank", "money", "river"), ("it", "animal", "place")):
        assert scores(kind, lost)[(2, 1)].accuracy == 0.0 and scores(kind, lost)[(2, 1)].loss > 2
        assert scores(kind, kept)[(2, 1)].accuracy == 1.0
    assert scores("it")[(2, 1)].accuracy == 0.5 and scores("bank")[(2, 1)].accuracy == pytest.approx(1 / 3)


def test_removing_head_2_2_costs_the_word_after_it_not_after_bank():
    for sense, form in IT_GROUPS:
        assert 0.55 < scores("it", sense, form)[(2, 2)].accuracy < 0.9
    assert scores("bank")[(2, 2)].accuracy == 1.0
    # every other single head removed: the word after bank stays right at least 95 times in 100
    assert all(scores("bank")[head].accuracy > 0.95 for head in [(1, 1), (1, 2), (2, 2)])


# --- one head's scores, and points in two dimensions ------------------------------------------------


def test_head_scores_are_the_heads_columns_of_w_q_and_w_k_and_give_the_forward_weights():
    text = "the street near the animal was cold so it froze ."
    steps = lm.forward(text)
    W = lm.load()
    for block in (1, 2):
        for head in (1, 2):
            h = heads.head_scores(text, block, head)
            cols = slice((head - 1) * 8, head * 8)
            np.testing.assert_array_equal(h.W_Q, W.blocks[block - 1].W_Q[:, cols])
            np.testing.assert_array_equal(h.W_K, W.blocks[block - 1].W_K[:, cols])
            below = np.tril_indices(11)
            np.testing.assert_allclose(h.scaled[below], (h.Q @ h.K.T / np.sqrt(8))[below], rtol=0, atol=1e-12)
            assert np.isinf(h.scaled[np.triu_indices(11, 1)]).all() and np.isfinite(np.tril(h.scaled)).all()
            np.testing.assert_allclose(h.weights, steps.blocks[block - 1].weights[head - 1], rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="^block must be an integer from 1 to 2, got 3"):
        heads.head_scores(text, 3, 1)
    with pytest.raises(ValueError, match="^head must be an integer from 1 to 2, got 0"):
        heads.head_scores(text, 1, 0)


def test_principal_components_project_on_the_directions_of_most_variance():
    rng = np.random.default_rng(0)
    M = rng.normal(size=(50, 5)) * [5, 3, 1, 0.5, 0.1]  # spread along x1 most, then x2
    p = heads.principal_components(M)
    assert p.points.shape == (50, 2) and p.directions.shape == (2, 5)
    np.testing.assert_allclose(p.directions @ p.directions.T, np.eye(2), atol=1e-12)  # unit, orthogonal
    assert abs(p.directions[0, 0]) > 0.9 and abs(p.directions[1, 1]) > 0.9
    assert (p.directions[np.arange(2), np.abs(p.directions).argmax(axis=1)] > 0).all()  # the sign rule
    centred = M - M.mean(axis=0)
    np.testing.assert_allclose(p.shares, (p.points**2).sum(axis=0) / (centred**2).sum(), rtol=1e-12)
    assert p.shares[0] > p.shares[1] and p.shares.sum() < 1
    np.testing.assert_allclose(
        heads.principal_components(-M).points, -p.points, atol=1e-12
    )  # the same picture, mirrored
    for bad, message in (
        (np.ones((1, 3)), "at least 2 rows and 2 columns"),
        (np.ones((4, 3)), "every row is the same"),
    ):
        with pytest.raises(ValueError, match=message):
            heads.principal_components(bad)


def test_the_embedding_map_and_the_rows_of_bank():
    m = heads.embedding_map()
    assert m.points.shape == (len(corpus.VOCABULARY), 2)
    np.testing.assert_allclose(m.points, heads.principal_components(lm.load().token_embedding).points)
    group = heads.sentences_of("bank")
    for block in (0, 1, 2):
        rows = heads.decisive_rows(group, block)
        for s, row in list(zip(group, rows, strict=True))[::40]:
            steps = lm.forward(list(s.words))
            want = steps.X[s.query] if block == 0 else steps.blocks[block - 1].output[s.query]
            np.testing.assert_allclose(row, want, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="^block must be an integer from 0 .the input. to 2, got 3"):
        heads.decisive_rows(group, 3)


def test_the_nearest_words_are_the_largest_cosines():
    E = lm.load().token_embedding
    unit = E / np.linalg.norm(E, axis=1, keepdims=True)
    near = heads.nearest_words("money", k=42)
    i = corpus.VOCABULARY.index("money")
    assert [w for w, _ in near] == [corpus.VOCABULARY[j] for j in np.argsort(-(unit @ unit[i])) if j != i]
    assert all(a >= b for (_, a), (_, b) in zip(near, near[1:], strict=False))
    for word, bad in (("bnak", "word must be a word of the model's vocabulary"), ("money", "k must be an integer")):
        with pytest.raises(ValueError, match=bad):
            heads.nearest_words(word, k=0 if word == "money" else 3)
