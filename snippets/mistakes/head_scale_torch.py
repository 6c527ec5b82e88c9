# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4); identity projections: Q = K = V = X
d_model, heads = 4, 2
d_k = d_model // heads                    # each head's width: 2
Q1 = K1 = X[:, :d_k]                      # head 1: features 1-2, (3, 2)


def softmax(S, axis=-1):
    e = torch.exp(S - S.amax(dim=axis, keepdim=True))  # the largest score subtracted first
    return e / e.sum(dim=axis, keepdim=True)


right = softmax(Q1 @ K1.T / d_k**0.5)       # right: divide by the head's sqrt(d_k)
wrong = softmax(Q1 @ K1.T / d_model**0.5)   # WRONG: divides by sqrt(d_model)
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


show("head 1, scores / sqrt(d_k) = / sqrt(2)", right)
show("head 1, scores / sqrt(d_model) = / 2 (wrong)", wrong)
