# --8<-- [start:math]
import numpy as np

words = ["The", "cat", "sat"]
X = np.array([[1, 0, 1, 0],   # The
              [0, 1, 0, 1],   # cat
              [1, 1, 1, 1]],  # sat
             dtype=np.float64)  # (n, d_model) = (3, 4): the input at each position
# The two heads of the page on multi-head attention: W_Q = W_K = W_V give head 1 the features
# x1 and x3 and head 2 the features x2 and x4; W_O is the identity.
W_Q = W_K = W_V = np.array([[1, 0, 0, 0],
                            [0, 0, 1, 0],
                            [0, 1, 0, 0],
                            [0, 0, 0, 1]], dtype=np.float64)
W_O = np.eye(4)
h, d_model = 2, 4
d_head = d_model // h


def split(M):  # (t, d_model) -> (h, t, d_head): the heads
    return M.reshape(len(M), h, d_head).swapaxes(0, 1)


def join(M):  # (h, t, d_head) -> (t, d_model): the heads side by side
    return M.swapaxes(0, 1).reshape(M.shape[1], d_model)


def attend(q, K, V, mask=None):  # q: (h, t_q, d_head); K, V: (h, t, d_head)
    S = q @ K.swapaxes(-2, -1) / d_head**0.5  # (h, t_q, t)
    if mask is not None:
        S = np.where(mask, S, -np.inf)
    A = np.exp(S - S.max(axis=-1, keepdims=True))
    A = A / A.sum(axis=-1, keepdims=True)  # (h, t_q, t)
    return A @ V, A  # (h, t_q, d_head), (h, t_q, t)


# Without the cache: step t runs the layer on tokens 1..t and keeps the last row.
no_cache = []
for t in range(1, len(X) + 1):
    Q, K, V = (split(X[:t] @ W) for W in (W_Q, W_K, W_V))  # (h, t, d_head) each
    causal = np.tril(np.ones((t, t), dtype=bool))  # (t, t)
    heads, _ = attend(Q, K, V, causal)
    no_cache.append((join(heads) @ W_O)[-1])  # (d_model,): token t's output

# With the cache: step t computes token t's query, key and value only, and keeps its key and value.
K_cache = np.zeros((h, 0, d_head))  # (h, t, d_head): nothing kept yet
V_cache = np.zeros((h, 0, d_head))
cache, weights = [], []
for t in range(1, len(X) + 1):
    x = X[t - 1 : t]  # (1, d_model): the new token
    q, k, v = (split(x @ W) for W in (W_Q, W_K, W_V))  # (h, 1, d_head) each
    K_cache = np.concatenate([K_cache, k], axis=1)  # (h, t, d_head)
    V_cache = np.concatenate([V_cache, v], axis=1)  # (h, t, d_head)
    heads, A = attend(q, K_cache, V_cache)  # no mask: the cache holds no later token
    cache.append((join(heads) @ W_O)[0])  # (d_model,)
    weights.append(A[:, 0])  # (h, t): the new token's weights in each head

# The multiply-adds of each step's matrix products (an (a, b) @ (b, c) product makes a·b·c):
# with the cache, 3 projections and W_O of one row, and one row of scores and of mixing;
# without it, the same for all t rows, and t rows of t scores.
multiply_adds = [4 * d_model**2 + 2 * t * d_model for t in range(1, len(X) + 1)]
multiply_adds_no_cache = [4 * t * d_model**2 + 2 * t**2 * d_model for t in range(1, len(X) + 1)]
# --8<-- [end:math]

for t, word in enumerate(words, start=1):
    print(f"step {t}: {word}")
    print("  cache holds", ", ".join(words[:t]))
    for head in range(h):
        print(f"  head {head + 1} weights: [" + ", ".join(f"{x:.4f}" for x in weights[t - 1][head]) + "]")
    print("  output, cache:    [" + ", ".join(f"{x:.4f}" for x in cache[t - 1]) + "]")
    print("  output, no cache: [" + ", ".join(f"{x:.4f}" for x in no_cache[t - 1]) + "]")
    print(f"  multiply-adds: {multiply_adds[t - 1]} with the cache, {multiply_adds_no_cache[t - 1]} without")
print()
print("same outputs:", np.allclose(cache, no_cache, rtol=0, atol=1e-12))
print("cache's shape after the last step:", K_cache.shape, "keys and", V_cache.shape, "values")
