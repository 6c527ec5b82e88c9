# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4); identity projections: Q = K = V = X
n, d_k = X.shape
S = X @ X.T / d_k**0.5                # (3, 3), the scaled scores


def softmax(S, axis=-1):
    e = torch.exp(S - S.amax(dim=axis, keepdim=True))  # the largest score subtracted first
    return e / e.sum(dim=axis, keepdim=True)


right = softmax(S.masked_fill(~torch.ones(n, n, dtype=torch.bool).tril(), -torch.inf))  # on and below the diagonal
wrong = softmax(S.masked_fill(~torch.ones(n, n, dtype=torch.bool).triu(), -torch.inf))  # WRONG: triu sees the future
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("causal mask with tril", right)
show("mask with triu (wrong)", wrong)
