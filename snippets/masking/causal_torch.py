# --8<-- [start:math]
import torch
import torch.nn.functional as F

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
                  [0, 1, 0, 1],   # cat
                  [1, 1, 1, 1]],  # sat
                 dtype=torch.float64)  # (3, 4); identity projections, so Q = K = V = X
Q = K = V = X

n, d_k = Q.shape
scaled = Q @ K.T / d_k**0.5              # (3, 3), the scaled scores

# The causal mask as a matrix to add: 0 where query i may see key j (j <= i), -inf above.
allowed = torch.tril(torch.ones(n, n, dtype=torch.bool))  # (3, 3), True on and below the diagonal
M = torch.zeros(n, n, dtype=torch.float64).masked_fill(~allowed, float("-inf"))
masked = scaled + M

weights = torch.softmax(masked, dim=-1)  # (3, 3); e^-inf = 0, so a masked key gets weight 0
output = weights @ V                     # (3, 4)
# --8<-- [end:math]

# Check: token i attending to tokens 0..i only, with the later ones left out altogether.
prefix = torch.stack([torch.softmax(scaled[i, : i + 1], dim=-1) @ V[: i + 1] for i in range(n)])
# Check: PyTorch's own attention with its built-in causal mask.
builtin = F.scaled_dot_product_attention(Q, K, V, is_causal=True)


def show(title, M):
    """Print M with one labelled row per token (4 decimals unless all whole)."""
    finite = M[M.isfinite()]  # leave out the -inf entries
    decimals = 0 if (finite == finite.round()).all() else 4
    print(title)
    print("     " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, M.tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.{decimals}f}" for x in row))
    print()


show("M (0 = may attend, -inf = hidden)", M)
show("scaled scores + M", masked)
show("weights (softmax of each row)", weights)
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
print("same as attending to each prefix alone:", torch.allclose(output, prefix, rtol=0, atol=1e-12))
print("same as F.scaled_dot_product_attention(..., is_causal=True):",
      torch.allclose(output, builtin, rtol=0, atol=1e-12))
