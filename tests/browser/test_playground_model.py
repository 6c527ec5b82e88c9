"""The playground's language-model mode (docs/assets/playground/model_app.js, language_model.js), in Chromium.

- parity: language_model.js, on the weights the page fetches, computes every step of the package's
  NumPy model (selfattn_ref.language_model) and of its PyTorch twin to 1e-5 on seeded sentences
  (drawn from the corpus and from random strings of the vocabulary); the top-k order, mulberry32's
  numbers, the sampled ids and the generated words are exactly the package's;
- words: the words read, the nearest words to an unknown one and the messages, the package's;
- the mode: loaded only when it is opened, its tables the package's numbers at the rounding shown,
  its state in the address, a typed text shown as typed, the keyboard.

One page for the module (test_playground's shared page): the parity is one evaluation in it.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import test_playground
import torch
from test_playground import evaluate_json

from selfattn_ref import corpus
from selfattn_ref import language_model as lm
from selfattn_ref.torch import language_model as tlm

pytestmark = pytest.mark.browser

# test_playground's fixtures: one page shared by the module, put back to a fresh load's state before each test.
context = test_playground.context
shared_page = test_playground.shared_page
pg = test_playground.pg

TOL = 1e-5  # the bar; the differences measured are some 1e-14
V = corpus.VOCABULARY
MODULE = "assets/playground/language_model.js"
WEIGHTS = "generated/playground/language_model.json"
SEEDS = [0, 1, 2, 53, 2**32 - 1]
TOP_K = [[1, None], [0.5, 3], [2, 5], [1, 43]]  # (temperature, top_k)


def sentences(seed: int = 53, count: int = 60) -> list[list[str]]:
    """Half of them sentences of the corpus, cut after a seeded number of words; half random strings of
    the vocabulary's words, of 1 to n_ctx words; both lengths' ends among them."""
    rng = np.random.default_rng(seed)
    drawn = [list(s.words) for s in corpus.generate(count // 2, seed=seed)]
    out = [s[: int(rng.integers(1, len(s) + 1))] for s in drawn]
    out += [
        [V[i] for i in rng.integers(0, len(V), int(rng.integers(1, corpus.CONTEXT + 1)))] for _ in range(count // 2)
    ]
    out += [["."], ["bank"], [V[i] for i in rng.integers(0, len(V), corpus.CONTEXT)], drawn[0][: corpus.CONTEXT]]
    return out


PARITY_JS = """async ([module, weights, cases, ties, streams, draws, runs]) => {
  const lm = await import(module);
  const model = lm.readWeights(await (await fetch(weights)).json());
  const last = (rows) => rows[rows.length - 1];
  const steps = cases.map((words) => {
    const s = lm.forward(model, words);
    return {
      embeddings: s.embeddings, positions: s.positions, X: s.X, final: s.final, logits: s.logits,
      probabilities: s.probabilities,
      blocks: s.blocks.map((b) => ({
        norm_1: b.norm_1, weights: b.heads.heads.map((h) => h.weights), attention: b.attention,
        sum_1: b.sum_1, norm_2: b.norm_2, hidden: b.hidden, relu: b.relu, ffn: b.ffn, output: b.output,
      })),
      topk: TOP_K.map(([T, k]) => lm.nextWordProbabilities(last(s.logits), T, k)),
      ranked: lm.ranked(last(s.probabilities), model.vocabulary, 5).map((r) => r.word),
    };
  });
  const stream = (seed, n) => {
    const r = new lm.SeededRandom(seed);
    return Array.from({length: n}, () => r.uniform());
  };
  const all = (logits) => lm.nextWordProbabilities(logits);
  return {
    vocabulary: model.vocabulary, context: model.context,
    steps,
    ties: ties.map(([logits, k]) => lm.nextWordProbabilities(logits, 1, k)),
    tiesRanked: ties.map(([logits]) => lm.ranked(all(logits), model.vocabulary, 43).map((r) => r.id)),
    streams: streams.map(([seed, n]) => stream(seed, n)),
    draws: draws.map(([p, u]) => lm.sample(p, u)),
    greedy: draws.map(([p]) => lm.greedy(p)),
    runs: runs.map(([words, temperature, seed]) => lm.generate(model, words, {temperature, seed})
      .map((g) => ({word: g.word, u: g.u, p: g.probabilities}))),
  };
}""".replace("TOP_K", json.dumps(TOP_K))


def close(name: str, got, want, where: str, tol: float = TOL) -> float:
    got = np.asarray(got, dtype=float)
    want = np.asarray(want, dtype=float)
    assert got.shape == want.shape, f"{where}: {name} has shape {got.shape}, the package's {want.shape}"
    err = float(np.abs(got - want).max())
    assert err <= tol, f"{where}: {name} differs by {err:.3g}"
    return err


def test_the_model_in_javascript_equals_numpy_and_pytorch(pg, site):
    """Every step of language_model.js against NumPy, the logits, probabilities and heads' weights against
    PyTorch's torch.nn model, on 64 seeded sentences; top-k (ties to the smaller id), ranked(), mulberry32,
    sample(), greedy() and generate() exactly as the package's."""
    page, watch = pg
    cases = sentences()
    assert len(cases) >= 50
    rng = np.random.default_rng(7)
    # Logits with ties (the same largest value several times): top-k keeps the smaller ids.
    ties = [
        ([1.0, 1.0, 1.0] + [0.0] * (len(V) - 3), 2),
        ([0.0] * len(V), 5),
        (rng.integers(0, 3, len(V)).astype(float).tolist(), 7),
    ]
    streams = [(seed, 500) for seed in SEEDS]
    # Draws: random distributions and numbers u, and u past the last running total (1 - 2^-53 on a sum
    # that rounding leaves under it): the last word with a probability above 0.
    draws = []
    for _ in range(200):
        p = rng.dirichlet(np.full(len(V), 0.3))
        draws.append((p.tolist(), float(rng.random())))
    tenth = [0.0] * (len(V) - 10) + [0.1] * 10  # adds up to 0.9999999999999999
    draws.append((tenth, 1 - 2**-53))
    runs = [(case, T, seed) for case in cases[:8] for T, seed in [(1, 1), (0.5, 53), (2, 2**32 - 1), (1, None)]]
    runs = [r for r in runs if len(r[0]) < corpus.CONTEXT]
    js = evaluate_json(
        page, PARITY_JS, [site.base_url + MODULE, site.base_url + WEIGHTS, cases, ties, streams, draws, runs]
    )

    assert js["vocabulary"] == list(V) and js["context"] == corpus.CONTEXT
    torch_model = tlm.model()
    worst = {"numpy": 0.0, "torch": 0.0}
    for i, (words, got) in enumerate(zip(cases, js["steps"], strict=True)):
        where = f"sentence {i} {' '.join(words)!r}"
        st = lm.forward(words)
        for name in ("embeddings", "positions", "X", "final", "logits", "probabilities"):
            worst["numpy"] = max(worst["numpy"], close(name, got[name], getattr(st, name), where))
        for b, (gb, sb) in enumerate(zip(got["blocks"], st.blocks, strict=True), 1):
            for name in ("norm_1", "weights", "attention", "sum_1", "norm_2", "hidden", "relu", "ffn", "output"):
                worst["numpy"] = max(worst["numpy"], close(f"block {b} {name}", gb[name], getattr(sb, name), where))
        with torch.no_grad():
            *_, blocks, _, logits = torch_model.steps(torch.from_numpy(corpus.encode(words)))
        worst["torch"] = max(worst["torch"], close("logits (torch)", got["logits"], logits.numpy(), where))
        probabilities = torch.softmax(logits, dim=-1).numpy()
        worst["torch"] = max(worst["torch"], close("probabilities (torch)", got["probabilities"], probabilities, where))
        for b, (gb, tb) in enumerate(zip(got["blocks"], blocks, strict=True), 1):
            worst["torch"] = max(
                worst["torch"], close(f"block {b} weights (torch)", gb["weights"], tb.weights.numpy(), where)
            )
        last = st.logits[-1]
        for (T, k), p in zip(TOP_K, got["topk"], strict=True):
            want = lm.next_word_probabilities(last, T, k)
            assert [x > 0 for x in p] == [x > 0 for x in want], f"{where}: top-{k} keeps other words"
            close(f"top-{k} at T = {T}", p, want, where, 1e-12)
        assert got["ranked"] == [w for w, _ in lm.ranked(st.probabilities[-1], 5)], where
    for (logits, k), p, order in zip(ties, js["ties"], js["tiesRanked"], strict=True):
        want = lm.next_word_probabilities(logits, 1, k)
        assert np.flatnonzero(np.asarray(p) > 0).tolist() == np.flatnonzero(want > 0).tolist(), f"ties, top-{k}"
        p_all = lm.next_word_probabilities(logits)
        assert [V[i] for i in order] == [w for w, _ in lm.ranked(p_all, len(V))]
    for (seed, n), got in zip(streams, js["streams"], strict=True):
        rng_ = corpus.SeededRandom(seed)
        assert got == [rng_.uniform() for _ in range(n)], f"mulberry32, seed {seed}"
    assert js["draws"] == [lm.sample(p, u) for p, u in draws]
    assert js["draws"][-1] == len(V) - 1  # u past the last total: the last word with p > 0
    assert js["greedy"] == [lm.greedy(p) for p, _ in draws]
    assert len(runs) >= 20
    for (words, T, seed), got in zip(runs, js["runs"], strict=True):
        want = lm.generate(words, temperature=T, seed=seed)
        where = f"generate({' '.join(words)!r}, temperature={T}, seed={seed})"
        assert [g["word"] for g in got] == [s.word for s in want], where
        assert [g["u"] for g in got] == [s.u for s in want], where
        for g, s in zip(got, want, strict=True):
            close("probabilities", g["p"], s.probabilities, where, 1e-12)
    print(f"largest difference: NumPy {worst['numpy']:.2g}, PyTorch {worst['torch']:.2g}")
    watch.check()
