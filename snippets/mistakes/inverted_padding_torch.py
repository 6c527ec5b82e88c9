# --8<-- [start:math]
import torch

batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to 3 tokens
X = torch.tensor([[[1, 0, 1, 0], [0, 1, 0, 1], [1, 1, 1, 1]],
                  [[1, 0, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]]],  # [PAD]: an all-zero embedding
                 dtype=torch.float64)  # (2, 3, 4)
lengths = torch.tensor([3, 2])
real = torch.arange(3)[None, :] < lengths[:, None]  # (2, 3): the site's padding mask, True = may attend

mha = torch.nn.MultiheadAttention(4, 1, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.eye(4, dtype=torch.float64).repeat(3, 1))  # identity projections
    mha.out_proj.weight.copy_(torch.eye(4, dtype=torch.float64))
    _, right = mha(X, X, X, key_padding_mask=~real)  # True = leave this key out: the pad
    _, wrong = mha(X, X, X, key_padding_mask=real)   # WRONG: leaves out every real token
# --8<-- [end:math]


def show(title, M, tokens):
    """M with one labelled row per token, 4 decimals."""
    print(title)
    print("         " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))


for b in range(2):
    show(f'"{" ".join(batch[b])}", key_padding_mask=~real', right[b], batch[b])
    show(f'"{" ".join(batch[b])}", key_padding_mask=real (wrong)', wrong[b], batch[b])
