# The cat sat, causal mask: self-attention step by step, in PyTorch.
# Generated from selfattn_ref/examples/the_cat_sat_causal.toml by `make update`.
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([
    [1, 0, 1, 0],  # The
    [0, 1, 0, 1],  # cat
    [1, 1, 1, 1]   # sat
], dtype=torch.float64)  # (3, 4): one embedding per token

W_Q = W_K = W_V = torch.eye(4, dtype=torch.float64)  # identity projections
Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (3, 4) queries and keys, (3, 4) values
scores = Q @ K.T  # (3, 3): row i holds query i against every key
scaled = scores / K.shape[1] ** 0.5  # divided by √d_k, d_k = 4
mask = torch.tril(torch.ones(3, 3, dtype=torch.bool))  # token i may attend to tokens 0..i
scaled = scaled.masked_fill(~mask, float("-inf"))  # e^-inf = 0: no weight on later tokens
weights = torch.softmax(scaled, dim=1)  # each row sums to 1
output = weights @ V  # (3, 4): row i mixes the values with row i's weights


def fmt(x):
    """x at 4 decimals ("-inf" for a masked score), never "-0"."""
    text = f"{x:.4f}"
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


show("Q = X W_Q", Q, tokens, [f"c{j + 1}" for j in range(4)])
show("K = X W_K", K, tokens, [f"c{j + 1}" for j in range(4)])
show("V = X W_V", V, tokens, [f"c{j + 1}" for j in range(4)])
show("scores Q K^T", scores, tokens, tokens)
show("scaled by sqrt(d_k)", scaled, tokens, tokens)
show("weights (softmax of each row)", weights, tokens, tokens)
show("output", output, tokens, [f"c{j + 1}" for j in range(4)])
