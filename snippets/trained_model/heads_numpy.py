# --8<-- [start:math]
import base64
import json
from pathlib import Path

import numpy as np

# The trained weights, as on the previous page: run this script in a clone of the site's repository.
WEIGHTS = "selfattn_ref/language_model.json"


def find(path):
    for folder in [Path.cwd(), *Path.cwd().parents]:
        if (folder / path).is_file():
            return folder / path
    raise SystemExit(f"{path} not found: run this script inside a clone of the site's repository")


def tensor(entry):
    raw = base64.b64decode(entry["float32"])
    return np.frombuffer(raw, dtype="<f4").astype(np.float64).reshape(entry["shape"])


data = json.loads(find(WEIGHTS).read_text(encoding="utf-8"))
vocabulary, num_heads = data["vocabulary"], data["num_heads"]
W = {name: tensor(entry) for name, entry in data["tensors"].items()}
blocks = [{name: tensor(entry) for name, entry in b.items()} for b in data["blocks"]]


def layer_norm(M, gamma, beta, eps=1e-5):
    mu = M.mean(axis=-1, keepdims=True)
    return (M - mu) / np.sqrt(((M - mu) ** 2).mean(axis=-1, keepdims=True) + eps) * gamma + beta


def softmax(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def model(words, removed=()):
    """The next word's probabilities after each word (n, 43) and every head's weights, one
    (num_heads, n, n) array a block. A head of `removed`, a (block, head) pair counted from 1,
    adds nothing: the rows of its block's W_O that read it are set to 0."""
    ids = [vocabulary.index(word) for word in words]
    X = W["token_embedding"][ids] + W["position_embedding"][: len(ids)]
    n, d_head = len(ids), X.shape[1] // num_heads
    M = np.triu(np.full((n, n), -np.inf), k=1)
    weights = []
    for k, b in enumerate(blocks, 1):
        W_O = b["W_O"].copy()
        for block, head in removed:
            if block == k:
                W_O[(head - 1) * d_head : head * d_head] = 0  # head's rows of W_O
        N = layer_norm(X, b["gamma_1"], b["beta_1"])
        Q, K, V = N @ b["W_Q"], N @ b["W_K"], N @ b["W_V"]
        cols = [slice(h * d_head, (h + 1) * d_head) for h in range(num_heads)]
        A = np.stack([softmax(Q[:, c] @ K[:, c].T / np.sqrt(d_head) + M) for c in cols])
        X = X + np.concatenate([A[h] @ V[:, c] for h, c in enumerate(cols)], axis=1) @ W_O
        N = layer_norm(X, b["gamma_2"], b["beta_2"])
        X = X + np.maximum(0, N @ b["W_1"] + b["b_1"]) @ b["W_2"] + b["b_2"]
        weights.append(A)
    logits = layer_norm(X, W["gamma"], W["beta"]) @ W["W_out"] + W["b_out"]
    return softmax(logits), weights


# "it" with its referent first or second, an animal or a place.
sentences = ["the animal near the street was cold so it", "the street near the animal was cold so it",
             "near the street the animal was cold so it", "near the animal the street was cold so it"]
found = [model(s.split()) for s in sentences]
it_weights = [weights[1][0, -1] for _, weights in found]  # block 2, head 1: the row of "it"

# Head 2.1 removed: what the model says after "bank".
money = "she took the money to the bank".split()
every_head, _ = model(money)
without, _ = model(money, removed=[(2, 1)])
# --8<-- [end:math]


def top(p):
    i = int(np.argmax(p))
    return f"{vocabulary[i]} {p[i]:.4f}"


for sentence, (p, _), row in zip(sentences, found, it_weights, strict=True):
    words = sentence.split()
    print(sentence)
    shown = [f"{w} {x:.3f}" for w, x in zip(words, row, strict=True) if x >= 0.01]
    print("  head 2.1 of 'it', weights of 0.01 or more:", ", ".join(shown))
    print("  next word:", top(p[-1]))
print()
print(" ".join(money))
for name, p in (("every head", every_head), ("without head 2.1", without)):
    on, of = vocabulary.index("on"), vocabulary.index("of")
    print(f"  {name:<17} on {p[-1, on]:.4f}   of {p[-1, of]:.4f}   most probable: {top(p[-1])}")
