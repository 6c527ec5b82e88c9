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


def model(words):
    """Every step for the words: their ids, X, each block's head weights, the last block's
    output, the final layer normalization, and the logits (n, 43)."""
    ids = [vocabulary.index(word) for word in words]  # words to ids
    X = W["token_embedding"][ids] + W["position_embedding"][: len(ids)]  # (n, 16)
    H, weights = X, []
    for b in blocks:
        H, A = block(H, b)
        weights.append(A)                          # (2, n, n) per block
    final = layer_norm(H, W["gamma"], W["beta"])  # the final layer normalization
    return ids, X, weights, H, final, final @ W["W_out"] + W["b_out"]  # logits: one per word


words = "she took the money to the bank".split()
ids, X, weights, H, final, logits = model(words)   # logits: (7, 43)
probabilities = softmax(logits)                   # row i: the next word after words 1 to i


def next_word_probabilities(logits, temperature=1.0, top_k=None):
    """softmax(logits / T); with top_k, over the top_k largest logits only (ties: the smaller id)."""
    scaled = logits / temperature
    if top_k is not None:
        keep = np.zeros(len(logits), dtype=bool)
        keep[np.argsort(-logits, kind="stable")[:top_k]] = True
        scaled = np.where(keep, scaled, -np.inf)   # e^-inf = 0: the others get no probability
    return softmax(scaled)


def sample(p, u):
    """The first id whose running total of probability exceeds u, a number from 0 to 1."""
    above = np.flatnonzero(np.cumsum(p) > u)
    return int(above[0]) if above.size else int(np.flatnonzero(p)[-1])  # (rounding: the last word)


def seeded_numbers(seed):
    """Numbers in [0, 1) from a seed: mulberry32, as the site's package draws them."""
    state = seed
    while True:
        state = (state + 0x6D2B79F5) & 0xFFFFFFFF
        t = ((state ^ (state >> 15)) * (state | 1)) & 0xFFFFFFFF
        t ^= (t + (((t ^ (t >> 7)) * (t | 61)) & 0xFFFFFFFF)) & 0xFFFFFFFF
        yield ((t ^ (t >> 14)) & 0xFFFFFFFF) / 2**32


def generate(words, temperature=1.0, top_k=None, seed=None):
    """Add one word at a time: greedy without a seed, sampled with one; stop after "."."""
    words, numbers = list(words), None if seed is None else seeded_numbers(seed)
    while len(words) < len(W["position_embedding"]):  # n_ctx = 13 positions at most
        p = next_word_probabilities(model(words)[-1][-1], temperature, top_k)
        i = int(np.argmax(p)) if numbers is None else sample(p, next(numbers))
        words.append(vocabulary[i])
        if words[-1] == ".":
            break
    return words


prompt = words[:3]                                # "she took the": row 3 of the logits
choices = {f"T = {T:g}": next_word_probabilities(logits[2], T) for T in (0.5, 1.0, 2.0)}
choices["top-3"] = next_word_probabilities(logits[2], 1.0, top_k=3)
greedy = generate(prompt)
sampled = generate(prompt, seed=1)
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
print()
print('the next word after "she took the":')
print(" " * 8 + "".join(f"{name:>9}" for name in choices))
for i in np.argsort(-choices["T = 1"], kind="stable")[:8]:
    print(f"{vocabulary[i]:<8}" + "".join(f"{p[i]:9.4f}" for p in choices.values()))
print()
print("greedy:          ", " ".join(greedy))
print("sampled, seed 1: ", " ".join(sampled))
