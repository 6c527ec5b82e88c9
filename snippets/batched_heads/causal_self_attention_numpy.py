# --8<-- [start:math]
import numpy as np

vectors = {"The": [1, 0, 1, 0], "cat": [0, 1, 0, 1], "sat": [1, 1, 1, 1],
           "[PAD]": [0, 0, 0, 0]}  # the pad token's embedding: all zeros
batch = [["The", "cat", "sat"],
         ["The", "cat", "[PAD]"]]  # "The cat", padded to the length of the longest sentence
lengths = np.array([3, 2])         # real tokens per sentence
X = np.array([[vectors[t] for t in s] for s in batch], dtype=np.float64)  # (B, T, C) = (2, 3, 4)

# W_Q = W_K = W_V regroup the features: x1 and x3 go to head 1, x2 and x4 to head 2.
# W_O is the identity, so that the output shows each head's part.
W_Q = W_K = W_V = np.array([[1, 0, 0, 0],
                            [0, 0, 1, 0],
                            [0, 1, 0, 0],
                            [0, 0, 0, 1]], dtype=np.float64)
W_O = np.eye(4)
h = 2  # heads, of C // h = 2 entries each


def softmax(S, axis=-1):
    e = np.exp(S - S.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def causal_self_attention(X, W_Q, W_K, W_V, W_O, h, lengths):
    """Every sentence of the batch and every head at once."""
    B, T, C = X.shape  # (B, T, C)
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (B, T, C) each
    q, k, v = (M.reshape(B, T, h, C // h) for M in (Q, K, V))  # (B, T, h, d_head)
    q, k, v = (M.swapaxes(1, 2) for M in (q, k, v))  # (B, h, T, d_head)
    att = q @ k.swapaxes(-2, -1) / (C // h) ** 0.5  # (B, h, T, T)
    causal = np.tril(np.ones((T, T), dtype=bool))  # (T, T): True where query i may see key j
    pad = np.arange(T)[None, :] < lengths[:, None]  # (B, T): True where the token is real
    mask = causal & pad[:, None, None, :]  # (B, 1, T, T)
    att = np.where(mask, att, -np.inf)  # (B, h, T, T)
    att = softmax(att, axis=-1)  # (B, h, T, T)
    y = att @ v  # (B, h, T, d_head)
    y = y.swapaxes(1, 2)  # (B, T, h, d_head)
    y = y.reshape(B, T, C)  # (B, T, C)
    output = y @ W_O  # (B, T, C)
    return output, att


output, weights = causal_self_attention(X, W_Q, W_K, W_V, W_O, h, lengths)
alone = [causal_self_attention(X[b:b + 1, :k], W_Q, W_K, W_V, W_O, h, lengths[b:b + 1])[0]
         for b, k in enumerate(lengths)]  # each sentence on its own, without padding
# --8<-- [end:math]

for b, sentence in enumerate(batch):
    for head in range(h):
        print(f'"{" ".join(sentence)}", head {head + 1}')
        print("         " + "".join(f"{t:>8}" for t in sentence))
        for token, row in zip(sentence, weights[b, head].tolist(), strict=True):
            print(f"  {token:<7}" + "".join(f"{x:8.4f}" for x in row))
    print()
print("output")
for b, sentence in enumerate(batch):
    for token, row in zip(sentence, output[b].tolist(), strict=True):
        print(f"  {b + 1}: {token:<7}[" + ", ".join(f"{x:.4f}" for x in row) + "]")
print()
same = all(np.allclose(output[b, :k], alone[b][0], rtol=0, atol=1e-12) for b, k in enumerate(lengths))
print("real tokens the same as each sentence alone:", same)
