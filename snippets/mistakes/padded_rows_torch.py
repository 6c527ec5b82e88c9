# --8<-- [start:math]
import torch

tokens = ["cat", "sat", "[PAD]"]          # "cat sat", padded to 3 tokens
X = torch.tensor([[0, 1, 0, 1],   # cat
              [1, 1, 1, 1],   # sat
              [0, 0, 0, 0]],  # [PAD]: an all-zero embedding
             dtype=torch.float64)  # (3, 4); identity projections
real = torch.tensor([True, True, False])      # the padding mask: which tokens are real

S = X @ X.T / X.shape[1] ** 0.5         # (3, 3), the scaled scores
S = S.masked_fill(~real[None, :], -torch.inf)   # no query may attend to the [PAD] key
e = torch.exp(S - S.amax(dim=-1, keepdim=True))
output = (e / e.sum(dim=-1, keepdim=True)) @ X  # (3, 4): the [PAD] query still gets a row

right = output[real].mean(dim=0)         # average over the real tokens only
wrong = output.mean(dim=0)               # WRONG: the [PAD] row joins the average
# --8<-- [end:math]

for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print("sentence vector, real rows only: [" + ", ".join(f"{x:.4f}" for x in right.tolist()) + "]")
print("sentence vector, every row:      [" + ", ".join(f"{x:.4f}" for x in wrong.tolist()) + "]")
