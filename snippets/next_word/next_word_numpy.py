# --8<-- [start:math]
import base64
import json
from pathlib import Path

import numpy as np

# The trained weights: a file of the site's repository. Run this script in a clone of it
# (anywhere inside it: find looks in the folder it runs in, then in each folder above).
WEIGHTS = "selfattn_ref/language_model.json"


def find(path):
    for folder in [Path.cwd(), *Path.cwd().parents]:
        if (folder / path).is_file():
            return folder / path
    raise SystemExit(f"{path} not found: run this script inside a clone of the site's repository")


def tensor(entry):
    """One weight matrix of the file: its float32 numbers, in base64, as float64."""
    raw = base64.b64decode(entry["float32"])
    return np.frombuffer(raw, dtype="<f4").astype(np.float64).reshape(entry["shape"])


data = json.loads(find(WEIGHTS).read_text(encoding="utf-8"))
vocabulary = data["vocabulary"]  # 43 words: a word's id is its place in this list
num_heads = data["num_heads"]    # 2 heads in each block
W = {name: tensor(entry) for name, entry in data["tensors"].items()}
blocks = [{name: tensor(entry) for name, entry in b.items()} for b in data["blocks"]]


def layer_norm(M, gamma, beta, eps=1e-5):
    mu = M.mean(axis=-1, keepdims=True)
    var = ((M - mu) ** 2).mean(axis=-1, keepdims=True)
    return (M - mu) / np.sqrt(var + eps) * gamma + beta


def softmax(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def block(X, b):
    """A pre-norm decoder block: normalize, causal multi-head attention, add; normalize,
    feed-forward network, add. Returns its output and each head's weights."""
    n, d_model = X.shape
    d_head = d_model // num_heads                  # 8
    N = layer_norm(X, b["gamma_1"], b["beta_1"])
    Q, K, V = N @ b["W_Q"], N @ b["W_K"], N @ b["W_V"]  # (n, 16) each
    M = np.triu(np.full((n, n), -np.inf), k=1)    # the causal mask: -inf above the diagonal
    heads, weights = [], []
    for h in range(num_heads):
        cols = slice(h * d_head, (h + 1) * d_head)  # head h's 8 columns
        A = softmax(Q[:, cols] @ K[:, cols].T / np.sqrt(d_head) + M)  # (n, n)
        heads.append(A @ V[:, cols])
        weights.append(A)
    Z = X + np.concatenate(heads, axis=1) @ b["W_O"]  # add the input back
    N = layer_norm(Z, b["gamma_2"], b["beta_2"])
    ffn = np.maximum(0, N @ b["W_1"] + b["b_1"]) @ b["W_2"] + b["b_2"]
    return Z + ffn, np.stack(weights)


words = "she took the money to the bank".split()
ids = [vocabulary.index(word) for word in words]  # words to ids
X = W["token_embedding"][ids] + W["position_embedding"][: len(ids)]  # (7, 16)
H, weights = X, []
for b in blocks:
    H, A = block(H, b)
    weights.append(A)                              # (2, 7, 7) per block
final = layer_norm(H, W["gamma"], W["beta"])      # the final layer normalization
logits = final @ W["W_out"] + W["b_out"]          # (7, 43): one logit per word of the vocabulary
probabilities = softmax(logits)                   # row i: the next word after words 1 to i
# --8<-- [end:math]

print("ids:", ", ".join(f"{word} {i}" for word, i in zip(words, ids, strict=True)))
print()
print(f'where "{words[-1]}" puts its weight, head by head:')
print(" " * 17 + "".join(f"{word:>7}" for word in words))
for k, A in enumerate(weights, 1):
    for h in range(num_heads):
        print(f"block {k}, head {h + 1}  " + "".join(f"{x:7.3f}" for x in A[h, -1]))
print()
print(f'the next word after "{" ".join(words)}":')
p = probabilities[-1]
for i in np.argsort(-p, kind="stable")[:5]:
    print(f"  {vocabulary[i]:<8} logit {logits[-1, i]:7.3f}   probability {p[i]:.4f}")
print()
print("each row's most probable next word:")
for k in range(len(words)):
    best = int(np.argmax(probabilities[k]))
    read = " ".join(words[: k + 1])
    print(f"  {read:<31} -> {vocabulary[best]:<8} {probabilities[k, best]:.4f}")
