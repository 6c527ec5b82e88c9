# --8<-- [start:math]
import torch

tokens = ["The", "cat", "sat"]
X = torch.tensor([[1, 0, 1, 0],   # The
                  [0, 1, 0, 1],   # cat
                  [1, 1, 1, 1]],  # sat
                 dtype=torch.float64)  # (3, 4)

# W_Q = W_K = W_V regroup the features: x1 and x3 go to columns 1-2 (head 1),
# x2 and x4 to columns 3-4 (head 2). W_O is the identity.
W_Q = W_K = W_V = torch.tensor([[1, 0, 0, 0],
                                [0, 0, 1, 0],
                                [0, 1, 0, 0],
                                [0, 0, 0, 1]], dtype=torch.float64)
W_O = torch.eye(4, dtype=torch.float64)
num_heads = 2
d_head = X.shape[1] // num_heads  # 2

Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (3, 4) each

# One head at a time: each takes its own d_head columns of Q, K and V.
heads, weights = [], []
for head in range(num_heads):
    cols = slice(head * d_head, (head + 1) * d_head)  # head 1: columns 1-2, head 2: 3-4
    Q_h, K_h, V_h = Q[:, cols], K[:, cols], V[:, cols]  # (3, 2) each
    A = torch.softmax(Q_h @ K_h.T / d_head**0.5, dim=-1)  # (3, 3), scaled by √2
    weights.append(A)
    heads.append(A @ V_h)                               # (3, 2)
weights = torch.stack(weights)           # (2, 3, 3): one table of weights per head
concat = torch.cat(heads, dim=1)         # (3, 4): head 1's columns, then head 2's
output = concat @ W_O                    # (3, 4)
# --8<-- [end:math]

# Check: all heads at once, with the heads as an axis of their own, as libraries do it.
Qh, Kh, Vh = (M.reshape(3, num_heads, d_head).transpose(0, 1) for M in (Q, K, V))  # (2, 3, 2)
batched = torch.softmax(Qh @ Kh.transpose(1, 2) / d_head**0.5, dim=-1) @ Vh          # (2, 3, 2)
batched = batched.transpose(0, 1).reshape(3, 4) @ W_O                               # (3, 4)

# Check: torch.nn.MultiheadAttention with the same weights. nn.Linear computes x @ weight.T,
# so each of our matrices goes in transposed.
mha = torch.nn.MultiheadAttention(4, num_heads, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():
    mha.in_proj_weight.copy_(torch.cat([W_Q.T, W_K.T, W_V.T]))  # (12, 4)
    mha.out_proj.weight.copy_(W_O.T)
batch = X[None]  # (1, 3, 4): a batch of one sentence
mha_output, mha_weights = mha(batch, batch, batch, average_attn_weights=False)  # (1, 3, 4), (1, 2, 3, 3)

for head in range(num_heads):
    print(f"head {head + 1} weights (columns {head * d_head + 1}-{(head + 1) * d_head})")
    print("     " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, weights[head].tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.4f}" for x in row))
    print()
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
print("same as all heads at once:", torch.allclose(output, batched, rtol=0, atol=1e-12))
print("same as torch.nn.MultiheadAttention:",
      torch.allclose(output, mha_output[0], rtol=0, atol=1e-12)
      and torch.allclose(weights, mha_weights[0], rtol=0, atol=1e-12))
