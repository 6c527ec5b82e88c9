# --8<-- [start:math]
import numpy as np  # only for NumPy's seeded generator: the same weights
import torch

tokens = ["bank", "of", "river"]
X = torch.tensor([[1, 0, 1, 0],   # bank
                  [0, 1, 0, 1],   # of
                  [1, 1, 0, 0]],  # river
                 dtype=torch.float64)  # (3, 4), d_model = 4

# 1. Self-attention as on the first page: softmax(X Xᵀ) X.
S = X @ X.T                  # (3, 3) scores
A = torch.softmax(S, dim=1)  # subtracts each row's largest score first
Y = A @ X                    # (3, 4)


# 2. and 3. Add the input back, then normalize each row.
def layer_norm(M, gamma, beta, eps=1e-5):
    mu = M.mean(dim=1, keepdim=True)                 # (3, 1): means
    var = ((M - mu) ** 2).mean(dim=1, keepdim=True)  # (3, 1): ÷ 4
    return (M - mu) / torch.sqrt(var + eps) * gamma + beta


gamma = torch.ones(4, dtype=torch.float64)  # what a layer norm starts with
beta = torch.zeros(4, dtype=torch.float64)
Z = layer_norm(X + Y, gamma, beta)          # (3, 4)

# 4. The feed-forward network, seeded weights standing in for trained ones.
d_ff = 8
rng = np.random.default_rng(42)  # drawn in this order: W_1, b_1, W_2, b_2
W_1 = torch.from_numpy(rng.normal(0, 0.5, (4, d_ff)))
b_1 = torch.from_numpy(rng.normal(0, 0.5, d_ff))
W_2 = torch.from_numpy(rng.normal(0, 0.5, (d_ff, 4)))
b_2 = torch.from_numpy(rng.normal(0, 0.5, 4))
hidden = Z @ W_1 + b_1     # (3, 8)
relu = torch.relu(hidden)  # each negative entry becomes 0
ffn = relu @ W_2 + b_2     # (3, 4): back to d_model

# 5. Add and normalize again: the block's output.
out = layer_norm(Z + ffn, gamma, beta)  # (3, 4), the shape of X
# --8<-- [end:math]

# Check: torch.nn.TransformerEncoderLayer with the same weights: post-norm
# (norm_first=False, the original Transformer's order), no dropout, 1 head.
layer = torch.nn.TransformerEncoderLayer(
    d_model=4, nhead=1, dim_feedforward=d_ff, dropout=0.0,
    norm_first=False, batch_first=True, dtype=torch.float64)
I = torch.eye(4, dtype=torch.float64)
with torch.no_grad():
    # Its attention divides the scores by √d_head = 2: W_Q = 2·I undoes
    # that, and W_K = W_V = W_O = I, so it computes softmax(X Xᵀ) X.
    attn = layer.self_attn
    attn.in_proj_weight.copy_(torch.cat([2 * I, I, I]))  # W_Qᵀ; W_Kᵀ; W_Vᵀ
    attn.in_proj_bias.zero_()
    attn.out_proj.weight.copy_(I)  # W_Oᵀ
    attn.out_proj.bias.zero_()
    # nn.Linear computes x @ weight.T + bias: each matrix goes in transposed.
    layer.linear1.weight.copy_(W_1.T)
    layer.linear1.bias.copy_(b_1)
    layer.linear2.weight.copy_(W_2.T)
    layer.linear2.bias.copy_(b_2)
    # norm1 and norm2 keep their start: weight (γ) 1, bias (β) 0, eps 1e-5.
layer.eval()
with torch.no_grad():
    layer_out = layer(X[None])[0]  # a batch of one sentence: (1, 3, 4) in


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
    var = M.var(dim=1, correction=0)  # divided by 4, as in layer_norm
    return torch.column_stack([M, M.mean(dim=1), var])


dims = ["x1", "x2", "x3", "x4"]
stats = [*dims, "mean", "var"]
show("Y = softmax(X Xᵀ) X", Y, dims)
show("X + Y, its rows' mean and variance", with_stats(X + Y), stats)
show("Z = LayerNorm(X + Y)", Z, dims)
show("max(0, Z W_1 + b_1)", relu, [f"f{k + 1}" for k in range(d_ff)])
show("FFN(Z)", ffn, dims)
show("out = LayerNorm(Z + FFN(Z)), its rows' mean and variance",
     with_stats(out), stats)
print("same as torch.nn.TransformerEncoderLayer:",
      torch.allclose(out, layer_out, rtol=0, atol=1e-12))
