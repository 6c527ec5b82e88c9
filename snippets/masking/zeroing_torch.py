# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
                  [0, 1, 0, 1],   # cat
                  [1, 1, 1, 1]],  # sat
                 dtype=torch.float64)  # (3, 4); identity projections, so Q = K = V = X
Q = K = V = X

n, d_k = Q.shape
scaled = Q @ K.T / d_k**0.5                                # (3, 3)
allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))  # True where query i may see key j

# The way the page uses: -inf before the softmax.
masked_weights = torch.softmax(scaled.masked_fill(~allowed, float("-inf")), dim=-1)

# The other way: softmax over every key, then set the weights of later keys to 0.
zeroed = torch.softmax(scaled, dim=-1).masked_fill(~allowed, 0.0)
row_sums = zeroed.sum(dim=1)                   # (3,)
renormalized = zeroed / row_sums[:, None]      # each row divided by its sum
zeroed_output = zeroed @ V                     # (3, 4): the outputs of the zeroed weights
# --8<-- [end:math]


def show(title, M):
    print(title)
    print("     " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.4f}" for x in row))
    print()


show("softmax first, later keys set to 0", zeroed)
print("row sums:", ", ".join(f"{t} {s:.4f}" for t, s in zip(tokens, row_sums.tolist(), strict=True)))
print()
show("each row divided by its sum", renormalized)
print("same as -inf before the softmax:", torch.allclose(renormalized, masked_weights, rtol=0, atol=1e-12))
print()
print("outputs of the zeroed weights, not divided:")
for token, row in zip(tokens, zeroed_output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
