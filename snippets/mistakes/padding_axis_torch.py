# --8<-- [start:math]
import torch

batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to 3 tokens
X = torch.tensor([[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
                  [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]]],  # [PAD]: an all-zero embedding
                 dtype=torch.float64)  # (2, 3, 4); identity projections: Q = K = V = X
lengths = torch.tensor([3, 2])
real = torch.arange(3)[None, :] < lengths[:, None]    # (2, 3): True where the token is real
S = X @ X.transpose(-1, -2) / X.shape[-1] ** 0.5      # (2, 3, 3): a row per query, a column per key

right = torch.softmax(S.masked_fill(~real[:, None, :], -torch.inf), dim=-1)  # mask (2, 1, 3): hides a key
wrong = torch.softmax(S.masked_fill(~real[:, :, None], -torch.inf), dim=-1)  # WRONG: mask (2, 3, 1) hides a query
# --8<-- [end:math]


def show(title, M, tokens):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("         " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


show('"The cat [PAD]", the mask on the keys\' axis', right[1], batch[1])
show('"The cat [PAD]", the mask on the queries\' axis (wrong)', wrong[1], batch[1])
