# --8<-- [start:math]
import numpy as np

tokens = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (3, 4)

# W_Q = W_K = W_V regroup the features: x1 and x3 go to columns 1-2 (head 1),
# x2 and x4 to columns 3-4 (head 2). W_O is the identity.
W_Q = W_K = W_V = np.array([[1, 0, 0, 0],
                            [0, 0, 1, 0],
                            [0, 1, 0, 0],
                            [0, 0, 0, 1]], dtype=np.float64)
W_O = np.eye(4)
num_heads = 2
d_head = X.shape[1] // num_heads  # 2

Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (3, 4) each


def softmax(S):
    e = np.exp(S - S.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


# One head at a time: each takes its own d_head columns of Q, K and V.
heads, weights = [], []
for head in range(num_heads):
    cols = slice(head * d_head, (head + 1) * d_head)  # head 1: columns 1-2, head 2: 3-4
    Q_h, K_h, V_h = Q[:, cols], K[:, cols], V[:, cols]  # (3, 2) each
    A = softmax(Q_h @ K_h.T / np.sqrt(d_head))          # (3, 3), scaled by √2
    weights.append(A)
    heads.append(A @ V_h)                               # (3, 2)
weights = np.stack(weights)              # (2, 3, 3): one table of weights per head
concat = np.concatenate(heads, axis=1)   # (3, 4): head 1's columns, then head 2's
output = concat @ W_O                    # (3, 4)
# --8<-- [end:math]

# Check: all heads at once, with the heads as an axis of their own, as libraries do it.
Qh, Kh, Vh = (M.reshape(3, num_heads, d_head).transpose(1, 0, 2) for M in (Q, K, V))  # (2, 3, 2)
batched = softmax(Qh @ Kh.transpose(0, 2, 1) / np.sqrt(d_head)) @ Vh                   # (2, 3, 2)
batched = batched.transpose(1, 0, 2).reshape(3, 4) @ W_O                              # (3, 4)

for head in range(num_heads):
    print(f"head {head + 1} weights (columns {head * d_head + 1}-{(head + 1) * d_head})")
    print("     " + "".join(f"{t:>8}" for t in tokens))
    for token, row in zip(tokens, weights[head].tolist(), strict=True):
        print(f"{token:<5}" + "".join(f"{x:8.4f}" for x in row))
    print()
for token, row in zip(tokens, output.tolist(), strict=True):
    print(f"Output({token}) = [" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
print("same as all heads at once:", np.allclose(output, batched, rtol=0, atol=1e-12))
