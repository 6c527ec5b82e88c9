# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=torch.float64)  # (3, 4)
num_heads, num_kv_heads, d_head = 4, 2, 1
groups = num_heads // num_kv_heads  # query heads per key-value head
Q = X.reshape(3, num_heads, d_head).transpose(0, 1)  # (4, 3, 1): W_Q the identity, one feature a head
K = V = X[:, :2].reshape(3, num_kv_heads, d_head).transpose(0, 1)  # (2, 3, 1): features x1 and x2


def weights(Q, K):
    S = Q @ K.transpose(-2, -1) / d_head**0.5  # (4, 3, 3)
    A = torch.exp(S - S.amax(dim=-1, keepdim=True))
    return A / A.sum(dim=-1, keepdim=True)


right = weights(Q, K.repeat_interleave(groups, dim=0))  # key heads 1, 1, 2, 2
wrong = weights(Q, K.repeat(groups, 1, 1))  # WRONG: key heads 1, 2, 1, 2
# --8<-- [end:math]


def show(title, M):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("       " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<5}" + "".join(f"{x:8.4f}" for x in row))


for head in (1, 2):  # query heads 2 and 3, counted from 0 as 1 and 2: the two the tiling swaps
    show(f"query head {head + 1}, repeated (key head {head // groups + 1})", right[head])
    show(f"query head {head + 1}, tiled (key head {head % num_kv_heads + 1}, wrong)", wrong[head])
print("heads that differ:", [h + 1 for h in range(num_heads) if not torch.allclose(right[h], wrong[h])])
