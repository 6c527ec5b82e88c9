# man bites dog: self-attention step by step, in NumPy.
# Generated from selfattn_ref/examples/man_bites_dog.toml by `make update`.
import numpy as np

tokens = ["man", "bites", "dog"]
X = np.array([
    [1, 0, 1, 0],  # man
    [0, 0, 1, 1],  # bites
    [1, 1, 1, 0]   # dog
], dtype=np.float64)  # (3, 4): one embedding per token

Q = K = V = X  # no projections: each embedding is its own query, key and value
scores = Q @ K.T  # (3, 3): row i holds query i against every key
weights = np.exp(scores - scores.max(axis=1, keepdims=True))  # the row max subtracted
weights = weights / weights.sum(axis=1, keepdims=True)  # softmax: each row sums to 1
output = weights @ V  # (3, 4): row i mixes the values with row i's weights


def fmt(x):
    """x at 3 decimals ("-inf" for a masked score), never "-0"."""
    text = f"{x:.3f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def show(title, M, rows, columns):
    """Print M with a label on every row and column."""
    cells = [[fmt(x) for x in row] for row in M.tolist()]
    width = 2 + max(len(c) for c in [*columns, *(c for row in cells for c in row)])
    left = max(len(r) for r in rows)
    print(title)
    print(" " * left + "".join(f"{c:>{width}}" for c in columns))
    for label, row in zip(rows, cells, strict=True):
        print(f"{label:<{left}}" + "".join(f"{c:>{width}}" for c in row))
    print()


show("scores Q K^T", scores, tokens, tokens)
show("weights (softmax of each row)", weights, tokens, tokens)
show("output", output, tokens, [f"x{j + 1}" for j in range(4)])
