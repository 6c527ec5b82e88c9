# --8<-- [start:math]
import numpy as np

tokens = ["bank", "of", "river"]
X = np.array([[1.0, 0.0, 1.0, 0.0],   # bank
              [0.0, 1.0, 0.0, 1.0],   # of
              [1.0, 1.0, 0.0, 0.0]])  # river: (3, 4), d_model = 4

# 1. Self-attention as on the first page: softmax(X Xᵀ) X.
S = X @ X.T                                   # (3, 3) scores
A = np.exp(S - S.max(axis=1, keepdims=True))  # minus each row's largest
A = A / A.sum(axis=1, keepdims=True)          # softmax of each row
Y = A @ X                                     # (3, 4)


# 2. and 3. Add the input back, then normalize each row.
def layer_norm(M, gamma, beta, eps=1e-5):
    mu = M.mean(axis=1, keepdims=True)                 # (3, 1): means
    var = ((M - mu) ** 2).mean(axis=1, keepdims=True)  # (3, 1): ÷ 4
    return (M - mu) / np.sqrt(var + eps) * gamma + beta


gamma, beta = np.ones(4), np.zeros(4)  # what a layer norm starts with
Z = layer_norm(X + Y, gamma, beta)     # (3, 4)

# 4. The feed-forward network, seeded weights standing in for trained ones.
d_ff = 8
rng = np.random.default_rng(42)
W_1 = rng.normal(0, 0.5, (4, d_ff))  # drawn in this order: W_1, b_1, W_2, b_2
b_1 = rng.normal(0, 0.5, d_ff)
W_2 = rng.normal(0, 0.5, (d_ff, 4))
b_2 = rng.normal(0, 0.5, 4)
hidden = Z @ W_1 + b_1        # (3, 8)
relu = np.maximum(0, hidden)  # each negative entry becomes 0
ffn = relu @ W_2 + b_2        # (3, 4): back to d_model

# 5. Add and normalize again: the block's output.
out = layer_norm(Z + ffn, gamma, beta)  # (3, 4), the shape of X
# --8<-- [end:math]


def fmt(x):
    """x at 3 decimals, without a "-0.000" for a tiny negative number."""
    return f"{x:.3f}".replace("-0.000", "0.000")


def show(title, M, columns):
    """Print a matrix with a row per token and labelled columns."""
    print(title)
    print("       " + "".join(f"{c:>8}" for c in columns))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<7}" + "".join(f"{fmt(x):>8}" for x in row))
    print()


def with_stats(M):
    """M with the mean and the variance of each row beside it."""
    return np.column_stack([M, M.mean(axis=1), M.var(axis=1)])


dims = ["x1", "x2", "x3", "x4"]
stats = [*dims, "mean", "var"]
show("Y = softmax(X Xᵀ) X", Y, dims)
show("X + Y, its rows' mean and variance", with_stats(X + Y), stats)
show("Z = LayerNorm(X + Y)", Z, dims)
show("max(0, Z W_1 + b_1)", relu, [f"f{k + 1}" for k in range(d_ff)])
show("FFN(Z)", ffn, dims)
show("out = LayerNorm(Z + FFN(Z)), its rows' mean and variance",
     with_stats(out), stats)
