"""Snippets of docs/trained-model.md: every head's weights and a head removed, in NumPy and PyTorch,
read from the repository's weights file and held equal to selfattn_ref.language_model to 1e-12; what
the page says of the trained model beyond tests/package/test_language_model_heads.py, held on the
recorded weights; and its exercises, which a reader working from the rounded numbers they show gets
right."""

from __future__ import annotations

import math

import numpy as np

from publish import SNIPPETS
from publish.generate import exercises as exr
from publish.generate.topics import language_model as source
from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.topics import language_model as heads

from snippet_checks import close

FOLDER = SNIPPETS / "trained_model"
SCRIPTS = [FOLDER / "heads_numpy.py", FOLDER / "heads_torch.py"]


# The scripts' globals: tests/snippets/conftest.py's ns, once for each (that the two print the same is
# tests/snippets/test_recordings.py's).
SNIPPET_PATHS = SCRIPTS


def test_the_script_is_the_packages_model(ns):
    assert ns["sentences"] == [" ".join(s.split()[: s.split().index("it") + 1]) for s in source.ITS]
    for sentence, (p, weights) in zip(ns["sentences"], ns["found"], strict=True):
        steps = lm.forward(sentence)
        close(p, steps.probabilities)
        for mine, block in zip(weights, steps.blocks, strict=True):
            close(mine, block.weights)
    close(ns["every_head"], lm.forward("she took the money to the bank").probabilities)
    without = lm.forward("she took the money to the bank", lm.without_heads(lm.load(), [(2, 1)]))
    close(ns["without"], without.probabilities)
    for removed in ([(1, 1)], [(1, 2), (2, 2)]):  # any heads, as the docstring says
        close(ns["model"](["the", "cat", "sat"], removed)[0],
              lm.forward("the cat sat", lm.without_heads(lm.load(), removed)).probabilities)  # fmt: skip


# --- what the page says -------------------------------------------------------------------------


def test_the_loss_curve_says_what_the_page_says():
    """The first loss near ln 43; the held-out curve a little above the training one at the end,
    lowest at step 300; only step 0 above the chart's top."""
    curve = source.run()["run"]["curve"]
    assert abs(curve[0]["train_loss"] - math.log(43)) < 0.1
    assert curve[-1]["held_out_loss"] > curve[-1]["train_loss"]
    # "close to the training curve all the way, now below it, now above it"
    gaps = [c["held_out_loss"] - c["train_loss"] for c in curve[1:]]
    assert max(map(abs, gaps)) < 0.03 and min(gaps) < 0 < max(gaps)
    assert min(curve, key=lambda c: c["held_out_loss"])["step"] == 300
    assert all(c["train_loss"] < source.Y_MAX and c["held_out_loss"] < source.Y_MAX for c in curve[1:])
    r = source.run()["run"]["held_out"]
    gaps = {g: r["model"][g]["loss"] - r["best"][g]["loss"] for g in ("bank", "it", "sat", "rest")}
    assert max(gaps, key=gaps.get) == "sat"  # "furthest from the best possible on the sat sentences"
    assert r["bigram"]["after it"]["accuracy"] == 0.25 and abs(r["bigram"]["after it"]["loss"] - math.log(4)) < 0.01


def test_the_heatmap_sentence_and_the_contrasts_are_held_out():
    held = {s.text for s in corpus.held_out()}
    assert source.HEATMAP in held and set(source.ITS) <= held
    for text in source.BANK:
        assert any(t.startswith(text + " ") for t in held)
    steps = lm.forward(source.HEATMAP)
    it = steps.words.index("it")
    assert steps.words[int(np.argmax(steps.blocks[1].weights[0, it]))] == "street"
    assert steps.words[int(np.argmax(steps.blocks[1].weights[1, it]))] == "cold"


def test_in_x_the_row_of_bank_is_one_of_three_and_the_blocks_part_the_senses():
    group = heads.sentences_of("bank")
    X = heads.decisive_rows(group, 0)
    assert len({tuple(r) for r in X}) == 3 and {s.query + 1 for s in group} == {7, 8, 9}
    p = heads.principal_components(heads.decisive_rows(group, 2))
    money = np.array([s.sense == "money" for s in group])
    assert p.points[money, 0].min() > 0 > p.points[~money, 0].max()
    assert (money.sum(), (~money).sum()) == (136, 68)


def test_every_it_sentence_gets_its_referents_word_and_block_1_reads_no_referent():
    for text in source.ITS:
        words = text.split()
        st = lm.forward(words[: words.index("it") + 1])
        assert lm.ranked(st.probabilities[-1], 1)[0][0] == words[words.index("it") + 1]


def test_the_nearest_words_the_page_names():
    assert heads.nearest_words("took", 1)[0][0] == "brought"
    assert heads.nearest_words("money", 1)[0][0] == "cheque"
    assert heads.nearest_words("cash", 1)[0][0] == "cat"
    m = heads.embedding_map()
    assert m.shares.sum() < 0.3  # "most of the differences lie in the 14 other directions"


def test_removing_a_head_does_what_the_page_says():
    """Without head 2.1: "of" after every bank, and after an animal's "it" what a place would do;
    without head 1.1, the animal sentences lose about a third."""
    w = lm.without_heads(lm.load(), [(2, 1)])
    for s in heads.sentences_of("bank", "money"):
        assert lm.ranked(lm.forward(list(s.words[: s.query + 1]), w).probabilities[-1], 1)[0][0] == "of"
    for s in heads.sentences_of("it", "animal"):
        said = lm.ranked(lm.forward(list(s.words[: s.query + 1]), w).probabilities[-1], 1)[0][0]
        assert said == corpus.DID["place", s.words[s.query - 2]]
    lost = heads.removal(heads.sentences_of("it", "animal"))[(1, 1)].accuracy
    assert 0.6 < lost < 0.7


def test_the_exercises_are_right_from_the_rounded_numbers_they_show():
    by_id = {e.id: e for e in exr.load_all()["trained-model"]}
    shown = {k: exr.grader_data(e)["answer"][0] for k, e in by_id.items()}
    values = source._exercise_values()
    r = lambda v, d: round(float(v), d)  # noqa: E731
    assert shown["without-head"] == f"{100 * values['river'] / (values['money'] + values['river']):.1f}"
    assert shown["four-chances"] == f"{math.log(4):.3f}"
    q = np.array([r(values["q"][f"c{k}"], 3) for k in range(1, 9)])
    k = np.array([r(values["k"][f"c{k}"], 3) for k in range(1, 9)])
    assert shown["scaled-score"] == f"{q @ k / math.sqrt(8):.1f}"
    row = np.array([r(values["row"][f"w{k}"], 2) for k in range(1, 10)])
    e = np.exp(row)
    assert shown["weight-of-street"] == f"{e[1] / e.sum():.3f}"
    # the solution's quotient, from the rounded terms it shows, is the answer too
    assert f"{r(values['e_street'], 1) / r(values['e_total'], 1):.3f}" == shown["weight-of-street"]
    assert f"{values['street_and_animal']:.3f}" != shown["weight-of-street"]  # the mistake is told apart
