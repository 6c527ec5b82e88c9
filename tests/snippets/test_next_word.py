"""Snippets of docs/next-word.md: one sentence through the trained language model, in NumPy and
PyTorch, read from the repository's weights file and held equal to selfattn_ref.language_model
(through selfattn_ref/topics/next_word.py) to 1e-12 in float64, and to torch.nn.TransformerEncoderLayer;
temperature, top-k, greedy decoding, seeded sampling and the loop, held equal to the package's; and
the page's exercises, which a reader working from the rounded numbers they show gets right."""

from __future__ import annotations

import numpy as np
import pytest

from publish import SNIPPETS
from publish.generate import snippets as sn
from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.topics import next_word as nw

from snippet_checks import as_numpy, close, snippet_namespace

FOLDER = SNIPPETS / "next_word"
FORWARD = [FOLDER / "next_word_numpy.py", FOLDER / "next_word_torch.py"]


# The scripts' globals (tests/snippets/conftest.py's ns): the forward pass, then the choice of the next
# words (``generate``). That the PyTorch tab prints the NumPy tab's lines and the layers' check is
# tests/snippets/test_recordings.py's (TWINS_DIFFER).
SNIPPET_PATHS = FORWARD


def test_the_scripts_read_the_packages_weights_file():
    for path in FORWARD:
        assert sn.data_files(path.read_text(encoding="utf-8")) == [lm.DATA]


def test_every_step_of_the_forward_script_is_the_packages(ns):
    s = nw.walk()
    assert ns["words"] == list(s.words) and ns["ids"] == s.ids.tolist()
    assert ns["vocabulary"] == list(corpus.VOCABULARY) and ns["num_heads"] == 2
    close(ns["X"], s.X)
    for mine, block in zip(ns["weights"], s.blocks, strict=True):
        close(mine, block.weights)
    close(ns["H"], s.blocks[-1].output)
    close(ns["final"], s.final)
    close(ns["logits"], s.logits)
    close(ns["probabilities"], s.probabilities)


def test_the_torch_script_checks_pytorchs_own_layers():
    torch = pytest.importorskip("torch")
    ns = snippet_namespace(FORWARD[1])  # torch's settings put back
    assert all(layer.norm_first and layer.dropout.p == 0.0 for layer in ns["layers"])
    close(ns["out"][0], nw.walk().blocks[-1].output)
    assert torch.equal(ns["mask"], torch.triu(torch.full((7, 7), -torch.inf, dtype=torch.float64), 1))


def test_the_scripts_choice_of_words_is_the_packages(ns):
    c, g = nw.choices(), nw.generation()
    assert ns["prompt"] == list(c.words)
    close(ns["logits"][nw.PREFIX - 1], c.logits)
    for name, T in (("T = 0.5", 0.5), ("T = 1", 1.0), ("T = 2", 2.0)):
        close(ns["choices"][name], c.temperature[T])
    close(ns["choices"][f"top-{nw.TOP_K}"], c.top_k)
    assert ns["greedy"] == list(c.words) + [st.word for st in g.greedy]
    assert ns["sampled"] == list(c.words) + [st.word for st in g.sampled]
    numbers = ns["seeded_numbers"](nw.SEED)
    rng = corpus.SeededRandom(nw.SEED)
    assert [next(numbers) for _ in range(50)] == [rng.uniform() for _ in range(50)]


def test_the_scripts_rules_are_the_packages_on_other_input(ns):
    """Temperature, top-k (ties to the smaller id), the sampling rule and the rounding edge, on
    logits the page does not show."""
    rng = np.random.default_rng(5)
    for _ in range(20):
        logits = np.round(rng.normal(0, 3, 43), 1)  # rounded: ties among the largest
        T, k = float(rng.uniform(0.3, 3)), int(rng.integers(1, 43))
        mine = as_numpy(ns["next_word_probabilities"](_like(ns, logits), T, k))
        close(mine, lm.next_word_probabilities(logits, T, k))
        p = lm.next_word_probabilities(logits, T)
        for u in (0.0, float(rng.uniform()), float(np.nextafter(1, 0))):
            assert ns["sample"](_like(ns, p), u) == lm.sample(p, u)


def _like(ns, a):
    """``a`` as the script's library holds it: a tensor for the PyTorch script."""
    if "torch" in ns:
        return ns["torch"].from_numpy(np.asarray(a, dtype=np.float64))
    return np.asarray(a, dtype=np.float64)


# --- what the page says -------------------------------------------------------------------------


def test_the_sentences_written_and_the_words_the_corpus_never_writes():
    g = nw.generation()
    greedy = " ".join([*nw.walk().words[: nw.PREFIX], *(st.word for st in g.greedy)])
    sampled = " ".join([*nw.walk().words[: nw.PREFIX], *(st.word for st in g.sampled)])
    assert greedy in {s.text for s in corpus.held_out()}  # "a held-out one, which the model never read"
    assert sum(s.text == sampled for s in corpus.training()) == 5  # "a training sentence, read 5 times"
    c = nw.choices()
    assert int((c.odds == 0).sum()) == 35 and int((c.odds > 0).sum()) == 8
    step = g.sampled[0]
    assert sum(1 for i in range(corpus.VOCABULARY.index(step.word)) if step.probabilities[i] < 0.001) == 18
    assert g.greedy[1].word == "net" and lm.ranked(g.greedy[1].probabilities, 1)[0][0] == "net"
    s = nw.walk()
    assert len(np.argsort(-s.probabilities[-1])[10:]) == 33  # "the other 33 words left out of the table"


def test_the_exercises_are_right_from_the_rounded_numbers_they_show():
    from publish.generate import exercises as exr
    from publish.generate.topics import next_word as source

    by_id = {e.id: e for e in exr.load_all()["next-word"]}
    shown = {k: exr.grader_data(e)["answer"][0] for k, e in by_id.items()}
    v = source._exercise_values()
    r = lambda x, d: round(float(x), d)  # noqa: E731
    assert shown["temperature-ratio"] == f"{np.exp((r(v['logit']['cold'], 3) - r(v['logit']['wet'], 3)) / 0.5):.2f}"
    three = [r(v["p"][w], 5) for w in ("cold", "wet", "cheque")]
    assert shown["top-3"] == f"{100 * three[0] / sum(three):.1f}"
    assert shown["loss-money"] == f"{-np.log(r(v['comes']['p'], 5)):.3f}"
    assert shown["running-total"] == f"{r(v['total']['fish'], 5) + r(v['between'], 5) + r(v['p']['money'], 5):.4f}"
