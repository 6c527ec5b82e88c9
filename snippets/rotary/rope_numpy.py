# --8<-- [start:math]
import numpy as np

vectors = {"dog": [1, 1, 1, 0], "bites": [0, 0, 1, 1], "man": [1, 0, 1, 0]}


def rope(X, positions, base=10000.0):
    """Each row of X (n, d) turned for its position: pair p, entries 2p and 2p + 1 (from 0),
    by the angle pos / base^(2p/d)."""
    d = X.shape[-1]
    theta = positions[:, None] / base ** (np.arange(0, d, 2) / d)  # (n, d/2): one angle per pair
    cos, sin = np.cos(theta), np.sin(theta)  # (n, d/2)
    a, b = X[:, 0::2], X[:, 1::2]  # (n, d/2): each pair's first entry and its second
    turned = np.empty_like(X)  # (n, d)
    turned[:, 0::2] = a * cos - b * sin
    turned[:, 1::2] = a * sin + b * cos
    return turned


def attention_with_rope(words):
    """Self-attention without projections or scaling, as on the page on positional encoding, with the
    queries and keys turned for their positions 0, 1, 2, ...; the values are not turned."""
    X = np.array([vectors[w] for w in words], dtype=np.float64)  # (n, d)
    R = rope(X, np.arange(len(words)))  # (n, d): the queries, and the keys
    S = R @ R.T  # (n, n)
    e = np.exp(S - S.max(axis=1, keepdims=True))
    weights = e / e.sum(axis=1, keepdims=True)  # (n, n)
    return R, S, weights, weights @ X


# The score of dog's query at position a with man's key at position a + r, for 64 starts a.
dog = np.array([vectors["dog"]], dtype=np.float64)  # (1, d)
man = np.array([vectors["man"]], dtype=np.float64)
starts, distances = np.arange(32, 96), np.arange(-2, 3)
grid = np.array([[(rope(dog, np.array([a])) @ rope(man, np.array([a + r])).T).item() for r in distances]
                 for a in starts])  # (64, 5): a row per start, a column per distance
# --8<-- [end:math]


def show(title, M, rows, cols):
    print(title)
    print("          " + "".join(f"{c:>9}" for c in cols))
    for label, row in zip(rows, M.tolist(), strict=True):
        print(f"  {label:<8}" + "".join(f"{x:9.4f}" for x in row))


for words in (["dog", "bites", "man"], ["man", "bites", "dog"]):
    R, S, weights, output = attention_with_rope(words)
    print(f'"{" ".join(words)}"')
    show("turned", R, words, ["x1", "x2", "x3", "x4"])
    show("scores", S, words, words)
    show("weights", weights, words, words)
    print("  average output [" + ", ".join(f"{x:.4f}" for x in output.mean(axis=0)) + "]")
    print()
show("dog at a, man at a + r", grid[[0, 1, 32, 63]], [f"a = {a}" for a in starts[[0, 1, 32, 63]]],
     [f"r = {r}" for r in distances])
print("each column the same for all 64 starts, to 1e-12:", bool(np.ptp(grid, axis=0).max() < 1e-12))
