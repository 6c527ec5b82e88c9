# --8<-- [start:math]
import base64
import json
from pathlib import Path

import torch

# The trained weights and the model, as in next_word_torch.py: run this in a clone of the repository.
WEIGHTS = "selfattn_ref/language_model.json"


def find(path):
    for folder in [Path.cwd(), *Path.cwd().parents]:
        if (folder / path).is_file():
            return folder / path
    raise SystemExit(f"{path} not found: run this script inside a clone of the site's repository")


def tensor(entry):
    raw = bytearray(base64.b64decode(entry["float32"]))
    return torch.frombuffer(raw, dtype=torch.float32).to(torch.float64).reshape(entry["shape"])


data = json.loads(find(WEIGHTS).read_text(encoding="utf-8"))
vocabulary, num_heads = data["vocabulary"], data["num_heads"]
W = {name: tensor(entry) for name, entry in data["tensors"].items()}
blocks = [{name: tensor(entry) for name, entry in b.items()} for b in data["blocks"]]
n_ctx = W["position_embedding"].shape[0]  # 13: the most words the model reads


def layer_norm(M, gamma, beta, eps=1e-5):
    mu = M.mean(dim=-1, keepdim=True)
    return (M - mu) / torch.sqrt(((M - mu) ** 2).mean(dim=-1, keepdim=True) + eps) * gamma + beta


def model(words):
    """The logits (n, 43) after each of the words: the forward pass."""
    ids = [vocabulary.index(word) for word in words]
    X = W["token_embedding"][ids] + W["position_embedding"][: len(ids)]
    n, d_head = len(ids), X.shape[1] // num_heads
    M = torch.full((n, n), -torch.inf, dtype=torch.float64).triu(1)
    for b in blocks:
        N = layer_norm(X, b["gamma_1"], b["beta_1"])
        Q, K, V = N @ b["W_Q"], N @ b["W_K"], N @ b["W_V"]
        heads = [torch.softmax(Q[:, c] @ K[:, c].T / d_head**0.5 + M, dim=-1) @ V[:, c]
                 for c in (slice(h * d_head, (h + 1) * d_head) for h in range(num_heads))]
        X = X + torch.cat(heads, dim=1) @ b["W_O"]
        N = layer_norm(X, b["gamma_2"], b["beta_2"])
        X = X + torch.relu(N @ b["W_1"] + b["b_1"]) @ b["W_2"] + b["b_2"]
    return layer_norm(X, W["gamma"], W["beta"]) @ W["W_out"] + W["b_out"]


def next_word_probabilities(logits, temperature=1.0, top_k=None):
    """softmax(logits / T); with top_k, over the top_k largest logits only (ties: the smaller id)."""
    scaled = logits / temperature
    if top_k is not None:
        keep = torch.zeros(len(logits), dtype=torch.bool)
        keep[torch.argsort(-logits, stable=True)[:top_k]] = True
        scaled = scaled.masked_fill(~keep, -torch.inf)  # e^-inf = 0: the others get no probability
    return torch.softmax(scaled, dim=-1)


def sample(p, u):
    """The first id whose running total of probability exceeds u, a number from 0 to 1."""
    above = torch.nonzero(torch.cumsum(p, dim=0) > u)
    return int(above[0]) if len(above) else int(torch.nonzero(p)[-1])  # (rounding: the last word)


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
    while len(words) < n_ctx:
        p = next_word_probabilities(model(words)[-1], temperature, top_k)
        i = int(torch.argmax(p)) if numbers is None else sample(p, next(numbers))
        words.append(vocabulary[i])
        if words[-1] == ".":
            break
    return words


prompt = ["she", "took", "the"]
logits = model(prompt)[-1]                        # (43,): after "she took the"
choices = {"T = 0.5": next_word_probabilities(logits, 0.5),
           "T = 1": next_word_probabilities(logits, 1.0),
           "T = 2": next_word_probabilities(logits, 2.0),
           "top-3": next_word_probabilities(logits, 1.0, top_k=3)}
greedy = generate(prompt)
sampled = generate(prompt, seed=1)
# --8<-- [end:math]

print('the next word after "she took the":')
print(" " * 8 + "".join(f"{name:>9}" for name in choices))
for i in torch.argsort(-choices["T = 1"], stable=True)[:8].tolist():
    print(f"{vocabulary[i]:<8}" + "".join(f"{p[i]:9.4f}" for p in choices.values()))
print()
print("greedy:          ", " ".join(greedy))
print("sampled, seed 1: ", " ".join(sampled))
