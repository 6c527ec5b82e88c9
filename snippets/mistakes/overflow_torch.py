# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4); identity projections: Q = K = V = X
big = 30 * X                              # larger embeddings, (3, 4)
S = big @ big.T / big.shape[1] ** 0.5     # (3, 3), scaled scores from 0 to 1800

right = torch.exp(S - S.amax(dim=-1, keepdim=True))   # the row's largest score subtracted first
right = right / right.sum(dim=-1, keepdim=True)
wrong = torch.exp(S) / torch.exp(S).sum(dim=-1, keepdim=True)  # WRONG: e^900 = inf, inf / inf = nan
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


print("largest scaled score:", S.max().item())
show("softmax with the max subtracted", right)
show("softmax without it (wrong)", wrong)
